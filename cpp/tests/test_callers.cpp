#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "callbench/callers.hpp"

namespace callbench {
namespace {

// A model of one int64 input and output that takes callers: each caller's call
// state answers each sample with its value plus 1000; caller `fails` throws in
// its first round (after its warm-up of `warmup` calls).
struct PlusModel {
  Signature described{{{"x", Dtype::int64, {}}}, {{"y", Dtype::int64, {}}}};
  std::int64_t warmup = 0;
  int fails = -1;
  int made = 0;  // call states made so far (one a caller, in caller order)

  struct State {
    std::int64_t warmup;
    bool failing;
    std::int64_t calls = 0;
    void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
      if (failing && ++calls > warmup) throw std::runtime_error("failed on purpose\nsecond line");
      std::int64_t x;
      std::memcpy(&x, in[0], 8);
      x += 1000;
      std::memcpy(out[0], &x, 8);
    }
  };

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    State{0, false}.call(in, out);
  }
  State caller() { return State{warmup, made++ == fails}; }
  Holding holding() const { return {kPerCaller, "a state each"}; }
  const Signature& signature() const { return described; }
  std::string runtime_version() const { return "0.0"; }
  Notes notes() const { return {}; }
};
static_assert(TakesCallers<PlusModel>);

std::vector<Samples> counting(std::size_t samples) {
  std::vector<Samples> all(1);
  all[0].bytes.resize(samples * 8);
  for (std::size_t i = 0; i < samples; ++i) {
    const auto v = static_cast<std::int64_t>(i);
    std::memcpy(all[0].bytes.data() + 8 * i, &v, 8);
  }
  all[0].count = samples;
  return all;
}

Options with_callers(std::int64_t callers, std::int64_t calls, std::int64_t warmup) {
  Options options;
  options.callers = callers;
  options.calls = calls;
  options.warmup = warmup;
  options.warmup_time = 0;
  return options;
}

TEST(Callers, EachCallerTakesItsOwnSamplesAndItsOutputsComeCallerAfterCaller) {
  const std::vector<Samples> inputs = counting(10);  // S = 10 calls of one sample
  PlusModel model;
  Callers callers(model, inputs, with_callers(3, 4, 2));
  EXPECT_EQ(callers.start().calls, 2);
  const Round round = callers.round(4);
  ASSERT_EQ(round.caller_ns.size(), 3u);
  for (const std::int64_t span : round.caller_ns) EXPECT_LE(span, round.ns);
  EXPECT_GT(round.start_ns, 0);  // the first caller's start on the monotonic clock
  EXPECT_LE(round.start_ns + round.ns, monotonic_ns(Clock::now()));
  const auto outputs = callers.last_outputs();
  ASSERT_EQ(outputs.size(), 1u);
  std::vector<std::int64_t> got(outputs[0].size() / 8);
  std::memcpy(got.data(), outputs[0].data(), outputs[0].size());
  // Caller c's call i: sample (4c + i) mod 10, plus 1000.
  EXPECT_EQ(got, (std::vector<std::int64_t>{1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007,
                                            1008, 1009, 1000, 1001}));
  EXPECT_EQ(callers.latencies(2).size(), 6u);  // every caller's, caller after caller
  EXPECT_EQ(model.made, 3);
}

TEST(Callers, AFailingCallerFailsTheRoundNamingIt) {
  const std::vector<Samples> inputs = counting(10);
  PlusModel model;
  model.warmup = 2;
  model.fails = 1;
  Callers callers(model, inputs, with_callers(3, 4, 2));
  callers.start();
  try {
    callers.round(4);
    FAIL() << "no CallerFailed";
  } catch (const CallerFailed& e) {
    EXPECT_EQ(std::string(e.what()), "caller 1: failed on purpose");
  }
}

}  // namespace
}  // namespace callbench
