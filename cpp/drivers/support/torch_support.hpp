// What the LibTorch drivers share: threads, version, checked loading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <torch/script.h>

#include "callbench/model.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// Intra-op threads from --threads; one inter-op thread (nothing runs in parallel
// between ops of a 3-layer MLP). Call once, before the model is loaded.
void configure_torch_threads(std::int64_t threads);

// The LibTorch version the driver was compiled against (the wheel's headers).
std::string torch_version();

// A LibTorch driver's notes: how it calls (call), and the intra-op and
// inter-op thread counts read back from ATen.
Notes torch_notes(std::string call);

// torch::jit::load, with a one-line DataError naming the file if it is missing
// or does not load.
torch::jit::Module load_torchscript(const std::filesystem::path& path);

// Throws DataError(path, ...) unless y is a float tensor of shape [batch, 1].
void check_output(const std::filesystem::path& path, const at::Tensor& y, std::int64_t batch);
// The same for any expected shape.
void check_output_shape(const std::filesystem::path& path, const at::Tensor& y,
                        at::IntArrayRef expected);

// LibTorch's element type of a contract dtype.
at::ScalarType scalar_type_of(Dtype dtype);

// A model's inputs and outputs as LibTorch holds them at one batch size: each
// input's samples viewed in place (from_blob: no copy; the models never write
// an input), each output checked once and copied out on every call. Shapes
// and element types are worked out once, not per call.
class TorchTensors {
 public:
  TorchTensors(Signature signature, std::int64_t batch);

  const Signature& signature() const { return signature_; }
  // Input k's batch at `data`, as a [batch, shape...] tensor of its dtype.
  at::Tensor view_input(std::size_t k, const std::byte* data) const;
  // A batch of zeros for each input (the load's check call, or inputs kept between calls).
  std::vector<at::Tensor> zero_inputs() const;
  // Throws DataError(path, ...) unless `outputs` are the signature's outputs, each of
  // its dtype, [batch, shape...] and contiguous (what store_outputs copies).
  void check_outputs(const std::filesystem::path& path,
                     const std::vector<at::Tensor>& outputs) const;
  // Copies each output's batch to out[k].
  void store_outputs(const std::vector<at::Tensor>& outputs,
                     std::span<std::byte* const> out) const;

 private:
  Signature signature_;
  std::int64_t batch_;
  std::vector<std::vector<std::int64_t>> input_shapes_;
  std::vector<at::ScalarType> input_types_;
  std::vector<std::size_t> output_bytes_;
};

}  // namespace callbench
