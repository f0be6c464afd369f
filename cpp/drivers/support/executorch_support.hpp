// What the ExecuTorch drivers share: threads, version, checks with one-line
// errors, MethodRunner, the lower-level Program -> Method path, and MethodModel,
// a driver's whole model on it (cpp-executorch-method and -portable differ only
// in the program they give it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <executorch/extension/data_loader/file_data_loader.h>
#include <executorch/extension/memory_allocator/malloc_memory_allocator.h>
#include <executorch/runtime/executor/method.h>
#include <executorch/runtime/executor/program.h>

#include "callbench/model.hpp"
#include "callbench/options.hpp"
#include "callbench/tensors.hpp"

namespace callbench {

// The version of the executorch wheel the driver was built against.
std::string executorch_version();

// Call once, before loading: initialises the runtime, keeps its log lines
// off stderr (the thread pool's CPU probe prints some on every start; the
// last error line ends up in check()'s message instead), and sizes ExecuTorch's shared
// thread pool (XNNPACK's and the optimized kernels') to `threads`. Returns the
// pool's thread count read back. XNNPACK binds the pool when a method loads.
std::int64_t init_executorch(std::int64_t threads);

// XNNPACK's workspace (its arena for intermediate values) as the methods a process loads
// hold it. ExecuTorch's default in this wheel is one workspace for every method, which
// "will serialize execution of delegate instances" (the EXECUTORCH_XNNPACK_SHARED_WORKSPACE
// CMake option's words): N callers' methods then take turns. kDisabled gives each delegate
// instance its own (the backend option workspace_sharing_mode, set through
// executorch::runtime::set_option before any method loads, as ExecuTorch's XNNPACK backend
// documents it); kDefault leaves the runtime's setting alone.
enum class WorkspaceSharing { kDefault, kDisabled };

// Sets XNNPACK's workspace sharing for the methods loaded after it (process-wide) and
// returns the mode read back: 0 disabled, 1 per model, 2 global; -1 where the backend
// does not say. A refusal is a UsageError.
int set_workspace_sharing(WorkspaceSharing sharing);
// The mode the XNNPACK backend reports now (as set_workspace_sharing returns it).
int workspace_sharing();
// "global (one workspace for every loaded method)": a mode in words.
std::string workspace_sharing_name(int mode);

// An ExecuTorch driver's notes: how it calls, the pool size and the workspace sharing
// mode read back (a negative mode is left out).
Notes executorch_notes(std::string call, std::int64_t pool_threads, int sharing_mode);

// "InvalidProgram (0x23)": an ExecuTorch error for a one-line message.
std::string describe(executorch::runtime::Error error);

// Throws DataError(path, "<what>: <error> (<ExecuTorch's last error log>)")
// unless `error` is Ok (no allocation when it is: called on every call).
void check(const std::filesystem::path& path, executorch::runtime::Error error, const char* what);

// The method's inputs and outputs as its metadata gives them: each tensor's
// dtype and sizes, the first size being the batch (a dynamic batch's exported
// upper bound: a --batch above it is a UsageError). A program keeps no names,
// so they are input0, input1, ..., output0, ...; a tensor of a dtype the
// contract lacks, or without a batch dimension, is a DataError naming `path`.
// Checks the folder's reference files against it (check_references).
Signature method_signature(const std::filesystem::path& path,
                           const executorch::runtime::MethodMeta& meta, std::int64_t batch);

// ExecuTorch's element type of a contract dtype.
executorch::aten::ScalarType scalar_type_of(Dtype dtype);

// Throws DataError(path, ...) unless `value` is a tensor as `tensor` says, of
// `batch` samples.
void check_output(const std::filesystem::path& path, const executorch::runtime::EValue& value,
                  const Tensor& tensor, std::int64_t batch);

// The Program -> Method API without extension::Module: the program and its
// "forward" method loaded once, with memory we own; one TensorImpl per input,
// whose data pointer is pointed at each call's samples (set_input copies them
// into the method's planned input), the outputs read where the method planned them.
class MethodRunner {
 public:
  MethodRunner(const std::filesystem::path& path, std::int64_t batch);
  MethodRunner(const MethodRunner&) = delete;
  MethodRunner& operator=(const MethodRunner&) = delete;

  const Signature& signature() const { return signature_; }
  // One call: each input's batch in; each output's batch copied to out[k].
  // Throws DataError naming the file if ExecuTorch fails.
  void run(std::span<const std::byte* const> in, std::span<std::byte* const> out);

 private:
  void execute(std::span<const std::byte* const> in);

  std::filesystem::path path_;
  std::optional<executorch::extension::FileDataLoader> loader_;
  std::optional<executorch::runtime::Program> program_;
  Signature signature_;
  executorch::extension::MallocMemoryAllocator method_allocator_;
  executorch::extension::MallocMemoryAllocator temp_allocator_;
  std::vector<std::unique_ptr<std::uint8_t[]>> planned_buffers_;
  std::vector<executorch::runtime::Span<std::uint8_t>> planned_spans_;
  std::optional<executorch::runtime::HierarchicalAllocator> planned_memory_;
  std::optional<executorch::runtime::MemoryManager> memory_manager_;
  std::optional<executorch::runtime::Method> method_;
  // Per input: a TensorImpl over the caller's samples, re-pointed each call,
  // and the sizes, dim order and strides it points at.
  std::vector<std::vector<executorch::aten::SizesType>> sizes_;
  std::vector<std::vector<executorch::aten::DimOrderType>> dim_orders_;
  std::vector<std::vector<executorch::aten::StridesType>> strides_;
  std::vector<std::unique_ptr<executorch::aten::TensorImpl>> input_impls_;
  std::vector<std::size_t> output_bytes_;
};

// A driver's model on MethodRunner: the program `file` of the models folder, the pool sized
// and XNNPACK's workspace sharing set first (init_executorch, set_workspace_sharing), each
// call run as MethodRunner::run, `call` its notes' words.
class MethodModel {
 public:
  MethodModel(const Options& options, const char* file, std::string call,
              WorkspaceSharing sharing)
      : pool_threads_(init_executorch(options.threads)),
        sharing_(sharing),
        sharing_mode_(set_workspace_sharing(sharing)),
        path_(options.models / file),
        batch_(options.batch),
        runner_(path_, batch_),
        call_(std::move(call)) {}

  void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
    runner_.run(in, out);
  }
  const Signature& signature() const { return runner_.signature(); }
  std::string runtime_version() const { return executorch_version(); }
  Notes notes() const { return executorch_notes(call_, pool_threads_, sharing_mode_); }

  // Contract 4: ExecuTorch documents a Module's forward as not thread-safe, so each
  // caller loads its own Program and Method (the thread pool stays the one shared), and
  // XNNPACK's workspace is per delegate instance unless the driver keeps the default.
  class Caller {
   public:
    Caller(const std::filesystem::path& path, std::int64_t batch) : runner_(path, batch) {}
    void call(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
      runner_.run(in, out);
    }

   private:
    MethodRunner runner_;
  };
  Holding holding() const {
    if (sharing_ == WorkspaceSharing::kDisabled) {
      return {kPerCaller,
              "a Program and Method of its own in each caller, XNNPACK's workspace of its own "
              "(one shared thread pool)"};
    }
    return {kPerCaller, "a Program and Method of its own in each caller (one shared thread "
                        "pool), XNNPACK's workspace sharing left at ExecuTorch's default: " +
                            workspace_sharing_name(sharing_mode_)};
  }  Caller caller() { return Caller(path_, batch_); }

 private:
  std::int64_t pool_threads_;
  WorkspaceSharing sharing_;
  int sharing_mode_;
  std::filesystem::path path_;
  std::int64_t batch_;
  MethodRunner runner_;
  std::string call_;
};

}  // namespace callbench
