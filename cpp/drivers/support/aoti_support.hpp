// What the AOTInductor drivers share: checked loading of mlp.pt2, the
// model's signature from the package's metadata, and the check of what the
// compiled model answers. Threads, version and the tensors themselves come
// from torch_support (the model runs on LibTorch's CPU kernels and OpenMP).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include "callbench/tensors.hpp"
#include "torch_support.hpp"

namespace callbench {

// AOTIModelPackageLoader(path, "model", run_single_threaded = true), with a
// one-line DataError naming the file if it is missing or does not load.
std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load_aoti_package(
    const std::filesystem::path& path);

// The model's inputs and outputs, from the package's metadata: callbench.input.<k>
// and callbench.output.<k>, each "<name> <dtype> <size>..." (one sample's sizes),
// which callbench's exporter writes (a package says nothing else of its tensors'
// dtypes and shapes). Throws DataError(path, ...) for a package without them (one
// exported by something else, or by callbench before contract 3) or a bad entry;
// then checks the folder's reference files against it (check_references).
Signature aoti_signature(const std::filesystem::path& path,
                         torch::inductor::AOTIModelPackageLoader& loader);

// Runs the driver's first call and throws DataError(path, ...) if it fails (a
// package of another model rejects the input) or does not answer as `tensors`
// says (TorchTensors::check_outputs).
void check_first_call(const std::filesystem::path& path,
                      const std::function<std::vector<at::Tensor>()>& first_call,
                      const TorchTensors& tensors);

}  // namespace callbench
