#include "aoti_support.hpp"

#include <charconv>
#include <sstream>
#include <string>
#include <unordered_map>

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

namespace {

// "board float32 8 8 8" -> Tensor{"board", float32, {8, 8, 8}}.
Tensor tensor_of(const std::filesystem::path& path, const std::string& key,
                 const std::string& entry) {
  std::istringstream words(entry);
  std::string name;
  std::string dtype_word;
  words >> name >> dtype_word;
  const std::optional<Dtype> dtype = dtype_named(dtype_word);
  if (name.empty() || !dtype) {
    throw DataError(path, "metadata " + key + " is '" + entry + "', not '<name> <dtype> <size>...'");
  }
  Tensor tensor{name, *dtype, {}};
  for (std::string size; words >> size;) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), value);
    if (error != std::errc() || end != size.data() + size.size() || value < 0) {
      throw DataError(path, "metadata " + key + " has size '" + size + "'");
    }
    tensor.shape.push_back(value);
  }
  return tensor;
}

std::vector<Tensor> tensors_of(const std::filesystem::path& path,
                               const std::unordered_map<std::string, std::string>& metadata,
                               const std::string& role) {
  std::vector<Tensor> found;
  for (std::size_t k = 0;; ++k) {
    const std::string key = "callbench." + role + "." + std::to_string(k);
    const auto entry = metadata.find(key);
    if (entry == metadata.end()) return found;
    found.push_back(tensor_of(path, key, entry->second));
  }
}

}  // namespace

Signature aoti_signature(const std::filesystem::path& path,
                         torch::inductor::AOTIModelPackageLoader& loader) {
  const auto metadata = loader.get_metadata();
  Signature signature{tensors_of(path, metadata, "input"), tensors_of(path, metadata, "output")};
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
