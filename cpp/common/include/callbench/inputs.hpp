// inputs: reading a float32 artifact of finite values (the MLP's weights) and
// checking that the inputs hold the samples a run needs (the inputs
// themselves are read by their signature: tensors.hpp).
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "callbench/model.hpp"
#include "callbench/options.hpp"

namespace callbench {

// The whole file as little-endian float32 records of width floats, every value
// finite; what names one record in messages ("sample").
// Throws DataError (missing, unreadable, size not a multiple of 4*width, NaN/Inf).
std::vector<float> read_finite_floats(const std::filesystem::path& path, std::size_t width,
                                      const char* what);

// Throws UsageError unless the file holds the calls * batch samples the run needs.
void require_samples(const std::filesystem::path& path, std::size_t samples,
                     const Options& options);

}  // namespace callbench
