#include "callbench/paced.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <string>
#include <thread>

#include "callbench/errors.hpp"

namespace callbench {

std::vector<std::int64_t> read_schedule(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw DataError(path, std::string("cannot read the schedule: ") + std::strerror(errno));
  const auto bytes = static_cast<std::size_t>(in.tellg());
  if (bytes == 0 || bytes % sizeof(std::int64_t) != 0) {
    throw DataError(path, "a schedule is int64 arrival offsets; " + std::to_string(bytes) +
                              " bytes is not");
  }
  const std::size_t k = bytes / sizeof(std::int64_t);
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

std::chrono::steady_clock::time_point wait_until(std::chrono::steady_clock::time_point due) {
  const auto spin = std::chrono::nanoseconds(kSpinNs);
  if (due - std::chrono::steady_clock::now() > spin) std::this_thread::sleep_until(due - spin);
  // sched_yield, not a bare spin: a caller waiting must not hold the core from one calling.
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= due) return now;
    ::sched_yield();
  }
}

Pacing::Pacing(std::span<const std::int64_t> offsets, std::size_t callers, std::size_t slots)
    : offsets_(offsets.begin(), offsets.end()),
      slots_(slots),
      times_(3 * offsets.size(), 0),
      served_by_(offsets.size(), 0),
      caller_calls_(callers, 0),
      ends_(callers) {}

void Pacing::begin(std::optional<std::int64_t> start_ns) {
  ready_ = Clock::now();
  start_ = start_ns ? Clock::time_point(std::chrono::nanoseconds(*start_ns))
                    : ready_ + std::chrono::nanoseconds(kPacedLeadNs);
}

std::vector<std::size_t> Pacing::slot_callers() const {
  std::vector<std::size_t> owners(filled());
  for (std::size_t j = offsets_.size() - filled(); j < offsets_.size(); ++j) {
    owners[j % slots_] = served_by_[j];
  }
  return owners;
}

Paced Pacing::result() const {
  const Clock::time_point end = *std::max_element(ends_.begin(), ends_.end());
  return Paced{static_cast<std::int64_t>(offsets_.size()),
               ns(end - start_),
               ns(start_.time_since_epoch()),
               ns(ready_.time_since_epoch()),
               static_cast<std::int64_t>(filled()),
               times_,
               caller_calls_};
}

}  // namespace callbench
