#include "ort_support.hpp"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

Ort::SessionOptions session_options(std::int64_t threads) {
  Ort::SessionOptions options;
  options.SetIntraOpNumThreads(static_cast<int>(threads));
  options.SetInterOpNumThreads(1);
  options.SetExecutionMode(ExecutionMode::ORT_SEQUENTIAL);
  options.SetGraphOptimizationLevel(GraphOptimizationLevel::ORT_ENABLE_ALL);
  return options;
}

Ort::Session open_session(const Ort::Env& env, const std::filesystem::path& path,
                          std::int64_t threads) {
  require_file(path);
  try {
    return Ort::Session(env, path.c_str(), session_options(threads));
  } catch (const Ort::Exception& e) {
    throw DataError(path, "does not load as ONNX: " + first_line(e.what()));
  }
}

std::optional<Dtype> dtype_of(ONNXTensorElementDataType type) {
  switch (type) {
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT: return Dtype::float32;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16: return Dtype::float16;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE: return Dtype::float64;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64: return Dtype::int64;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32: return Dtype::int32;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8: return Dtype::int8;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8: return Dtype::uint8;
    case ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL: return Dtype::boolean;
    default: return std::nullopt;
  }
}

ONNXTensorElementDataType element_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT;
    case Dtype::float16: return ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT16;
    case Dtype::float64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_DOUBLE;
    case Dtype::int64: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT64;
    case Dtype::int32: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT32;
    case Dtype::int8: return ONNX_TENSOR_ELEMENT_DATA_TYPE_INT8;
    case Dtype::uint8: return ONNX_TENSOR_ELEMENT_DATA_TYPE_UINT8;
    case Dtype::boolean: return ONNX_TENSOR_ELEMENT_DATA_TYPE_BOOL;
  }
  return ONNX_TENSOR_ELEMENT_DATA_TYPE_UNDEFINED;
}

// One input or output as the session declares it: a tensor of a dtype the
// contract has, with a batch dimension and every other dimension fixed.
Tensor tensor_of(const std::filesystem::path& path, std::string name, const Ort::TypeInfo& info,
                 const std::string& role) {
  const std::string what = role + " '" + name + "'";
  if (info.GetONNXType() != ONNX_TYPE_TENSOR) throw DataError(path, what + " is not a tensor");
  const auto tensor = info.GetTensorTypeAndShapeInfo();
  const auto type = tensor.GetElementType();
  const std::optional<Dtype> dtype = dtype_of(type);
  if (!dtype) {
    throw DataError(path, what + " has ONNX element type " + std::to_string(static_cast<int>(type)) +
                              ", which the contract does not feed");
  }
  const std::vector<std::int64_t> shape = tensor.GetShape();
  if (shape.empty()) throw DataError(path, what + " has no batch dimension");
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (shape[i] < 1) {
      throw DataError(path, what + " " + shape_text(shape) + " has a non-batch size not fixed");
    }
  }
  return Tensor{std::move(name), *dtype, {shape.begin() + 1, shape.end()}};
}

Ort::Value wrap(const Ort::MemoryInfo& memory, void* data, std::size_t bytes,
                const std::vector<std::int64_t>& shape, Dtype dtype) {
  return Ort::Value::CreateTensor(memory, data, bytes, shape.data(), shape.size(),
                                  element_type(dtype));
}

}  // namespace

OrtModel::OrtModel(const std::filesystem::path& path, std::int64_t threads, std::int64_t batch)
    : path_(path),
      batch_(static_cast<std::size_t>(batch)),
      env_(ORT_LOGGING_LEVEL_ERROR, "callbench"),
      session_(open_session(env_, path, threads)),
      memory_(Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault)) {
  Ort::AllocatorWithDefaultOptions allocator;
  for (std::size_t k = 0; k < session_.GetInputCount(); ++k) {
    signature_.inputs.push_back(tensor_of(path, session_.GetInputNameAllocated(k, allocator).get(),
                                          session_.GetInputTypeInfo(k), "input"));
  }
  for (std::size_t k = 0; k < session_.GetOutputCount(); ++k) {
    signature_.outputs.push_back(
        tensor_of(path, session_.GetOutputNameAllocated(k, allocator).get(),
                  session_.GetOutputTypeInfo(k), "output"));
  }
  if (signature_.inputs.empty()) throw DataError(path, "has no inputs");
  const auto b = static_cast<std::size_t>(batch);
  for (const Tensor& tensor : signature_.inputs) {
    input_names_.push_back(tensor.name.c_str());
    input_shapes_.push_back(batch_shape(tensor, batch));
    input_bytes_.push_back(b * tensor.sample_bytes());
  }
  for (const Tensor& tensor : signature_.outputs) {
    output_names_.push_back(tensor.name.c_str());
    output_shapes_.push_back(batch_shape(tensor, batch));
    output_bytes_.push_back(b * tensor.sample_bytes());
  }
  check_references(path, path.parent_path(), signature_);
}

Ort::Value OrtModel::wrap_input(std::size_t k, const std::byte* data) const {
  return wrap(memory_, const_cast<std::byte*>(data), input_bytes_[k], input_shapes_[k],
              signature_.inputs[k].dtype);
}

Ort::Value OrtModel::wrap_output(std::size_t k, std::byte* data) const {
  return wrap(memory_, data, output_bytes_[k], output_shapes_[k], signature_.outputs[k].dtype);
}

Ort::Value OrtModel::wrap_input(std::size_t k, const std::byte* data, std::size_t samples) const {
  const Tensor& tensor = signature_.inputs[k];
  return wrap(memory_, const_cast<std::byte*>(data), samples * tensor.sample_bytes(),
              batch_shape(tensor, static_cast<std::int64_t>(samples)), tensor.dtype);
}

Ort::Value OrtModel::wrap_output(std::size_t k, std::byte* data, std::size_t samples) const {
  const Tensor& tensor = signature_.outputs[k];
  return wrap(memory_, data, samples * tensor.sample_bytes(),
              batch_shape(tensor, static_cast<std::int64_t>(samples)), tensor.dtype);
}

std::optional<std::int64_t> OrtModel::fixed_batch() const {
  for (std::size_t k = 0; k < input_count(); ++k) {
    const std::vector<std::int64_t> shape =
        session_.GetInputTypeInfo(k).GetTensorTypeAndShapeInfo().GetShape();
    if (shape.front() > 0) return shape.front();
  }
  return std::nullopt;
}

void OrtModel::check_outputs(const std::vector<Ort::Value>& values) const {
  for (std::size_t k = 0; k < signature_.outputs.size(); ++k) {
    const Tensor& tensor = signature_.outputs[k];
    const auto info = values.at(k).GetTensorTypeAndShapeInfo();
    const std::vector<std::int64_t> shape = info.GetShape();
    const std::optional<Dtype> dtype = dtype_of(info.GetElementType());
    if (dtype != tensor.dtype || shape != output_shapes_[k]) {
      throw DataError(path_, "model answers '" + tensor.name + "' with " + shape_text(shape) +
                                 " of element type " +
                                 std::to_string(static_cast<int>(info.GetElementType())) +
                                 ", expected " + shape_text(output_shapes_[k]) + " " +
                                 std::string(dtype_name(tensor.dtype)));
    }
  }
}

void check_model_answers(OrtModel& model) {
  std::vector<Bytes> zeros;
  std::vector<Ort::Value> inputs;
  for (std::size_t k = 0; k < model.input_count(); ++k) {
    zeros.emplace_back(model.input_bytes(k));
    inputs.push_back(model.wrap_input(k, zeros.back().data()));
  }
  const std::vector<Ort::Value> outputs =
      model.session().Run(Ort::RunOptions{nullptr}, model.input_names(), inputs.data(),
                          inputs.size(), model.output_names(), model.output_count());
  model.check_outputs(outputs);
}

std::string ort_version() { return Ort::GetVersionString(); }

OrtFixedBuffers::OrtFixedBuffers(OrtModel& model) {
  check_model_answers(model);
  for (std::size_t k = 0; k < model.input_count(); ++k) {
    in_.emplace_back(model.input_bytes(k));
    inputs_.push_back(model.wrap_input(k, in_.back().data()));
  }
  for (std::size_t k = 0; k < model.output_count(); ++k) {
    out_.emplace_back(model.output_bytes(k));
    outputs_.push_back(model.wrap_output(k, out_.back().data()));
  }
}

OrtGatheredCalls::OrtGatheredCalls(OrtModel& model) : model_(model) {
  if (const std::optional<std::int64_t> fixed = model.fixed_batch()) {
    throw DataError(model.path(), "its graph fixes the batch at " + std::to_string(*fixed) +
                                      ": it takes no gathered call");
  }
  for (const Tensor& tensor : model.signature().inputs) in_sample_.push_back(tensor.sample_bytes());
  for (const Tensor& tensor : model.signature().outputs) {
    out_sample_.push_back(tensor.sample_bytes());
  }
  // Reserved: the buffers' addresses are bound, so none may move once made.
  sized_.reserve(model.batch());
  for (std::size_t n = 1; n <= model.batch(); ++n) {
    Sized& sized = sized_.emplace_back(Sized{{}, {}, {}, {}, Ort::IoBinding(model.session())});
    sized.in.reserve(model.input_count());
    sized.out.reserve(model.output_count());
    for (std::size_t k = 0; k < model.input_count(); ++k) {
      sized.in.emplace_back(n * in_sample_[k]);
      sized.inputs.push_back(model.wrap_input(k, sized.in.back().data(), n));
      sized.binding.BindInput(model.input_names()[k], sized.inputs.back());
    }
    for (std::size_t k = 0; k < model.output_count(); ++k) {
      sized.out.emplace_back(n * out_sample_[k]);
      sized.outputs.push_back(model.wrap_output(k, sized.out.back().data(), n));
      sized.binding.BindOutput(model.output_names()[k], sized.outputs.back());
    }
    try {  // a graph that takes no batch of n refuses here, at load
      model.session().Run(run_options_, sized.binding);
    } catch (const Ort::Exception& e) {
      throw DataError(model.path(), "refuses a gathered call of " + std::to_string(n) + ": " +
                                        first_line(e.what()));
    }
  }
}

void OrtGatheredCalls::call(std::span<const std::byte* const> in,
                            std::span<std::byte* const> out, std::size_t n) {
  Sized& sized = sized_[n - 1];
  for (std::size_t k = 0; k < sized.in.size(); ++k) {
    std::memcpy(sized.in[k].data(), in[k], n * in_sample_[k]);
  }
  model_.session().Run(run_options_, sized.binding);
  for (std::size_t k = 0; k < sized.out.size(); ++k) {
    std::memcpy(out[k], sized.out[k].data(), n * out_sample_[k]);
  }
}

void OrtFixedBuffers::load(std::span<const std::byte* const> in) {
  for (std::size_t k = 0; k < in_.size(); ++k) std::memcpy(in_[k].data(), in[k], in_[k].size());
}

void OrtFixedBuffers::store(std::span<std::byte* const> out) const {
  for (std::size_t k = 0; k < out_.size(); ++k) std::memcpy(out[k], out_[k].data(), out_[k].size());
}

}  // namespace callbench
