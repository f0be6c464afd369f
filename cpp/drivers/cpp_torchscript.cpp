// cpp-torchscript: the seed's C++ caller, as plain as it was. torch::jit::load
// of mlp_torchscript.pt; each call wraps its samples with from_blob (no copy),
// builds a std::vector<IValue> and calls forward() under InferenceMode.
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

  void operator()(const float* in, float* out) {
    c10::InferenceMode guard;
    const at::Tensor y = forward(in);
    std::memcpy(out, y.const_data_ptr<float>(), static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  std::string notes() const { return "from_blob + forward(std::vector<IValue>) each call"; }

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
  const callbench::DriverInfo info{"cpp-torchscript", "libtorch", "mlp_torchscript.pt"};
  return callbench::driver_main(argc, argv, info, [](const callbench::Options& options) {
    return TorchScriptModel(options);
  });
}
