#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/mlp_weights.hpp"
#include "mlp_forward.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

using testing::TempDir;

TEST(MlpWeights, ReadsTheKeysInContractOrder) {
  TempDir dir;
  std::vector<float> values(weight_count(kReferenceHidden));
  std::iota(values.begin(), values.end(), 0.0f);
  testing::write_values<float>(dir / "w.f32", values);
  const MlpWeights w = read_weights(dir / "w.f32");
  EXPECT_EQ(w.hidden, 8u);
  EXPECT_EQ(w.a_weight[0], 0.0f);
  EXPECT_EQ(w.a_bias[0], 16.0f);
  EXPECT_EQ(w.b_weight[0], 24.0f);
  EXPECT_EQ(w.b_bias[0], 88.0f);
  EXPECT_EQ(w.c_weight[0], 96.0f);
  EXPECT_EQ(w.c_bias[0], 104.0f);
}

TEST(MlpWeights, TakesTheHiddenWidthFromTheFloatCount) {
  for (std::size_t hidden : {1u, 8u, 16u, 64u, 512u, 2048u}) {
    EXPECT_EQ(hidden_of_count(weight_count(hidden)), hidden);
    EXPECT_EQ(hidden_of_count(weight_count(hidden) + 1), 0u);
  }
  EXPECT_EQ(hidden_of_count(0), 0u);
  TempDir dir;
  std::vector<float> values(weight_count(16), 0.25f);
  testing::write_values<float>(dir / "w.f32", values);
  const MlpWeights w = read_weights(dir / "w.f32");
  EXPECT_EQ(w.hidden, 16u);
  EXPECT_EQ(w.b_weight.size(), 256u);
}

TEST(MlpWeights, RejectsWrongSizeAndNaN) {
  TempDir dir;
  std::vector<float> values(weight_count(kReferenceHidden) - 1, 0.5f);
  testing::write_values<float>(dir / "w.f32", values);
  EXPECT_THROW(read_weights(dir / "w.f32"), DataError);
  values.push_back(std::numeric_limits<float>::quiet_NaN());
  testing::write_values<float>(dir / "w.f32", values);
  EXPECT_THROW(read_weights(dir / "w.f32"), DataError);
  EXPECT_THROW(read_weights(dir / "absent.f32"), DataError);
}

// The hand-written forward pass against a hand-computed case, at the reference's
// width (the fixed-size path) and at a wider one (the any-width path).
TEST(MlpForward, MatchesHandComputedValues) {
  for (std::size_t hidden : {8u, 24u}) {
    MlpWeights w = zero_weights(hidden);
    // h1 = relu([x0, -x0, x1, 0...]); h2 = relu(h1 copied); y = h2[0] + h2[1] + h2[2] + 0.5
    w.a_weight[0] = 1.0f;   // h1[0] = x0
    w.a_weight[2] = -1.0f;  // h1[1] = -x0
    w.a_weight[5] = 1.0f;   // h1[2] = x1
    for (std::size_t j = 0; j < hidden; ++j) w.b_weight[j * hidden + j] = 1.0f;
    w.c_weight[0] = w.c_weight[1] = w.c_weight[2] = 1.0f;
    w.c_bias[0] = 0.5f;
    MlpForward forward(w);
    const float x[4] = {-3.0f, 2.0f, 4.0f, -1.0f};
    float y[2] = {0.0f, 0.0f};
    forward(x, y, 2);
    EXPECT_FLOAT_EQ(y[0], 3.0f + 2.0f + 0.5f) << hidden;  // |x0| + relu(x1) + 0.5
    EXPECT_FLOAT_EQ(y[1], 4.0f + 0.0f + 0.5f) << hidden;
  }
}

// Both paths add each sum in the same order, so at width 8 they agree to the bit.
TEST(MlpForward, TheFixedAndAnyWidthPathsAgreeExactly) {
  MlpWeights w = zero_weights(kReferenceHidden);
  float seed = 0.37f;
  const auto next = [&seed] { return seed = std::fmod(seed * 7.13f + 0.29f, 2.0f) - 1.0f; };
  for (auto* part : {&w.a_weight, &w.a_bias, &w.b_weight, &w.b_bias, &w.c_weight, &w.c_bias}) {
    for (float& v : *part) v = next();
  }
  std::vector<float> x(64);
  for (float& v : x) v = 10.0f * next();
  std::vector<float> fixed(32), any(32);
  mlp_forward_fixed<kReferenceHidden>(w, x.data(), fixed.data(), 32);
  MlpForward forward(w);
  forward.any_width(x.data(), any.data(), 32);
  EXPECT_EQ(fixed, any);
}

}  // namespace
}  // namespace callbench
