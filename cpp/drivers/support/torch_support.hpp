// What the LibTorch drivers share: threads, version, checked loading.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <torch/script.h>

#include "callbench/model.hpp"
#include "callbench/options.hpp"
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

// The TorchScript file a row loads at its --batch: `artifact` (mlp_torchscript.pt, a
// trace of every batch), else mlp_torchscript_batch<B>.pt, the trace made at this batch
// alone (the contract's "A trace per batch"). Where the folder holds another batch's
// trace only, a UsageError naming the file looked for.
std::filesystem::path trace_for(const Options& options, std::string_view artifact);

// torch::jit::load (filling the extra files asked for in `extra_files`), with a
// one-line DataError naming the file if it is missing or does not load.
torch::jit::Module load_torchscript(const std::filesystem::path& path,
                                   torch::jit::ExtraFilesMap* extra_files = nullptr);

// Throws DataError(path, ...) unless y is a float tensor of shape [batch, 1].
void check_output(const std::filesystem::path& path, const at::Tensor& y, std::int64_t batch);
// The same for any expected shape.
void check_output_shape(const std::filesystem::path& path, const at::Tensor& y,
                        at::IntArrayRef expected);

// A model's signature from entries "callbench.input.<k>" and "callbench.output.<k>",
// each "<name> <dtype> <size>..." (one sample's sizes; exported_programs.signature_metadata
// writes them): an AOTInductor package's metadata, a TorchScript file's extra file.
// Throws DataError(path, ...) for a bad entry; no entries give an empty signature.
Signature signature_of_entries(const std::filesystem::path& path,
                               const std::unordered_map<std::string, std::string>& entries);
// "<key> <value>" lines as entries (a line without a space is left out).
std::unordered_map<std::string, std::string> entries_of_lines(const std::string& text);

// The extra file of a TorchScript file that holds its signature, as entries' lines.
inline constexpr std::string_view kSignatureFile = "callbench_signature.txt";

struct TorchScriptModule {
  torch::jit::Module module;  // in eval mode
  Signature signature;
};

// load_torchscript with the signature: the file's kSignatureFile, or, for a file
// without one, the contract's MLP (x float32 [2] -> y float32 [1]); checked
// against the folder's reference files (check_references).
TorchScriptModule load_torchscript_model(const std::filesystem::path& path);

// A TorchScript forward's result as its output tensors, each made contiguous (a
// no-op for one that is): one tensor, or a tuple or list of them.
std::vector<at::Tensor> output_tensors(const c10::IValue& result);

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
