// What the CUDA drivers share: the CUDA driver API, loaded at run time from the NVIDIA
// driver's libcuda.so.1 (a UsageError naming why where there is no device), our MLP's
// kernel compiled at load by NVRTC from the source python-cupy-kernel compiles
// (python/callbench/drivers/mlp_forward.cu, embedded by CMake), and one call's buffers:
// pinned host buffers, device buffers, one stream, the kernel chosen by width as
// python-cupy-kernel chooses it (one thread a sample below width 32, one block a sample
// from there).
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <cuda.h>

#include "callbench/model.hpp"
#include "callbench/options.hpp"

namespace callbench::cuda {

// The driver API entry points the drivers call, each found with cuGetProcAddress for the
// header's CUDA version (so a versioned name such as cuMemAlloc_v2 is the one declared).
struct Driver {
  decltype(&cuInit) init;
  decltype(&cuGetErrorString) error_string;
  decltype(&cuDriverGetVersion) version;
  decltype(&cuDeviceGetCount) device_count;
  decltype(&cuDeviceGet) device;
  decltype(&cuDeviceGetName) device_name;
  decltype(&cuDeviceGetAttribute) attribute;
  decltype(&cuDevicePrimaryCtxRetain) retain_context;
  decltype(&cuCtxSetCurrent) set_context;
  decltype(&cuModuleLoadData) load_module;
  decltype(&cuModuleGetFunction) function;
  decltype(&cuModuleUnload) unload_module;
  decltype(&cuMemAlloc) alloc;
  decltype(&cuMemFree) free;
  decltype(&cuMemAllocHost) alloc_host;
  decltype(&cuMemFreeHost) free_host;
  decltype(&cuMemcpyHtoD) copy_to_device;
  decltype(&cuMemcpyHtoDAsync) copy_to_device_async;
  decltype(&cuMemcpyDtoHAsync) copy_to_host_async;
  decltype(&cuStreamCreate) create_stream;
  decltype(&cuStreamDestroy) destroy_stream;
  decltype(&cuStreamSynchronize) synchronize;
  decltype(&cuLaunchKernel) launch;
  decltype(&cuStreamBeginCapture) begin_capture;
  decltype(&cuStreamEndCapture) end_capture;
  decltype(&cuGraphInstantiate) instantiate;
  decltype(&cuGraphLaunch) launch_graph;
  decltype(&cuGraphExecDestroy) destroy_exec;
  decltype(&cuGraphDestroy) destroy_graph;
};

// The driver, loaded once and initialised, with a device; a UsageError "no CUDA device
// (...)" where libcuda.so.1 is missing, does not initialise, or sees no device.
const Driver& driver();

// Throws std::runtime_error "<what>: <the driver's message>" unless `status` is CUDA_SUCCESS.
void check(CUresult status, std::string_view what);

// "CUDA driver <version>, NVRTC <version>".
std::string runtime_version();

// Threads in a block, as python-cupy-kernel launches them.
inline constexpr unsigned kThreads = 128;
// From this hidden width a sample's forward is split across a block (mlp_forward_wide).
inline constexpr std::size_t kWideFrom = 32;

// What each call's kernel does: our MLP's forward (mlp_forward, or mlp_forward_wide from
// kWideFrom), or nothing (mlp_floor, with mlp_forward's arguments and grid) while the copy
// out reads the input's leading bytes back: the floor, checked by its echo.
enum class Work { forward, floor };

// Our MLP on the device for calls of `batch` samples: the weights copied there once, the
// kernel compiled for this device, and the buffers one call goes through.
class MlpOnDevice {
 public:
  explicit MlpOnDevice(const Options& options, Work work = Work::forward);
  ~MlpOnDevice();
  MlpOnDevice(const MlpOnDevice&) = delete;
  MlpOnDevice& operator=(const MlpOnDevice&) = delete;
  MlpOnDevice(MlpOnDevice&&) = delete;
  MlpOnDevice& operator=(MlpOnDevice&&) = delete;

  // Each call's three steps, enqueued on the stream: the pinned input to the device, the
  // kernel, the result to the pinned output (a CUDA graph captures exactly these). For
  // Work::floor the result is the device input's first out_bytes().
  void enqueue_call();
  float* host_in() const { return host_in_; }
  const float* host_out() const { return host_out_; }
  std::size_t in_bytes() const { return in_bytes_; }
  std::size_t out_bytes() const { return out_bytes_; }
  CUstream stream() const { return stream_; }
  Notes notes() const;

 private:
  void release() noexcept;
  const char* kernel_name() const;

  const Driver& cu_;
  std::string device_;
  std::size_t hidden_ = 0;
  int batch_ = 0;
  std::size_t in_bytes_ = 0;
  std::size_t out_bytes_ = 0;
  Work work_ = Work::forward;
  bool wide_ = false;
  CUmodule module_ = nullptr;
  CUfunction kernel_ = nullptr;
  CUstream stream_ = nullptr;
  CUdeviceptr weights_ = 0;
  CUdeviceptr device_in_ = 0;
  CUdeviceptr device_out_ = 0;
  float* host_in_ = nullptr;  // pinned
  float* host_out_ = nullptr;
};

// A driver's model that makes each call as MlpOnDevice enqueues it, synchronizing on the
// stream: cpp-cuda-kernel (Work::forward) and cpp-cuda-floor (Work::floor) differ only in
// `work` and their notes' `call` words.
class StreamModel {
 public:
  StreamModel(const Options& options, Work work, std::string call)
      : gpu_(std::make_unique<MlpOnDevice>(options, work)), call_(std::move(call)) {}

  void call(const float* in, float* out) {
    std::memcpy(gpu_->host_in(), in, gpu_->in_bytes());
    gpu_->enqueue_call();
    check(driver().synchronize(gpu_->stream()), "cuStreamSynchronize");
    std::memcpy(out, gpu_->host_out(), gpu_->out_bytes());
  }
  std::string runtime_version() const { return cuda::runtime_version(); }
  Notes notes() const {
    Notes found = gpu_->notes();
    found.emplace_back("call", call_);
    return found;
  }

 private:
  std::unique_ptr<MlpOnDevice> gpu_;
  std::string call_;
};

}  // namespace callbench::cuda
