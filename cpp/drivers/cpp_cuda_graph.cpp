// cpp-cuda-graph: cpp-cuda-kernel's three steps (the pinned input to the device, the
// kernel, the result to the pinned output) captured once at load as a CUDA graph for the
// run's batch, and replayed each call: one launch, then a synchronize.
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "callbench/driver_main.hpp"
#include "cuda_support.hpp"

namespace {

namespace cuda = callbench::cuda;

class CudaGraphModel {
 public:
  explicit CudaGraphModel(const callbench::Options& options)
      : gpu_(std::make_unique<cuda::MlpOnDevice>(options)) {
    const cuda::Driver& cu = cuda::driver();
    CUgraph graph = nullptr;
    cuda::check(cu.begin_capture(gpu_->stream(), CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                "cuStreamBeginCapture");
    gpu_->enqueue_call();
    cuda::check(cu.end_capture(gpu_->stream(), &graph), "cuStreamEndCapture");
    const CUresult made = cu.instantiate(&exec_, graph, 0);
    cu.destroy_graph(graph);
    cuda::check(made, "cuGraphInstantiate");
  }
  CudaGraphModel(CudaGraphModel&& other) noexcept
      : gpu_(std::move(other.gpu_)), exec_(std::exchange(other.exec_, nullptr)) {}
  CudaGraphModel(const CudaGraphModel&) = delete;
  CudaGraphModel& operator=(const CudaGraphModel&) = delete;
  CudaGraphModel& operator=(CudaGraphModel&&) = delete;
  ~CudaGraphModel() {
    if (exec_ != nullptr) cuda::driver().destroy_exec(exec_);
  }

  void call(const float* in, float* out) {
    const cuda::Driver& cu = cuda::driver();
    std::memcpy(gpu_->host_in(), in, gpu_->in_bytes());
    cuda::check(cu.launch_graph(exec_, gpu_->stream()), "cuGraphLaunch");
    cuda::check(cu.synchronize(gpu_->stream()), "cuStreamSynchronize");
    std::memcpy(out, gpu_->host_out(), gpu_->out_bytes());
  }
  std::string runtime_version() const { return cuda::runtime_version(); }
  callbench::Notes notes() const {
    callbench::Notes found = gpu_->notes();
    found.emplace_back("call", std::string("pinned copy in + cuGraphLaunch (copy in, kernel, "
                                           "copy out) + synchronize, each call"));
    return found;
  }

 private:
  std::unique_ptr<cuda::MlpOnDevice> gpu_;
  CUgraphExec exec_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return CudaGraphModel(options); };
  return callbench::driver_main(argc, argv, "cpp-cuda-graph", load);
}
