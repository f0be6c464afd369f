// cpp-aoti-cuda: python-aoti-cuda's package from C++. mlp_cuda.pt2 is AOTInductor's compile
// of the program on the CUDA device (made once on the GPU host; both rows load the same
// file, and with --torch it is the user's program). torch::inductor::AOTIModelPackageLoader
// reads the device from the package's metadata; libtorch.so, which the AOTInductor drivers
// link, brings libtorch_cuda and its runner. Each call copies each input's samples to the
// device (from_blob, then to(cuda)), runs the package (run_single_threaded), and copies
// each output back (to(CPU), which waits for the device) before storing it: the same copies
// as the Python GPU rows. The signature is the one the package's metadata carries.
#include <span>
#include <string>
#include <vector>

#include <torch/cuda.h>

#include "aoti_support.hpp"
#include "callbench/driver_main.hpp"
#include "callbench/errors.hpp"
#include "torch_support.hpp"

namespace {

const at::Device kDevice(at::kCUDA, 0);

class AotiCudaModel {
 public:
  explicit AotiCudaModel(const callbench::Options& options)
      : path_(options.models / "mlp_cuda.pt2"),
        loader_(load(path_, options.threads)),
        tensors_(callbench::aoti_signature(path_, *loader_), options.batch) {
    callbench::check_first_call(
        path_, [&] { return to_host(loader_->run(to_device(tensors_.zero_inputs()))); },
        tensors_);
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    std::vector<at::Tensor> inputs;
    inputs.reserve(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) {
      inputs.push_back(tensors_.view_input(k, in[k]).to(kDevice));
    }
    tensors_.store_outputs(to_host(loader_->run(inputs)), out);
  }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    callbench::Notes found = callbench::torch_notes(
        "from_blob(...).to(cuda) per input, AOTIModelPackageLoader::run, to(CPU) per output, "
        "run_single_threaded");
    found.emplace_back("torch_device", std::string("cuda:0"));
    return found;
  }

 private:
  static std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load(
      const std::filesystem::path& path, std::int64_t threads) {
    if (!torch::cuda::is_available()) {
      throw callbench::UsageError("no CUDA device (torch::cuda::is_available() is false)");
    }
    callbench::configure_torch_threads(threads);
    return callbench::load_aoti_package(path);
  }
  static std::vector<at::Tensor> to_device(std::vector<at::Tensor> tensors) {
    for (at::Tensor& t : tensors) t = t.to(kDevice);
    return tensors;
  }
  static std::vector<at::Tensor> to_host(std::vector<at::Tensor> tensors) {
    for (at::Tensor& t : tensors) t = t.to(at::kCPU);
    return tensors;
  }

  std::filesystem::path path_;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
  callbench::TorchTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return AotiCudaModel(options); };
  return callbench::driver_main(argc, argv, "cpp-aoti-cuda", load);
}
