#include "callbench/tensor_rounds.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

namespace callbench {
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
