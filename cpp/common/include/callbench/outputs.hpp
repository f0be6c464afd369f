// outputs: writing the --outputs (each output in its dtype) and --latencies
// (int64) files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace callbench {

// Little-endian raw arrays; throws DataError naming the file on failure.
void write_floats(const std::filesystem::path& path, std::span<const float> values);
void write_int64s(const std::filesystem::path& path, std::span<const std::int64_t> values);
// --outputs: each output's bytes, one after another (the contract's order).
void write_outputs(const std::filesystem::path& path,
                   const std::vector<std::span<const std::byte>>& outputs);

}  // namespace callbench
