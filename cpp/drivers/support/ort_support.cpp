#include "ort_support.hpp"

#include <sstream>
#include <vector>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"

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

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::ostringstream text;
  text << "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text << (i ? ", " : "") << shape[i];
  text << "]";
  return text.str();
}

// A float tensor's declared shape (-1 where a dimension is symbolic).
std::vector<std::int64_t> float_shape(const std::filesystem::path& path, const Ort::TypeInfo& info,
                                      const std::string& what) {
  const auto tensor = info.GetTensorTypeAndShapeInfo();
  if (tensor.GetElementType() != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT) {
    throw DataError(path, what + " is not float32");
  }
  return tensor.GetShape();
}

// The product of the dimensions after the batch one, or a DataError if one is not fixed.
std::size_t per_sample(const std::filesystem::path& path, const std::vector<std::int64_t>& shape,
                       const std::string& what) {
  std::size_t count = 1;
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (shape[i] < 1) {
      throw DataError(path, what + " " + shape_text(shape) + " has a non-batch size not fixed");
    }
    count *= static_cast<std::size_t>(shape[i]);
  }
  return count;
}

}  // namespace

OrtModel::OrtModel(const std::filesystem::path& path, std::int64_t threads)
    : path_(path),
      env_(ORT_LOGGING_LEVEL_ERROR, "callbench"),
      session_(open_session(env_, path, threads)),
      memory_(Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault)) {
  if (session_.GetInputCount() != 1 || session_.GetOutputCount() != 1) {
    throw DataError(path, "has " + std::to_string(session_.GetInputCount()) + " inputs and " +
                              std::to_string(session_.GetOutputCount()) +
                              " outputs, expected 1 and 1");
  }
  Ort::AllocatorWithDefaultOptions allocator;
  input_name_ = session_.GetInputNameAllocated(0, allocator).get();
  output_name_ = session_.GetOutputNameAllocated(0, allocator).get();
  input_name_ptr_[0] = input_name_.c_str();
  output_name_ptr_[0] = output_name_.c_str();
  const auto in = float_shape(path, session_.GetInputTypeInfo(0), "input " + input_name_);
  if (in.size() != 2) {
    throw DataError(path, "input " + input_name_ + " is " + shape_text(in) +
                              ", expected [batch, features]");
  }
  const auto out = float_shape(path, session_.GetOutputTypeInfo(0), "output " + output_name_);
  output_shape_.assign(out.begin() + (out.empty() ? 0 : 1), out.end());
  widths_ = {per_sample(path, in, "input " + input_name_),
             per_sample(path, out, "output " + output_name_)};
  check_sample_widths(path, path.parent_path(), widths_);
}

Ort::Value OrtModel::wrap_input(float* data, std::int64_t batch) const {
  const std::int64_t shape[2] = {batch, static_cast<std::int64_t>(widths_.input)};
  return Ort::Value::CreateTensor<float>(memory_, data,
                                         static_cast<std::size_t>(batch) * widths_.input, shape, 2);
}

Ort::Value OrtModel::wrap_output(float* data, std::int64_t batch) const {
  std::vector<std::int64_t> shape{batch};
  shape.insert(shape.end(), output_shape_.begin(), output_shape_.end());
  return Ort::Value::CreateTensor<float>(memory_, data,
                                         static_cast<std::size_t>(batch) * widths_.output,
                                         shape.data(), shape.size());
}

std::string ort_version() { return Ort::GetVersionString(); }

void check_output(const std::filesystem::path& path, const Ort::Value& value, std::int64_t batch,
                  std::size_t output_width) {
  const auto info = value.GetTensorTypeAndShapeInfo();
  const std::vector<std::int64_t> shape = info.GetShape();
  const bool fits = info.GetElementType() == ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT &&
                    !shape.empty() && shape[0] == batch &&
                    info.GetElementCount() == static_cast<std::size_t>(batch) * output_width;
  if (!fits) {
    throw DataError(path, "model answers with " + shape_text(shape) + " of element type " +
                              std::to_string(static_cast<int>(info.GetElementType())) +
                              ", expected [" + std::to_string(batch) + ", " +
                              std::to_string(output_width) + "] float");
  }
}

OrtFixedBuffers::OrtFixedBuffers(OrtModel& model, std::int64_t batch)
    : in_(static_cast<std::size_t>(batch) * model.sample_widths().input, 0.0f),
      out_(static_cast<std::size_t>(batch) * model.sample_widths().output, 0.0f),
      x_(model.wrap_input(in_.data(), batch)),
      y_(model.wrap_output(out_.data(), batch)) {
  Ort::RunOptions run_options;
  std::vector<Ort::Value> y =
      model.session().Run(run_options, model.input_names(), &x_, 1, model.output_names(), 1);
  check_output(model.path(), y.front(), batch, model.sample_widths().output);
}

}  // namespace callbench
