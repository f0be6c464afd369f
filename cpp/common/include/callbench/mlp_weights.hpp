// The MLP's weights from mlp_weights.f32, for drivers that cannot read a pickle.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

namespace callbench {

// Layer sizes of the model: 2 -> H -> H -> 1, W is [out, in] row-major. Inputs and
// outputs are fixed by the contract; the hidden width H comes from the file's size
// (the reference model has 8, the family 64, 512 and 2048).
inline constexpr int kIn = 2;
inline constexpr int kOut = 1;
inline constexpr int kReferenceHidden = 8;

// Floats in mlp_weights.f32 for hidden width H: H*2 + H + H*H + H + H + 1.
constexpr std::size_t weight_count(std::size_t hidden) {
  return hidden * hidden + 5 * hidden + 1;
}

// The hidden width whose weights have `count` floats, or 0 when no width has.
std::size_t hidden_of_count(std::size_t count);

struct MlpWeights {
  std::size_t hidden = 0;
  std::vector<float> a_weight;  // [H, 2]
  std::vector<float> a_bias;    // [H]
  std::vector<float> b_weight;  // [H, H]
  std::vector<float> b_bias;    // [H]
  std::vector<float> c_weight;  // [1, H]
  std::vector<float> c_bias;    // [1]
};

// Weights of width `hidden`, every value zero (for tests that set a few by hand).
MlpWeights zero_weights(std::size_t hidden);

// Reads the floats in the contract's key order and takes H from their count;
// throws DataError if the file is missing, holds a count no width has, or
// holds NaN/Inf.
MlpWeights read_weights(const std::filesystem::path& path);

}  // namespace callbench
