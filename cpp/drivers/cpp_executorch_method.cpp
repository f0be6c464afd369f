// cpp-executorch-method: the same mlp.pte (XNNPACK) through ExecuTorch's
// lower-level API, as extension::Module does inside but without its
// per-call vectors: Program::load and load_method once with memory owned by
// the driver, one TensorImpl per input kept and pointed at each call's
// samples, Method::set_input + execute, each output copied from where the
// method planned it (support/executorch_support: MethodRunner).
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

namespace {

class ExecuTorchMethodModel {
 public:
  explicit ExecuTorchMethodModel(const callbench::Options& options)
      : pool_threads_(callbench::init_executorch(options.threads)),
        runner_(options.models / "mlp.pte", options.batch) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    runner_.run(in, out);
  }
  const callbench::Signature& signature() const { return runner_.signature(); }
  std::string runtime_version() const { return callbench::executorch_version(); }
  callbench::Notes notes() const {
    return callbench::executorch_notes(
        "Method::set_input (kept TensorImpls) + execute + get_output, XNNPACK program",
        pool_threads_);
  }

 private:
  std::int64_t pool_threads_;
  callbench::MethodRunner runner_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return ExecuTorchMethodModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch-method", load);
}
