// cpp-openvino: the OpenVINO C++ API called the way its guide shows. The
// model is compiled and one InferRequest made once; each call wraps its
// samples in an ov::Tensor (no copy), sets it as the input, runs infer() and
// copies the result out of the output tensor the request gives back.
#include <cstring>
#include <string>

#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

namespace {

class OpenVinoPlainModel {
 public:
  explicit OpenVinoPlainModel(const callbench::Options& options)
      : ov_(options.models / "mlp.onnx", options.threads), batch_(options.batch) {
    ov_.check(batch_);
  }

  void call(const float* in, float* out) {
    // OpenVINO only reads its inputs; the Tensor constructor takes void*.
    ov::InferRequest& request = ov_.request();
    request.set_input_tensor(ov_.wrap_input(const_cast<float*>(in), batch_));
    request.infer();
    const ov::Tensor y = request.get_output_tensor();
    std::memcpy(out, y.data<const float>(),
                static_cast<std::size_t>(batch_) * ov_.sample_widths().output * sizeof(float));
  }
  std::string runtime_version() const { return callbench::openvino_version(); }
  callbench::SampleWidths sample_widths() const { return ov_.sample_widths(); }
  callbench::Notes notes() const {
    return ov_.notes("Tensor over the samples + set_input_tensor + infer each call");
  }

 private:
  callbench::OpenVinoModel ov_;
  std::int64_t batch_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OpenVinoPlainModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-openvino", load);
}
