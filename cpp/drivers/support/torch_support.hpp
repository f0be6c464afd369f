// What the LibTorch drivers share: threads, version, checked loading.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <torch/script.h>

#include "callbench/model.hpp"

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

}  // namespace callbench
