// cpp-torchscript-reuse: the fast way to call the same TorchScript file.
// The module goes through torch::jit::optimize_for_inference (which freezes
// it: weights inlined as constants, attribute look-ups gone, then fuses and
// folds for inference); the forward Method is looked up once and run on a
// reused stack; the input tensors are made once and each call copies its
// samples into their storage. Measured against plain forward(), freeze alone
// and the simple executor; this was the fastest of them.
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

// One caller's call: its own handle on the frozen module's forward, its own kept input
// tensors (copied into each call) and its own stack.
class ReuseCall {
 public:
  ReuseCall(torch::jit::Module& module, const callbench::TorchTensors& tensors)
      : forward_(module.get_method("forward")),
        tensors_(tensors),
        inputs_(tensors.zero_inputs()) {
    for (const at::Tensor& input : inputs_) input_bytes_.push_back(input.nbytes());
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    c10::InferenceMode guard;
    for (std::size_t k = 0; k < in.size(); ++k) {
      std::memcpy(inputs_[k].mutable_data_ptr(), in[k], input_bytes_[k]);
    }
    tensors_.store_outputs(run(), out);
  }

  std::vector<at::Tensor> run() {
    // Method::run takes the arguments on the stack and leaves the result there.
    stack_.clear();
    for (const at::Tensor& input : inputs_) stack_.emplace_back(input);
    forward_.run(stack_);
    return callbench::output_tensors(stack_.back());
  }

 private:
  torch::jit::Method forward_;
  const callbench::TorchTensors& tensors_;
  std::vector<at::Tensor> inputs_;
  std::vector<std::size_t> input_bytes_;
  torch::jit::Stack stack_;
};

class TorchScriptReuseModel {
 public:
  explicit TorchScriptReuseModel(const callbench::Options& options)
      : path_(callbench::trace_for(options, "mlp_torchscript.pt")),
        loaded_(load(path_, options.threads)),
        tensors_(loaded_.signature, options.batch),
        module_(torch::jit::optimize_for_inference(loaded_.module)),
        one_(module_, tensors_) {
    c10::InferenceMode guard;
    tensors_.check_outputs(path_, one_.run());
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    one_.call(in, out);
  }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes(
        "optimize_for_inference (frozen), Method::run on a reused stack, inputs copied in");
  }
  // Contract 4: PyTorch's notes on TorchScript inference describe many inference threads
  // running one model's forward, each through its own interpreter; InferenceMode is entered
  // in each call, so in each caller's thread.
  callbench::Holding holding() const {
    return {callbench::kShared,
            "one frozen Module, its forward run from every caller's thread with inputs and a "
            "stack of its own"};
  }
  ReuseCall caller() { return ReuseCall(module_, tensors_); }

 private:
  static callbench::TorchScriptModule load(const std::filesystem::path& path,
                                           std::int64_t threads) {
    callbench::configure_torch_threads(threads);
    return callbench::load_torchscript_model(path);
  }

  std::filesystem::path path_;
  callbench::TorchScriptModule loaded_;
  callbench::TorchTensors tensors_;
  torch::jit::Module module_;
  ReuseCall one_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return TorchScriptReuseModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-torchscript-reuse", load);
}
