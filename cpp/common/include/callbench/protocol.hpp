// The timing protocol of the contract, shared by every C++ driver: warm-up,
// R timed repeats of N calls over consecutive samples, optional per-call
// latencies. A template so that each driver's call is inlined into the loop:
// the loop itself must cost nothing next to a tens-of-nanoseconds call.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "callbench/input_data.hpp"
#include "callbench/options.hpp"

namespace callbench {

using Clock = std::chrono::steady_clock;

inline std::int64_t nanoseconds_since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

// A compiler barrier (like Google Benchmark's ClobberMemory): the compiler
// must assume all memory is read and written here. Placed after every call,
// it forces each call's outputs to be stored before the next call starts, so
// the work can be neither dropped nor merged or vectorised across calls.
// It emits no instruction.
inline void clobber_memory() { asm volatile("" : : : "memory"); }

struct Timings {
  std::vector<std::int64_t> repeat_ns;    // wall time of each repeat
  std::vector<std::int64_t> latency_ns;   // per call, only with --latencies
};

// model(const float* in, float* out) runs one call: in points at batch * 2
// floats, out at batch * 1 floats. outputs must hold calls * batch floats;
// it ends holding the last repeat's outputs.
template <class Model>
Timings run_protocol(const Options& options, const float* inputs, float* outputs, Model& model) {
  const auto calls = static_cast<std::size_t>(options.calls);
  const auto in_step = static_cast<std::size_t>(options.batch) * kInputWidth;
  const auto out_step = static_cast<std::size_t>(options.batch) * kOutputWidth;
  Timings timings;

  for (std::int64_t w = 0; w < options.warmup; ++w) {
    const auto i = static_cast<std::size_t>(w) % calls;
    model(inputs + i * in_step, outputs + i * out_step);
    clobber_memory();
  }

  timings.repeat_ns.reserve(static_cast<std::size_t>(options.repeats));
  for (std::int64_t r = 0; r < options.repeats; ++r) {
    const auto start = Clock::now();
    for (std::size_t i = 0; i < calls; ++i) {
      model(inputs + i * in_step, outputs + i * out_step);
      clobber_memory();
    }
    timings.repeat_ns.push_back(nanoseconds_since(start));
  }

  if (options.latencies) {
    // A scratch buffer, so the outputs file keeps exactly the last repeat.
    const auto n = static_cast<std::size_t>(latency_calls(options));
    std::vector<float> scratch(out_step);
    timings.latency_ns.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto start = Clock::now();
      model(inputs + i * in_step, scratch.data());
      clobber_memory();
      timings.latency_ns[i] = nanoseconds_since(start);
    }
  }
  return timings;
}

}  // namespace callbench
