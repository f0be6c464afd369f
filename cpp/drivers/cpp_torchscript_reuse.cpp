// cpp-torchscript-reuse: the fast way to call the same TorchScript file.
// The module goes through torch::jit::optimize_for_inference (which freezes
// it: weights inlined as constants, attribute look-ups gone, then fuses and
// folds for inference); the forward Method is looked up once and run on a
// reused stack; the input tensor is made once and each call copies its
// samples into its storage. Measured against plain forward(), freeze alone
// and the simple executor; this was the fastest of them.
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class TorchScriptReuseModel {
 public:
  explicit TorchScriptReuseModel(const callbench::Options& options)
      : path_(options.models / "mlp_torchscript.pt"), batch_(options.batch) {
    callbench::configure_torch_threads(options.threads);
    torch::jit::Module module = callbench::load_torchscript(path_);
    module.eval();
    module_ = torch::jit::optimize_for_inference(module);
    forward_.emplace(module_.get_method("forward"));
    input_ = torch::zeros({batch_, 2}, torch::kFloat32);
    c10::InferenceMode guard;
    callbench::check_output(path_, run(), batch_);
  }

  void call(const float* in, float* out) {
    c10::InferenceMode guard;
    std::memcpy(input_.mutable_data_ptr<float>(), in, bytes_in());
    const at::Tensor y = run();
    std::memcpy(out, y.const_data_ptr<float>(), bytes_out());
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes(
        "optimize_for_inference (frozen), Method::run on a reused stack, input copied in");
  }

 private:
  at::Tensor run() {
    // Method::run takes the arguments on the stack and leaves the result there.
    stack_.clear();
    stack_.emplace_back(input_);
    forward_->run(stack_);
    return stack_.back().toTensor().contiguous();
  }
  std::size_t bytes_in() const { return static_cast<std::size_t>(batch_) * 2 * sizeof(float); }
  std::size_t bytes_out() const { return static_cast<std::size_t>(batch_) * sizeof(float); }

  std::filesystem::path path_;
  std::int64_t batch_;
  torch::jit::Module module_;
  std::optional<torch::jit::Method> forward_;  // set once module_ is final
  at::Tensor input_;
  torch::jit::Stack stack_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return TorchScriptReuseModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-torchscript-reuse", load);
}
