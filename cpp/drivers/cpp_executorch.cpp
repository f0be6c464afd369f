// cpp-executorch: the ExecuTorch C++ SDK of the executorch wheel, called the
// way its tutorial does: executorch::extension::Module on mlp.pte (lowered to
// XNNPACK), forward() loaded once; each call wraps its samples with
// from_blob as [batch, 2] and calls Module::forward, which returns the
// outputs as a new std::vector<EValue>. cpp-executorch-method is the
// lower-level Method API on the same file.
#include <cstring>
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
    callbench::check_method_meta(path_, meta.get(), batch_);
    callbench::check(path_, module_->load_forward(), "forward cannot be loaded");
    std::vector<float> in(static_cast<std::size_t>(batch_) * 2, 0.0f);
    auto outputs = forward(in.data());
    callbench::check_output(path_, outputs.at(0), batch_);
  }

  void call(const float* in, float* out) {
    const auto outputs = forward(in);
    std::memcpy(out, outputs[0].toTensor().const_data_ptr<float>(),
                static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::executorch_version(); }
  callbench::Notes notes() const {
    return callbench::executorch_notes("Module::forward(from_blob) each call, XNNPACK program",
                                       pool_threads_);
  }

 private:
  std::vector<executorch::runtime::EValue> forward(const float* in) {
    // from_blob only views the caller's samples; forward copies them into
    // the method's planned input and never writes them.
    auto tensor = executorch::extension::from_blob(
        const_cast<float*>(in), {static_cast<executorch::aten::SizesType>(batch_), 2});
    auto result = module_->forward(tensor);
    callbench::check(path_, result.error(), "forward failed");
    return std::move(result.get());
  }

  std::filesystem::path path_;
  std::int64_t batch_;
  std::int64_t pool_threads_;
  std::unique_ptr<Module> module_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return ExecuTorchModuleModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch", load);
}
