// cpp-aoti: AOTInductor from C++ the way its tutorial does it:
// torch::inductor::AOTIModelPackageLoader on mlp.pt2 (it unpacks the package
// and dlopen()s the compiled model), with run_single_threaded (no locking
// around the model container: one caller). Each call wraps each input's
// samples with from_blob, passes a new std::vector<at::Tensor> to run(), and
// copies each output out of the tensor the model allocated. The signature is
// the one the package's metadata carries (support/aoti_support).
#include <span>
#include <string>
#include <vector>

#include "aoti_support.hpp"
#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class AotiModel {
 public:
  explicit AotiModel(const callbench::Options& options)
      : path_(options.models / "mlp.pt2"),
        loader_(load(path_, options.threads)),
        tensors_(callbench::aoti_signature(path_, *loader_), options.batch) {
    callbench::check_first_call(path_, [&] { return loader_->run(tensors_.zero_inputs()); },
                                tensors_);
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    if (in.size() == 1) {
      // The tutorial's braced vector: measured 2.1 µs a call on our MLP, where the
      // reserve + push_back below took 2.4 (cause not found; see the git log).
      tensors_.store_outputs(loader_->run({tensors_.view_input(0, in[0])}), out);
      return;
    }
    std::vector<at::Tensor> inputs;
    inputs.reserve(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) inputs.push_back(tensors_.view_input(k, in[k]));
    tensors_.store_outputs(loader_->run(inputs), out);
  }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes(
        "AOTIModelPackageLoader::run(std::vector{from_blob}), run_single_threaded");
  }

 private:
  static std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load(
      const std::filesystem::path& path, std::int64_t threads) {
    callbench::configure_torch_threads(threads);
    return callbench::load_aoti_package(path);
  }

  std::filesystem::path path_;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> loader_;
  callbench::TorchTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) { return AotiModel(options); };
  return callbench::driver_main(argc, argv, "cpp-aoti", load);
}
