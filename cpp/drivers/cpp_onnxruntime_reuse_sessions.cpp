// cpp-onnxruntime-reuse-sessions: cpp-onnxruntime-reuse with a session of its own
// in each caller (contract 4): no caller waits on another's session, at the cost
// of a copy of the model and its arena a caller. At one caller it is
// cpp-onnxruntime-reuse itself, so it runs at N > 1 callers only (the registry's
// callers_only).
#include <memory>
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "ort_support.hpp"

namespace {

// One caller's own session, and the -reuse call over it.
class OwnSessionCall {
 public:
  explicit OwnSessionCall(const callbench::Options& options)
      : ort_(std::make_unique<callbench::OrtModel>(options.models / "mlp.onnx", options.threads,
                                                   options.batch)),
        call_(*ort_) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    call_.call(in, out);
  }
  const callbench::OrtModel& ort() const { return *ort_; }

 private:
  std::unique_ptr<callbench::OrtModel> ort_;  // not movable: the call points into it
  callbench::OrtReuseCall call_;
};

class OnnxRuntimeSessionsModel {
 public:
  explicit OnnxRuntimeSessionsModel(const callbench::Options& options)
      : options_(options), one_(options) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    one_.call(in, out);
  }
  std::string runtime_version() const { return callbench::ort_version(); }
  const callbench::Signature& signature() const { return one_.ort().signature(); }
  callbench::Notes notes() const {
    return {{"call", "OrtValues reused over fixed buffers, Run into them"}};
  }
  callbench::Holding holding() const {
    return {callbench::kPerCaller,
            "an Ort::Session of its own in each caller, each with OrtValues over its own buffers"};
  }
  OwnSessionCall caller() { return OwnSessionCall(options_); }

 private:
  callbench::Options options_;
  OwnSessionCall one_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OnnxRuntimeSessionsModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-onnxruntime-reuse-sessions", load);
}
