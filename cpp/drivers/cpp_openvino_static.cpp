// cpp-openvino-static: as cpp-openvino-reuse, on the model reshaped to a
// static [batch, *shape] input before compiling (OpenVINO's guide: a static shape
// spares each inference the shape work a dynamic batch costs).
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

namespace {

class OpenVinoStaticModel {
 public:
  explicit OpenVinoStaticModel(const callbench::Options& options)
      : tensors_(options, /*static_shape=*/true) {}

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
        "once, infer each call");
  }

 private:
  callbench::OpenVinoFixedTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OpenVinoStaticModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-static", load);
}
