// rounds: the warm-up, one timed round and the latency pass, with the clock
// (steady_clock) and the CPU clock (the calling thread's) they read. A
// template over the driver's model, so that each call is inlined into the
// timed loop: the loop itself must cost nothing next to a call of tens of
// nanoseconds.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"
#include "callbench/model.hpp"

namespace callbench {

using Clock = std::chrono::steady_clock;

inline std::int64_t nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in ns.
std::int64_t thread_cpu_ns();

// A compiler barrier (like Google Benchmark's ClobberMemory): the compiler
// must assume all memory is read and written here. Placed after every call,
// it forces each call's outputs to be stored before the next call starts, so
// the work can be neither dropped nor merged or vectorised across calls.
// It emits no instruction.
inline void clobber_memory() { asm volatile("" : : : "memory"); }

// One timed round: `calls` calls (0 .. calls-1), wall and thread CPU time.
struct Round {
  std::int64_t calls = 0;
  std::int64_t ns = 0;
  std::int64_t cpu_ns = 0;
  bool operator==(const Round&) const = default;
};

// What the warm-up did: the ready line says it.
struct Warmup {
  std::int64_t calls = 0;
  std::int64_t ns = 0;
  bool operator==(const Warmup&) const = default;
};

// The calls a time-limited warm-up makes at least (fewer only when --warmup asks fewer).
inline constexpr std::int64_t kMinWarmupCalls = 5;

// The contract's warm-up: call(i) for warm-up calls j = 0, 1, ... with i = j mod n, until
// `calls` of them, or until at least kMinWarmupCalls and `seconds` (> 0) have passed.
// The clock is read after each call: the warm-up is not timed.
template <class Call>
Warmup warm_up_calls(std::int64_t calls, double seconds, std::int64_t n, Call&& call) {
  const auto start = Clock::now();
  const auto budget = static_cast<std::int64_t>(seconds * 1e9);
  const std::int64_t least = std::min(calls, kMinWarmupCalls);
  std::int64_t done = 0;
  while (done < calls) {
    call(static_cast<std::size_t>(done % n));
    ++done;
    if (budget > 0 && done >= least && nanoseconds_since(start) >= budget) break;
  }
  return Warmup{done, nanoseconds_since(start)};
}

// What the serve dialogue asks of the loaded model. Virtual, so that the
// dialogue is written once; one virtual call per round, outside the timing.
class Runner {
 public:
  virtual ~Runner() = default;
  // Times calls 0 .. calls-1 as one block (1 <= calls <= N).
  virtual Round round(std::int64_t calls) = 0;
  // Times calls 0 .. calls-1 one by one into a scratch buffer; ns per call.
  virtual std::vector<std::int64_t> latencies(std::int64_t calls) = 0;
  // The last round's outputs: each output's calls * batch samples, in the
  // model's order (none before any round).
  virtual std::vector<std::span<const std::byte>> last_outputs() const = 0;
};

// calls as a count of calls for a round (1 <= calls <= max_calls), or a UsageError.
std::size_t checked_calls(std::int64_t calls, std::int64_t max_calls);

// calls model.call over consecutive samples, a barrier after each. Every
// value it uses is a parameter, so none is reloaded after the barrier.
template <Model M>
void run_calls(M& model, const float* in, std::size_t in_step, float* out, std::size_t out_step,
               std::size_t calls) {
  for (std::size_t i = 0; i < calls; ++i) {
    model.call(in + i * in_step, out + i * out_step);
    clobber_memory();
  }
}

template <Model M>
class Rounds final : public Runner {
 public:
  // inputs: at least max_calls * batch samples (checked by require_samples).
  Rounds(M& model, std::span<const float> inputs, std::int64_t max_calls, std::int64_t batch)
      : model_(model),
        inputs_(inputs.data()),
        max_calls_(max_calls),
        in_step_(static_cast<std::size_t>(batch) * kInputWidth),
        out_step_(static_cast<std::size_t>(batch) * kOutputWidth),
        outputs_(static_cast<std::size_t>(max_calls) * out_step_),
        scratch_(out_step_) {}

  // The warm-up (warm_up_calls): at most `calls` untimed calls, `seconds` once a few are made.
  Warmup warm_up(std::int64_t calls, double seconds = 0) {
    return warm_up_calls(calls, seconds, max_calls_, [this](std::size_t i) {
      model_.call(inputs_ + i * in_step_, outputs_.data() + i * out_step_);
      clobber_memory();
    });
  }

  Round round(std::int64_t calls) override {
    const auto k = checked(calls);
    // NaN first (untimed): a call that stores nothing shows up as an error.
    std::fill_n(outputs_.begin(), k * out_step_, std::numeric_limits<float>::quiet_NaN());
    last_calls_ = k;
    const std::int64_t cpu_start = thread_cpu_ns();
    const auto start = Clock::now();
    run_calls(model_, inputs_, in_step_, outputs_.data(), out_step_, k);
    const std::int64_t ns = nanoseconds_since(start);
    const std::int64_t cpu_ns = thread_cpu_ns() - cpu_start;
    return Round{calls, ns, cpu_ns};
  }

  std::vector<std::int64_t> latencies(std::int64_t calls) override {
    const auto k = checked(calls);
    std::vector<std::int64_t> ns(k);
    for (std::size_t i = 0; i < k; ++i) {
      const auto start = Clock::now();
      model_.call(inputs_ + i * in_step_, scratch_.data());
      clobber_memory();
      ns[i] = nanoseconds_since(start);
    }
    return ns;
  }

  std::vector<std::span<const std::byte>> last_outputs() const override {
    if (last_calls_ == 0) return {};
    return {std::as_bytes(std::span(outputs_.data(), last_calls_ * out_step_))};
  }

 private:
  std::size_t checked(std::int64_t calls) const { return checked_calls(calls, max_calls_); }

  M& model_;
  const float* inputs_;
  std::int64_t max_calls_;
  std::size_t in_step_;
  std::size_t out_step_;
  std::vector<float> outputs_;  // N * batch; the first last_calls_ * batch are the last round's
  std::vector<float> scratch_;  // one call's outputs, for the latency pass
  std::size_t last_calls_ = 0;
};

}  // namespace callbench
