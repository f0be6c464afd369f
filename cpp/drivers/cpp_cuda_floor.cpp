// cpp-cuda-floor: the platform's per-call floor, not a way to call the model. Each call
// goes as cpp-cuda-kernel's does (its samples into a pinned buffer, then to the device,
// a launch with the same arguments and grid, the result back to a pinned buffer, on one
// stream, a synchronize), but the kernel is empty (mlp_floor) and the copy back reads the
// input's leading bytes. So it computes nothing, and the harness checks it by its own
// rule: each call's outputs are its inputs' first bytes (registry role gpu_floor).
#include <cstring>
#include <memory>
#include <string>

#include "callbench/driver_main.hpp"
#include "cuda_support.hpp"

namespace {

namespace cuda = callbench::cuda;

class CudaFloorModel {
 public:
  explicit CudaFloorModel(const callbench::Options& options)
      : gpu_(std::make_unique<cuda::MlpOnDevice>(options, cuda::Work::floor)) {}

  void call(const float* in, float* out) {
    std::memcpy(gpu_->host_in(), in, gpu_->in_bytes());
    gpu_->enqueue_call();
    cuda::check(cuda::driver().synchronize(gpu_->stream()), "cuStreamSynchronize");
    std::memcpy(out, gpu_->host_out(), gpu_->out_bytes());
  }
  std::string runtime_version() const { return cuda::runtime_version(); }
  callbench::Notes notes() const {
    callbench::Notes found = gpu_->notes();
    found.emplace_back("call", std::string("pinned copy in + empty kernel + pinned copy out of "
                                           "the input's first bytes on one stream + "
                                           "synchronize, each call"));
    return found;
  }

 private:
  std::unique_ptr<cuda::MlpOnDevice> gpu_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return CudaFloorModel(options); };
  return callbench::driver_main(argc, argv, "cpp-cuda-floor", load);
}
