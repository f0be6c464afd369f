// paced: contract 5's paced rounds. The calls arrive on the harness's schedule
// (K arrival offsets in ns from the round's start, read by read_schedule); a
// free caller takes the next arrival (one atomic counter for all callers),
// waits for its time if it is early (wait_until: a sleep to kSpinNs before it,
// then a spin on the clock that yields the core each turn), makes the call and
// records its latency from the *scheduled arrival* to the call's end, so a call
// that queued behind a slow one carries the wait (no coordinated omission).
// Arrival j takes the samples of call j mod S and leaves its outputs in place j
// of the caller that served it (served_by).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace callbench {

// What a paced round gives the dialogue: its answer's figures and the latencies.
struct Paced {
  std::int64_t calls = 0;
  std::int64_t ns = 0;        // from the round's start to the last call's end
  std::int64_t start_ns = 0;  // the round's start on the monotonic clock
  std::vector<std::int64_t> latencies;     // each arrival's, in arrival order
  std::vector<std::int64_t> caller_calls;  // the arrivals each caller served
};

// A caller early for its arrival sleeps until this long before it, then spins:
// a sleep overshoots by tens of microseconds, a call of our MLP takes a few.
inline constexpr std::int64_t kSpinNs = 200'000;

// paced FILE's arrival offsets: K int64 ns, 1 <= K <= max_calls (else a
// UsageError), non-negative and non-decreasing (else a DataError naming it).
std::vector<std::int64_t> read_schedule(const std::filesystem::path& path, std::int64_t max_calls);

// Back on the steady clock at `due` or just after: a sleep, then a yielding spin.
void wait_until(std::chrono::steady_clock::time_point due);

// One paced round's arrivals and what each caller made of them. Each arrival's
// slots are written by the one caller that took it, each caller's by itself.
class Pacing {
 public:
  using Clock = std::chrono::steady_clock;

  Pacing(std::span<const std::int64_t> offsets, std::size_t callers);

  // The round's start: now. Called before the callers are released.
  void begin();

  // Caller `caller` serves arrivals until none is left; call(j) makes arrival j's call.
  template <class Call>
  void serve(std::size_t caller, Call&& call) {
    std::int64_t served = 0;
    Clock::time_point last{};
    for (;;) {
      const std::size_t j = next_.fetch_add(1, std::memory_order_relaxed);
      if (j >= due_.size()) break;
      wait_until(due_[j]);
      call(j);
      last = Clock::now();
      latencies_[j] = std::chrono::duration_cast<std::chrono::nanoseconds>(last - due_[j]).count();
      served_by_[j] = caller;
      ++served;
    }
    caller_calls_[caller] = served;
    ends_[caller] = last;
  }

  // The caller that served each arrival.
  const std::vector<std::size_t>& served_by() const { return served_by_; }

  // The answer's figures, once every caller is done.
  Paced result() const;

 private:
  std::vector<std::int64_t> offsets_;
  std::vector<Clock::time_point> due_;
  std::vector<std::int64_t> latencies_;
  std::vector<std::size_t> served_by_;
  std::vector<std::int64_t> caller_calls_;
  std::vector<Clock::time_point> ends_;
  Clock::time_point start_{};
  std::atomic<std::size_t> next_{0};
};

}  // namespace callbench
