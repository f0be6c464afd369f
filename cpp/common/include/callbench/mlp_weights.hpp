// The MLP's weights from mlp_weights.f32, for drivers that cannot read a pickle.
#pragma once

#include <array>
#include <filesystem>

namespace callbench {

// Layer sizes of the model: 2 -> 8 -> 8 -> 1, W is [out, in] row-major.
inline constexpr int kIn = 2;
inline constexpr int kHidden = 8;
inline constexpr int kOut = 1;

struct MlpWeights {
  std::array<float, kHidden * kIn> a_weight;
  std::array<float, kHidden> a_bias;
  std::array<float, kHidden * kHidden> b_weight;
  std::array<float, kHidden> b_bias;
  std::array<float, kOut * kHidden> c_weight;
  std::array<float, kOut> c_bias;
};

inline constexpr std::size_t kWeightCount = 16 + 8 + 64 + 8 + 8 + 1;

// Reads the 105 floats in the contract's key order; throws DataError if the
// file is missing, has another size, or holds NaN/Inf.
MlpWeights read_weights(const std::filesystem::path& path);

}  // namespace callbench
