// cpp-torchscript-seed: the seed study's C++ TorchScript call exactly as the
// seed wrote it (seed 002, "C++ から TorchScript を呼び出す", 44 s for a
// million calls):
//
//   int64_t shape[] = {2};
//   std::vector<torch::jit::IValue> inputs{torch::from_blob(data[i], shape)};
//   model.forward(inputs);
//
// One sample as a 1-D {2} tensor with default options (float32, CPU), a new
// vector of IValues per call, no InferenceMode or NoGradGuard (so autograd
// records every call) and no eval(). The one addition the contract needs:
// the output value is stored. Batch 1 only, as the seed.
#include <cstdint>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "torch_support.hpp"

namespace {

class TorchScriptSeedModel {
 public:
  explicit TorchScriptSeedModel(const callbench::Options& options)
      : path_(options.models / "mlp_torchscript.pt") {
    if (options.batch != 1) {
      throw callbench::UsageError("--batch must be 1: the seed's call takes one sample, got " +
                                  std::to_string(options.batch));
    }
    callbench::configure_torch_threads(options.threads);
    module_ = callbench::load_torchscript(path_);
    const float zeros[2] = {0.0f, 0.0f};
    callbench::check_output_shape(path_, forward(zeros), {1});
  }

  void call(const float* in, float* out) { *out = *forward(in).const_data_ptr<float>(); }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes("the seed's C++ TorchScript call as written");
  }

 private:
  at::Tensor forward(const float* in) {
    int64_t shape[] = {2};
    // from_blob only views the sample; forward() never writes its input.
    std::vector<torch::jit::IValue> inputs{torch::from_blob(const_cast<float*>(in), shape)};
    return module_.forward(inputs).toTensor();
  }

  std::filesystem::path path_;
  torch::jit::Module module_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return TorchScriptSeedModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-torchscript-seed", load);
}
