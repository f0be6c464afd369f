// cpp-openvino: the OpenVINO C++ API called the way its guide shows. The
// model is compiled and one InferRequest made once; each call wraps each
// input's samples in an ov::Tensor (no copy), sets it as that input, runs
// infer() and copies each output out of the tensor the request gives back.
#include <cstring>
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

namespace {

class OpenVinoPlainModel {
 public:
  explicit OpenVinoPlainModel(const callbench::Options& options)
      : ov_(options.models / "mlp.onnx", options) {
    ov_.check();
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    ov::InferRequest& request = ov_.request();
    for (std::size_t k = 0; k < in.size(); ++k) request.set_input_tensor(k, ov_.wrap_input(k, in[k]));
    request.infer();
    for (std::size_t k = 0; k < out.size(); ++k) {
      const ov::Tensor y = request.get_output_tensor(k);
      std::memcpy(out[k], y.data(), ov_.output_bytes(k));
    }
  }
  std::string runtime_version() const { return callbench::openvino_version(); }
  const callbench::Signature& signature() const { return ov_.signature(); }
  callbench::Notes notes() const {
    return ov_.notes("Tensor over the samples + set_input_tensor + infer each call");
  }

 private:
  callbench::OpenVinoModel ov_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OpenVinoPlainModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-openvino", load);
}
