// cpp-cuda-kernel: our MLP's forward as one CUDA kernel, the source python-cupy-kernel
// compiles (mlp_forward.cu, compiled at load by NVRTC for this device). Each call copies
// its samples into a pinned buffer, then to the device (async), launches the kernel,
// copies the result back to a pinned buffer (async) on one stream, synchronizes, and
// stores it (support/cuda_support: StreamModel).
#include "callbench/driver_main.hpp"
#include "cuda_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::cuda::StreamModel(
        options, callbench::cuda::Work::forward,
        "pinned copy in + kernel + pinned copy out on one stream + synchronize, each call");
  };
  return callbench::driver_main(argc, argv, "cpp-cuda-kernel", load);
}
