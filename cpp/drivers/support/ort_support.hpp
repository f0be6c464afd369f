// What the ONNX Runtime drivers share: the environment, a single-threaded
// session made once with checked loading, the model's signature (contract 3:
// every input and output, its dtype and shape per sample) as the session
// reads it, tensors over caller memory, and the output check.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <onnxruntime_cxx_api.h>

#include "callbench/model.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// Env, session and CPU memory info, made once for calls of `batch` samples.
// Names, dtypes and shapes come from the model (ours: "x" float32 [2] ->
// "y" float32 [1]; a user's, its own).
class OrtModel {
 public:
  OrtModel(const std::filesystem::path& path, std::int64_t threads, std::int64_t batch);
  OrtModel(OrtModel&&) = delete;  // the name pointers point into it

  Ort::Session& session() { return session_; }
  const std::filesystem::path& path() const { return path_; }
  const Signature& signature() const { return signature_; }

  // Names as the C API wants them (read once, used by every call).
  const char* const* input_names() const { return input_names_.data(); }
  const char* const* output_names() const { return output_names_.data(); }
  std::size_t input_count() const { return input_names_.size(); }
  std::size_t output_count() const { return output_names_.size(); }
  // Bytes of one call's batch of input k, of output k.
  std::size_t input_bytes(std::size_t k) const { return input_bytes_[k]; }
  std::size_t output_bytes(std::size_t k) const { return output_bytes_[k]; }

  // Tensors over caller memory (no copy): input k's batch, output k's batch.
  // ORT only reads its inputs; its API takes a non-const pointer.
  Ort::Value wrap_input(std::size_t k, const std::byte* data) const;
  Ort::Value wrap_output(std::size_t k, std::byte* data) const;
  // ... of `samples` samples, not the batch (contract 7's gathered calls).
  Ort::Value wrap_input(std::size_t k, const std::byte* data, std::size_t samples) const;
  Ort::Value wrap_output(std::size_t k, std::byte* data, std::size_t samples) const;

  // The batch the session was opened for, and the batch size each input's graph
  // fixes, if one does (a dimension of the graph's, not a batch dimension).
  std::size_t batch() const { return batch_; }
  std::optional<std::int64_t> fixed_batch() const;

  // Throws DataError(path, ...) unless the values are the model's outputs of one call:
  // each of its dtype and of shape [batch, *shape].
  void check_outputs(const std::vector<Ort::Value>& values) const;

 private:
  std::filesystem::path path_;
  std::size_t batch_;
  Ort::Env env_;
  Ort::Session session_;
  Ort::MemoryInfo memory_;
  Signature signature_;
  std::vector<const char*> input_names_;   // into signature_'s names
  std::vector<const char*> output_names_;
  std::vector<std::vector<std::int64_t>> input_shapes_;  // [batch, *shape]
  std::vector<std::vector<std::int64_t>> output_shapes_;
  std::vector<std::size_t> input_bytes_;
  std::vector<std::size_t> output_bytes_;
};

// Every input and output as an OrtValue over a buffer allocated once, for the
// variants that reuse them every call. Made after a plain Run has checked the
// model's outputs (a reused output would hide a wrong one).
class OrtFixedBuffers {
 public:
  explicit OrtFixedBuffers(OrtModel& model);

  void load(std::span<const std::byte* const> in);
  void store(std::span<std::byte* const> out) const;
  std::vector<Ort::Value>& inputs() { return inputs_; }
  std::vector<Ort::Value>& outputs() { return outputs_; }

 private:
  std::vector<Bytes> in_;
  std::vector<Bytes> out_;
  std::vector<Ort::Value> inputs_;
  std::vector<Ort::Value> outputs_;
};

// One caller's call of the -reuse way: its own OrtValues over fixed buffers (made
// once), each call copying its samples in, Run into them, the results copied out.
class OrtReuseCall {
 public:
  explicit OrtReuseCall(OrtModel& model) : model_(model), buffers_(model) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    buffers_.load(in);
    model_.session().Run(run_options_, model_.input_names(), buffers_.inputs().data(),
                         model_.input_count(), model_.output_names(), buffers_.outputs().data(),
                         model_.output_count());
    buffers_.store(out);
  }

 private:
  OrtModel& model_;
  OrtFixedBuffers buffers_;
  Ort::RunOptions run_options_;
};

// Contract 7's gathered calls: for each size n of 1..B, OrtValues over fixed
// buffers of n samples bound once to an IoBinding of their own (ONNX Runtime
// takes a changing batch dimension without reloading); each call copies its n
// samples in, runs the binding of n and copies the n results out. A model whose
// graph fixes its batch size takes no gathered call (DataError at load).
class OrtGatheredCalls {
 public:
  explicit OrtGatheredCalls(OrtModel& model);

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out,
            std::size_t n);

 private:
  struct Sized {
    std::vector<Bytes> in, out;
    std::vector<Ort::Value> inputs, outputs;
    Ort::IoBinding binding;
  };
  OrtModel& model_;
  std::vector<Sized> sized_;  // sized_[n - 1]: the calls of n
  std::vector<std::size_t> in_sample_, out_sample_;  // each tensor's bytes a sample
  Ort::RunOptions run_options_;
};

// What a row whose batcher calls at the gathered size says of it (its notes).
inline constexpr std::string_view kGatheredCall =
    "IoBinding to OrtValues over fixed buffers of each size 1..B, the one of n run";

// Contract 4: how the rows sharing one session say so.
inline constexpr std::string_view kSharedSession =
    "one Ort::Session, Run from every caller's thread (documented thread-safe)";

// One untimed Run on zeros through values the session allocates, checked.
void check_model_answers(OrtModel& model);

// ONNX Runtime's own version string (of the library actually loaded).
std::string ort_version();

}  // namespace callbench
