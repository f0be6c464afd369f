// What the ONNX Runtime drivers share: the environment, a single-threaded
// session made once with checked loading, and the output check.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <onnxruntime_cxx_api.h>

namespace callbench {

// Env, session and CPU memory info, made once. Input "x" [batch, 2], output
// "y" [batch, 1], as the exporter writes them.
class OrtModel {
 public:
  OrtModel(const std::filesystem::path& path, std::int64_t threads);

  Ort::Session& session() { return session_; }
  const Ort::MemoryInfo& memory() const { return memory_; }
  const std::filesystem::path& path() const { return path_; }

  // Names as the C API wants them (created once, used by every call).
  static constexpr const char* input_names[1] = {"x"};
  static constexpr const char* output_names[1] = {"y"};

  // A tensor over caller memory (no copy) of shape [batch, width].
  Ort::Value wrap(float* data, std::int64_t batch, std::int64_t width) const;

 private:
  std::filesystem::path path_;
  Ort::Env env_;
  Ort::Session session_;
  Ort::MemoryInfo memory_;
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

// Throws DataError(path, ...) unless value is a float tensor of shape [batch, 1].
void check_output(const std::filesystem::path& path, const Ort::Value& value, std::int64_t batch);

}  // namespace callbench
