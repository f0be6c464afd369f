// cpp-onnxruntime-iobinding: every input and output bound once with
// Ort::IoBinding to an OrtValue over a fixed buffer; each call copies its
// samples in, runs the binding and copies the results out. With --gathered
// (contract 7) the batcher's calls run at the size they gathered, through
// bindings of each size made at load (OrtGatheredCalls).
#include <memory>
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

class OnnxRuntimeIoBindingModel {
 public:
  explicit OnnxRuntimeIoBindingModel(const callbench::Options& options)
      : ort_(options.models / "mlp.onnx", options.threads, options.batch),
        buffers_(ort_),
        binding_(ort_.session()),
        gathered_(options.gathered ? std::make_unique<callbench::OrtGatheredCalls>(ort_)
                                   : nullptr) {
    for (std::size_t k = 0; k < ort_.input_count(); ++k) {
      binding_.BindInput(ort_.input_names()[k], buffers_.inputs()[k]);
    }
    for (std::size_t k = 0; k < ort_.output_count(); ++k) {
      binding_.BindOutput(ort_.output_names()[k], buffers_.outputs()[k]);
    }
  }

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    buffers_.load(in);
    ort_.session().Run(run_options_, binding_);
    buffers_.store(out);
  }
  // Contract 7's --gathered: one call of the first n samples (made at load only with it).
  void call_gathered(std::span<const std::byte* const> in, std::span<std::byte* const> out,
                     std::size_t n) {
    gathered_->call(in, out, n);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  const callbench::Signature& signature() const { return ort_.signature(); }
  callbench::Notes notes() const {
    callbench::Notes notes = {{"call", "IoBinding to OrtValues over fixed buffers"}};
    if (gathered_) notes.emplace_back("gathered_call", std::string(callbench::kGatheredCall));
    return notes;
  }

 private:
  callbench::OrtModel ort_;
  callbench::OrtFixedBuffers buffers_;
  Ort::IoBinding binding_;
  std::unique_ptr<callbench::OrtGatheredCalls> gathered_;  // with --gathered only
  Ort::RunOptions run_options_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeIoBindingModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime-iobinding", load);
}
