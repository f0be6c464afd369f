#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/float_model.hpp"
#include "callbench/rounds.hpp"
#include "fake_model.hpp"

namespace callbench {
namespace {

using testing::counting_inputs;
using testing::RecordingModel;

static_assert(Model<RecordingModel>);
static_assert(TensorModel<FloatModel<RecordingModel>>);

// The float inputs as the one input's samples (sample s: 2 floats).
std::vector<Samples> samples_of(const std::vector<float>& inputs) {
  std::vector<Samples> all(1);
  all[0].bytes.resize(inputs.size() * sizeof(float));
  std::memcpy(all[0].bytes.data(), inputs.data(), all[0].bytes.size());
  all[0].count = inputs.size() / 2;
  return all;
}

// The fake float model seen through the adapter, as driver_main sees it; its
// calls recorded against the samples' own copy of the inputs.
struct Adapted {
  std::vector<Samples> samples;
  FloatModel<RecordingModel> model;
  Adapted(const std::vector<float>& inputs, std::int64_t batch)
      : samples(samples_of(inputs)), model([&] {
          return RecordingModel{reinterpret_cast<const float*>(samples[0].bytes.data()), batch, {}};
        }) {}
  const std::vector<std::ptrdiff_t>& seen() { return model.floats().seen; }
};

// The one output of a float Model's last round, as floats.
std::vector<float> floats_of(const std::vector<std::span<const std::byte>>& outputs) {
  if (outputs.empty()) return {};
  EXPECT_EQ(outputs.size(), 1u);
  std::vector<float> values(outputs[0].size() / sizeof(float));
  std::memcpy(values.data(), outputs[0].data(), outputs[0].size());
  return values;
}

TEST(FloatRounds, WarmUpWrapsAroundTheCalls) {
  const std::vector<float> inputs = counting_inputs(8);
  Adapted adapted(inputs, 2);
  Rounds rounds(adapted.model, adapted.samples, 3, 2);
  EXPECT_EQ(rounds.warm_up(4).calls, 4);
  // calls 0, 1, 2, 0: first sample = 2 * call
  EXPECT_EQ(adapted.seen(), (std::vector<std::ptrdiff_t>{0, 2, 4, 0}));
  EXPECT_TRUE(rounds.last_outputs().empty());  // a warm-up is not a round
}

TEST(FloatRounds, AWarmUpByTimeMakesAFewCallsThenStopsAtItsBudget) {
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

TEST(FloatRounds, ARoundWalksCallsFromZeroAndKeepsItsOutputs) {
  const std::vector<float> inputs = counting_inputs(8);
  Adapted adapted(inputs, 2);
  Rounds rounds(adapted.model, adapted.samples, 3, 2);
  const Round first = rounds.round(3);
  EXPECT_EQ(first.calls, 3);
  EXPECT_GE(first.ns, 0);
  EXPECT_GE(first.cpu_ns, 0);
  const Round second = rounds.round(2);
  EXPECT_EQ(second.calls, 2);
  EXPECT_EQ(adapted.seen(), (std::vector<std::ptrdiff_t>{0, 2, 4, 0, 2}));
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

TEST(FloatRounds, OutputsAreNaNBeforeEachRound) {
  const std::vector<float> inputs = counting_inputs(4);
  const std::vector<Samples> samples = samples_of(inputs);
  FloatModel<LazyModel> model([] { return LazyModel{}; });
  Rounds rounds(model, samples, 4, 1);
  rounds.round(4);
  model.floats().store = false;
  rounds.round(4);
  for (const float v : floats_of(rounds.last_outputs())) EXPECT_TRUE(std::isnan(v));
}

TEST(FloatRounds, LatenciesTimeEachCallWithoutTouchingTheOutputs) {
  const std::vector<float> inputs = counting_inputs(5);
  Adapted adapted(inputs, 1);
  Rounds rounds(adapted.model, adapted.samples, 5, 1);
  rounds.round(5);
  const std::vector<std::int64_t> ns = rounds.latencies(4);
  EXPECT_EQ(ns.size(), 4u);
  for (const auto v : ns) EXPECT_GE(v, 0);
  EXPECT_EQ(adapted.seen(), (std::vector<std::ptrdiff_t>{0, 1, 2, 3, 4, 0, 1, 2, 3}));
  EXPECT_EQ(floats_of(rounds.last_outputs()), (std::vector<float>{1, 5, 9, 13, 17}));
}

TEST(FloatRounds, CallsOutOfRangeAreUsageErrors) {
  const std::vector<float> inputs = counting_inputs(3);
  Adapted adapted(inputs, 1);
  Rounds rounds(adapted.model, adapted.samples, 3, 1);
  EXPECT_THROW(rounds.round(0), UsageError);
  EXPECT_THROW(rounds.round(4), UsageError);
  EXPECT_THROW(rounds.latencies(4), UsageError);
  EXPECT_TRUE(adapted.seen().empty());
}

TEST(FloatRounds, TheAdapterReadsAndWritesTheMlpsOneTensorEach) {
  const Signature& signature = FloatModel<LazyModel>([] { return LazyModel{}; }).signature();
  ASSERT_EQ(signature.inputs.size(), 1u);
  ASSERT_EQ(signature.outputs.size(), 1u);
  EXPECT_EQ(signature.inputs[0].describe(), "'x' float32 [2]");
  EXPECT_EQ(signature.outputs[0].describe(), "'y' float32 [1]");
}

TEST(FloatRounds, ThreadCpuClockAdvances) {
  const std::int64_t start = thread_cpu_ns();
  volatile double sink = 0;
  for (int i = 0; i < 1'000'000; ++i) sink = sink + 1.0;
  EXPECT_GT(thread_cpu_ns(), start);
}

}  // namespace
}  // namespace callbench
