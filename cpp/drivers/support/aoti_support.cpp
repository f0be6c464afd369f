#include "aoti_support.hpp"

#include <sstream>
#include <string>

#include "callbench/errors.hpp"

namespace callbench {

std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load_aoti_package(
    const std::filesystem::path& path) {
  require_file(path);
  const auto fail = [&](const std::string& why) {
    return DataError(path, "does not load as an AOTInductor package: " + first_line(why));
  };
  try {
    return std::make_unique<torch::inductor::AOTIModelPackageLoader>(
        path.string(), "model", /*run_single_threaded=*/true);
  } catch (const c10::Error& e) {
    throw fail(e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw fail(e.what());
  }
}

Signature aoti_signature(const std::filesystem::path& path,
                         torch::inductor::AOTIModelPackageLoader& loader) {
  const Signature signature = signature_of_entries(path, loader.get_metadata());
  if (signature.inputs.empty() || signature.outputs.empty()) {
    throw DataError(path,
                    "has no callbench.input.0 and callbench.output.0 in its metadata (callbench "
                    "writes the model's signature there): export it with callbench export");
  }
  check_references(path, path.parent_path(), signature);
  return signature;
}

void check_first_call(const std::filesystem::path& path,
                      const std::function<std::vector<at::Tensor>()>& first_call,
                      const TorchTensors& tensors) {
  std::vector<at::Tensor> outputs;
  const auto fail = [&](const std::string& why) {
    std::string shapes;
    for (const Tensor& input : tensors.signature().inputs) {
      shapes += (shapes.empty() ? "" : ", ") + input.describe();
    }
    return DataError(path, "model fails on a batch of " + shapes + ": " + first_line(why));
  };
  try {
    outputs = first_call();
  } catch (const c10::Error& e) {
    throw fail(e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw fail(e.what());
  }
  tensors.check_outputs(path, outputs);
}

}  // namespace callbench
