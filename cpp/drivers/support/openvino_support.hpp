// What the OpenVINO drivers share: mlp.onnx read through the ONNX frontend and
// compiled for the CPU (f32, --threads inference threads) with checked
// loading, one InferRequest, the output check and the notes; and the model
// of the drivers that set fixed tensors once.
#pragma once

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <openvino/openvino.hpp>

#include "callbench/model.hpp"
#include "callbench/options.hpp"

namespace callbench {

// The compiled model and one InferRequest on it, made once. The model must
// have one input and one output; loading errors are one-line DataErrors.
// Sizes come from the model (ours: [batch, 2] -> [batch, 1]; a user's, its own).
// A static_batch > 0 reshapes the input to [static_batch, F] before compiling
// (the ONNX file's batch is dynamic; static shapes skip per-call shape work).
class OpenVinoModel {
 public:
  OpenVinoModel(const std::filesystem::path& path, std::int64_t threads,
                std::int64_t static_batch = 0);

  ov::InferRequest& request() { return request_; }
  const std::filesystem::path& path() const { return path_; }

  // Floats per sample in and out, as the model declares them.
  SampleWidths sample_widths() const { return widths_; }
  // Tensors over caller memory (no copy): the input [batch, F], the output [batch, ...].
  ov::Tensor wrap_input(float* data, std::int64_t batch) const;
  ov::Tensor wrap_output(float* data, std::int64_t batch) const;
  // One untimed inference on zeros of shape [batch, F] through tensors the
  // request owns; throws DataError unless it answers [batch, ...] f32.
  void check(std::int64_t batch);

  // How the driver calls (call), the precision, threads, streams and input
  // shape read back from the compiled model.
  Notes notes(std::string call) const;

 private:
  std::filesystem::path path_;
  ov::Core core_;
  ov::CompiledModel compiled_;
  ov::InferRequest request_;
  SampleWidths widths_;
  ov::Shape output_shape_;  // per sample
};

// The model of the -reuse and -static drivers: input and output ov::Tensors
// over fixed buffers, set on the request once; each call copies its samples
// in, runs infer() straight into the output buffer and copies the result out.
// static_shape compiles for a static [batch, F] input.
class OpenVinoFixedTensors {
 public:
  OpenVinoFixedTensors(const Options& options, bool static_shape);

  void call(const float* in, float* out) {
    std::memcpy(in_.data(), in, in_.size() * sizeof(float));
    ov_.request().infer();
    std::memcpy(out, out_.data(), out_.size() * sizeof(float));
  }
  Notes notes(std::string call) const { return ov_.notes(std::move(call)); }
  SampleWidths sample_widths() const { return ov_.sample_widths(); }

 private:
  OpenVinoModel ov_;
  std::vector<float> in_;
  std::vector<float> out_;
};


// OpenVINO's own version string (of the library loaded).
std::string openvino_version();

}  // namespace callbench
