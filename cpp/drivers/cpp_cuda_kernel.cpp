// cpp-cuda-kernel: our MLP's forward as one CUDA kernel, the source python-cupy-kernel
// compiles (mlp_forward.cu, compiled at load by NVRTC for this device). Each call copies
// its samples into a pinned buffer, then to the device (async), launches the kernel,
// copies the result back to a pinned buffer (async) on one stream, synchronizes, and
// stores it.
#include <cstring>
#include <memory>
#include <string>

#include "callbench/driver_main.hpp"
#include "cuda_support.hpp"

namespace {

namespace cuda = callbench::cuda;

class CudaKernelModel {
 public:
  explicit CudaKernelModel(const callbench::Options& options)
      : gpu_(std::make_unique<cuda::MlpOnDevice>(options)) {}

  void call(const float* in, float* out) {
    std::memcpy(gpu_->host_in(), in, gpu_->in_bytes());
    gpu_->enqueue_call();
    cuda::check(cuda::driver().synchronize(gpu_->stream()), "cuStreamSynchronize");
    std::memcpy(out, gpu_->host_out(), gpu_->out_bytes());
  }
  std::string runtime_version() const { return cuda::runtime_version(); }
  callbench::Notes notes() const {
    callbench::Notes found = gpu_->notes();
    found.emplace_back("call", std::string("pinned copy in + kernel + pinned copy out on one "
                                           "stream + synchronize, each call"));
    return found;
  }

 private:
  std::unique_ptr<cuda::MlpOnDevice> gpu_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return CudaKernelModel(options); };
  return callbench::driver_main(argc, argv, "cpp-cuda-kernel", load);
}
