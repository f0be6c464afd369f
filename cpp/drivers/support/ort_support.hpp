// What the ONNX Runtime drivers share: the environment, a single-threaded
// session made once with checked loading, the model's names and sizes as
// the session reads them, and the output check.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <onnxruntime_cxx_api.h>

#include "callbench/model.hpp"

namespace callbench {

// Env, session and CPU memory info, made once. One float input [batch, F]
// and one float output [batch, ...]: names and sizes come from the model
// (ours: "x" [batch, 2] and "y" [batch, 1]; a user's, --onnx, its own).
class OrtModel {
 public:
  OrtModel(const std::filesystem::path& path, std::int64_t threads);

  Ort::Session& session() { return session_; }
  const Ort::MemoryInfo& memory() const { return memory_; }
  const std::filesystem::path& path() const { return path_; }

  // Names as the C API wants them (read once, used by every call).
  const char* const* input_names() const { return input_name_ptr_; }
  const char* const* output_names() const { return output_name_ptr_; }
  // Floats per sample in and out.
  SampleWidths sample_widths() const { return widths_; }

  // Tensors over caller memory (no copy): the input [batch, F], the output [batch, ...].
  Ort::Value wrap_input(float* data, std::int64_t batch) const;
  Ort::Value wrap_output(float* data, std::int64_t batch) const;

 private:
  std::filesystem::path path_;
  Ort::Env env_;
  Ort::Session session_;
  Ort::MemoryInfo memory_;
  std::string input_name_;
  std::string output_name_;
  const char* input_name_ptr_[1] = {nullptr};
  const char* output_name_ptr_[1] = {nullptr};
  std::vector<std::int64_t> output_shape_;  // per sample
  SampleWidths widths_;
};

// Input and output OrtValues over buffers allocated once, for the variants
// that reuse them every call. Made after a plain Run has checked the model's
// output shape (a reused output would hide a wrong one).
class OrtFixedBuffers {
 public:
  OrtFixedBuffers(OrtModel& model, std::int64_t batch);

  void load(const float* in) { std::memcpy(in_.data(), in, in_.size() * sizeof(float)); }
  void store(float* out) const { std::memcpy(out, out_.data(), out_.size() * sizeof(float)); }
  Ort::Value& x() { return x_; }
  Ort::Value& y() { return y_; }

 private:
  std::vector<float> in_;
  std::vector<float> out_;
  Ort::Value x_;
  Ort::Value y_;
};

// ONNX Runtime's own version string (of the library actually loaded).
std::string ort_version();

// Throws DataError(path, ...) unless value is a float tensor of batch rows of
// output_width floats each.
void check_output(const std::filesystem::path& path, const Ort::Value& value, std::int64_t batch,
                  std::size_t output_width);

}  // namespace callbench
