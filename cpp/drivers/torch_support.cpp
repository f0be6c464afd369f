#include "torch_support.hpp"

#include <ATen/Parallel.h>
#include <torch/version.h>

#include "callbench/errors.hpp"

namespace callbench {

void configure_torch_threads(std::int64_t threads) {
  at::set_num_threads(static_cast<int>(threads));
  at::set_num_interop_threads(1);
}

std::string torch_version() { return TORCH_VERSION; }

torch::jit::Module load_torchscript(const std::filesystem::path& path) {
  require_file(path);
  try {
    return torch::jit::load(path.string());
  } catch (const c10::Error& e) {
    throw DataError(path, "does not load as TorchScript: " + first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    throw DataError(path, "does not load as TorchScript: " + first_line(e.what()));
  }
}

void check_output(const std::filesystem::path& path, const at::Tensor& y, std::int64_t batch) {
  if (y.scalar_type() != at::kFloat || y.dim() != 2 || y.size(0) != batch || y.size(1) != 1) {
    std::ostringstream shape;
    shape << y.sizes() << " " << y.scalar_type();
    throw DataError(path, "model answers with " + shape.str() + ", expected [" +
                              std::to_string(batch) + ", 1] Float");
  }
}

}  // namespace callbench
