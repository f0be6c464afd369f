#include "torch_support.hpp"

#include <charconv>
#include <cstring>
#include <optional>
#include <sstream>
#include <utility>

#include <ATen/Parallel.h>
#include <torch/version.h>

#include "callbench/errors.hpp"

namespace callbench {

void configure_torch_threads(std::int64_t threads) {
  at::set_num_threads(static_cast<int>(threads));
  at::set_num_interop_threads(1);
}

std::string torch_version() { return TORCH_VERSION; }

Notes torch_notes(std::string call) {
  return {{"call", std::move(call)},
          {"intra_op_threads", std::int64_t{at::get_num_threads()}},
          {"inter_op_threads", static_cast<std::int64_t>(at::get_num_interop_threads())}};
}

std::filesystem::path trace_for(const Options& options, std::string_view artifact) {
  const std::filesystem::path every = options.models / artifact;
  // mlp_torchscript.pt -> mlp_torchscript_batch<B>.pt
  const std::string stem = every.stem().string() + "_batch";
  const std::string suffix = every.extension().string();
  const std::filesystem::path own = options.models / (stem + std::to_string(options.batch) + suffix);
  std::error_code ignored;
  if (std::filesystem::is_regular_file(every, ignored)) return every;
  if (std::filesystem::is_regular_file(own, ignored)) return own;
  for (const auto& entry : std::filesystem::directory_iterator(options.models, ignored)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(stem) && name.ends_with(suffix)) {
      throw UsageError("--batch " + std::to_string(options.batch) +
                       ": no trace at this batch (" + own.string() +
                       " missing; the program's trace bakes its batch in)");
    }
  }
  return every;  // missing: load_torchscript says so, naming it
}

torch::jit::Module load_torchscript(const std::filesystem::path& path,
                                   torch::jit::ExtraFilesMap* extra_files) {
  require_file(path);
  torch::jit::ExtraFilesMap none;
  try {
    return torch::jit::load(path.string(), std::nullopt, extra_files ? *extra_files : none);
  } catch (const c10::Error& e) {
    throw DataError(path,
                    "does not load as TorchScript: " + first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    throw DataError(path, "does not load as TorchScript: " + first_line(e.what()));
  }
}

void check_output_shape(const std::filesystem::path& path, const at::Tensor& y,
                        at::IntArrayRef expected) {
  if (y.scalar_type() != at::kFloat || y.sizes() != expected) {
    std::ostringstream got;
    got << y.sizes() << " " << y.scalar_type() << ", expected " << expected << " Float";
    throw DataError(path, "model answers with " + got.str());
  }
}

void check_output(const std::filesystem::path& path, const at::Tensor& y, std::int64_t batch) {
  check_output_shape(path, y, {batch, 1});
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
    throw DataError(path, key + " is '" + entry + "', not '<name> <dtype> <size>...'");
  }
  Tensor tensor{name, *dtype, {}};
  for (std::string size; words >> size;) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), value);
    if (error != std::errc() || end != size.data() + size.size() || value < 0) {
      throw DataError(path, key + " has size '" + size + "'");
    }
    tensor.shape.push_back(value);
  }
  return tensor;
}

std::vector<Tensor> tensors_of(const std::filesystem::path& path,
                               const std::unordered_map<std::string, std::string>& entries,
                               const std::string& role) {
  std::vector<Tensor> found;
  for (std::size_t k = 0;; ++k) {
    const std::string key = "callbench." + role + "." + std::to_string(k);
    const auto entry = entries.find(key);
    if (entry == entries.end()) return found;
    found.push_back(tensor_of(path, key, entry->second));
  }
}

}  // namespace

Signature signature_of_entries(const std::filesystem::path& path,
                               const std::unordered_map<std::string, std::string>& entries) {
  return {tensors_of(path, entries, "input"), tensors_of(path, entries, "output")};
}

std::unordered_map<std::string, std::string> entries_of_lines(const std::string& text) {
  std::unordered_map<std::string, std::string> entries;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const auto space = line.find(' ');
    if (space != std::string::npos) entries[line.substr(0, space)] = line.substr(space + 1);
  }
  return entries;
}

TorchScriptModule load_torchscript_model(const std::filesystem::path& path) {
  torch::jit::ExtraFilesMap extra{{std::string(kSignatureFile), ""}};
  TorchScriptModule loaded{load_torchscript(path, &extra), {}};
  const std::string& text = extra[std::string(kSignatureFile)];
  if (text.empty()) {  // our MLP's file (the contract's mlp_torchscript.pt) carries none
    loaded.signature.inputs.push_back(Tensor{"x", Dtype::float32, {2}});
    loaded.signature.outputs.push_back(Tensor{"y", Dtype::float32, {1}});
  } else {
    loaded.signature = signature_of_entries(path, entries_of_lines(text));
  }
  if (loaded.signature.inputs.empty() || loaded.signature.outputs.empty()) {
    throw DataError(path, std::string(kSignatureFile) + " names no input or no output");
  }
  check_references(path, path.parent_path(), loaded.signature);
  loaded.module.eval();
  return loaded;
}

std::vector<at::Tensor> output_tensors(const c10::IValue& result) {
  std::vector<at::Tensor> tensors;
  if (result.isTuple()) {
    for (const c10::IValue& element : result.toTupleRef().elements()) {
      tensors.push_back(element.toTensor().contiguous());
    }
  } else if (result.isTensorList()) {
    for (const at::Tensor& element : result.toTensorVector()) {
      tensors.push_back(element.contiguous());
    }
  } else {
    tensors.push_back(result.toTensor().contiguous());
  }
  return tensors;
}

at::ScalarType scalar_type_of(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return at::kFloat;
    case Dtype::float16: return at::kHalf;
    case Dtype::float64: return at::kDouble;
    case Dtype::int64: return at::kLong;
    case Dtype::int32: return at::kInt;
    case Dtype::int8: return at::kChar;
    case Dtype::uint8: return at::kByte;
    case Dtype::boolean: return at::kBool;
  }
  return at::kFloat;
}

TorchTensors::TorchTensors(Signature signature, std::int64_t batch)
    : signature_(std::move(signature)), batch_(batch) {
  for (const Tensor& tensor : signature_.inputs) {
    input_shapes_.push_back(batch_shape(tensor, batch));
    input_types_.push_back(scalar_type_of(tensor.dtype));
  }
  for (const Tensor& tensor : signature_.outputs) {
    output_bytes_.push_back(static_cast<std::size_t>(batch) * tensor.sample_bytes());
  }
}

at::Tensor TorchTensors::view_input(std::size_t k, const std::byte* data) const {
  return torch::from_blob(const_cast<std::byte*>(data), input_shapes_[k],
                          at::TensorOptions().dtype(input_types_[k]));
}

std::vector<at::Tensor> TorchTensors::zero_inputs() const {
  std::vector<at::Tensor> zeros;
  for (std::size_t k = 0; k < input_shapes_.size(); ++k) {
    zeros.push_back(torch::zeros(input_shapes_[k], at::TensorOptions().dtype(input_types_[k])));
  }
  return zeros;
}

void TorchTensors::check_outputs(const std::filesystem::path& path,
                                 const std::vector<at::Tensor>& outputs) const {
  if (outputs.size() != signature_.outputs.size()) {
    throw DataError(path, "model answers with " + std::to_string(outputs.size()) +
                              " tensors, expected " + std::to_string(signature_.outputs.size()));
  }
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const Tensor& tensor = signature_.outputs[k];
    const std::vector<std::int64_t> expected = batch_shape(tensor, batch_);
    const at::Tensor& y = outputs[k];
    if (y.scalar_type() != scalar_type_of(tensor.dtype) || y.sizes() != at::IntArrayRef(expected) ||
        !y.is_contiguous()) {
      std::ostringstream got;
      got << y.sizes() << " " << y.scalar_type() << (y.is_contiguous() ? "" : " (strided)");
      throw DataError(path, "model answers '" + tensor.name + "' with " + got.str() +
                                ", expected " + shape_text(expected) + " " +
                                std::string(dtype_name(tensor.dtype)));
    }
  }
}

void TorchTensors::store_outputs(const std::vector<at::Tensor>& outputs,
                                 std::span<std::byte* const> out) const {
  for (std::size_t k = 0; k < output_bytes_.size(); ++k) {
    std::memcpy(out[k], outputs[k].const_data_ptr(), output_bytes_[k]);
  }
}

}  // namespace callbench

