// cpp-executorch-portable: mlp_portable.pte, the same model exported without
// a delegate, so ExecuTorch's own CPU kernels (the wheel's
// libexecutorch_kernels_optimized) run every operator instead of XNNPACK.
// Called exactly as cpp-executorch-method calls mlp.pte (MethodRunner in
// support/executorch_support), so the two rows differ only in the program.
#include <span>
#include <string>

#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

namespace {

class ExecuTorchPortableModel {
 public:
  explicit ExecuTorchPortableModel(const callbench::Options& options)
      : pool_threads_(callbench::init_executorch(options.threads)),
        runner_(options.models / "mlp_portable.pte", options.batch) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    runner_.run(in, out);
  }
  const callbench::Signature& signature() const { return runner_.signature(); }
  std::string runtime_version() const { return callbench::executorch_version(); }
  callbench::Notes notes() const {
    return callbench::executorch_notes(
        "Method::set_input (kept TensorImpls) + execute + get_output, no delegate "
        "(ExecuTorch kernels)",
        pool_threads_);
  }

 private:
  std::int64_t pool_threads_;
  callbench::MethodRunner runner_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto load = [](const callbench::Options& options) {
    return ExecuTorchPortableModel(options);
  };
  return callbench::driver_main(argc, argv, "cpp-executorch-portable", load);
}
