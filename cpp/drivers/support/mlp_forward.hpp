// The MLP's forward pass as plain loops: the floor every runtime is compared to.
#pragma once

#include <algorithm>
#include <cstddef>

#include "callbench/mlp_weights.hpp"

namespace callbench {

// max(v, 0). Built with -ffinite-math-only -fno-signed-zeros (see
// drivers/CMakeLists.txt) GCC makes this one maxss/maxps; without them it
// emits compare-and-jump, which mispredicts about half the time on random inputs.
inline float relu(float v) { return std::max(v, 0.0f); }

// y[s] = c(relu(b(relu(a(x[s]))))) for each of the batch samples.
// Inlined into the timed loop; the barrier after each call keeps
// the calls separate (see callbench/rounds.hpp).
inline void mlp_forward(const MlpWeights& w, const float* x, float* y, std::size_t batch) {
  for (std::size_t s = 0; s < batch; ++s) {
    const float x0 = x[s * kIn];
    const float x1 = x[s * kIn + 1];
    float h1[kHidden];
    for (int j = 0; j < kHidden; ++j) {
      const float v = w.a_weight[j * kIn] * x0 + w.a_weight[j * kIn + 1] * x1 + w.a_bias[j];
      h1[j] = relu(v);
    }
    float out = w.c_bias[0];
    for (int j = 0; j < kHidden; ++j) {
      float v = w.b_bias[j];
      for (int k = 0; k < kHidden; ++k) v += w.b_weight[j * kHidden + k] * h1[k];
      out += w.c_weight[j] * relu(v);
    }
    y[s] = out;
  }
}

}  // namespace callbench
