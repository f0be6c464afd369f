// cpp-onnxruntime-reuse: every input and output an OrtValue made once over a
// fixed buffer; each call copies its samples in, runs straight into the
// output OrtValues and copies the results out.
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

class OnnxRuntimeReuseModel {
 public:
  explicit OnnxRuntimeReuseModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads, options.batch), one_(ort_) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    one_.call(in, out);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  const callbench::Signature& signature() const { return ort_.signature(); }
  callbench::Notes notes() const {
    return {{"call", "OrtValues reused over fixed buffers, Run into them"}};
  }
  // Contract 4: one session, each caller with OrtValues over buffers of its own.
  callbench::Holding holding() const {
    return {callbench::kShared,
            std::string(callbench::kSharedSession) + "; OrtValues over its own buffers in each"};
  }
  callbench::OrtReuseCall caller() { return callbench::OrtReuseCall(ort_); }

 private:
  callbench::OrtModel ort_;
  callbench::OrtReuseCall one_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeReuseModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime-reuse", load);
}
