// cpp-executorch-method-shared-workspace: cpp-executorch-method with XNNPACK's workspace
// sharing left at ExecuTorch's default (one workspace for every loaded method), a twin
// run at N > 1 callers only: beside cpp-executorch-method (sharing off, a workspace per
// delegate instance) it shows what the default costs N callers, whose methods take turns
// on the one workspace.
#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::MethodModel(
        options, "mlp.pte",
        "Method::set_input (kept TensorImpls) + execute + get_output, XNNPACK program, "
        "XNNPACK's workspace shared (ExecuTorch's default)",
        callbench::WorkspaceSharing::kDefault);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch-method-shared-workspace", load);
}
