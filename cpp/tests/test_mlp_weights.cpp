#include <gtest/gtest.h>

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
  std::vector<float> values(kWeightCount);
  std::iota(values.begin(), values.end(), 0.0f);
  testing::write_values<float>(dir / "w.f32", values);
  const MlpWeights w = read_weights(dir / "w.f32");
  EXPECT_EQ(w.a_weight[0], 0.0f);
  EXPECT_EQ(w.a_bias[0], 16.0f);
  EXPECT_EQ(w.b_weight[0], 24.0f);
  EXPECT_EQ(w.b_bias[0], 88.0f);
  EXPECT_EQ(w.c_weight[0], 96.0f);
  EXPECT_EQ(w.c_bias[0], 104.0f);
}

TEST(MlpWeights, RejectsWrongSizeAndNaN) {
  TempDir dir;
  std::vector<float> values(kWeightCount - 1, 0.5f);
  testing::write_values<float>(dir / "w.f32", values);
  EXPECT_THROW(read_weights(dir / "w.f32"), DataError);
  values.push_back(std::numeric_limits<float>::quiet_NaN());
  testing::write_values<float>(dir / "w.f32", values);
  EXPECT_THROW(read_weights(dir / "w.f32"), DataError);
  EXPECT_THROW(read_weights(dir / "absent.f32"), DataError);
}

// The hand-written forward pass against a hand-computed case.
TEST(MlpForward, MatchesHandComputedValues) {
  MlpWeights w{};
  // h1 = relu([x0, -x0, x1, 0...]); h2 = relu(h1 copied); y = h2[0] + h2[1] + h2[2] + 0.5
  w.a_weight[0] = 1.0f;    // h1[0] = x0
  w.a_weight[2] = -1.0f;   // h1[1] = -x0
  w.a_weight[5] = 1.0f;    // h1[2] = x1
  for (int j = 0; j < kHidden; ++j) w.b_weight[j * kHidden + j] = 1.0f;
  w.c_weight[0] = w.c_weight[1] = w.c_weight[2] = 1.0f;
  w.c_bias[0] = 0.5f;
  const float x[4] = {-3.0f, 2.0f, 4.0f, -1.0f};
  float y[2] = {0.0f, 0.0f};
  mlp_forward(w, x, y, 2);
  EXPECT_FLOAT_EQ(y[0], 3.0f + 2.0f + 0.5f);  // |x0| + relu(x1) + 0.5
  EXPECT_FLOAT_EQ(y[1], 4.0f + 0.0f + 0.5f);
}

}  // namespace
}  // namespace callbench
