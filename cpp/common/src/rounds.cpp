#include "callbench/rounds.hpp"

#include <ctime>
#include <string>

namespace callbench {

std::int64_t thread_cpu_ns() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::size_t checked_calls(std::int64_t calls, std::int64_t max_calls) {
  if (calls < 1 || calls > max_calls) {
    throw UsageError("a round takes 1 to " + std::to_string(max_calls) + " calls, got " +
                     std::to_string(calls));
  }
  return static_cast<std::size_t>(calls);
}

}  // namespace callbench
