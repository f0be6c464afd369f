// tensors: contract version 3 in C++. A model's named inputs and outputs
// (dtype, shape per sample), the raw file that holds each one's samples by
// the naming rule (inputs.f32, inputs1.i64, reference.f32, reference1.i64,
// ...), and reading those files. The same words as Python's kit: a Tensor,
// a Signature of inputs and outputs, a sample shape, a dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace callbench {

enum class Dtype { float32, float16, float64, int64, int32, int8, uint8, boolean };
inline constexpr Dtype kDtypes[] = {Dtype::float32, Dtype::float16, Dtype::float64,
                                    Dtype::int64,   Dtype::int32,   Dtype::int8,
                                    Dtype::uint8,   Dtype::boolean};

std::size_t dtype_bytes(Dtype dtype);
std::string_view dtype_name(Dtype dtype);       // "float32", ..., "bool"
std::string_view dtype_extension(Dtype dtype);  // "f32", ..., "bool"
bool is_floating(Dtype dtype);
// The dtype a contract name ("float32", ..., "bool") names; none for another word.
std::optional<Dtype> dtype_named(std::string_view name);

// One named input or output of a model.
struct Tensor {
  std::string name;
  Dtype dtype = Dtype::float32;
  std::vector<std::int64_t> shape;  // per sample, without the batch dimension

  std::size_t sample_size() const;  // values per sample
  std::size_t sample_bytes() const { return sample_size() * dtype_bytes(dtype); }
  std::string describe() const;  // 'x' float32 [3, 32, 32]
};

// A tensor's shape for a call of `batch` samples: [batch, shape...].
std::vector<std::int64_t> batch_shape(const Tensor& tensor, std::int64_t batch);

// Every input and output, in the model's order (as its runtime reads them).
struct Signature {
  std::vector<Tensor> inputs;
  std::vector<Tensor> outputs;
};

// The file of tensor `index` of a stem by the naming rule: ("inputs", 0,
// float32) -> inputs.f32, ("reference", 1, int64) -> reference1.i64.
std::string tensor_file(std::string_view stem, std::size_t index, Dtype dtype);
inline constexpr std::string_view kInputsStem = "inputs";
inline constexpr std::string_view kReferenceStem = "reference";

// "[3, 32, 32]"
std::string shape_text(std::span<const std::int64_t> shape);

// Allocates on 64-byte boundaries: a runtime may take a buffer it is given
// without copying only when it is aligned (OpenVINO's CPU plugin, for one),
// so every buffer a call reads or writes starts on a cache line, not where
// the heap happens to put it.
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlignment); }
  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const { return true; }
};
using Bytes = std::vector<std::byte, CacheLineAllocator<std::byte>>;

// One input's samples, as raw little-endian bytes.
struct Samples {
  Bytes bytes;
  std::size_t count = 0;  // samples
};

// Each input's file of `models` by the naming rule, checked: a whole, non-zero
// number of samples, every float finite, the same sample count in every file.
// Throws DataError naming the file.
std::vector<Samples> read_inputs(const std::filesystem::path& models,
                                        const Signature& signature);

// Throws DataError(model, ...) unless every reference file in `models` (by
// the naming rule) holds one sample of its output for each sample of the
// first input's file: a model that answers another shape than the one its
// reference was made with fails at load, naming the model. A driver calls it
// once it has read the model's signature; a missing or partial file is left
// to the reading that names it.
void check_references(const std::filesystem::path& model, const std::filesystem::path& models,
                      const Signature& signature);

}  // namespace callbench
