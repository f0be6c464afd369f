// paced: contract 6's paced rounds. The calls arrive on the harness's schedule
// (K arrival offsets in ns, read by read_schedule) from START, an absolute time
// on the monotonic clock (steady_clock: CLOCK_MONOTONIC, as Python's
// time.monotonic_ns), or from kPacedLeadNs after the set-up when START is absent;
// the set-up (slots, poisoned outputs, callers released) is done before it. A
// free caller takes the next arrival (one atomic counter for all callers), waits
// for its time if it is early (wait_until: a sleep to kSpinNs before it, then a
// spin on the clock that yields the core each turn), makes the call and keeps
// three times of it from its scheduled arrival (due): when it took it (negative:
// it was waiting), when the call started, when it ended. Wait is start - due,
// service end - start: a call that queued behind a slow one carries the queue in
// its wait, not its service (no coordinated omission). Arrival j is served in slot
// j mod M (M: the calls the run's buffers hold) of the caller that took it, with
// that slot's samples; the outputs hold each slot's last arrival.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

namespace callbench {

// What a paced round gives the dialogue: its answer's figures and its times.
struct Paced {
  std::int64_t calls = 0;
  std::int64_t ns = 0;        // from the round's start to the last call's end
  std::int64_t start_ns = 0;  // the round's start on the monotonic clock
  std::int64_t ready_ns = 0;  // when the set-up was done
  std::int64_t slots = 0;     // the slots the round filled: min(K, M)
  std::vector<std::int64_t> times;  // K taken, then K started, then K ended, ns from due
  std::vector<std::int64_t> caller_calls;  // the arrivals each caller served
  // Contract 7's batcher: batch_sizes[k - 1] the calls that took k arrivals (empty: none).
  std::vector<std::int64_t> batch_sizes = {};
};

// A caller early for its arrival sleeps until this long before it, then spins:
// a sleep overshoots by tens of microseconds, a call of our MLP takes a few.
inline constexpr std::int64_t kSpinNs = 200'000;
// A round without START begins this long after the set-up is done, so that
// releasing the callers is off the clock too.
inline constexpr std::int64_t kPacedLeadNs = 1'000'000;

// paced FILE's arrival offsets: K >= 1 int64 ns, non-negative and non-decreasing
// (else a DataError naming it).
std::vector<std::int64_t> read_schedule(const std::filesystem::path& path);

// Back on the steady clock at `due` or just after (a sleep, then a yielding
// spin); the clock's reading then.
std::chrono::steady_clock::time_point wait_until(std::chrono::steady_clock::time_point due);

// One paced round's arrivals and what each caller made of them. Each arrival's
// times are written by the one caller that took it, each caller's by itself.
class Pacing {
 public:
  using Clock = std::chrono::steady_clock;

  // slots: M, the calls the run's buffers hold.
  Pacing(std::span<const std::int64_t> offsets, std::size_t callers, std::size_t slots);

  // The slots the round fills: min(K, M).
  std::size_t filled() const { return std::min(offsets_.size(), slots_); }

  // The set-up is done: the round starts at start_ns, or kPacedLeadNs from now.
  // Called before the callers are released.
  void begin(std::optional<std::int64_t> start_ns);

  // Caller `caller` serves arrivals until none is left; call(slot) makes a call in
  // that slot.
  template <class Call>
  void serve(std::size_t caller, Call&& call) {
    std::int64_t served = 0;
    Clock::time_point last{};
    const std::size_t count = offsets_.size();
    for (;;) {
      const std::size_t j = next_.fetch_add(1, std::memory_order_relaxed);
      if (j >= count) break;
      const Clock::time_point due = start_ + std::chrono::nanoseconds(offsets_[j]);
      const Clock::time_point now = Clock::now();
      const Clock::time_point begin = now < due ? wait_until(due) : now;
      call(j % slots_);
      last = Clock::now();
      times_[j] = ns(now - due);
      times_[count + j] = ns(begin - due);
      times_[2 * count + j] = ns(last - due);
      served_by_[j] = caller;
      ++served;
    }
    caller_calls_[caller] = served;
    ends_[caller] = last;
  }

  // The caller that served each filled slot's last arrival.
  std::vector<std::size_t> slot_callers() const;

  // The answer's figures and the times, once every caller is done.
  Paced result() const;

 private:
  static std::int64_t ns(Clock::duration d) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  }

  std::vector<std::int64_t> offsets_;
  std::size_t slots_;
  std::vector<std::int64_t> times_;
  std::vector<std::size_t> served_by_;
  std::vector<std::int64_t> caller_calls_;
  std::vector<Clock::time_point> ends_;
  Clock::time_point start_{}, ready_{};
  std::atomic<std::size_t> next_{0};
};

}  // namespace callbench
