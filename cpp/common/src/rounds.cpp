#include "callbench/rounds.hpp"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <limits>
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

namespace {

template <class T>
void fill_with(std::span<std::byte> bytes, T value) {
  for (std::size_t at = 0; at + sizeof(T) <= bytes.size(); at += sizeof(T)) {
    std::memcpy(bytes.data() + at, &value, sizeof(T));
  }
}

}  // namespace

void poison(std::span<std::byte> bytes, Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return fill_with(bytes, std::numeric_limits<float>::quiet_NaN());
    case Dtype::float64: return fill_with(bytes, std::numeric_limits<double>::quiet_NaN());
    case Dtype::float16: return fill_with(bytes, std::uint16_t{0x7E00});  // a quiet NaN
    case Dtype::int64: return fill_with(bytes, std::numeric_limits<std::int64_t>::min());
    case Dtype::int32: return fill_with(bytes, std::numeric_limits<std::int32_t>::min());
    case Dtype::int8: return fill_with(bytes, std::numeric_limits<std::int8_t>::min());
    case Dtype::uint8: return fill_with(bytes, std::uint8_t{0});
    case Dtype::boolean: return;
  }
}

}  // namespace callbench
