// cpp-executorch-method: the same mlp.pte (XNNPACK) through ExecuTorch's
// lower-level API, as extension::Module does inside but without its
// per-call vectors: Program::load and load_method once with memory owned by
// the driver, one TensorImpl per input kept and pointed at each call's
// samples, Method::set_input + execute, each output copied from where the
// method planned it (support/executorch_support: MethodRunner, in MethodModel).
// XNNPACK's workspace sharing is off (a workspace per delegate instance): with the
// default, one workspace for every method, N callers' methods take turns on it
// (cpp-executorch-method-shared-workspace keeps that default, to show what it costs).
#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::MethodModel(
        options, "mlp.pte",
        "Method::set_input (kept TensorImpls) + execute + get_output, XNNPACK program",
        callbench::WorkspaceSharing::kDisabled);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch-method", load);
}
