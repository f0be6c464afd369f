// cpp-openvino-static-models: cpp-openvino-static with a CompiledModel of its own in each
// caller (contract 4, per caller), a twin run at N > 1 callers only. OpenVINO runs one
// compiled model's infer requests in parallel only as far as its streams go (one stream at
// one inference thread): N callers of the shared model take turns, a model each runs them
// side by side. CPU pinning as cpp-openvino-static sets it (off with N callers).
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "openvino_support.hpp"

namespace {

class OpenVinoModelsModel {
 public:
  explicit OpenVinoModelsModel(const callbench::Options& options)
      : options_(options),
        tensors_(options, /*static_shape=*/true, callbench::Pinning::kForCallers,
                 "model reshaped to static [batch, *shape] inputs; input/output Tensors over "
                 "fixed buffers set once, infer each call; a CompiledModel per caller") {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    tensors_.call(in, out);
  }
  std::string runtime_version() const { return tensors_.runtime_version(); }
  const callbench::Signature& signature() const { return tensors_.signature(); }
  callbench::Holding holding() const {
    return {callbench::kPerCaller,
            "a CompiledModel of its own in each caller (an InferRequest on it), CPU pinning off"};
  }
  callbench::OpenVinoOwnModel caller() {
    return callbench::OpenVinoOwnModel(options_, /*static_shape=*/true);
  }
  callbench::Notes notes() const { return tensors_.notes(); }

 private:
  callbench::Options options_;
  callbench::OpenVinoFixedTensors tensors_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return OpenVinoModelsModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-openvino-static-models", load);
}
