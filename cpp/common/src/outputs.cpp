#include "callbench/outputs.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

void write_bytes(const std::filesystem::path& path,
                 const std::vector<std::span<const std::byte>>& parts) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw DataError(path, std::string("cannot write: ") + std::strerror(errno));
  for (const auto part : parts) {
    out.write(reinterpret_cast<const char*>(part.data()),
              static_cast<std::streamsize>(part.size()));
  }
  out.close();
  if (!out) throw DataError(path, "write failed");
}

}  // namespace

void write_floats(const std::filesystem::path& path, std::span<const float> values) {
  write_bytes(path, {std::as_bytes(values)});
}

void write_int64s(const std::filesystem::path& path, std::span<const std::int64_t> values) {
  write_bytes(path, {std::as_bytes(values)});
}

void write_outputs(const std::filesystem::path& path,
                   const std::vector<std::span<const std::byte>>& outputs) {
  write_bytes(path, outputs);
}

}  // namespace callbench
