// cpp-cuda-floor: the platform's per-call floor, not a way to call the model. Each call
// goes as cpp-cuda-kernel's does (its samples into a pinned buffer, then to the device,
// a launch with the same arguments and grid, the result back to a pinned buffer, on one
// stream, a synchronize), but the kernel is empty (mlp_floor) and the copy back reads the
// input's leading bytes. So it computes nothing, and the harness checks it by its own
// rule: each call's outputs are its inputs' first bytes (registry role gpu_floor).
#include "callbench/driver_main.hpp"
#include "cuda_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::cuda::StreamModel(options, callbench::cuda::Work::floor,
                                        "pinned copy in + empty kernel + pinned copy out of the "
                                        "input's first bytes on one stream + synchronize, each "
                                        "call");
  };
  return callbench::driver_main(argc, argv, "cpp-cuda-floor", load);
}
