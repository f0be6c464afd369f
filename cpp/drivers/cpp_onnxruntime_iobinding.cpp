// cpp-onnxruntime-iobinding: input and output bound once with Ort::IoBinding
// to OrtValues over fixed buffers; each call copies its samples in, runs the
// binding and copies the result out.
#include <cstring>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

class OnnxRuntimeIoBindingModel {
 public:
  explicit OnnxRuntimeIoBindingModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads),
        batch_(options.batch),
        in_(static_cast<std::size_t>(batch_) * 2, 0.0f),
        out_(static_cast<std::size_t>(batch_), 0.0f),
        x_(ort_.wrap(in_.data(), batch_, 2)),
        y_(ort_.wrap(out_.data(), batch_, 1)),
        binding_(ort_.session()) {
    std::vector<Ort::Value> y =
        ort_.session().Run(run_options_, callbench::OrtModel::input_names, &x_, 1,
                           callbench::OrtModel::output_names, 1);
    callbench::check_output(ort_.path(), y.front(), batch_);
    binding_.BindInput(callbench::OrtModel::input_names[0], x_);
    binding_.BindOutput(callbench::OrtModel::output_names[0], y_);
  }

  void operator()(const float* in, float* out) {
    std::memcpy(in_.data(), in, in_.size() * sizeof(float));
    ort_.session().Run(run_options_, binding_);
    std::memcpy(out, out_.data(), out_.size() * sizeof(float));
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  std::string notes() const { return "IoBinding to OrtValues over fixed buffers"; }

 private:
  callbench::OrtModel ort_;
  std::int64_t batch_;
  std::vector<float> in_;
  std::vector<float> out_;
  Ort::Value x_;
  Ort::Value y_;
  Ort::IoBinding binding_;
  Ort::RunOptions run_options_;
};

}  // namespace

int main(int argc, char** argv) {
  const callbench::DriverInfo info{"cpp-onnxruntime-iobinding", "onnxruntime", "mlp.onnx"};
  return callbench::driver_main(argc, argv, info, [](const callbench::Options& options) {
    return OnnxRuntimeIoBindingModel(options);
  });
}
