// cpp-onnxruntime: the ONNX Runtime C++ API called the plain way. Session,
// names and memory info are made once; each call wraps each input's samples
// in a new OrtValue (no copy) and Run() returns freshly allocated outputs.
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

// One caller's call: each input's samples wrapped in a new OrtValue, Run's own outputs.
class PlainCall {
 public:
  explicit PlainCall(callbench::OrtModel& ort) : ort_(ort), inputs_(ort.input_count()) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    // Each assignment releases the previous call's OrtValue, as a local would.
    for (std::size_t k = 0; k < inputs_.size(); ++k) inputs_[k] = ort_.wrap_input(k, in[k]);
    const std::vector<Ort::Value> y =
        ort_.session().Run(Ort::RunOptions{nullptr}, ort_.input_names(), inputs_.data(),
                           inputs_.size(), ort_.output_names(), ort_.output_count());
    for (std::size_t k = 0; k < y.size(); ++k) {
      std::memcpy(out[k], y[k].GetTensorRawData(), ort_.output_bytes(k));
    }
  }

 private:
  callbench::OrtModel& ort_;
  std::vector<Ort::Value> inputs_;
};

class OnnxRuntimeModel {
 public:
  explicit OnnxRuntimeModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads, options.batch), one_(ort_) {
    callbench::check_model_answers(ort_);
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    one_.call(in, out);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  const callbench::Signature& signature() const { return ort_.signature(); }
  callbench::Notes notes() const {
    return {{"call", "CreateTensor over the samples + Run each call"}};
  }
  // Contract 4: Run is documented safe to call from many threads on one session.
  callbench::Holding holding() const {
    return {callbench::kShared, std::string(callbench::kSharedSession)};
  }
  PlainCall caller() { return PlainCall(ort_); }

 private:
  callbench::OrtModel ort_;
  PlainCall one_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime", load);
}
