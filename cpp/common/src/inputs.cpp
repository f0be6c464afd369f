#include "callbench/inputs.hpp"

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <string>

#include "callbench/errors.hpp"

namespace callbench {

static_assert(std::endian::native == std::endian::little,
              "the artifacts are little-endian float32; this host is not");

std::vector<float> read_finite_floats(const std::filesystem::path& path, std::size_t width,
                                      const char* what) {
  require_file(path);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw DataError(path, std::string("cannot open: ") + std::strerror(errno));
  const auto bytes = static_cast<std::size_t>(in.tellg());
  const std::size_t record = sizeof(float) * width;
  if (bytes % record != 0) {
    throw DataError(path, "size " + std::to_string(bytes) + " bytes is not a whole number of " +
                              what + "s (" + std::to_string(record) + " bytes each)");
  }
  std::vector<float> values(bytes / sizeof(float));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(bytes))) {
    throw DataError(path, "read failed after " + std::to_string(in.gcount()) + " bytes");
  }
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) {
      throw DataError(path, std::string(what) + " " + std::to_string(i / width) +
                                " is NaN or Inf");
    }
  }
  return values;
}

void require_samples(const std::filesystem::path& path, std::size_t samples,
                     const Options& options) {
  const auto needed =
      static_cast<std::size_t>(options.calls) * static_cast<std::size_t>(options.batch);
  if (needed > samples) {
    throw UsageError("--calls " + std::to_string(options.calls) + " x --batch " +
                     std::to_string(options.batch) + " needs " + std::to_string(needed) +
                     " samples but " + path.string() + " holds " + std::to_string(samples));
  }
}

}  // namespace callbench
