#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "callbench/rounds.hpp"

namespace callbench {
namespace {

// A two-input, two-output model of known work: per sample, the sum of its int64
// pair of ids, as an int64 label and as a float32 score (the sum halved).
struct PairModel {
  Signature described{{{"ids", Dtype::int64, {2}}, {"bias", Dtype::int64, {}}},
                      {{"label", Dtype::int64, {}}, {"score", Dtype::float32, {}}}};
  std::int64_t batch = 1;
  bool store = true;
  std::vector<std::int64_t> first_ids;  // the first id of each call

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    std::int64_t ids[2];
    std::memcpy(ids, in[0], sizeof ids);
    first_ids.push_back(ids[0]);
    if (!store) return;
    for (std::int64_t s = 0; s < batch; ++s) {
      std::int64_t pair[2], bias;
      std::memcpy(pair, in[0] + 16 * s, 16);
      std::memcpy(&bias, in[1] + 8 * s, 8);
      const std::int64_t label = pair[0] + pair[1] + bias;
      const float score = static_cast<float>(label) / 2;
      std::memcpy(out[0] + 8 * s, &label, 8);
      std::memcpy(out[1] + 4 * s, &score, 4);
    }
  }
  const Signature& signature() const { return described; }
  std::string runtime_version() const { return "0.0"; }
  Notes notes() const { return {}; }
};
static_assert(TensorModel<PairModel>);
static_assert(!Model<PairModel>);

// samples: ids (2s, 2s + 1), bias 100.
std::vector<Samples> pair_inputs(std::size_t samples) {
  std::vector<std::int64_t> ids(2 * samples), bias(samples, 100);
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
  std::vector<Samples> all(2);
  all[0].bytes.resize(ids.size() * 8);
  std::memcpy(all[0].bytes.data(), ids.data(), all[0].bytes.size());
  all[1].bytes.resize(bias.size() * 8);
  std::memcpy(all[1].bytes.data(), bias.data(), all[1].bytes.size());
  all[0].count = all[1].count = samples;
  return all;
}

template <class T>
std::vector<T> values_of(std::span<const std::byte> bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

TEST(TensorRounds, EachCallTakesItsSamplesOfEveryInputAndStoresEveryOutput) {
  const std::vector<Samples> inputs = pair_inputs(6);
  PairModel model;
  model.batch = 2;
  Rounds rounds(model, inputs, 3, 2);
  rounds.warm_up(4);  // calls 0, 1, 2, 0
  EXPECT_EQ(model.first_ids, (std::vector<std::int64_t>{0, 4, 8, 0}));
  EXPECT_TRUE(rounds.last_outputs().empty());
  rounds.round(2);
  const auto outputs = rounds.last_outputs();
  ASSERT_EQ(outputs.size(), 2u);  // label then score, each 2 calls x 2 samples
  EXPECT_EQ(values_of<std::int64_t>(outputs[0]), (std::vector<std::int64_t>{101, 105, 109, 113}));
  EXPECT_EQ(values_of<float>(outputs[1]), (std::vector<float>{50.5f, 52.5f, 54.5f, 56.5f}));
}

TEST(TensorRounds, ARoundsStartIsOnTheMonotonicClockThatEveryProcessReads) {
  const std::vector<Samples> inputs = pair_inputs(3);
  PairModel model;
  Rounds rounds(model, inputs, 3, 1);
  const std::int64_t before = monotonic_ns(Clock::now());
  const Round round = rounds.round(3);
  const std::int64_t after = monotonic_ns(Clock::now());
  timespec now{};
  ASSERT_EQ(clock_gettime(CLOCK_MONOTONIC, &now), 0);  // the same clock, read the C way
  EXPECT_LE(before, round.start_ns);
  EXPECT_LE(round.start_ns + round.ns, after);
  EXPECT_LE(after, std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec);
}

TEST(TensorRounds, OutputsAreFilledWithWhatNoCallGivesBeforeEachRound) {
  const std::vector<Samples> inputs = pair_inputs(3);
  PairModel model;
  Rounds rounds(model, inputs, 3, 1);
  rounds.round(3);
  model.store = false;
  rounds.round(3);
  const auto outputs = rounds.last_outputs();
  for (const auto v : values_of<std::int64_t>(outputs[0])) {
    EXPECT_EQ(v, std::numeric_limits<std::int64_t>::min());
  }
  for (const float v : values_of<float>(outputs[1])) EXPECT_TRUE(std::isnan(v));
}

TEST(TensorRounds, LatenciesTimeEachCallWithoutTouchingTheRoundsOutputs) {
  const std::vector<Samples> inputs = pair_inputs(3);
  PairModel model;
  Rounds rounds(model, inputs, 3, 1);
  rounds.round(3);
  const auto before = values_of<std::int64_t>(rounds.last_outputs()[0]);
  EXPECT_EQ(rounds.latencies(2).size(), 2u);
  EXPECT_EQ(values_of<std::int64_t>(rounds.last_outputs()[0]), before);
  EXPECT_THROW(rounds.round(4), UsageError);
}

TEST(TensorRounds, PoisonFillsEachDtypeWithWhatNoCallGives) {
  std::vector<std::byte> bytes(8);
  poison(bytes, Dtype::float16);
  EXPECT_EQ(values_of<std::uint16_t>(bytes)[3], 0x7E00);
  poison(bytes, Dtype::int32);
  EXPECT_EQ(values_of<std::int32_t>(bytes)[1], std::numeric_limits<std::int32_t>::min());
  poison(bytes, Dtype::int8);
  EXPECT_EQ(values_of<std::int8_t>(bytes)[7], -128);
  poison(bytes, Dtype::boolean);  // no value no call gives: left as it is
  EXPECT_EQ(values_of<std::int8_t>(bytes)[7], -128);
}

}  // namespace
}  // namespace callbench
