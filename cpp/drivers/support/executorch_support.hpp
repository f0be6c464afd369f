// What the ExecuTorch drivers share: threads, version, checks with one-line
// errors, and MethodRunner, the lower-level Program -> Method path.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>

#include "callbench/model.hpp"

namespace callbench {

// The version of the executorch wheel the driver was built against.
std::string executorch_version();

// Call once, before loading: initialises the runtime, keeps its log lines
// off stderr (the thread pool's CPU probe prints some on every start; the
// last error line ends up in check()'s message instead), and sizes ExecuTorch's shared
// thread pool (XNNPACK's and the optimized kernels') to `threads`. Returns the
// pool's thread count read back. XNNPACK binds the pool when a method loads.
std::int64_t init_executorch(std::int64_t threads);

// An ExecuTorch driver's notes: how it calls, and the pool size read back.
Notes executorch_notes(std::string call, std::int64_t pool_threads);

// "InvalidProgram (0x23)": an ExecuTorch error for a one-line message.
std::string describe(executorch::runtime::Error error);

// Throws DataError(path, "<what>: <error> (<ExecuTorch's last error log>)")
// unless `error` is Ok (no allocation when it is: called on every call).
void check(const std::filesystem::path& path, executorch::runtime::Error error, const char* what);

// Checks the method takes one float [n, 2] input and gives one float [n, 1]
// output. The exported batch dimension is dynamic with an upper bound (the
// sizes the metadata reports): a --batch above it is a UsageError.
void check_method_meta(const std::filesystem::path& path,
                       const executorch::runtime::MethodMeta& meta, std::int64_t batch);

// Throws DataError(path, ...) unless `value` is a float tensor [batch, 1].
void check_output(const std::filesystem::path& path, const executorch::runtime::EValue& value,
                  std::int64_t batch);

// The Program -> Method API without extension::Module: the program and its
// "forward" method loaded once, with memory we own; one input tensor whose
// data pointer is pointed at each call's samples (set_input copies them into
// the method's planned input), the output read where the method planned it.
class MethodRunner {
 public:
  MethodRunner(const std::filesystem::path& path, std::int64_t batch);
  MethodRunner(const MethodRunner&) = delete;
  MethodRunner& operator=(const MethodRunner&) = delete;

  // One call: batch x 2 floats in; returns the batch outputs (valid until the
  // next call). Throws DataError naming the file if ExecuTorch fails.
  const float* run(const float* in);

 private:
  std::filesystem::path path_;
  std::optional<executorch::extension::FileDataLoader> loader_;
  std::optional<executorch::runtime::Program> program_;
  executorch::extension::MallocMemoryAllocator method_allocator_;
  executorch::extension::MallocMemoryAllocator temp_allocator_;
  std::vector<std::unique_ptr<std::uint8_t[]>> planned_buffers_;
  std::vector<executorch::runtime::Span<std::uint8_t>> planned_spans_;
  std::optional<executorch::runtime::HierarchicalAllocator> planned_memory_;
  std::optional<executorch::runtime::MemoryManager> memory_manager_;
  std::optional<executorch::runtime::Method> method_;
  // The input: a TensorImpl over the caller's samples, re-pointed each call.
  std::vector<executorch::aten::SizesType> sizes_;
  std::vector<executorch::aten::DimOrderType> dim_order_;
  std::vector<executorch::aten::StridesType> strides_;
  std::optional<executorch::aten::TensorImpl> input_impl_;
};

}  // namespace callbench
