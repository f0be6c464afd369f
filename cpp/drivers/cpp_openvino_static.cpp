// cpp-openvino-static: as cpp-openvino-reuse, on the model reshaped to a
// static [batch, *shape] input before compiling (OpenVINO's guide: a static shape
// spares each inference the shape work a dynamic batch costs).
#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::OpenVinoFixedTensors(
        options, /*static_shape=*/true, callbench::Pinning::kForCallers,
        "model reshaped to static [batch, *shape] inputs; input/output Tensors over fixed "
        "buffers set once, infer each call");
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-static", load);
}
