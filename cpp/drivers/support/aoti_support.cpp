#include "aoti_support.hpp"

#include <string>

#include "callbench/errors.hpp"
#include "torch_support.hpp"

namespace callbench {

std::unique_ptr<torch::inductor::AOTIModelPackageLoader> load_aoti_package(
    const std::filesystem::path& path) {
  require_file(path);
  const auto fail = [&](const std::string& why) {
    return DataError(path, "does not load as an AOTInductor package: " + first_line(why));
  };
  try {
    return std::make_unique<torch::inductor::AOTIModelPackageLoader>(
        path.string(), "model", /*run_single_threaded=*/true);
  } catch (const c10::Error& e) {
    throw fail(e.what_without_backtrace());
  } catch (const std::exception& e) {
    throw fail(e.what());
  }
}

void check_first_call(const std::filesystem::path& path,
                      const std::function<std::vector<at::Tensor>()>& first_call,
                      std::int64_t batch) {
  std::vector<at::Tensor> outputs;
  try {
    outputs = first_call();
  } catch (const c10::Error& e) {
    throw DataError(path, "model fails on a [" + std::to_string(batch) +
                              ", 2] input: " + first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {
    throw DataError(path, "model fails on a [" + std::to_string(batch) +
                              ", 2] input: " + first_line(e.what()));
  }
  if (outputs.size() != 1) {
    throw DataError(path, "model answers with " + std::to_string(outputs.size()) +
                              " tensors, expected 1");
  }
  check_output(path, outputs[0], batch);
}

}  // namespace callbench
