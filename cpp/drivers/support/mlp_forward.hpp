// The MLP's forward pass as plain loops: the floor every runtime is compared to.
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "callbench/mlp_weights.hpp"

namespace callbench {

// max(v, 0). Built with -ffinite-math-only -fno-signed-zeros (see
// drivers/CMakeLists.txt) GCC makes this one maxss/maxps; without them it
// emits compare-and-jump, which mispredicts about half the time on random inputs.
inline float relu(float v) { return std::max(v, 0.0f); }

// y[s] = c(relu(b(relu(a(x[s]))))) for each of the batch samples, with the hidden
// width H known at compile time: every loop has a fixed trip count and unrolls.
// The reference model's path (H = 8). Each sum runs bias first, then k = 0, 1, ...
template <std::size_t H>
inline void mlp_forward_fixed(const MlpWeights& w, const float* x, float* y, std::size_t batch) {
  const float* aw = w.a_weight.data();
  const float* ab = w.a_bias.data();
  const float* bw = w.b_weight.data();
  const float* bb = w.b_bias.data();
  const float* cw = w.c_weight.data();
  for (std::size_t s = 0; s < batch; ++s) {
    const float x0 = x[s * kIn];
    const float x1 = x[s * kIn + 1];
    float h1[H];
    for (std::size_t j = 0; j < H; ++j) h1[j] = relu(aw[j * kIn] * x0 + aw[j * kIn + 1] * x1 + ab[j]);
    float out = w.c_bias[0];
    for (std::size_t j = 0; j < H; ++j) {
      float v = bb[j];
      for (std::size_t k = 0; k < H; ++k) v += bw[j * H + k] * h1[k];
      out += cw[j] * relu(v);
    }
    y[s] = out;
  }
}

// The forward pass at whatever width the weights have. The reference's width takes
// the fixed-size path above; any other walks b.weight transposed, so its inner loop
// runs along contiguous memory and vectorises without reordering a sum (each hidden
// unit still adds bias first, then k = 0, 1, ..., as the fixed path does).
class MlpForward {
 public:
  explicit MlpForward(MlpWeights weights)
      : w_(std::move(weights)),
        b_transposed_(w_.hidden * w_.hidden),
        h1_(w_.hidden),
        h2_(w_.hidden) {
    const std::size_t h = w_.hidden;
    for (std::size_t j = 0; j < h; ++j) {
      for (std::size_t k = 0; k < h; ++k) b_transposed_[k * h + j] = w_.b_weight[j * h + k];
    }
  }

  std::size_t hidden() const { return w_.hidden; }

  // Inlined into the timed loop; the barrier after each call keeps the calls
  // separate (see callbench/rounds.hpp).
  void operator()(const float* x, float* y, std::size_t batch) {
    if (w_.hidden == kReferenceHidden) {
      mlp_forward_fixed<kReferenceHidden>(w_, x, y, batch);
    } else {
      any_width(x, y, batch);
    }
  }

  // The path every width but the reference's takes (public so tests can hold it
  // against the fixed-size path).
  void any_width(const float* x, float* y, std::size_t batch) {
    const std::size_t h = w_.hidden;
    const float* aw = w_.a_weight.data();
    const float* ab = w_.a_bias.data();
    const float* bt = b_transposed_.data();
    const float* cw = w_.c_weight.data();
    float* h1 = h1_.data();
    float* h2 = h2_.data();
    for (std::size_t s = 0; s < batch; ++s) {
      const float x0 = x[s * kIn];
      const float x1 = x[s * kIn + 1];
      for (std::size_t j = 0; j < h; ++j) h1[j] = relu(aw[j * kIn] * x0 + aw[j * kIn + 1] * x1 + ab[j]);
      std::copy(w_.b_bias.begin(), w_.b_bias.end(), h2);
      for (std::size_t k = 0; k < h; ++k) {
        const float hk = h1[k];
        const float* column = bt + k * h;
        for (std::size_t j = 0; j < h; ++j) h2[j] += column[j] * hk;
      }
      float out = w_.c_bias[0];
      for (std::size_t j = 0; j < h; ++j) out += cw[j] * relu(h2[j]);
      y[s] = out;
    }
  }

 private:
  MlpWeights w_;
  std::vector<float> b_transposed_;  // [k * H + j] = b.weight[j, k]
  std::vector<float> h1_, h2_;       // one sample's hidden layers, reused
};

}  // namespace callbench
