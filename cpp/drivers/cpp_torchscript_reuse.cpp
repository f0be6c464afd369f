// cpp-torchscript-reuse: the fast way to call the same TorchScript file.
// The module is frozen (torch::jit::freeze: weights inlined as constants,
// attribute look-ups gone); the input tensor and the IValue stack are made
// once and each call copies its samples into the tensor's storage.
#include <cstring>
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
    module_ = torch::jit::freeze(module);
    input_ = torch::zeros({batch_, 2}, torch::kFloat32);
    inputs_.emplace_back(input_);
    c10::InferenceMode guard;
    callbench::check_output(path_, module_.forward(inputs_).toTensor(), batch_);
  }

  void operator()(const float* in, float* out) {
    c10::InferenceMode guard;
    std::memcpy(input_.mutable_data_ptr<float>(), in, bytes_in());
    const at::Tensor y = module_.forward(inputs_).toTensor();
    std::memcpy(out, y.const_data_ptr<float>(), bytes_out());
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  std::string notes() const { return "frozen module, input tensor reused (copy in), forward"; }

 private:
  std::size_t bytes_in() const { return static_cast<std::size_t>(batch_) * 2 * sizeof(float); }
  std::size_t bytes_out() const { return static_cast<std::size_t>(batch_) * sizeof(float); }

  std::filesystem::path path_;
  std::int64_t batch_;
  torch::jit::Module module_;
  at::Tensor input_;
  std::vector<torch::jit::IValue> inputs_;
};

}  // namespace

int main(int argc, char** argv) {
  const callbench::DriverInfo info{"cpp-torchscript-reuse", "libtorch", "mlp_torchscript.pt"};
  return callbench::driver_main(argc, argv, info, [](const callbench::Options& options) {
    return TorchScriptReuseModel(options);
  });
}
