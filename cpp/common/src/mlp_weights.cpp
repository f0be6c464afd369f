#include "callbench/mlp_weights.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"

namespace callbench {

std::size_t hidden_of_count(std::size_t count) {
  // H^2 + 5H + 1 = count  =>  H = (sqrt(21 + 4 count) - 5) / 2, checked exactly.
  const auto root = static_cast<std::size_t>(std::sqrt(21.0 + 4.0 * static_cast<double>(count)));
  for (std::size_t r = root > 0 ? root - 1 : 0; r <= root + 1; ++r) {
    if (r > 5 && (r - 5) % 2 == 0 && weight_count((r - 5) / 2) == count) return (r - 5) / 2;
  }
  return 0;
}

MlpWeights zero_weights(std::size_t hidden) {
  MlpWeights w;
  w.hidden = hidden;
  w.a_weight.assign(hidden * kIn, 0.0f);
  w.a_bias.assign(hidden, 0.0f);
  w.b_weight.assign(hidden * hidden, 0.0f);
  w.b_bias.assign(hidden, 0.0f);
  w.c_weight.assign(kOut * hidden, 0.0f);
  w.c_bias.assign(kOut, 0.0f);
  return w;
}

MlpWeights read_weights(const std::filesystem::path& path) {
  const auto values = read_finite_floats(path, 1, "weight");
  const std::size_t hidden = hidden_of_count(values.size());
  if (hidden == 0) {
    throw DataError(path, "holds " + std::to_string(values.size()) +
                              " floats, which is no 2-H-H-1 MLP's count (H*H + 5H + 1; " +
                              std::to_string(weight_count(kReferenceHidden)) + " for H = 8)");
  }
  MlpWeights w = zero_weights(hidden);
  auto next = values.begin();
  const auto take = [&next](std::vector<float>& array) {
    std::copy_n(next, array.size(), array.begin());
    next += static_cast<std::ptrdiff_t>(array.size());
  };
  take(w.a_weight);
  take(w.a_bias);
  take(w.b_weight);
  take(w.b_bias);
  take(w.c_weight);
  take(w.c_bias);
  return w;
}

}  // namespace callbench
