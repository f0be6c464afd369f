#include "callbench/tensors.hpp"

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <system_error>

#include "callbench/errors.hpp"

namespace callbench {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the contract's files are little-endian; this host is not");

struct DtypeFacts {
  std::size_t bytes;
  std::string_view name;
  std::string_view extension;
};

DtypeFacts facts(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return {4, "float32", "f32"};
    case Dtype::float16: return {2, "float16", "f16"};
    case Dtype::float64: return {8, "float64", "f64"};
    case Dtype::int64: return {8, "int64", "i64"};
    case Dtype::int32: return {4, "int32", "i32"};
    case Dtype::int8: return {1, "int8", "i8"};
    case Dtype::uint8: return {1, "uint8", "u8"};
    case Dtype::boolean: return {1, "bool", "bool"};
  }
  return {0, "?", "?"};
}

// Index of the first value that is NaN or Inf, or count if none.
std::size_t first_not_finite(const std::byte* data, std::size_t count, Dtype dtype) {
  for (std::size_t i = 0; i < count; ++i) {
    bool finite = true;
    if (dtype == Dtype::float32) {
      float v;
      std::memcpy(&v, data + 4 * i, 4);
      finite = std::isfinite(v);
    } else if (dtype == Dtype::float64) {
      double v;
      std::memcpy(&v, data + 8 * i, 8);
      finite = std::isfinite(v);
    } else if (dtype == Dtype::float16) {
      std::uint16_t v;
      std::memcpy(&v, data + 2 * i, 2);
      finite = (v & 0x7C00u) != 0x7C00u;  // all-ones exponent: Inf or NaN
    }
    if (!finite) return i;
  }
  return count;
}

Samples read_samples(const std::filesystem::path& path, const Tensor& tensor) {
  require_file(path);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw DataError(path, std::string("cannot open: ") + std::strerror(errno));
  const auto bytes = static_cast<std::size_t>(in.tellg());
  const std::size_t sample = tensor.sample_bytes();
  if (bytes == 0 || bytes % sample != 0) {
    throw DataError(path, "size " + std::to_string(bytes) +
                              " bytes is not a whole number of samples of '" + tensor.name +
                              "' (" + std::to_string(sample) + " bytes each)");
  }
  Samples samples{Bytes(bytes), bytes / sample};
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(samples.bytes.data()), static_cast<std::streamsize>(bytes))) {
    throw DataError(path, "read failed after " + std::to_string(in.gcount()) + " bytes");
  }
  const std::size_t values = bytes / dtype_bytes(tensor.dtype);
  const std::size_t bad = first_not_finite(samples.bytes.data(), values, tensor.dtype);
  if (bad < values) {
    throw DataError(path, "sample " + std::to_string(bad / tensor.sample_size()) + " of '" +
                              tensor.name + "' is NaN or Inf");
  }
  return samples;
}

}  // namespace

std::size_t dtype_bytes(Dtype dtype) { return facts(dtype).bytes; }
std::string_view dtype_name(Dtype dtype) { return facts(dtype).name; }
std::string_view dtype_extension(Dtype dtype) { return facts(dtype).extension; }
bool is_floating(Dtype dtype) {
  return dtype == Dtype::float32 || dtype == Dtype::float16 || dtype == Dtype::float64;
}

std::size_t Tensor::sample_size() const {
  std::size_t size = 1;
  for (const std::int64_t d : shape) size *= static_cast<std::size_t>(d);
  return size;
}

std::string Tensor::describe() const {
  return "'" + name + "' " + std::string(dtype_name(dtype)) + " " + shape_text(shape);
}

std::string tensor_file(std::string_view stem, std::size_t index, Dtype dtype) {
  std::string file(stem);
  if (index > 0) file += std::to_string(index);
  return file + "." + std::string(dtype_extension(dtype));
}

std::optional<Dtype> dtype_named(std::string_view name) {
  for (Dtype dtype : kDtypes) {
    if (dtype_name(dtype) == name) return dtype;
  }
  return std::nullopt;
}

std::vector<std::int64_t> batch_shape(const Tensor& tensor, std::int64_t batch) {
  std::vector<std::int64_t> shape{batch};
  shape.insert(shape.end(), tensor.shape.begin(), tensor.shape.end());
  return shape;
}

std::string shape_text(std::span<const std::int64_t> shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(shape[i]);
  }
  return text + "]";
}

std::vector<Samples> read_inputs(const std::filesystem::path& models,
                                        const Signature& signature) {
  std::vector<Samples> all;
  for (std::size_t k = 0; k < signature.inputs.size(); ++k) {
    const Tensor& tensor = signature.inputs[k];
    const auto path = models / tensor_file(kInputsStem, k, tensor.dtype);
    all.push_back(read_samples(path, tensor));
    if (all.back().count != all.front().count) {
      throw DataError(path, "holds " + std::to_string(all.back().count) + " samples, " +
                                tensor_file(kInputsStem, 0, signature.inputs[0].dtype) +
                                " holds " + std::to_string(all.front().count) +
                                " (every input file holds the same samples)");
    }
  }
  return all;
}

void check_references(const std::filesystem::path& model, const std::filesystem::path& models,
                      const Signature& signature) {
  const Tensor& first = signature.inputs.at(0);
  std::error_code error;
  const auto input_bytes =
      std::filesystem::file_size(models / tensor_file(kInputsStem, 0, first.dtype), error);
  if (error || first.sample_bytes() == 0 || input_bytes % first.sample_bytes() != 0) return;
  const std::size_t samples = input_bytes / first.sample_bytes();
  for (std::size_t k = 0; k < signature.outputs.size(); ++k) {
    const Tensor& tensor = signature.outputs[k];
    const auto file = tensor_file(kReferenceStem, k, tensor.dtype);
    const auto bytes = std::filesystem::file_size(models / file, error);
    if (error) continue;  // no reference here: the harness names what it lacks
    if (bytes != samples * tensor.sample_bytes()) {
      throw DataError(model, "answers " + tensor.describe() + " a sample; " +
                                 (models / file).string() + " (" + std::to_string(bytes) +
                                 " bytes) does not hold one for each of the " +
                                 std::to_string(samples) + " samples of the inputs");
    }
  }
}

}  // namespace callbench
