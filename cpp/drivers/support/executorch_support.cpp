#include "executorch_support.hpp"

#include <cstdio>
#include <cstring>
#include <utility>

#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/backend/options.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

#include "callbench/errors.hpp"

// The wheel ships libexecutorch_threadpool.so but not its header
// (extension/threadpool/threadpool.h); only threadpool_guard.h is installed.
// These two declarations match the library's exported symbols
// (nm -DC libexecutorch_threadpool.so); only non-virtual member functions are
// called through a pointer the library hands out, so nothing depends on the
// class's layout.
namespace executorch::extension::threadpool {
class ThreadPool {
 public:
  std::size_t get_thread_count() const;
  bool _unsafe_reset_threadpool(std::uint32_t num_threads);
};
ThreadPool* get_threadpool();
}  // namespace executorch::extension::threadpool

namespace callbench {

namespace et = executorch::runtime;
namespace etensor = executorch::aten;

std::string executorch_version() { return CALLBENCH_EXECUTORCH_VERSION; }

namespace {

// ExecuTorch's PAL log hook. Nothing goes to stderr, where the contract
// wants one error line: debug and info lines are dropped, and the last error
// line is kept so that check() can put it into the driver's own error.
thread_local std::string last_error_log;

void emit_log(et_timestamp_t, et_pal_log_level_t level, const char*, const char*, std::size_t,
              const char* message, std::size_t length) {
  if (level != kDebug && level != kInfo) {
    last_error_log.assign(message, length);
  }
}

}  // namespace

std::int64_t init_executorch(std::int64_t threads) {
  static const bool registered =
      et::register_pal(et::PalImpl::create(emit_log, __FILE__));
  (void)registered;
  et::runtime_init();
  auto* pool = executorch::extension::threadpool::get_threadpool();
  if (pool == nullptr) {
    return 0;
  }
  if (static_cast<std::int64_t>(pool->get_thread_count()) != threads) {
    pool->_unsafe_reset_threadpool(static_cast<std::uint32_t>(threads));
  }
  return static_cast<std::int64_t>(pool->get_thread_count());
}

namespace {

// XNNPACK's backend and its option, as backends/xnnpack/runtime/XNNPACKBackend.h names
// them (the wheel ships the generic runtime/backend/options.h, not that header; the
// strings are in libexecutorch_backend_xnnpack.so). The mode's values are the header's
// WorkspaceSharingMode: 0 Disabled, 1 PerModel, 2 Global.
constexpr char kXnnpackBackend[] = "XnnpackBackend";
constexpr char kWorkspaceSharingMode[] = "workspace_sharing_mode";

}  // namespace

std::string workspace_sharing_name(int mode) {
  switch (mode) {
    case 0: return "disabled (a workspace per delegate instance)";
    case 1: return "per model (one workspace per program)";
    case 2: return "global (one workspace for every loaded method)";
    default: return "not reported";
  }
}

int set_workspace_sharing(WorkspaceSharing sharing) {
  if (sharing == WorkspaceSharing::kDefault) return workspace_sharing();
  et::BackendOptions<1> options;
  const int mode = sharing == WorkspaceSharing::kDisabled ? 0 : 2;
  if (options.set_option(kWorkspaceSharingMode, mode) != et::Error::Ok ||
      et::set_option(kXnnpackBackend, options.view()) != et::Error::Ok) {
    throw UsageError("ExecuTorch's XnnpackBackend does not take workspace_sharing_mode " +
                     std::to_string(mode) + " (" + first_line(last_error_log) + ")");
  }
  return workspace_sharing();
}

int workspace_sharing() {
  et::BackendOptions<1> options;
  int mode = -1;
  if (options.set_option(kWorkspaceSharingMode, mode) != et::Error::Ok ||
      et::get_option(kXnnpackBackend, options.view()) != et::Error::Ok ||
      options.get_option(kWorkspaceSharingMode, mode) != et::Error::Ok) {
    return -1;
  }
  return mode;
}

Notes executorch_notes(std::string call, std::int64_t pool_threads, int sharing_mode) {
  Notes notes{{"call", std::move(call)},
              {"threadpool_threads", pool_threads},
              {"threads_set_with",
               "ThreadPool::_unsafe_reset_threadpool, declared by hand: the wheel ships no "
               "threadpool.h (undocumented)"}};
  if (sharing_mode >= 0) {
    notes.emplace_back("xnnpack_workspace_sharing",
                       workspace_sharing_name(sharing_mode) + ", read back with "
                       "executorch::runtime::get_option(\"XnnpackBackend\")");
  }
  return notes;
}

std::string describe(et::Error error) {
  char code[16];
  std::snprintf(code, sizeof code, "0x%x", static_cast<unsigned>(error));
  return std::string(et::to_string(error)) + " (" + code + ")";
}

void check(const std::filesystem::path& path, et::Error error, const char* what) {
  if (error != et::Error::Ok) {
    std::string problem = std::string(what) + ": " + describe(error);
    if (!last_error_log.empty()) {
      problem += " (" + first_line(last_error_log) + ")";
      last_error_log.clear();
    }
    throw DataError(path, problem);
  }
}

namespace {

std::string shape_text(et::Span<const int32_t> sizes) {
  return callbench::shape_text(std::vector<std::int64_t>(sizes.begin(), sizes.end()));
}

std::optional<Dtype> dtype_of(etensor::ScalarType type) {
  for (Dtype dtype : kDtypes) {
    if (scalar_type_of(dtype) == type) return dtype;
  }
  return std::nullopt;
}

// One input or output of the method: its dtype, and its sizes after the batch.
Tensor tensor_of(const std::filesystem::path& path, const et::TensorInfo& info, std::string name) {
  const auto sizes = info.sizes();
  const std::optional<Dtype> dtype = dtype_of(info.scalar_type());
  if (!dtype) {
    throw DataError(path, "forward's " + name + " has element type " +
                              std::to_string(static_cast<int>(info.scalar_type())) +
                              ", which callbench does not feed");
  }
  if (sizes.size() == 0) {
    throw DataError(path, "forward's " + name + " has no batch dimension");
  }
  return Tensor{std::move(name), *dtype, std::vector<std::int64_t>(sizes.begin() + 1, sizes.end())};
}

}  // namespace

etensor::ScalarType scalar_type_of(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return etensor::ScalarType::Float;
    case Dtype::float16: return etensor::ScalarType::Half;
    case Dtype::float64: return etensor::ScalarType::Double;
    case Dtype::int64: return etensor::ScalarType::Long;
    case Dtype::int32: return etensor::ScalarType::Int;
    case Dtype::int8: return etensor::ScalarType::Char;
    case Dtype::uint8: return etensor::ScalarType::Byte;
    case Dtype::boolean: return etensor::ScalarType::Bool;
  }
  return etensor::ScalarType::Float;
}

Signature method_signature(const std::filesystem::path& path, const et::MethodMeta& meta,
                           std::int64_t batch) {
  Signature signature;
  for (std::size_t k = 0; k < meta.num_inputs(); ++k) {
    auto info = meta.input_tensor_meta(k);
    if (!info.ok()) throw DataError(path, "forward's input " + std::to_string(k) + " is not a tensor");
    const auto sizes = info->sizes();
    if (sizes.size() > 0 && batch > sizes[0]) {
      throw UsageError("--batch " + std::to_string(batch) + " is above the largest batch " +
                       std::to_string(sizes[0]) + " that " + path.string() + " was exported for (" +
                       shape_text(sizes) + ")");
    }
    signature.inputs.push_back(tensor_of(path, info.get(), "input" + std::to_string(k)));
  }
  for (std::size_t k = 0; k < meta.num_outputs(); ++k) {
    auto info = meta.output_tensor_meta(k);
    if (!info.ok()) throw DataError(path, "forward's output " + std::to_string(k) + " is not a tensor");
    signature.outputs.push_back(tensor_of(path, info.get(), "output" + std::to_string(k)));
  }
  if (signature.inputs.empty()) throw DataError(path, "forward takes no inputs");
  check_references(path, path.parent_path(), signature);
  return signature;
}

void check_output(const std::filesystem::path& path, const et::EValue& value,
                  const Tensor& tensor, std::int64_t batch) {
  if (!value.isTensor()) {
    throw DataError(path, "model answers '" + tensor.name + "' with something that is not a tensor");
  }
  const auto got = value.toTensor();
  const auto sizes = got.sizes();
  const std::vector<std::int64_t> shape(sizes.begin(), sizes.end());
  const std::vector<std::int64_t> expected = batch_shape(tensor, batch);
  if (got.scalar_type() != scalar_type_of(tensor.dtype) || shape != expected) {
    throw DataError(path, "model answers '" + tensor.name + "' with " + shape_text(shape) +
                              " of element type " +
                              std::to_string(static_cast<int>(got.scalar_type())) + ", expected " +
                              shape_text(expected) + " " + std::string(dtype_name(tensor.dtype)));
  }
}

MethodRunner::MethodRunner(const std::filesystem::path& path, std::int64_t batch) : path_(path) {
  require_file(path);
  auto loader = executorch::extension::FileDataLoader::from(path.c_str());
  check(path, loader.error(), "cannot be opened");
  loader_.emplace(std::move(loader.get()));
  auto program = et::Program::load(&*loader_, et::Program::Verification::InternalConsistency);
  check(path, program.error(), "does not load as an ExecuTorch program");
  program_.emplace(std::move(program.get()));

  auto meta = program_->method_meta("forward");
  check(path, meta.error(), "has no forward method");
  signature_ = method_signature(path, meta.get(), batch);
  // Planned memory, left untouched until used (new[] does not fill it): the
  // exported upper bound of the batch makes the planned buffers large.
  for (std::size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    auto size = meta->memory_planned_buffer_size(i);
    check(path, size.error(), "has a bad memory plan");
    const auto bytes = static_cast<std::size_t>(size.get());
    planned_buffers_.emplace_back(new std::uint8_t[bytes]);
    planned_spans_.emplace_back(planned_buffers_.back().get(), bytes);
  }
  planned_memory_.emplace(et::Span<et::Span<std::uint8_t>>(planned_spans_.data(),
                                                           planned_spans_.size()));
  memory_manager_.emplace(&method_allocator_, &*planned_memory_, &temp_allocator_);
  auto method = program_->load_method("forward", &*memory_manager_);
  check(path, method.error(), "forward cannot be loaded");
  method_.emplace(std::move(method.get()));

  std::vector<Bytes> zeros;
  for (const Tensor& input : signature_.inputs) {
    const std::vector<std::int64_t> shape = batch_shape(input, batch);
    auto& sizes = sizes_.emplace_back(shape.begin(), shape.end());
    auto& dim_order = dim_orders_.emplace_back();
    auto& strides = strides_.emplace_back(sizes.size(), 1);
    for (std::size_t d = 0; d < sizes.size(); ++d) {
      dim_order.push_back(static_cast<etensor::DimOrderType>(d));
    }
    for (std::size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
    input_impls_.push_back(std::make_unique<etensor::TensorImpl>(
        scalar_type_of(input.dtype), static_cast<ssize_t>(sizes.size()), sizes.data(), nullptr,
        dim_order.data(), strides.data(), etensor::TensorShapeDynamism::DYNAMIC_BOUND));
    zeros.emplace_back(static_cast<std::size_t>(batch) * input.sample_bytes());
  }
  for (const Tensor& output : signature_.outputs) {
    output_bytes_.push_back(static_cast<std::size_t>(batch) * output.sample_bytes());
  }
  std::vector<const std::byte*> in;
  for (const Bytes& z : zeros) in.push_back(z.data());
  execute(in);
  for (std::size_t k = 0; k < signature_.outputs.size(); ++k) {
    check_output(path, method_->get_output(k), signature_.outputs[k], batch);
  }
}

void MethodRunner::execute(std::span<const std::byte* const> in) {
  for (std::size_t k = 0; k < in.size(); ++k) {
    // set_input only reads the samples (it copies them into the planned input).
    input_impls_[k]->set_data(const_cast<std::byte*>(in[k]));
    check(path_, method_->set_input(et::EValue(etensor::Tensor(input_impls_[k].get())), k),
          "forward rejects its input");
  }
  check(path_, method_->execute(), "forward failed");
}

void MethodRunner::run(std::span<const std::byte* const> in, std::span<std::byte* const> out) {
  execute(in);
  for (std::size_t k = 0; k < out.size(); ++k) {
    std::memcpy(out[k], method_->get_output(k).toTensor().const_data_ptr(), output_bytes_[k]);
  }
}

}  // namespace callbench
