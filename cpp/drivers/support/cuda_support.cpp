#include "cuda_support.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/mlp_weights.hpp"
#include "mlp_kernel_source.hpp"

namespace callbench::cuda {
namespace {

// One entry point of the driver, by its base name, for the header's CUDA version.
template <class F>
void find(decltype(&cuGetProcAddress) get, const char* name, F& into) {
  void* found = nullptr;
  CUdriverProcAddressQueryResult status{};
  if (get(name, &found, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status) != CUDA_SUCCESS ||
      found == nullptr) {
    throw UsageError(std::string("no CUDA device (the driver lacks ") + name +
                     " for CUDA " + std::to_string(CUDA_VERSION) + ")");
  }
  into = reinterpret_cast<F>(found);
}

Driver load_driver() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    throw UsageError("no CUDA device (libcuda.so.1 does not load: no NVIDIA driver)");
  }
  // cuGetProcAddress itself, by its versioned name: the one symbol looked up by hand.
  auto* get = reinterpret_cast<decltype(&cuGetProcAddress)>(dlsym(library, "cuGetProcAddress_v2"));
  if (get == nullptr) throw UsageError("no CUDA device (the driver is older than CUDA 12)");
  Driver d{};
  find(get, "cuInit", d.init);
  find(get, "cuGetErrorString", d.error_string);
  find(get, "cuDriverGetVersion", d.version);
  find(get, "cuDeviceGetCount", d.device_count);
  find(get, "cuDeviceGet", d.device);
  find(get, "cuDeviceGetName", d.device_name);
  find(get, "cuDeviceGetAttribute", d.attribute);
  find(get, "cuDevicePrimaryCtxRetain", d.retain_context);
  find(get, "cuCtxSetCurrent", d.set_context);
  find(get, "cuModuleLoadData", d.load_module);
  find(get, "cuModuleGetFunction", d.function);
  find(get, "cuModuleUnload", d.unload_module);
  find(get, "cuMemAlloc", d.alloc);
  find(get, "cuMemFree", d.free);
  find(get, "cuMemAllocHost", d.alloc_host);
  find(get, "cuMemFreeHost", d.free_host);
  find(get, "cuMemcpyHtoD", d.copy_to_device);
  find(get, "cuMemcpyHtoDAsync", d.copy_to_device_async);
  find(get, "cuMemcpyDtoHAsync", d.copy_to_host_async);
  find(get, "cuStreamCreate", d.create_stream);
  find(get, "cuStreamDestroy", d.destroy_stream);
  find(get, "cuStreamSynchronize", d.synchronize);
  find(get, "cuLaunchKernel", d.launch);
  find(get, "cuStreamBeginCapture", d.begin_capture);
  find(get, "cuStreamEndCapture", d.end_capture);
  find(get, "cuGraphInstantiateWithFlags", d.instantiate);
  find(get, "cuGraphLaunch", d.launch_graph);
  find(get, "cuGraphExecDestroy", d.destroy_exec);
  find(get, "cuGraphDestroy", d.destroy_graph);
  int count = 0;
  if (const CUresult status = d.init(0); status != CUDA_SUCCESS) {
    const char* text = nullptr;
    d.error_string(status, &text);
    throw UsageError(std::string("no CUDA device (cuInit: ") + (text ? text : "?") + ")");
  }
  if (d.device_count(&count) != CUDA_SUCCESS || count == 0) {
    throw UsageError("no CUDA device (cuDeviceGetCount found none)");
  }
  return d;
}

void check_nvrtc(nvrtcResult status, std::string_view what, const std::string& log = "") {
  if (status == NVRTC_SUCCESS) return;
  std::string message = std::string(what) + ": " + nvrtcGetErrorString(status);
  if (!log.empty()) message += " (" + first_line(log) + ")";
  throw std::runtime_error(message);
}

// The embedded kernels compiled by NVRTC for `device`'s architecture, as a CUBIN (as
// CuPy's RawKernel compiles the same file).
std::vector<char> compile_for(const Driver& cu, CUdevice device) {
  int major = 0;
  int minor = 0;
  check(cu.attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device), "capability");
  check(cu.attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device), "capability");
  nvrtcProgram program = nullptr;
  check_nvrtc(nvrtcCreateProgram(&program, kMlpKernelSource, "mlp_forward.cu", 0, nullptr,
                                 nullptr),
              "nvrtcCreateProgram");
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
  const char* flags[] = {arch.c_str()};
  const nvrtcResult compiled = nvrtcCompileProgram(program, 1, flags);
  std::size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  std::string log(log_size, '\0');
  if (log_size > 0) nvrtcGetProgramLog(program, log.data());
  std::vector<char> cubin;
  if (compiled == NVRTC_SUCCESS) {
    std::size_t size = 0;
    check_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    cubin.resize(size);
    check_nvrtc(nvrtcGetCUBIN(program, cubin.data()), "nvrtcGetCUBIN");
  }
  nvrtcDestroyProgram(&program);
  check_nvrtc(compiled, "nvrtcCompileProgram", log);
  return cubin;
}

// The weights in mlp_weights.f32's order, as the kernel reads them.
std::vector<float> flat(const MlpWeights& w) {
  std::vector<float> out;
  for (const auto* part : {&w.a_weight, &w.a_bias, &w.b_weight, &w.b_bias, &w.c_weight,
                           &w.c_bias}) {
    out.insert(out.end(), part->begin(), part->end());
  }
  return out;
}

}  // namespace

const Driver& driver() {
  static const Driver loaded = load_driver();
  return loaded;
}

void check(CUresult status, std::string_view what) {
  if (status == CUDA_SUCCESS) return;
  const char* text = nullptr;
  driver().error_string(status, &text);
  throw std::runtime_error(std::string(what) + ": " + (text ? text : "unknown CUDA error"));
}

std::string runtime_version() {
  int version = 0;
  int major = 0;
  int minor = 0;
  driver().version(&version);
  nvrtcVersion(&major, &minor);
  return "CUDA driver " + std::to_string(version / 1000) + "." +
         std::to_string(version % 1000 / 10) + ", NVRTC " + std::to_string(major) + "." +
         std::to_string(minor);
}

MlpOnDevice::MlpOnDevice(const Options& options, Work work) : cu_(driver()), work_(work) {
  const MlpWeights weights = read_weights(options.models / "mlp_weights.f32");
  hidden_ = weights.hidden;
  batch_ = static_cast<int>(options.batch);
  in_bytes_ = sizeof(float) * 2 * static_cast<std::size_t>(batch_);
  out_bytes_ = sizeof(float) * static_cast<std::size_t>(batch_);
  wide_ = work_ == Work::forward && hidden_ >= kWideFrom;
  try {
    CUdevice device = 0;
    CUcontext context = nullptr;
    check(cu_.device(&device, 0), "cuDeviceGet");
    char name[256] = {};
    check(cu_.device_name(name, sizeof name, device), "cuDeviceGetName");
    device_ = name;
    check(cu_.retain_context(&context, device), "cuDevicePrimaryCtxRetain");
    check(cu_.set_context(context), "cuCtxSetCurrent");
    const std::vector<char> cubin = compile_for(cu_, device);
    check(cu_.load_module(&module_, cubin.data()), "cuModuleLoadData");
    check(cu_.function(&kernel_, module_, kernel_name()), "cuModuleGetFunction");
    check(cu_.create_stream(&stream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
    const std::vector<float> w = flat(weights);
    check(cu_.alloc(&weights_, sizeof(float) * w.size()), "cuMemAlloc");
    check(cu_.copy_to_device(weights_, w.data(), sizeof(float) * w.size()), "cuMemcpyHtoD");
    check(cu_.alloc(&device_in_, in_bytes_), "cuMemAlloc");
    check(cu_.alloc(&device_out_, out_bytes_), "cuMemAlloc");
    void* pinned = nullptr;
    check(cu_.alloc_host(&pinned, in_bytes_), "cuMemAllocHost");
    host_in_ = static_cast<float*>(pinned);
    check(cu_.alloc_host(&pinned, out_bytes_), "cuMemAllocHost");
    host_out_ = static_cast<float*>(pinned);
  } catch (...) {
    release();
    throw;
  }
}

MlpOnDevice::~MlpOnDevice() { release(); }

void MlpOnDevice::release() noexcept {
  if (host_out_ != nullptr) cu_.free_host(host_out_);
  if (host_in_ != nullptr) cu_.free_host(host_in_);
  if (device_out_ != 0) cu_.free(device_out_);
  if (device_in_ != 0) cu_.free(device_in_);
  if (weights_ != 0) cu_.free(weights_);
  if (stream_ != nullptr) cu_.destroy_stream(stream_);
  if (module_ != nullptr) cu_.unload_module(module_);
}

void MlpOnDevice::enqueue_call() {
  int n = batch_;
  int h = static_cast<int>(hidden_);
  void* args[] = {&device_in_, &weights_, &device_out_, &n, &h};
  const unsigned blocks = wide_ ? static_cast<unsigned>(batch_)
                                : (static_cast<unsigned>(batch_) + kThreads - 1) / kThreads;
  // The wide kernel's shared memory: the first layer, then one share per thread.
  const auto shared = static_cast<unsigned>(wide_ ? sizeof(float) * (hidden_ + kThreads) : 0);
  check(cu_.copy_to_device_async(device_in_, host_in_, in_bytes_, stream_), "cuMemcpyHtoDAsync");
  check(cu_.launch(kernel_, blocks, 1, 1, kThreads, 1, 1, shared, stream_, args, nullptr),
        "cuLaunchKernel");
  const CUdeviceptr result = work_ == Work::floor ? device_in_ : device_out_;
  check(cu_.copy_to_host_async(host_out_, result, out_bytes_, stream_), "cuMemcpyDtoHAsync");
}

const char* MlpOnDevice::kernel_name() const {
  if (work_ == Work::floor) return "mlp_floor";
  return wide_ ? "mlp_forward_wide" : "mlp_forward";
}

Notes MlpOnDevice::notes() const {
  return {{"device", device_},
          {"kernel", std::string(kernel_name())},
          {"kernel_source", std::string("python/callbench/drivers/mlp_forward.cu, by NVRTC")},
          {"threads_per_block", static_cast<std::int64_t>(kThreads)},
          {"hidden", static_cast<std::int64_t>(hidden_)}};
}

}  // namespace callbench::cuda
