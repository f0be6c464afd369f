// cpp-openvino-static-pinned: cpp-openvino-static with OpenVINO's CPU pinning left at its
// default (on, on Linux), a twin run at N > 1 callers only: beside cpp-openvino-static
// (pinning off wherever the process has more than one caller or more than one CPU) it
// shows what the default costs N callers, whose inferring threads it holds to one core.
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

namespace {

class OpenVinoPinnedModel {
 public:
  explicit OpenVinoPinnedModel(const callbench::Options& options)
      : tensors_(options, /*static_shape=*/true, callbench::Pinning::kDefault) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    tensors_.call(in, out);
  }
  std::string runtime_version() const { return callbench::openvino_version(); }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  callbench::Holding holding() const { return tensors_.holding(); }
  callbench::OpenVinoFixedRequest caller() { return tensors_.caller(); }
  callbench::Notes notes() const {
    return tensors_.notes(
        "model reshaped to static [batch, *shape] inputs; input/output Tensors over fixed buffers set "
        "once, infer each call; CPU pinning left at OpenVINO's default");
  }

 private:
  callbench::OpenVinoFixedTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OpenVinoPinnedModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-static-pinned", load);
}
