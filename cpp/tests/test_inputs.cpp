#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"
#include "message_of.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

using testing::message_of;
using testing::TempDir;

TEST(Inputs, ReadsSamplesAsWritten) {
  TempDir dir;
  const std::vector<float> values{1.0f, -2.0f, 3.5f, 4.25f};
  testing::write_values<float>(dir / "inputs.f32", values);
  EXPECT_EQ(read_finite_floats(dir / "inputs.f32", 2, "sample"), values);
}

TEST(Inputs, MissingFileNamesThePath) {
  TempDir dir;
  const auto path = dir / "inputs.f32";
  const std::string message = message_of([&] { read_finite_floats(path, 2, "sample"); });
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("missing"), std::string::npos) << message;
  EXPECT_THROW(read_finite_floats(path, 2, "sample"), DataError);
}

TEST(Inputs, RejectsPartialSamples) {
  TempDir dir;
  const std::vector<float> values{1.0f, 2.0f, 3.0f};  // 12 bytes: 1.5 samples
  testing::write_values<float>(dir / "inputs.f32", values);
  const std::string message = message_of([&] { read_finite_floats(dir / "inputs.f32", 2, "sample"); });
  EXPECT_NE(message.find("not a whole number of samples"), std::string::npos) << message;
}

TEST(Inputs, RejectsNaNAndInfNamingTheSample) {
  TempDir dir;
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity()}) {
    const std::vector<float> values{0.0f, 1.0f, 2.0f, 3.0f, bad, 5.0f};
    testing::write_values<float>(dir / "inputs.f32", values);
    const std::string message = message_of([&] { read_finite_floats(dir / "inputs.f32", 2, "sample"); });
    EXPECT_NE(message.find("sample 2 "), std::string::npos) << message;
    EXPECT_NE(message.find("NaN or Inf"), std::string::npos) << message;
  }
}

TEST(Inputs, RequireSamplesIsAUsageError) {
  Options o;
  o.calls = 3;
  o.batch = 2;
  EXPECT_NO_THROW(require_samples("inputs.f32", 6, o));
  EXPECT_THROW(require_samples("inputs.f32", 5, o), UsageError);
}

}  // namespace
}  // namespace callbench
