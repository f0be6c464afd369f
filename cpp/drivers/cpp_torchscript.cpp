// cpp-torchscript: the seed's C++ caller, for any batch and under
// InferenceMode. torch::jit::load of mlp_torchscript.pt; each call wraps its
// samples with from_blob (no copy) as [batch, 2], builds a
// std::vector<IValue> and calls forward(). cpp-torchscript-seed is the
// seed's call exactly as written.
#include <cstring>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class TorchScriptModel {
 public:
  explicit TorchScriptModel(const callbench::Options& options)
      : path_(options.models / "mlp_torchscript.pt"), batch_(options.batch) {
    callbench::configure_torch_threads(options.threads);
    module_ = callbench::load_torchscript(path_);
    module_.eval();
    std::vector<float> in(static_cast<std::size_t>(batch_) * 2, 0.0f);
    c10::InferenceMode guard;
    callbench::check_output(path_, forward(in.data()), batch_);
  }

  void call(const float* in, float* out) {
    c10::InferenceMode guard;
    const at::Tensor y = forward(in);
    std::memcpy(out, y.const_data_ptr<float>(), static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes("from_blob + forward(std::vector<IValue>) each call");
  }

 private:
  at::Tensor forward(const float* in) {
    // from_blob only views the caller's samples; forward() never writes its input.
    std::vector<torch::jit::IValue> inputs{
        torch::from_blob(const_cast<float*>(in), {batch_, 2}, torch::kFloat32)};
    return module_.forward(inputs).toTensor().contiguous();
  }

  std::filesystem::path path_;
  std::int64_t batch_;
  torch::jit::Module module_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return TorchScriptModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-torchscript", load);
}
