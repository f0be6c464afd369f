#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/outputs.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

using testing::TempDir;

TEST(Outputs, FloatsRoundTripAsRawLittleEndian) {
  TempDir dir;
  const std::vector<float> values{0.25f, -1.5f, 1e30f};
  write_floats(dir / "out.f32", values);
  const auto bytes = testing::read_raw(dir / "out.f32");
  ASSERT_EQ(bytes.size(), values.size() * sizeof(float));
  std::vector<float> back(values.size());
  std::memcpy(back.data(), bytes.data(), bytes.size());
  EXPECT_EQ(back, values);
}

TEST(Outputs, Int64sRoundTrip) {
  TempDir dir;
  const std::vector<std::int64_t> values{1, 1'000'000'000'000, -7};
  write_int64s(dir / "lat.i64", values);
  const auto bytes = testing::read_raw(dir / "lat.i64");
  ASSERT_EQ(bytes.size(), 24u);
  std::vector<std::int64_t> back(3);
  std::memcpy(back.data(), bytes.data(), bytes.size());
  EXPECT_EQ(back, values);
}

TEST(Outputs, UnwritablePathIsADataError) {
  TempDir dir;
  const std::vector<float> values{1.0f};
  EXPECT_THROW(write_floats(dir.path() / "no" / "such" / "dir" / "out.f32", values), DataError);
}

}  // namespace
}  // namespace callbench
