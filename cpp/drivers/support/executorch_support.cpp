#include "executorch_support.hpp"

#include <cstdio>
#include <utility>

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

Notes executorch_notes(std::string call, std::int64_t pool_threads) {
  return {{"call", std::move(call)},
          {"threadpool_threads", pool_threads},
          {"threads_set_with",
           "ThreadPool::_unsafe_reset_threadpool, declared by hand: the wheel ships no "
           "threadpool.h (undocumented)"}};
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
  std::string text = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(sizes[i]);
  }
  return text + "]";
}

}  // namespace

void check_method_meta(const std::filesystem::path& path, const et::MethodMeta& meta,
                       std::int64_t batch) {
  if (meta.num_inputs() != 1 || meta.num_outputs() != 1) {
    throw DataError(path, "forward takes " + std::to_string(meta.num_inputs()) +
                              " inputs and gives " + std::to_string(meta.num_outputs()) +
                              " outputs, expected 1 and 1");
  }
  auto input = meta.input_tensor_meta(0);
  auto output = meta.output_tensor_meta(0);
  if (!input.ok() || !output.ok()) {
    throw DataError(path, "forward's input or output is not a tensor");
  }
  const auto in_sizes = input->sizes();
  const auto out_sizes = output->sizes();
  if (input->scalar_type() != etensor::ScalarType::Float || in_sizes.size() != 2 ||
      in_sizes[1] != 2) {
    throw DataError(path, "forward takes " + shape_text(in_sizes) + ", expected float [batch, 2]");
  }
  if (output->scalar_type() != etensor::ScalarType::Float || out_sizes.size() != 2 ||
      out_sizes[1] != 1) {
    throw DataError(path,
                    "model answers with " + shape_text(out_sizes) + ", expected float [batch, 1]");
  }
  if (batch > in_sizes[0]) {
    throw UsageError("--batch " + std::to_string(batch) + " is above the largest batch " +
                     std::to_string(in_sizes[0]) + " that " + path.string() + " was exported for");
  }
}

void check_output(const std::filesystem::path& path, const et::EValue& value,
                  std::int64_t batch) {
  if (!value.isTensor()) {
    throw DataError(path, "model answers with something that is not a tensor");
  }
  const auto tensor = value.toTensor();
  const auto sizes = tensor.sizes();
  if (tensor.scalar_type() != etensor::ScalarType::Float || sizes.size() != 2 ||
      sizes[0] != batch || sizes[1] != 1) {
    std::string got = "[";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      got += (i ? ", " : "") + std::to_string(sizes[i]);
    }
    throw DataError(path, "model answers with " + got + "], expected float [" +
                              std::to_string(batch) + ", 1]");
  }
}

MethodRunner::MethodRunner(const std::filesystem::path& path, std::int64_t batch)
    : path_(path),
      sizes_{static_cast<etensor::SizesType>(batch), 2},
      dim_order_{0, 1},
      strides_{2, 1} {
  require_file(path);
  auto loader = executorch::extension::FileDataLoader::from(path.c_str());
  check(path, loader.error(), "cannot be opened");
  loader_.emplace(std::move(loader.get()));
  auto program = et::Program::load(&*loader_, et::Program::Verification::InternalConsistency);
  check(path, program.error(), "does not load as an ExecuTorch program");
  program_.emplace(std::move(program.get()));

  auto meta = program_->method_meta("forward");
  check(path, meta.error(), "has no forward method");
  check_method_meta(path, meta.get(), batch);
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

  input_impl_.emplace(etensor::ScalarType::Float, 2, sizes_.data(), nullptr, dim_order_.data(),
                      strides_.data(), etensor::TensorShapeDynamism::DYNAMIC_BOUND);
  std::vector<float> zeros(static_cast<std::size_t>(batch) * 2, 0.0f);
  run(zeros.data());
  check_output(path, method_->get_output(0), batch);
}

const float* MethodRunner::run(const float* in) {
  // set_input only reads the samples (it copies them into the planned input).
  input_impl_->set_data(const_cast<float*>(in));
  check(path_, method_->set_input(et::EValue(etensor::Tensor(&*input_impl_)), 0),
        "forward rejects its input");
  check(path_, method_->execute(), "forward failed");
  return method_->get_output(0).toTensor().const_data_ptr<float>();
}

}  // namespace callbench
