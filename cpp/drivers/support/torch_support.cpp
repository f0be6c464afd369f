#include "torch_support.hpp"

#include <sstream>
#include <utility>

#include <ATen/Parallel.h>
#include <torch/version.h>

#include "callbench/errors.hpp"

namespace callbench {

void configure_torch_threads(std::int64_t threads) {
  at::set_num_threads(static_cast<int>(threads));
  at::set_num_interop_threads(1);
}

std::string torch_version() { return TORCH_VERSION; }

Notes torch_notes(std::string call) {
  return {{"call", std::move(call)},
          {"intra_op_threads", std::int64_t{at::get_num_threads()}},
          {"inter_op_threads", static_cast<std::int64_t>(at::get_num_interop_threads())}};
}

torch::jit::Module load_torchscript(const std::filesystem::path& path) {
  require_file(path);
  try {
    return torch::jit::load(path.string());
  } catch (const c10::Error& e) {
    throw DataError(path,
                    "does not load as TorchScript: " + first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    throw DataError(path, "does not load as TorchScript: " + first_line(e.what()));
  }
}

void check_output_shape(const std::filesystem::path& path, const at::Tensor& y,
                        at::IntArrayRef expected) {
  if (y.scalar_type() != at::kFloat || y.sizes() != expected) {
    std::ostringstream got;
    got << y.sizes() << " " << y.scalar_type() << ", expected " << expected << " Float";
    throw DataError(path, "model answers with " + got.str());
  }
}

void check_output(const std::filesystem::path& path, const at::Tensor& y, std::int64_t batch) {
  check_output_shape(path, y, {batch, 1});
}

}  // namespace callbench
