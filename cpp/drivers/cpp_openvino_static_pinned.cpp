// cpp-openvino-static-pinned: cpp-openvino-static with OpenVINO's CPU pinning left at its
// default (on, on Linux), a twin run at N > 1 callers only: beside cpp-openvino-static
// (pinning off wherever the process has more than one caller or more than one CPU) it
// shows what the default costs N callers, whose inferring threads it holds to one core.
#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::OpenVinoFixedTensors(
        options, /*static_shape=*/true, callbench::Pinning::kDefault,
        "model reshaped to static [batch, *shape] inputs; input/output Tensors over fixed "
        "buffers set once, infer each call; CPU pinning left at OpenVINO's default");
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-static-pinned", load);
}
