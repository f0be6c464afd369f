#include "openvino_support.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>
#include <string_view>
#include <utility>

#include <openvino/frontend/manager.hpp>

#include "callbench/errors.hpp"
#include "callbench/inputs.hpp"

namespace callbench {
namespace {

// OpenVINO's messages open with source locations ("Exception from src/...",
// "Check '...' failed at ..."); the last non-empty line says what went wrong.
std::string last_line(std::string_view text) {
  std::string last;
  std::istringstream lines{std::string(text)};
  for (std::string line; std::getline(lines, line);) {
    const auto begin = line.find_first_not_of(" \t\r");
    if (begin != std::string::npos) last = line.substr(begin);
  }
  return last.empty() ? std::string("unknown error") : last;
}

// The ONNX frontend directly: Core::read_model would also try every other
// frontend on a file ONNX rejects, and TensorFlow's logs to stderr.
std::shared_ptr<ov::Model> read_onnx(const std::filesystem::path& path) {
  require_file(path);
  std::shared_ptr<ov::Model> model;
  try {
    ov::frontend::FrontEndManager manager;
    const ov::frontend::FrontEnd::Ptr frontend = manager.load_by_framework("onnx");
    model = frontend->convert(frontend->load(path.string()));
  } catch (const std::exception& e) {
    throw DataError(path, "does not load as ONNX (" + last_line(e.what()) + ")");
  }
  if (model->inputs().size() != 1 || model->outputs().size() != 1) {
    throw DataError(path, "has " + std::to_string(model->inputs().size()) + " inputs and " +
                              std::to_string(model->outputs().size()) +
                              " outputs, expected 1 and 1");
  }
  return model;
}

// The dimensions after the batch one, each fixed, or a DataError naming the port.
ov::Shape per_sample(const std::filesystem::path& path, const ov::PartialShape& shape,
                     const std::string& what) {
  ov::Shape sizes;
  for (std::size_t i = 1; shape.rank().is_static() && i < shape.size(); ++i) {
    if (!shape[i].is_static()) {
      throw DataError(path, what + " " + shape.to_string() + " has a non-batch size not fixed");
    }
    sizes.push_back(static_cast<std::size_t>(shape[i].get_length()));
  }
  if (shape.rank().is_dynamic()) throw DataError(path, what + " has no fixed rank");
  return sizes;
}

ov::CompiledModel compile(ov::Core& core, const std::filesystem::path& path,
                          const std::shared_ptr<ov::Model>& model, std::int64_t threads,
                          std::int64_t static_batch, std::size_t features) {
  if (static_batch > 0) {
    const auto width = static_cast<std::int64_t>(features);
    try {
      model->reshape(ov::PartialShape{static_batch, width});
    } catch (const std::exception& e) {
      throw DataError(path, "cannot take a [" + std::to_string(static_batch) + ", " +
                                std::to_string(width) + "] input (" + last_line(e.what()) + ")");
    }
  }
  try {
    // f32: on CPUs with bf16 support the default precision is bf16, which
    // moves the outputs by ~2e-4 and fails verification. CPU pinning stays on
    // (the default, and faster): it holds the calling thread to the CPUs it had
    // here, so the harness starts drivers on the core it times them on.
    return core.compile_model(model, "CPU", ov::hint::inference_precision(ov::element::f32),
                              ov::inference_num_threads(static_cast<std::int32_t>(threads)));
  } catch (const std::exception& e) {
    throw DataError(path, "does not compile for the CPU (" + last_line(e.what()) + ")");
  }
}

std::string shape_text(const ov::Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace

OpenVinoModel::OpenVinoModel(const std::filesystem::path& path, std::int64_t threads,
                             std::int64_t static_batch)
    : path_(path) {
  const std::shared_ptr<ov::Model> model = read_onnx(path);
  const ov::Shape in = per_sample(path, model->input().get_partial_shape(), "input");
  if (in.size() != 1) {
    throw DataError(path, "input " + model->input().get_partial_shape().to_string() +
                              " is not [batch, features]");
  }
  output_shape_ = per_sample(path, model->output().get_partial_shape(), "output");
  widths_ = {in[0], ov::shape_size(output_shape_)};
  check_sample_widths(path, path.parent_path(), widths_);
  compiled_ = compile(core_, path, model, threads, static_batch, widths_.input);
  request_ = compiled_.create_infer_request();
}

ov::Tensor OpenVinoModel::wrap_input(float* data, std::int64_t batch) const {
  return ov::Tensor(ov::element::f32, ov::Shape{static_cast<std::size_t>(batch), widths_.input},
                    data);
}

ov::Tensor OpenVinoModel::wrap_output(float* data, std::int64_t batch) const {
  ov::Shape shape{static_cast<std::size_t>(batch)};
  shape.insert(shape.end(), output_shape_.begin(), output_shape_.end());
  return ov::Tensor(ov::element::f32, shape, data);
}

void OpenVinoModel::check(std::int64_t batch) {
  const ov::Shape input_shape{static_cast<std::size_t>(batch), widths_.input};
  ov::Tensor y;
  try {
    ov::Tensor x(ov::element::f32, input_shape);
    std::fill_n(x.data<float>(), x.get_size(), 0.0f);
    request_.set_input_tensor(x);
    request_.infer();
    y = request_.get_output_tensor();
  } catch (const std::exception& e) {
    throw DataError(path_, "fails on a " + shape_text(input_shape) + " f32 input (" +
                               last_line(e.what()) + ")");
  }
  ov::Shape expected{static_cast<std::size_t>(batch)};
  expected.insert(expected.end(), output_shape_.begin(), output_shape_.end());
  if (y.get_element_type() != ov::element::f32 || y.get_shape() != expected) {
    throw DataError(path_, "model answers with " + shape_text(y.get_shape()) + " " +
                               y.get_element_type().get_type_name() + ", expected " +
                               shape_text(expected) + " f32");
  }
}

Notes OpenVinoModel::notes(std::string call) const {
  return {
      {"call", std::move(call)},
      {"inference_precision", compiled_.get_property(ov::hint::inference_precision).get_type_name()},
      {"inference_num_threads",
       static_cast<std::int64_t>(compiled_.get_property(ov::inference_num_threads))},
      {"num_streams", static_cast<std::int64_t>(compiled_.get_property(ov::num_streams).num)},
      {"enable_cpu_pinning",
       std::string(compiled_.get_property(ov::hint::enable_cpu_pinning) ? "true" : "false")},
      {"input_shape", compiled_.input().get_partial_shape().to_string()},
      {"precision_why", std::string("f32 forced; the default on bf16-capable CPUs is bf16")},
  };
}

OpenVinoFixedTensors::OpenVinoFixedTensors(const Options& options, bool static_shape)
    : ov_(options.models / "mlp.onnx", options.threads, static_shape ? options.batch : 0),
      in_(static_cast<std::size_t>(options.batch) * ov_.sample_widths().input, 0.0f),
      out_(static_cast<std::size_t>(options.batch) * ov_.sample_widths().output, 0.0f) {
  // Checked through the request's own tensors first: a fixed output tensor of
  // the expected shape would make a model answering another fail less clearly.
  ov_.check(options.batch);
  ov_.request().set_input_tensor(ov_.wrap_input(in_.data(), options.batch));
  ov_.request().set_output_tensor(ov_.wrap_output(out_.data(), options.batch));
}

std::string openvino_version() { return ov::get_openvino_version().buildNumber; }

}  // namespace callbench
