// cpp-executorch: the ExecuTorch C++ SDK of the executorch wheel, called the
// way its tutorial does: executorch::extension::Module on mlp.pte (lowered to
// XNNPACK), forward() loaded once; each call wraps each input's samples with
// from_blob and calls Module::forward, which returns the outputs as a new
// std::vector<EValue>. cpp-executorch-method is the lower-level Method API on
// the same file. The signature is the one the method's metadata gives.
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>

#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

namespace {

using executorch::extension::Module;

class ExecuTorchModuleModel {
 public:
  explicit ExecuTorchModuleModel(const callbench::Options& options)
      : path_(options.models / "mlp.pte"),
        batch_(options.batch),
        pool_threads_(callbench::init_executorch(options.threads)) {
    callbench::require_file(path_);
    module_ = std::make_unique<Module>(path_.string(), Module::LoadMode::File);
    callbench::check(path_, module_->load(), "does not load as an ExecuTorch program");
    auto meta = module_->method_meta("forward");
    callbench::check(path_, meta.error(), "has no forward method");
    signature_ = callbench::method_signature(path_, meta.get(), batch_);
    callbench::check(path_, module_->load_forward(), "forward cannot be loaded");
    for (const callbench::Tensor& input : signature_.inputs) {
      const std::vector<std::int64_t> shape = callbench::batch_shape(input, batch_);
      sizes_.emplace_back(shape.begin(), shape.end());
      types_.push_back(callbench::scalar_type_of(input.dtype));
      zeros_.emplace_back(static_cast<std::size_t>(batch_) * input.sample_bytes());
    }
    for (const callbench::Tensor& output : signature_.outputs) {
      output_bytes_.push_back(static_cast<std::size_t>(batch_) * output.sample_bytes());
    }
    std::vector<const std::byte*> in;
    for (const auto& z : zeros_) in.push_back(z.data());
    const auto outputs = forward(in);
    for (std::size_t k = 0; k < signature_.outputs.size(); ++k) {
      callbench::check_output(path_, outputs.at(k), signature_.outputs[k], batch_);
    }
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    const auto outputs = forward(in);
    for (std::size_t k = 0; k < out.size(); ++k) {
      std::memcpy(out[k], outputs[k].toTensor().const_data_ptr(), output_bytes_[k]);
    }
  }
  const callbench::Signature& signature() const { return signature_; }
  std::string runtime_version() const { return callbench::executorch_version(); }
  callbench::Notes notes() const {
    return callbench::executorch_notes("Module::forward(from_blob) each call, XNNPACK program",
                                       pool_threads_, callbench::workspace_sharing());
  }

 private:
  std::vector<executorch::runtime::EValue> forward(std::span<const std::byte* const> in) {
    // from_blob only views the caller's samples; forward copies them into
    // the method's planned inputs and never writes them.
    std::vector<executorch::extension::TensorPtr> tensors;
    std::vector<executorch::runtime::EValue> inputs;
    tensors.reserve(in.size());
    inputs.reserve(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) {
      tensors.push_back(executorch::extension::from_blob(const_cast<std::byte*>(in[k]), sizes_[k],
                                                         types_[k]));
      inputs.emplace_back(*tensors.back());
    }
    auto result = module_->forward(inputs);
    callbench::check(path_, result.error(), "forward failed");
    return std::move(result.get());
  }

  std::filesystem::path path_;
  std::int64_t batch_;
  std::int64_t pool_threads_;
  std::unique_ptr<Module> module_;
  callbench::Signature signature_;
  std::vector<std::vector<executorch::aten::SizesType>> sizes_;
  std::vector<executorch::aten::ScalarType> types_;
  std::vector<callbench::Bytes> zeros_;  // the load's check call
  std::vector<std::size_t> output_bytes_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return ExecuTorchModuleModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch", load);
}
