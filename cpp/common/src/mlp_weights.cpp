#include "callbench/mlp_weights.hpp"

#include <algorithm>
#include <string>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"

namespace callbench {

MlpWeights read_weights(const std::filesystem::path& path) {
  const auto values = read_finite_floats(path, 1, "weight");
  if (values.size() != kWeightCount) {
    throw DataError(path, "holds " + std::to_string(values.size()) + " floats, expected " +
                              std::to_string(kWeightCount) + " (the 2-8-8-1 MLP)");
  }
  MlpWeights w{};
  auto next = values.begin();
  const auto take = [&next](auto& array) {
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
