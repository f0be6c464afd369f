#include "callbench/outputs.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

void write_bytes(const std::filesystem::path& path, const void* data, std::size_t bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw DataError(path, std::string("cannot write: ") + std::strerror(errno));
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  out.close();
  if (!out) throw DataError(path, "write failed");
}

}  // namespace

void write_floats(const std::filesystem::path& path, std::span<const float> values) {
  write_bytes(path, values.data(), values.size_bytes());
}

void write_int64s(const std::filesystem::path& path, std::span<const std::int64_t> values) {
  write_bytes(path, values.data(), values.size_bytes());
}

}  // namespace callbench
