// cpp-libtorch: the same MLP written with the LibTorch C++ API (torch::nn::Linear
// modules), its weights read from mlp_weights.f32; each call wraps its samples
// with from_blob and runs forward under InferenceMode. The seed's fastest row.
#include <cstdint>
#include <cstring>
#include <vector>
#include <string>

#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>

#include "callbench/driver_main.hpp"
#include "callbench/mlp_weights.hpp"
#include "torch_support.hpp"

namespace {

struct MlpImpl : torch::nn::Module {
  explicit MlpImpl(std::int64_t hidden)
      : a(register_module("a", torch::nn::Linear(callbench::kIn, hidden))),
        b(register_module("b", torch::nn::Linear(hidden, hidden))),
        c(register_module("c", torch::nn::Linear(hidden, callbench::kOut))) {}

  torch::Tensor forward(const torch::Tensor& x) {
    return c(torch::relu(b(torch::relu(a(x)))));
  }

  torch::nn::Linear a, b, c;
};
TORCH_MODULE(Mlp);

// Copies a weight array into a parameter of the given shape.
void assign(torch::Tensor& parameter, std::vector<float>& values) {
  const auto source = torch::from_blob(values.data(), parameter.sizes(), torch::kFloat32);
  parameter.copy_(source);
}

class LibTorchModel {
 public:
  explicit LibTorchModel(const callbench::Options& options)
      : path_(options.models / "mlp_weights.f32"),
        batch_(options.batch),
        weights_(callbench::read_weights(path_)),
        mlp_(static_cast<std::int64_t>(weights_.hidden)) {
    callbench::configure_torch_threads(options.threads);
    callbench::MlpWeights& w = weights_;
    {
      torch::NoGradGuard no_grad;
      assign(mlp_->a->weight, w.a_weight);
      assign(mlp_->a->bias, w.a_bias);
      assign(mlp_->b->weight, w.b_weight);
      assign(mlp_->b->bias, w.b_bias);
      assign(mlp_->c->weight, w.c_weight);
      assign(mlp_->c->bias, w.c_bias);
    }
    mlp_->eval();
  }

  void call(const float* in, float* out) {
    c10::InferenceMode guard;
    const auto x = torch::from_blob(const_cast<float*>(in), {batch_, 2}, torch::kFloat32);
    const at::Tensor y = mlp_->forward(x);
    std::memcpy(out, y.const_data_ptr<float>(), static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes("torch::nn::Linear x3, from_blob + forward each call");
  }

 private:
  std::filesystem::path path_;
  std::int64_t batch_;
  callbench::MlpWeights weights_;  // its width sizes the modules
  Mlp mlp_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return LibTorchModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-libtorch", load);
}
