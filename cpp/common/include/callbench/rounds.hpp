// rounds: the warm-up, one timed round and the latency pass of a TensorModel
// (contract 3; our MLP's float Model through its FloatModel adapter), with the
// clock (steady_clock) and the CPU clock (the calling thread's) they read.
// Call i takes samples [i*B, (i+1)*B) of every input and stores each output's
// batch at its place in that output's buffer; before each round every output
// is filled with what no call gives (NaN, an integer's smallest value). A
// template over the driver's model, so that each call is inlined into the
// timed loop: the loop itself must cost nothing next to a call of tens of
// nanoseconds.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/float_model.hpp"
#include "callbench/model.hpp"
#include "callbench/paced.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

using Clock = std::chrono::steady_clock;

inline std::int64_t nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// A time point as ns on the machine's monotonic clock: libstdc++'s steady_clock is
// CLOCK_MONOTONIC, so N processes' rounds can be put on one line (contract 4).
inline std::int64_t monotonic_ns(Clock::time_point at) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(at.time_since_epoch()).count();
}

// CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID), in ns.
std::int64_t thread_cpu_ns();

// A compiler barrier (like Google Benchmark's ClobberMemory): the compiler
// must assume all memory is read and written here. Placed after every call,
// it forces each call's outputs to be stored before the next call starts, so
// the work can be neither dropped nor merged or vectorised across calls.
// It emits no instruction.
inline void clobber_memory() { asm volatile("" : : : "memory"); }

// One timed round: `calls` calls (0 .. calls-1), wall and thread CPU time. At N
// callers (contract 4): each caller's calls, ns from the first start to the last
// end, cpu_ns every caller's thread together, caller_ns each caller's own span.
// start_ns: the round's (first) start on the monotonic clock (monotonic_ns).
struct Round {
  std::int64_t calls = 0;
  std::int64_t ns = 0;
  std::int64_t cpu_ns = 0;
  std::vector<std::int64_t> caller_ns = {};  // empty: one caller
  std::int64_t start_ns = 0;
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
  // Contract 6: serves the arrivals of `offsets` from start_ns (paced.hpp);
  // arrival j is served in slot j mod M (M: the calls the buffers hold).
  virtual Paced paced(std::span<const std::int64_t> offsets,
                      std::optional<std::int64_t> start_ns) = 0;
  // The last round's outputs (or the slots a paced round filled): each output's
  // calls * batch samples, in the model's order (none before any round).
  virtual std::vector<std::span<const std::byte>> last_outputs() const = 0;
};

// calls as a count of calls for a round (1 <= calls <= max_calls), or a UsageError.
std::size_t checked_calls(std::int64_t calls, std::int64_t max_calls);

// calls a float Model's call over consecutive samples, a barrier after each. Every
// value it uses is a parameter, so none is reloaded after the barrier.
template <Model M>
void run_calls(M& model, const float* in, std::size_t in_step, float* out, std::size_t out_step,
               std::size_t calls) {
  for (std::size_t i = 0; i < calls; ++i) {
    model.call(in + i * in_step, out + i * out_step);
    clobber_memory();
  }
}

// Fills `bytes` of values of dtype with NaN (floats) or the smallest value
// (integers); bool has no such value and is left as it is.
void poison(std::span<std::byte> bytes, Dtype dtype);

// Where each call reads and writes: per tensor, its first byte and the bytes one call takes.
struct TensorSteps {
  std::vector<const std::byte*> input_base;
  std::vector<std::size_t> input_step;
  std::vector<std::byte*> output_base;
  std::vector<std::size_t> output_step;
};

template <CallState M>
void run_tensor_calls(M& model, const TensorSteps& steps, std::span<const std::byte*> in,
                      std::span<std::byte*> out, std::size_t first, std::size_t calls) {
  if constexpr (requires { model.floats(); }) {
    // Our MLP keeps its cheapest timed loop: two float pointers stepped, no
    // loop over tensors per call (its rows count as they did on the float path).
    const std::size_t in_step = steps.input_step[0] / sizeof(float);
    const std::size_t out_step = steps.output_step[0] / sizeof(float);
    run_calls(model.floats(), reinterpret_cast<const float*>(steps.input_base[0]) + first * in_step,
              in_step, reinterpret_cast<float*>(steps.output_base[0]) + first * out_step, out_step,
              calls);
    return;
  }
  for (std::size_t i = first; i < first + calls; ++i) {
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = steps.input_base[k] + i * steps.input_step[k];
    for (std::size_t k = 0; k < out.size(); ++k) {
      out[k] = steps.output_base[k] + i * steps.output_step[k];
    }
    model.call(in, out);
    clobber_memory();
  }
}

template <TensorModel M>
class Rounds final : public Runner {
 public:
  // inputs: each input's samples, at least max_calls * batch of them (checked
  // by require_samples), in the signature's order.
  Rounds(M& model, const std::vector<Samples>& inputs, std::int64_t max_calls,
               std::int64_t batch)
      : model_(model), max_calls_(max_calls), in_(inputs.size()) {
    const Signature& signature = model.signature();
    const auto b = static_cast<std::size_t>(batch);
    const auto n = static_cast<std::size_t>(max_calls);
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      steps_.input_base.push_back(inputs[k].bytes.data());
      steps_.input_step.push_back(b * signature.inputs[k].sample_bytes());
    }
    for (const Tensor& output : signature.outputs) {
      const std::size_t step = b * output.sample_bytes();
      outputs_.emplace_back(n * step);
      scratch_.emplace_back(step);
      steps_.output_step.push_back(step);
      dtypes_.push_back(output.dtype);
    }
    for (auto& output : outputs_) steps_.output_base.push_back(output.data());
    out_.resize(outputs_.size());
  }

  // The warm-up (warm_up_calls): at most `calls` untimed calls, `seconds` once a few are made.
  Warmup warm_up(std::int64_t calls, double seconds = 0) {
    return warm_up_calls(calls, seconds, max_calls_, [this](std::size_t i) {
      run_tensor_calls(model_, steps_, std::span(in_), std::span(out_), i, 1);
    });
  }

  Round round(std::int64_t calls) override {
    const auto k = checked_calls(calls, max_calls_);
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      poison(std::span(outputs_[o]).first(k * steps_.output_step[o]), dtypes_[o]);
    }
    last_calls_ = k;
    const std::int64_t cpu_start = thread_cpu_ns();
    const auto start = Clock::now();
    run_tensor_calls(model_, steps_, std::span(in_), std::span(out_), 0, k);
    const std::int64_t ns = nanoseconds_since(start);
    const std::int64_t cpu_ns = thread_cpu_ns() - cpu_start;
    return Round{calls, ns, cpu_ns, {}, monotonic_ns(start)};
  }

  std::vector<std::int64_t> latencies(std::int64_t calls) override {
    const auto k = checked_calls(calls, max_calls_);
    for (std::size_t o = 0; o < scratch_.size(); ++o) out_[o] = scratch_[o].data();
    std::vector<std::int64_t> ns(k);
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t t = 0; t < in_.size(); ++t) {
        in_[t] = steps_.input_base[t] + i * steps_.input_step[t];
      }
      const auto start = Clock::now();
      model_.call(std::span<const std::byte* const>(in_), std::span<std::byte* const>(out_));
      clobber_memory();
      ns[i] = nanoseconds_since(start);
    }
    return ns;
  }

  // One caller serves every arrival, arrival j in slot j mod M of the run's buffers.
  Paced paced(std::span<const std::int64_t> offsets,
              std::optional<std::int64_t> start_ns) override {
    Pacing pacing(offsets, 1, static_cast<std::size_t>(max_calls_));
    const std::size_t k = pacing.filled();
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      poison(std::span(outputs_[o]).first(k * steps_.output_step[o]), dtypes_[o]);
    }
    last_calls_ = k;
    pacing.begin(start_ns);
    pacing.serve(0, [this](std::size_t slot) {
      run_tensor_calls(model_, steps_, std::span(in_), std::span(out_), slot, 1);
    });
    return pacing.result();
  }

  std::vector<std::span<const std::byte>> last_outputs() const override {
    std::vector<std::span<const std::byte>> all;
    if (last_calls_ == 0) return all;
    for (std::size_t o = 0; o < outputs_.size(); ++o) {
      all.emplace_back(outputs_[o].data(), last_calls_ * steps_.output_step[o]);
    }
    return all;
  }

 private:
  M& model_;
  std::int64_t max_calls_;
  TensorSteps steps_;
  std::vector<Dtype> dtypes_;                   // each output's
  std::vector<Bytes> outputs_;   // each output's N * batch samples
  std::vector<Bytes> scratch_;   // each output's one call, for the latency pass
  std::vector<const std::byte*> in_;             // the pointers of the call being made
  std::vector<std::byte*> out_;
  std::size_t last_calls_ = 0;
};

}  // namespace callbench
