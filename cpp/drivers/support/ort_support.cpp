#include "ort_support.hpp"

#include <sstream>
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

}  // namespace

OrtModel::OrtModel(const std::filesystem::path& path, std::int64_t threads)
    : path_(path),
      env_(ORT_LOGGING_LEVEL_ERROR, "callbench"),
      session_(open_session(env_, path, threads)),
      memory_(Ort::MemoryInfo::CreateCpu(OrtArenaAllocator, OrtMemTypeDefault)) {}

Ort::Value OrtModel::wrap(float* data, std::int64_t batch, std::int64_t width) const {
  const std::int64_t shape[2] = {batch, width};
  return Ort::Value::CreateTensor<float>(memory_, data, static_cast<std::size_t>(batch * width),
                                         shape, 2);
}

std::string ort_version() { return Ort::GetVersionString(); }

void check_output(const std::filesystem::path& path, const Ort::Value& value, std::int64_t batch) {
  const auto info = value.GetTensorTypeAndShapeInfo();
  const std::vector<std::int64_t> shape = info.GetShape();
  if (info.GetElementType() != ONNX_TENSOR_ELEMENT_DATA_TYPE_FLOAT || shape.size() != 2 ||
      shape[0] != batch || shape[1] != 1) {
    std::ostringstream got;
    got << "[";
    for (std::size_t i = 0; i < shape.size(); ++i) got << (i ? ", " : "") << shape[i];
    got << "] of element type " << static_cast<int>(info.GetElementType());
    throw DataError(path, "model answers with " + got.str() + ", expected [" +
                              std::to_string(batch) + ", 1] float");
  }
}

OrtFixedBuffers::OrtFixedBuffers(OrtModel& model, std::int64_t batch)
    : in_(static_cast<std::size_t>(batch) * 2, 0.0f),
      out_(static_cast<std::size_t>(batch), 0.0f),
      x_(model.wrap(in_.data(), batch, 2)),
      y_(model.wrap(out_.data(), batch, 1)) {
  Ort::RunOptions run_options;
  std::vector<Ort::Value> y = model.session().Run(run_options, OrtModel::input_names, &x_, 1,
                                                  OrtModel::output_names, 1);
  check_output(model.path(), y.front(), batch);
}

}  // namespace callbench
