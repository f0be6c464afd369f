// What the OpenVINO drivers share: mlp.onnx read through the ONNX frontend and
// compiled for the CPU (f32, --threads inference threads) with checked
// loading, its signature (contract 3), one InferRequest, the output check and
// the notes; and the model of the drivers that set fixed tensors once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <openvino/openvino.hpp>

#include "callbench/model.hpp"
#include "callbench/options.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// OpenVINO's own version string (of the library loaded).
std::string openvino_version();

// OpenVINO's CPU pinning (ov::hint::enable_cpu_pinning, on by default on Linux) as a driver
// asks for it: kDefault leaves it alone; kForCallers turns it on only where the process
// has one CPU to run on and one caller. OpenVINO pins each thread that runs an inference
// (the callers' own, with one stream) to its stream's CPU: N callers, or N copies over the
// same cores, were held to one core (C++ at 2 callers: 0.42x one caller, one core idle;
// a plain program with pinning off 1.1-1.6x), while one caller on the one core the
// harness gives it runs faster pinned.
enum class Pinning { kDefault, kForCallers };

// Whether kForCallers pins for `options` in this process (its CPUs read now).
bool pins_for(const Options& options);

// The compiled model and one InferRequest on it, made once for calls of
// `batch` samples. Loading errors are one-line DataErrors. The signature
// (contract 3) comes from the model (ours: "x" float32 [2] -> "y" float32 [1];
// a user's, its own). static_shape reshapes every input to [batch, *shape]
// before compiling (the ONNX file's batch is dynamic; static shapes skip
// per-call shape work).
class OpenVinoModel {
 public:
  OpenVinoModel(const std::filesystem::path& path, const Options& options,
                bool static_shape = false, Pinning pinning = Pinning::kForCallers);

  ov::InferRequest& request() { return request_; }
  // Another InferRequest on the one compiled model (contract 4: one per caller).
  ov::InferRequest create_request() { return compiled_.create_infer_request(); }
  const std::filesystem::path& path() const { return path_; }
  const Signature& signature() const { return signature_; }
  std::size_t input_bytes(std::size_t k) const { return input_bytes_[k]; }
  std::size_t output_bytes(std::size_t k) const { return output_bytes_[k]; }

  // Tensors over caller memory (no copy): input k's batch, output k's batch.
  // OpenVINO only reads its inputs; the Tensor constructor takes void*.
  ov::Tensor wrap_input(std::size_t k, const std::byte* data) const;
  ov::Tensor wrap_output(std::size_t k, std::byte* data) const;
  // One untimed inference on zeros through tensors the request owns; throws
  // DataError unless each output is of its dtype and shape [batch, *shape].
  void check();

  // How the driver calls (call), the precision, threads, streams and input
  // shape read back from the compiled model.
  Notes notes(std::string call) const;

 private:
  std::filesystem::path path_;
  Pinning pinning_;
  ov::Core core_;
  ov::CompiledModel compiled_;
  ov::InferRequest request_;
  Signature signature_;
  std::vector<ov::Shape> input_shapes_;  // [batch, *shape]
  std::vector<ov::Shape> output_shapes_;
  std::vector<std::size_t> input_bytes_;
  std::vector<std::size_t> output_bytes_;
};

// One caller's call of the fixed-tensors way (contract 4): an InferRequest of its own on
// the shared compiled model, its Tensors over buffers of its own, set once.
class OpenVinoFixedRequest {
 public:
  explicit OpenVinoFixedRequest(OpenVinoModel& model);

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    for (std::size_t k = 0; k < in_.size(); ++k) std::memcpy(in_[k].data(), in[k], in_[k].size());
    request_.infer();
    for (std::size_t k = 0; k < out_.size(); ++k) {
      std::memcpy(out[k], out_[k].data(), out_[k].size());
    }
  }

 private:
  ov::InferRequest request_;
  std::vector<Bytes> in_;
  std::vector<Bytes> out_;
};

// One caller's own CompiledModel (contract 4, per caller; CPU pinning as kForCallers sets it)
// and its fixed-tensor request: OpenVINO runs the requests of one compiled model in parallel
// only as far as its streams go (one, at one inference thread), so N callers of one model
// take turns; a model each runs them side by side.
class OpenVinoOwnModel {
 public:
  OpenVinoOwnModel(const Options& options, bool static_shape)
      : model_(std::make_unique<OpenVinoModel>(options.models / "mlp.onnx", options, static_shape)),
        request_(*model_) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    request_.call(in, out);
  }

 private:
  std::unique_ptr<OpenVinoModel> model_;  // where the request's model stays while it moves
  OpenVinoFixedRequest request_;
};

// The model of the -reuse and -static drivers (built in their main): every input and output
// an ov::Tensor over a fixed buffer, set on the request once; each call copies its samples
// in, runs infer() straight into the output buffers and copies the results out.
// static_shape compiles for static [batch, *shape] inputs; pinning as Pinning says.
class OpenVinoFixedTensors {
 public:
  // `call`: the notes' words for how the driver calls.
  OpenVinoFixedTensors(const Options& options, bool static_shape, Pinning pinning,
                       std::string call);

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    for (std::size_t k = 0; k < in_.size(); ++k) std::memcpy(in_[k].data(), in[k], in_[k].size());
    ov_.request().infer();
    for (std::size_t k = 0; k < out_.size(); ++k) {
      std::memcpy(out[k], out_[k].data(), out_[k].size());
    }
  }
  Notes notes() const { return ov_.notes(call_); }
  std::string runtime_version() const { return openvino_version(); }
  const Signature& signature() const { return ov_.signature(); }
  // Contract 4: OpenVINO's compiled model serves many InferRequests, one per concurrent
  // inference; each caller makes its own.
  Holding holding() const {
    return {kShared, pinning_ == Pinning::kDefault
                         ? "one CompiledModel, an InferRequest of its own in each caller, "
                           "OpenVINO's CPU pinning left at its default"
                         : "one CompiledModel, an InferRequest of its own in each caller, "
                           "OpenVINO's CPU pinning off"};
  }
  OpenVinoFixedRequest caller() { return OpenVinoFixedRequest(ov_); }

 private:
  Pinning pinning_;
  std::string call_;
  OpenVinoModel ov_;
  std::vector<Bytes> in_;
  std::vector<Bytes> out_;
};


}  // namespace callbench
