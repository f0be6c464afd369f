// cpp-onnxruntime: the ONNX Runtime C++ API called the plain way. Session,
// names and memory info are made once; each call wraps its samples in a new
// OrtValue (no copy) and Run() returns a freshly allocated output.
#include <cstring>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

class OnnxRuntimeModel {
 public:
  explicit OnnxRuntimeModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads), batch_(options.batch) {
    std::vector<float> in(static_cast<std::size_t>(batch_) * ort_.sample_widths().input, 0.0f);
    std::vector<Ort::Value> y = run(in.data());
    callbench::check_output(ort_.path(), y.front(), batch_, ort_.sample_widths().output);
    out_bytes_ = static_cast<std::size_t>(batch_) * ort_.sample_widths().output * sizeof(float);
  }

  void call(const float* in, float* out) {
    const std::vector<Ort::Value> y = run(in);
    std::memcpy(out, y.front().GetTensorData<float>(), out_bytes_);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  callbench::SampleWidths sample_widths() const { return ort_.sample_widths(); }
  callbench::Notes notes() const {
    return {{"call", "CreateTensor over the samples + Run each call"}};
  }

 private:
  std::vector<Ort::Value> run(const float* in) {
    // ORT only reads its inputs; the API takes a non-const pointer.
    Ort::Value x = ort_.wrap_input(const_cast<float*>(in), batch_);
    return ort_.session().Run(Ort::RunOptions{nullptr}, ort_.input_names(), &x, 1,
                              ort_.output_names(), 1);
  }

  callbench::OrtModel ort_;
  std::int64_t batch_;
  std::size_t out_bytes_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime", load);
}
