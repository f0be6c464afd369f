#include "callbench/paced.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <string>
#include <thread>

#include "callbench/errors.hpp"

namespace callbench {

std::vector<std::int64_t> read_schedule(const std::filesystem::path& path, std::int64_t max_calls) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw DataError(path, std::string("cannot read the schedule: ") + std::strerror(errno));
  const auto bytes = static_cast<std::size_t>(in.tellg());
  if (bytes == 0 || bytes % sizeof(std::int64_t) != 0) {
    throw DataError(path, "a schedule is int64 arrival offsets; " + std::to_string(bytes) +
                              " bytes is not");
  }
  const std::size_t k = bytes / sizeof(std::int64_t);
  if (k > static_cast<std::size_t>(max_calls)) {
    throw UsageError("paced: " + std::to_string(k) + " arrivals in " + path.string() +
                     ", more than --calls " + std::to_string(max_calls));
  }
  std::vector<std::int64_t> offsets(k);
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(offsets.data()), static_cast<std::streamsize>(bytes))) {
    throw DataError(path, "read failed after " + std::to_string(in.gcount()) + " bytes");
  }
  if (offsets.front() < 0 || !std::is_sorted(offsets.begin(), offsets.end())) {
    throw DataError(path, "arrival offsets must be non-negative and non-decreasing");
  }
  return offsets;
}

void wait_until(std::chrono::steady_clock::time_point due) {
  const auto spin = std::chrono::nanoseconds(kSpinNs);
  if (due - std::chrono::steady_clock::now() > spin) std::this_thread::sleep_until(due - spin);
  // sched_yield, not a bare spin: a caller waiting must not hold the core from one calling.
  while (std::chrono::steady_clock::now() < due) ::sched_yield();
}

Pacing::Pacing(std::span<const std::int64_t> offsets, std::size_t callers)
    : offsets_(offsets.begin(), offsets.end()),
      due_(offsets.size()),
      latencies_(offsets.size(), 0),
      served_by_(offsets.size(), 0),
      caller_calls_(callers, 0),
      ends_(callers) {}

void Pacing::begin() {
  start_ = Clock::now();
  for (std::size_t j = 0; j < offsets_.size(); ++j) {
    due_[j] = start_ + std::chrono::nanoseconds(offsets_[j]);
  }
}

Paced Pacing::result() const {
  const Clock::time_point end = *std::max_element(ends_.begin(), ends_.end());
  return Paced{static_cast<std::int64_t>(offsets_.size()),
               std::chrono::duration_cast<std::chrono::nanoseconds>(end - start_).count(),
               std::chrono::duration_cast<std::chrono::nanoseconds>(start_.time_since_epoch())
                   .count(),
               latencies_, caller_calls_};
}

}  // namespace callbench
