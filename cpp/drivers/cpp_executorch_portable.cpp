// cpp-executorch-portable: mlp_portable.pte, the same model exported without
// a delegate, so ExecuTorch's own CPU kernels (the wheel's
// libexecutorch_kernels_optimized) run every operator instead of XNNPACK.
// Called exactly as cpp-executorch-method calls mlp.pte (MethodModel in
// support/executorch_support), so the two rows differ only in the program.
#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return callbench::MethodModel(options, "mlp_portable.pte",
                                  "Method::set_input (kept TensorImpls) + execute + get_output, "
                                  "no delegate (ExecuTorch kernels)",
                                  callbench::WorkspaceSharing::kDefault);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch-portable", load);
}
