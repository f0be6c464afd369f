// float_model: our MLP's float Model (model.hpp) seen as a TensorModel of one
// float32 input 'x' [2] and one float32 output 'y' [1], so that the kit has
// one model path: one rounds type, one input reader, one output writer.
#pragma once

#include <span>
#include <string>
#include <utility>

#include "callbench/model.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// The MLP's signature, as its artifacts name it (inputs.f32 holds x, reference.f32 y).
const Signature& mlp_signature();

template <Model M>
class FloatModel {
 public:
  // Built from load(options) in place: a model may be neither copied nor moved.
  template <class Load, class... Args>
  explicit FloatModel(Load&& load, Args&&... args) : model_(load(std::forward<Args>(args)...)) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    model_.call(reinterpret_cast<const float*>(in[0]), reinterpret_cast<float*>(out[0]));
  }
  const Signature& signature() const { return mlp_signature(); }
  std::string runtime_version() const { return model_.runtime_version(); }
  Notes notes() const { return model_.notes(); }
  // The float model itself: the timed loop calls it directly (rounds.hpp).
  M& floats() { return model_; }

 private:
  M model_;
};

}  // namespace callbench
