#include <gtest/gtest.h>

#include <vector>

#include "callbench/protocol.hpp"

namespace callbench {
namespace {

// A fake model that records which samples each call saw and answers with
// the sum of each sample's two inputs.
struct RecordingModel {
  const float* base;
  std::int64_t batch;
  std::vector<std::ptrdiff_t> seen;  // index of the first sample of each call
  void operator()(const float* in, float* out) {
    seen.push_back((in - base) / 2);
    for (std::int64_t s = 0; s < batch; ++s) out[s] = in[2 * s] + in[2 * s + 1];
  }
};

TEST(Protocol, CallsWalkConsecutiveSamplesAndWarmupWraps) {
  Options o;
  o.calls = 3;
  o.batch = 2;
  o.warmup = 4;
  o.repeats = 2;
  std::vector<float> inputs(16);
  for (std::size_t i = 0; i < inputs.size(); ++i) inputs[i] = static_cast<float>(i);
  std::vector<float> outputs(6, -1.0f);
  RecordingModel model{inputs.data(), o.batch, {}};
  const Timings t = run_protocol(o, inputs.data(), outputs.data(), model);

  // warm-up: calls 0,1,2,0; then two repeats of 0,1,2 (first sample = 2 * call)
  const std::vector<std::ptrdiff_t> expected{0, 2, 4, 0, 0, 2, 4, 0, 2, 4};
  EXPECT_EQ(model.seen, expected);
  EXPECT_EQ(t.repeat_ns.size(), 2u);
  for (const auto ns : t.repeat_ns) EXPECT_GE(ns, 0);
  EXPECT_TRUE(t.latency_ns.empty());
  const std::vector<float> sums{1, 5, 9, 13, 17, 21};
  EXPECT_EQ(outputs, sums);
}

TEST(Protocol, LatenciesTimeEachCallWithoutTouchingOutputs) {
  Options o;
  o.calls = 5;
  o.warmup = 0;
  o.repeats = 1;
  o.latencies = "lat.i64";
  std::vector<float> inputs(10, 1.0f);
  std::vector<float> outputs(5);
  RecordingModel model{inputs.data(), 1, {}};
  const Timings t = run_protocol(o, inputs.data(), outputs.data(), model);
  EXPECT_EQ(t.latency_ns.size(), 5u);
  EXPECT_EQ(model.seen.size(), 10u);  // one repeat + one latency pass
  EXPECT_EQ(outputs, std::vector<float>(5, 2.0f));
}

}  // namespace
}  // namespace callbench
