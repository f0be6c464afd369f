#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

using testing::TempDir;

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST(Inputs, ReadsSamplesAsWritten) {
  TempDir dir;
  const std::vector<float> values{1.0f, -2.0f, 3.5f, 4.25f};
  testing::write_values<float>(dir / "inputs.f32", values);
  EXPECT_EQ(read_inputs(dir / "inputs.f32"), values);
}

TEST(Inputs, MissingFileNamesThePath) {
  TempDir dir;
  const auto path = dir / "inputs.f32";
  const std::string message = message_of([&] { read_inputs(path); });
  EXPECT_NE(message.find(path.string()), std::string::npos) << message;
  EXPECT_NE(message.find("missing"), std::string::npos) << message;
  EXPECT_THROW(read_inputs(path), DataError);
}

TEST(Inputs, RejectsPartialSamples) {
  TempDir dir;
  const std::vector<float> values{1.0f, 2.0f, 3.0f};  // 12 bytes: 1.5 samples
  testing::write_values<float>(dir / "inputs.f32", values);
  const std::string message = message_of([&] { read_inputs(dir / "inputs.f32"); });
  EXPECT_NE(message.find("not a whole number of samples"), std::string::npos) << message;
}

TEST(Inputs, RejectsNaNAndInfNamingTheSample) {
  TempDir dir;
  for (const float bad : {std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity()}) {
    const std::vector<float> values{0.0f, 1.0f, 2.0f, 3.0f, bad, 5.0f};
    testing::write_values<float>(dir / "inputs.f32", values);
    const std::string message = message_of([&] { read_inputs(dir / "inputs.f32"); });
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

TEST(Inputs, SampleWidthsAreCheckedAgainstTheArtifactSet) {
  TempDir dir;
  testing::write_values<float>(dir / "inputs.f32", std::vector<float>(12, 0.0f));  // 3 x 4
  testing::write_values<float>(dir / "reference.f32", std::vector<float>(6, 0.0f));  // 3 x 2
  check_sample_widths(dir / "m.onnx", dir.path(), {4, 2});
  const std::string wrong_output = message_of([&] { check_sample_widths(dir / "m.onnx", dir.path(), {4, 1}); });
  EXPECT_EQ(wrong_output.rfind((dir / "m.onnx").string() + ": takes 4 floats a sample and answers 1", 0), 0u)
      << wrong_output;
  const std::string wrong_input = message_of([&] { check_sample_widths(dir / "m.onnx", dir.path(), {2, 2}); });
  EXPECT_NE(wrong_input.find("for each of the 6 samples"), std::string::npos) << wrong_input;
  // Not a whole number of 5-float samples: left to reading inputs.f32, which names it.
  check_sample_widths(dir / "m.onnx", dir.path(), {5, 2});
}

}  // namespace
}  // namespace callbench
