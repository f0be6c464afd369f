#include "openvino_support.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include <sched.h>

#include <openvino/frontend/manager.hpp>

#include "callbench/errors.hpp"

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
  if (model->inputs().empty()) throw DataError(path, "has no inputs");
  return model;
}

std::string shape_text(const ov::Shape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + "]";
}

// The compiled inputs' shapes: "[?,2]" for one input; "ids [?,16], mask [?,16]" for several.
std::string input_shapes_text(const ov::CompiledModel& compiled) {
  const auto& inputs = compiled.inputs();
  if (inputs.size() == 1) return inputs[0].get_partial_shape().to_string();
  std::string text;
  for (const auto& input : inputs) {
    text += (text.empty() ? "" : ", ") + input.get_any_name() + " " +
            input.get_partial_shape().to_string();
  }
  return text;
}

std::optional<Dtype> dtype_of(const ov::element::Type& type) {
  if (type == ov::element::f32) return Dtype::float32;
  if (type == ov::element::f16) return Dtype::float16;
  if (type == ov::element::f64) return Dtype::float64;
  if (type == ov::element::i64) return Dtype::int64;
  if (type == ov::element::i32) return Dtype::int32;
  if (type == ov::element::i8) return Dtype::int8;
  if (type == ov::element::u8) return Dtype::uint8;
  if (type == ov::element::boolean) return Dtype::boolean;
  return std::nullopt;
}

ov::element::Type element_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return ov::element::f32;
    case Dtype::float16: return ov::element::f16;
    case Dtype::float64: return ov::element::f64;
    case Dtype::int64: return ov::element::i64;
    case Dtype::int32: return ov::element::i32;
    case Dtype::int8: return ov::element::i8;
    case Dtype::uint8: return ov::element::u8;
    case Dtype::boolean: return ov::element::boolean;
  }
  return ov::element::dynamic;
}

// One input or output port as the model declares it: a dtype the contract
// has, a batch dimension and every other dimension fixed; else a DataError.
Tensor tensor_of(const std::filesystem::path& path, const ov::Output<const ov::Node>& port,
                 const std::string& role, std::size_t index) {
  std::string name;
  try {
    name = port.get_any_name();
  } catch (const std::exception&) {
    throw DataError(path, role + " " + std::to_string(index) + " has no name");
  }
  const std::string what = role + " '" + name + "'";
  const std::optional<Dtype> dtype = dtype_of(port.get_element_type());
  if (!dtype) {
    throw DataError(path, what + " is " + port.get_element_type().get_type_name() +
                              ", which the contract does not feed");
  }
  const ov::PartialShape& shape = port.get_partial_shape();
  if (shape.rank().is_dynamic()) throw DataError(path, what + " has no fixed rank");
  if (shape.size() == 0) throw DataError(path, what + " has no batch dimension");
  std::vector<std::int64_t> sizes;
  for (std::size_t i = 1; i < shape.size(); ++i) {
    if (!shape[i].is_static()) {
      throw DataError(path, what + " " + shape.to_string() + " has a non-batch size not fixed");
    }
    sizes.push_back(shape[i].get_length());
  }
  return Tensor{name, *dtype, sizes};
}

ov::Shape ov_shape(const Tensor& tensor, std::int64_t batch) {
  const std::vector<std::int64_t> shape = batch_shape(tensor, batch);
  return ov::Shape(shape.begin(), shape.end());
}

// CPU pinning as compile() sets it (an enum, not std::optional<bool>: GCC 12 warns that the
// optional's flag may be read uninitialised inside OpenVINO's property template).
enum class PinningSet { kLeft, kOn, kOff };

ov::CompiledModel compile(ov::Core& core, const std::filesystem::path& path,
                          const std::shared_ptr<ov::Model>& model, std::int64_t threads,
                          const std::vector<ov::Shape>* static_shapes,
                          PinningSet pin) {
  if (static_shapes != nullptr) {
    std::map<ov::Output<ov::Node>, ov::PartialShape> shapes;
    for (std::size_t k = 0; k < static_shapes->size(); ++k) {
      shapes[model->input(k)] = ov::PartialShape((*static_shapes)[k]);
    }
    try {
      model->reshape(shapes);
    } catch (const std::exception& e) {
      throw DataError(path, "cannot take inputs of " + shape_text((*static_shapes)[0]) +
                                " (" + last_line(e.what()) + ")");
    }
  }
  try {
    // f32: on CPUs with bf16 support the default precision is bf16, which
    // moves the outputs by ~2e-4 and fails verification. CPU pinning, where it
    // stays on, holds the calling thread to the CPUs it had here, so the harness
    // starts drivers on the cores it times them on.
    ov::AnyMap properties{ov::hint::inference_precision(ov::element::f32),
                          ov::inference_num_threads(static_cast<std::int32_t>(threads))};
    if (pin != PinningSet::kLeft) {
      properties.emplace(ov::hint::enable_cpu_pinning(pin == PinningSet::kOn));
    }
    return core.compile_model(model, "CPU", properties);
  } catch (const std::exception& e) {
    throw DataError(path, "does not compile for the CPU (" + last_line(e.what()) + ")");
  }
}

}  // namespace

bool pins_for(const Options& options) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const bool one_cpu = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) == 1;
  return one_cpu && options.callers == 1;
}

OpenVinoModel::OpenVinoModel(const std::filesystem::path& path, const Options& options,
                             bool static_shape, Pinning pinning)
    : path_(path), pinning_(pinning) {
  const std::int64_t threads = options.threads;
  const std::int64_t batch = options.batch;
  const std::shared_ptr<ov::Model> model = read_onnx(path);
  for (std::size_t k = 0; k < model->inputs().size(); ++k) {
    signature_.inputs.push_back(tensor_of(path, std::as_const(*model).input(k), "input", k));
  }
  for (std::size_t k = 0; k < model->outputs().size(); ++k) {
    signature_.outputs.push_back(tensor_of(path, std::as_const(*model).output(k), "output", k));
  }
  check_references(path, path.parent_path(), signature_);
  const auto b = static_cast<std::size_t>(batch);
  for (const Tensor& tensor : signature_.inputs) {
    input_shapes_.push_back(ov_shape(tensor, batch));
    input_bytes_.push_back(b * tensor.sample_bytes());
  }
  for (const Tensor& tensor : signature_.outputs) {
    output_shapes_.push_back(ov_shape(tensor, batch));
    output_bytes_.push_back(b * tensor.sample_bytes());
  }
  const PinningSet pin = pinning == Pinning::kDefault ? PinningSet::kLeft
                        : pins_for(options)          ? PinningSet::kOn
                                                     : PinningSet::kOff;
  compiled_ = compile(core_, path, model, threads, static_shape ? &input_shapes_ : nullptr, pin);
  request_ = compiled_.create_infer_request();
}

ov::Tensor OpenVinoModel::wrap_input(std::size_t k, const std::byte* data) const {
  return ov::Tensor(element_type(signature_.inputs[k].dtype), input_shapes_[k],
                    const_cast<std::byte*>(data));
}

ov::Tensor OpenVinoModel::wrap_output(std::size_t k, std::byte* data) const {
  return ov::Tensor(element_type(signature_.outputs[k].dtype), output_shapes_[k], data);
}

void OpenVinoModel::check() {
  std::vector<ov::Tensor> outputs;
  try {
    for (std::size_t k = 0; k < signature_.inputs.size(); ++k) {
      ov::Tensor x(element_type(signature_.inputs[k].dtype), input_shapes_[k]);
      std::memset(x.data(), 0, x.get_byte_size());
      request_.set_input_tensor(k, x);
    }
    request_.infer();
    for (std::size_t k = 0; k < signature_.outputs.size(); ++k) {
      outputs.push_back(request_.get_output_tensor(k));
    }
  } catch (const std::exception& e) {
    throw DataError(path_, "fails on zeros of " + shape_text(input_shapes_[0]) + " (" +
                               last_line(e.what()) + ")");
  }
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    const Tensor& tensor = signature_.outputs[k];
    const ov::Tensor& y = outputs[k];
    if (dtype_of(y.get_element_type()) != tensor.dtype || y.get_shape() != output_shapes_[k]) {
      throw DataError(path_, "model answers '" + tensor.name + "' with " +
                                 shape_text(y.get_shape()) + " " +
                                 y.get_element_type().get_type_name() + ", expected " +
                                 shape_text(output_shapes_[k]) + " " +
                                 std::string(dtype_name(tensor.dtype)));
    }
  }
}

Notes OpenVinoModel::notes(std::string call) const {
  Notes notes{
      {"call", std::move(call)},
      {"inference_precision", compiled_.get_property(ov::hint::inference_precision).get_type_name()},
      {"inference_num_threads",
       static_cast<std::int64_t>(compiled_.get_property(ov::inference_num_threads))},
      {"num_streams", static_cast<std::int64_t>(compiled_.get_property(ov::num_streams).num)},
      {"enable_cpu_pinning",
       std::string(compiled_.get_property(ov::hint::enable_cpu_pinning) ? "true" : "false")},
      {"cpu_pinning_set",
       std::string(pinning_ == Pinning::kDefault
                       ? "left at OpenVINO's default"
                       : "on only with one caller on one CPU: pinned, N callers (or N copies "
                         "over the same cores) were held to one core")},
      {"input_shape", input_shapes_text(compiled_)},
      {"precision_why", std::string("f32 forced; the default on bf16-capable CPUs is bf16")},
  };
  const auto half = [](const Tensor& t) { return t.dtype == Dtype::float16; };
  if (std::ranges::any_of(signature_.inputs, half) || std::ranges::any_of(signature_.outputs, half)) {
    notes.emplace_back("float16",
                       std::string("a float16 model is computed in f32 (inference precision f32)"));
  }
  return notes;
}

OpenVinoFixedTensors::OpenVinoFixedTensors(const Options& options, bool static_shape,
                                           Pinning pinning, std::string call)
    : pinning_(pinning),
      call_(std::move(call)),
      ov_(options.models / "mlp.onnx", options, static_shape, pinning) {
  // Checked through the request's own tensors first: fixed output tensors of
  // the expected shapes would make a model answering others fail less clearly.
  ov_.check();
  for (std::size_t k = 0; k < ov_.signature().inputs.size(); ++k) {
    in_.emplace_back(ov_.input_bytes(k));
    ov_.request().set_input_tensor(k, ov_.wrap_input(k, in_.back().data()));
  }
  for (std::size_t k = 0; k < ov_.signature().outputs.size(); ++k) {
    out_.emplace_back(ov_.output_bytes(k));
    ov_.request().set_output_tensor(k, ov_.wrap_output(k, out_.back().data()));
  }
}

OpenVinoFixedRequest::OpenVinoFixedRequest(OpenVinoModel& model)
    : request_(model.create_request()) {
  for (std::size_t k = 0; k < model.signature().inputs.size(); ++k) {
    in_.emplace_back(model.input_bytes(k));
    request_.set_input_tensor(k, model.wrap_input(k, in_.back().data()));
  }
  for (std::size_t k = 0; k < model.signature().outputs.size(); ++k) {
    out_.emplace_back(model.output_bytes(k));
    request_.set_output_tensor(k, model.wrap_output(k, out_.back().data()));
  }
}

std::string openvino_version() { return ov::get_openvino_version().buildNumber; }

}  // namespace callbench
