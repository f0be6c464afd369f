// inputs: reading and checking inputs.f32 (and the other float32 artifacts).
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "callbench/model.hpp"
#include "callbench/options.hpp"

namespace callbench {

inline constexpr std::size_t kInputWidth = 2;   // floats per sample in inputs.f32
inline constexpr std::size_t kOutputWidth = 1;  // floats per sample in the outputs

// The whole file as little-endian float32 records of width floats, every value
// finite; what names one record in messages ("sample").
// Throws DataError (missing, unreadable, size not a multiple of 4*width, NaN/Inf).
std::vector<float> read_finite_floats(const std::filesystem::path& path, std::size_t width,
                                      const char* what);

// inputs.f32: [N, 2] float32 (a model of other inputs is a TensorModel: tensors.hpp), N >= 0,
// no NaN or Inf.
std::vector<float> read_inputs(const std::filesystem::path& path);

// Throws UsageError unless the file holds the calls * batch samples the run needs.
void require_samples(const std::filesystem::path& path, std::size_t samples,
                     const Options& options);

}  // namespace callbench
