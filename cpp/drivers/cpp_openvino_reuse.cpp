// cpp-openvino-reuse: input and output ov::Tensors over fixed buffers, set on
// the InferRequest once (support/openvino_support); each call copies its
// samples in, runs infer() straight into the output buffer and copies the
// result out. The model keeps the ONNX file's dynamic batch.
#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::OpenVinoFixedTensors(
        options, /*static_shape=*/false, callbench::Pinning::kForCallers,
        "input/output Tensors over fixed buffers set once, infer each call");
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-reuse", load);
}
