// cpp-onnxruntime-iobinding: input and output bound once with Ort::IoBinding
// to OrtValues over fixed buffers; each call copies its samples in, runs the
// binding and copies the result out.
#include <string>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

class OnnxRuntimeIoBindingModel {
 public:
  explicit OnnxRuntimeIoBindingModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads),
        buffers_(ort_, options.batch),
        binding_(ort_.session()) {
    binding_.BindInput(ort_.input_names()[0], buffers_.x());
    binding_.BindOutput(ort_.output_names()[0], buffers_.y());
  }

  void call(const float* in, float* out) {
    buffers_.load(in);
    ort_.session().Run(run_options_, binding_);
    buffers_.store(out);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  callbench::SampleWidths sample_widths() const { return ort_.sample_widths(); }
  callbench::Notes notes() const {
    return {{"call", "IoBinding to OrtValues over fixed buffers"}};
  }

 private:
  callbench::OrtModel ort_;
  callbench::OrtFixedBuffers buffers_;
  Ort::IoBinding binding_;
  Ort::RunOptions run_options_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeIoBindingModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime-iobinding", load);
}
