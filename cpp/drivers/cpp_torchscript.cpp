// cpp-torchscript: the seed's C++ caller, for any batch and under
// InferenceMode. torch::jit::load of mlp_torchscript.pt; each call wraps each
// input's samples with from_blob (no copy), builds a std::vector<IValue> and
// calls forward(). The signature is the file's own (support/torch_support:
// load_torchscript_model). cpp-torchscript-seed is the seed's call exactly as
// written.
#include <span>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class TorchScriptModel {
 public:
  explicit TorchScriptModel(const callbench::Options& options)
      : path_(callbench::trace_for(options, "mlp_torchscript.pt")),
        loaded_(load(path_, options.threads)),
        tensors_(loaded_.signature, options.batch) {
    c10::InferenceMode guard;
    const std::vector<at::Tensor> zeros = tensors_.zero_inputs();
    tensors_.check_outputs(path_, forward(std::vector<c10::IValue>(zeros.begin(), zeros.end())));
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    c10::InferenceMode guard;
    std::vector<c10::IValue> inputs;
    inputs.reserve(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) inputs.emplace_back(tensors_.view_input(k, in[k]));
    tensors_.store_outputs(forward(std::move(inputs)), out);
  }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes("from_blob + forward(std::vector<IValue>) each call");
  }

 private:
  static callbench::TorchScriptModule load(const std::filesystem::path& path,
                                           std::int64_t threads) {
    callbench::configure_torch_threads(threads);
    return callbench::load_torchscript_model(path);
  }

  std::vector<at::Tensor> forward(std::vector<c10::IValue> inputs) {
    return callbench::output_tensors(loaded_.module.forward(std::move(inputs)));
  }

  std::filesystem::path path_;
  callbench::TorchScriptModule loaded_;
  callbench::TorchTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return TorchScriptModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-torchscript", load);
}
