// cpp-onnxruntime-reuse: input and output OrtValues made once over fixed
// buffers; each call copies its samples in, runs straight into the output
// OrtValue and copies the result out.
#include <string>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

class OnnxRuntimeReuseModel {
 public:
  explicit OnnxRuntimeReuseModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads), buffers_(ort_, options.batch) {}

  void call(const float* in, float* out) {
    buffers_.load(in);
    ort_.session().Run(run_options_, ort_.input_names(), &buffers_.x(), 1, ort_.output_names(),
                       &buffers_.y(), 1);
    buffers_.store(out);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  callbench::SampleWidths sample_widths() const { return ort_.sample_widths(); }
  callbench::Notes notes() const {
    return {{"call", "OrtValues reused over fixed buffers, Run into them"}};
  }

 private:
  callbench::OrtModel ort_;
  callbench::OrtFixedBuffers buffers_;
  Ort::RunOptions run_options_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeReuseModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime-reuse", load);
}
