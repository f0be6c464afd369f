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
    std::vector<float> in(static_cast<std::size_t>(batch_) * 2, 0.0f);
    std::vector<Ort::Value> y = run(in.data());
    callbench::check_output(ort_.path(), y.front(), batch_);
  }

  void call(const float* in, float* out) {
    const std::vector<Ort::Value> y = run(in);
    std::memcpy(out, y.front().GetTensorData<float>(),
                static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  callbench::Notes notes() const {
    return {{"call", "CreateTensor over the samples + Run each call"}};
  }

 private:
  std::vector<Ort::Value> run(const float* in) {
    // ORT only reads its inputs; the API takes a non-const pointer.
    Ort::Value x = ort_.wrap(const_cast<float*>(in), batch_, 2);
    return ort_.session().Run(Ort::RunOptions{nullptr}, callbench::OrtModel::input_names, &x, 1,
                              callbench::OrtModel::output_names, 1);
  }

  callbench::OrtModel ort_;
  std::int64_t batch_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime", load);
}
