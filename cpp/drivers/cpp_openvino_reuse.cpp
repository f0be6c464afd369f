// cpp-openvino-reuse: input and output ov::Tensors over fixed buffers, set on
// the InferRequest once (support/openvino_support); each call copies its
// samples in, runs infer() straight into the output buffer and copies the
// result out. The model keeps the ONNX file's dynamic batch.
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

namespace {

class OpenVinoReuseModel {
 public:
  explicit OpenVinoReuseModel(const callbench::Options& options)
      : tensors_(options, /*static_shape=*/false) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    tensors_.call(in, out);
  }
  std::string runtime_version() const { return callbench::openvino_version(); }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  callbench::Holding holding() const { return tensors_.holding(); }
  callbench::OpenVinoFixedRequest caller() { return tensors_.caller(); }
  callbench::Notes notes() const {
    return tensors_.notes("input/output Tensors over fixed buffers set once, infer each call");
  }

 private:
  callbench::OpenVinoFixedTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OpenVinoReuseModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-reuse", load);
}
