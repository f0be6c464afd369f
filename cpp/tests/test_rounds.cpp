#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/rounds.hpp"
#include "fake_model.hpp"

namespace callbench {
namespace {

using testing::counting_inputs;
using testing::RecordingModel;

static_assert(Model<RecordingModel>);

// The one output of a float Model's last round, as floats.
std::vector<float> floats_of(const std::vector<std::span<const std::byte>>& outputs) {
  if (outputs.empty()) return {};
  EXPECT_EQ(outputs.size(), 1u);
  std::vector<float> values(outputs[0].size() / sizeof(float));
  std::memcpy(values.data(), outputs[0].data(), outputs[0].size());
  return values;
}

TEST(Rounds, WarmUpWrapsAroundTheCalls) {
  const std::vector<float> inputs = counting_inputs(8);
  RecordingModel model{inputs.data(), 2, {}};
  Rounds rounds(model, inputs, 3, 2);
  EXPECT_EQ(rounds.warm_up(4).calls, 4);
  // calls 0, 1, 2, 0: first sample = 2 * call
  EXPECT_EQ(model.seen, (std::vector<std::ptrdiff_t>{0, 2, 4, 0}));
  EXPECT_TRUE(rounds.last_outputs().empty());  // a warm-up is not a round
}

TEST(Rounds, AWarmUpByTimeMakesAFewCallsThenStopsAtItsBudget) {
  // A budget of 1 ns is spent by the first call: the warm-up makes its few calls and stops.
  std::int64_t made = 0;
  const Warmup short_one = warm_up_calls(10'000, 1e-9, 3, [&](std::size_t) { ++made; });
  EXPECT_EQ(short_one.calls, kMinWarmupCalls);
  EXPECT_EQ(made, kMinWarmupCalls);
  // Fewer asked than the few: the cap wins; no time limit: every call asked for.
  EXPECT_EQ(warm_up_calls(2, 1e-9, 3, [](std::size_t) {}).calls, 2);
  EXPECT_EQ(warm_up_calls(1000, 0, 3, [](std::size_t) {}).calls, 1000);
  // A budget far off: the cap ends it.
  EXPECT_EQ(warm_up_calls(1000, 1000, 3, [](std::size_t) {}).calls, 1000);
}

TEST(Rounds, ARoundWalksCallsFromZeroAndKeepsItsOutputs) {
  const std::vector<float> inputs = counting_inputs(8);
  RecordingModel model{inputs.data(), 2, {}};
  Rounds rounds(model, inputs, 3, 2);
  const Round first = rounds.round(3);
  EXPECT_EQ(first.calls, 3);
  EXPECT_GE(first.ns, 0);
  EXPECT_GE(first.cpu_ns, 0);
  const Round second = rounds.round(2);
  EXPECT_EQ(second.calls, 2);
  EXPECT_EQ(model.seen, (std::vector<std::ptrdiff_t>{0, 2, 4, 0, 2}));
  EXPECT_EQ(floats_of(rounds.last_outputs()), (std::vector<float>{1, 5, 9, 13}));
}

// A model that stores nothing: the round's outputs must show it as NaN,
// also where an earlier round had stored values.
struct LazyModel {
  bool store = true;
  void call(const float*, float* out) {
    if (store) *out = 1.0f;
  }
  std::string runtime_version() const { return ""; }
  Notes notes() const { return {}; }
};

TEST(Rounds, OutputsAreNaNBeforeEachRound) {
  const std::vector<float> inputs = counting_inputs(4);
  LazyModel model;
  Rounds rounds(model, inputs, 4, 1);
  rounds.round(4);
  model.store = false;
  rounds.round(4);
  for (const float v : floats_of(rounds.last_outputs())) EXPECT_TRUE(std::isnan(v));
}

TEST(Rounds, LatenciesTimeEachCallWithoutTouchingTheOutputs) {
  const std::vector<float> inputs = counting_inputs(5);
  RecordingModel model{inputs.data(), 1, {}};
  Rounds rounds(model, inputs, 5, 1);
  rounds.round(5);
  const std::vector<std::int64_t> ns = rounds.latencies(4);
  EXPECT_EQ(ns.size(), 4u);
  for (const auto v : ns) EXPECT_GE(v, 0);
  EXPECT_EQ(model.seen, (std::vector<std::ptrdiff_t>{0, 1, 2, 3, 4, 0, 1, 2, 3}));
  EXPECT_EQ(floats_of(rounds.last_outputs()), (std::vector<float>{1, 5, 9, 13, 17}));
}

TEST(Rounds, CallsOutOfRangeAreUsageErrors) {
  const std::vector<float> inputs = counting_inputs(3);
  RecordingModel model{inputs.data(), 1, {}};
  Rounds rounds(model, inputs, 3, 1);
  EXPECT_THROW(rounds.round(0), UsageError);
  EXPECT_THROW(rounds.round(4), UsageError);
  EXPECT_THROW(rounds.latencies(4), UsageError);
  EXPECT_TRUE(model.seen.empty());
}

TEST(Rounds, ThreadCpuClockAdvances) {
  const std::int64_t start = thread_cpu_ns();
  volatile double sink = 0;
  for (int i = 0; i < 1'000'000; ++i) sink = sink + 1.0;
  EXPECT_GT(thread_cpu_ns(), start);
}

}  // namespace
}  // namespace callbench
