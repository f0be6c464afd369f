#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/tensors.hpp"
#include "message_of.hpp"
#include "temp_dir.hpp"

namespace callbench {
namespace {

using testing::message_of;
using testing::TempDir;

// A token model's signature: two int64 inputs of 4, a float32 [2] and an int64 [] output.
Signature tokens() {
  return {{{"ids", Dtype::int64, {4}}, {"mask", Dtype::int64, {4}}},
          {{"logits", Dtype::float32, {2}}, {"label", Dtype::int64, {}}}};
}

TEST(Tensors, DtypesAreNamedAsTheContractNamesThem) {
  for (Dtype dtype : kDtypes) EXPECT_EQ(dtype_named(dtype_name(dtype)), dtype);
  EXPECT_EQ(dtype_named("float64"), Dtype::float64);
  EXPECT_EQ(dtype_named("bool"), Dtype::boolean);
  EXPECT_EQ(dtype_named("float"), std::nullopt);
  EXPECT_EQ(dtype_named(""), std::nullopt);
}

TEST(Tensors, ACallsShapePutsTheBatchFirst) {
  EXPECT_EQ(batch_shape({"board", Dtype::float32, {8, 8, 8}}, 5),
            (std::vector<std::int64_t>{5, 8, 8, 8}));
  EXPECT_EQ(batch_shape({"label", Dtype::int64, {}}, 3), (std::vector<std::int64_t>{3}));
}

TEST(Tensors, FilesAreNamedByPlaceAndDtype) {
  EXPECT_EQ(tensor_file(kInputsStem, 0, Dtype::float32), "inputs.f32");
  EXPECT_EQ(tensor_file(kInputsStem, 1, Dtype::int64), "inputs1.i64");
  EXPECT_EQ(tensor_file(kReferenceStem, 2, Dtype::boolean), "reference2.bool");
  EXPECT_EQ(tensor_file(kReferenceStem, 0, Dtype::float16), "reference.f16");
}

TEST(Tensors, SampleSizesComeFromTheShape) {
  const Tensor image{"x", Dtype::float16, {3, 32, 32}};
  EXPECT_EQ(image.sample_size(), 3u * 32 * 32);
  EXPECT_EQ(image.sample_bytes(), 2u * 3 * 32 * 32);
  const Tensor label{"label", Dtype::int64, {}};
  EXPECT_EQ(label.sample_bytes(), 8u);
  EXPECT_EQ(image.describe(), "'x' float16 [3, 32, 32]");
}

TEST(Tensors, EachInputIsReadFromItsFile) {
  TempDir dir;
  const std::vector<std::int64_t> ids{1, 2, 3, 4, 5, 6, 7, 8}, mask(8, 1);
  testing::write_values<std::int64_t>(dir / "inputs.i64", ids);
  testing::write_values<std::int64_t>(dir / "inputs1.i64", mask);
  const std::vector<Samples> read = read_inputs(dir.path(), tokens());
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].count, 2u);
  EXPECT_EQ(read[1].count, 2u);
  std::vector<std::int64_t> back(8);
  std::memcpy(back.data(), read[0].bytes.data(), 64);
  EXPECT_EQ(back, ids);
}

TEST(Tensors, InputsOfDifferentSampleCountsAreRefusedNamingTheFile) {
  TempDir dir;
  testing::write_values<std::int64_t>(dir / "inputs.i64", std::vector<std::int64_t>(8, 0));
  testing::write_values<std::int64_t>(dir / "inputs1.i64", std::vector<std::int64_t>(12, 0));
  const std::string message = message_of([&] { read_inputs(dir.path(), tokens()); });
  EXPECT_EQ(message.rfind((dir / "inputs1.i64").string() + ": holds 3 samples, inputs.i64 holds 2", 0), 0u)
      << message;
}

TEST(Tensors, APartialSampleOrANonFiniteFloatIsADataError) {
  TempDir dir;
  const Signature half{{{"x", Dtype::float16, {2}}}, {{"y", Dtype::float16, {1}}}};
  testing::write_values<std::uint16_t>(dir / "inputs.f16", std::vector<std::uint16_t>{0x3C00, 0x3C00, 0x3C00});
  std::string message = message_of([&] { read_inputs(dir.path(), half); });
  EXPECT_NE(message.find("not a whole number of samples of 'x' (4 bytes each)"), std::string::npos)
      << message;
  testing::write_values<std::uint16_t>(dir / "inputs.f16",
                                       std::vector<std::uint16_t>{0x3C00, 0x3C00, 0x3C00, 0x7C00});
  message = message_of([&] { read_inputs(dir.path(), half); });
  EXPECT_EQ(message, (dir / "inputs.f16").string() + ": sample 1 of 'x' is NaN or Inf");
  testing::write_values<std::int64_t>(dir / "inputs.i64", std::vector<std::int64_t>{});
  EXPECT_THROW(read_inputs(dir.path(), tokens()), DataError);  // empty
}

TEST(Tensors, EachReferenceMustHoldOneSampleOfItsOutputPerInputSample) {
  TempDir dir;
  testing::write_values<std::int64_t>(dir / "inputs.i64", std::vector<std::int64_t>(12, 0));  // 3
  testing::write_values<float>(dir / "reference.f32", std::vector<float>(6, 0.0f));          // 3 x 2
  check_references(dir / "m.onnx", dir.path(), tokens());  // no reference1.i64: left to the harness
  testing::write_values<std::int64_t>(dir / "reference1.i64", std::vector<std::int64_t>(2, 0));
  const std::string message = message_of([&] { check_references(dir / "m.onnx", dir.path(), tokens()); });
  EXPECT_EQ(message, (dir / "m.onnx").string() + ": answers 'label' int64 [] a sample; " +
                         (dir / "reference1.i64").string() +
                         " (16 bytes) does not hold one for each of the 3 samples of the inputs");
}

}  // namespace
}  // namespace callbench
