// cpp-executorch-portable: mlp_portable.pte, the same model exported without
// a delegate, so ExecuTorch's own CPU kernels (the wheel's
// libexecutorch_kernels_optimized) run every operator instead of XNNPACK.
// Called exactly as cpp-executorch-method calls mlp.pte (MethodRunner in
// support/executorch_support), so the two rows differ only in the program.
#include <cstring>
#include <string>

#include "callbench/driver_main.hpp"
#include "executorch_support.hpp"

namespace {

class ExecuTorchPortableModel {
 public:
  explicit ExecuTorchPortableModel(const callbench::Options& options)
      : batch_(options.batch),
        pool_threads_(callbench::init_executorch(options.threads)),
        runner_(options.models / "mlp_portable.pte", options.batch) {}

  void call(const float* in, float* out) {
    std::memcpy(out, runner_.run(in), static_cast<std::size_t>(batch_) * sizeof(float));
  }
  std::string runtime_version() const { return callbench::executorch_version(); }
  callbench::Notes notes() const {
    return callbench::executorch_notes(
        "Method::set_input (kept TensorImpl) + execute + get_output, no delegate "
        "(ExecuTorch kernels)",
        pool_threads_);
  }

 private:
  std::int64_t batch_;
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
