// outputs: writing the --outputs (float32) and --latencies (int64) files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>

namespace callbench {

// Little-endian raw arrays; throws DataError naming the file on failure.
void write_floats(const std::filesystem::path& path, std::span<const float> values);
void write_int64s(const std::filesystem::path& path, std::span<const std::int64_t> values);

}  // namespace callbench
