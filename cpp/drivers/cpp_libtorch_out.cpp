// cpp-libtorch-out: the same MLP with LibTorch's ATen ops written out by hand,
// every tensor allocated once: each call copies its samples into the input
// tensor, then addmm_out + relu_ per layer write into preallocated tensors.
// No module dispatch, no allocation per call: the fastest way through the
// LibTorch C++ API that we found (cpp-libtorch is the torch::nn way).
#include <cstdint>
#include <cstring>
#include <vector>
#include <string>

#include <ATen/ATen.h>

#include "callbench/driver_main.hpp"
#include "callbench/mlp_weights.hpp"
#include "torch_support.hpp"

namespace {

// A weight array as a tensor of its own (copied, so it outlives the array).
at::Tensor tensor_of(std::vector<float>& values, at::IntArrayRef shape) {
  return at::from_blob(values.data(), shape, at::kFloat).clone();
}

class LibTorchOutModel {
 public:
  explicit LibTorchOutModel(const callbench::Options& options) : batch_(options.batch) {
    using callbench::kIn;
    using callbench::kOut;
    callbench::configure_torch_threads(options.threads);
    callbench::MlpWeights w = callbench::read_weights(options.models / "mlp_weights.f32");
    const auto hidden = static_cast<std::int64_t>(w.hidden);  // from the weights' size
    // addmm(bias, x, W^T): W^T is made contiguous once instead of per call.
    a_wt_ = tensor_of(w.a_weight, {hidden, kIn}).t().contiguous();
    b_wt_ = tensor_of(w.b_weight, {hidden, hidden}).t().contiguous();
    c_wt_ = tensor_of(w.c_weight, {kOut, hidden}).t().contiguous();
    a_b_ = tensor_of(w.a_bias, {hidden});
    b_b_ = tensor_of(w.b_bias, {hidden});
    c_b_ = tensor_of(w.c_bias, {kOut});
    x_ = at::zeros({batch_, kIn}, at::kFloat);
    h1_ = at::empty({batch_, hidden}, at::kFloat);
    h2_ = at::empty({batch_, hidden}, at::kFloat);
    y_ = at::empty({batch_, kOut}, at::kFloat);
  }

  void call(const float* in, float* out) {
    c10::InferenceMode guard;
    const auto n = static_cast<std::size_t>(batch_);
    std::memcpy(x_.mutable_data_ptr<float>(), in, n * callbench::kIn * sizeof(float));
    at::addmm_out(h1_, a_b_, x_, a_wt_).relu_();
    at::addmm_out(h2_, b_b_, h1_, b_wt_).relu_();
    at::addmm_out(y_, c_b_, h2_, c_wt_);
    std::memcpy(out, y_.const_data_ptr<float>(), n * sizeof(float));
  }
  std::string runtime_version() const { return callbench::torch_version(); }
  callbench::Notes notes() const {
    return callbench::torch_notes("at::addmm_out + relu_ into preallocated tensors");
  }

 private:
  std::int64_t batch_;
  at::Tensor a_wt_, b_wt_, c_wt_, a_b_, b_b_, c_b_;
  at::Tensor x_, h1_, h2_, y_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return LibTorchOutModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-libtorch-out", load);
}
