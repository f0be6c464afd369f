// What the AOTInductor drivers share: checked loading of mlp.pt2 and the
// check of what the compiled model answers. Threads and version come from
// torch_support (the model runs on LibTorch's CPU kernels and OpenMP).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

namespace callbench {

// AOTIModelPackageLoader(path, "model", run_single_threaded = true), with a
// one-line DataError naming the file if it is missing or does not load.
std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load_aoti_package(
    const std::filesystem::path& path);

// Runs the driver's first call and throws DataError(path, ...) if it fails
// (a package of another model rejects the input) or does not give one float
// tensor [batch, 1].
void check_first_call(const std::filesystem::path& path,
                      const std::function<std::vector<at::Tensor>()>& first_call,
                      std::int64_t batch);

}  // namespace callbench
