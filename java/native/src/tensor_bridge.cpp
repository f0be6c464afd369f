#include "tensor_bridge.h"

#include <ATen/Functions.h>
#include <c10/core/MemoryFormat.h>
#include <c10/util/SmallVector.h>

#include <climits>
#include <memory>
#include <string>

#include "hybrid_data.h"
#include "java_errors.h"
#include "jni_cache.h"

namespace callbench::jni {

namespace {

// org.pytorch.DType.jniCode and org.pytorch.MemoryFormat.jniCode values.
constexpr jint kUint8 = 1, kInt8 = 2, kInt32 = 3, kFloat32 = 4, kInt64 = 5, kFloat64 = 6;
constexpr jint kContiguous = 1, kChannelsLast = 2, kChannelsLast3d = 3;

c10::ScalarType scalar_type_of(jint dtype_code) {
  switch (dtype_code) {
    case kUint8: return c10::ScalarType::Byte;
    case kInt8: return c10::ScalarType::Char;
    case kInt32: return c10::ScalarType::Int;
    case kFloat32: return c10::ScalarType::Float;
    case kInt64: return c10::ScalarType::Long;
    case kFloat64: return c10::ScalarType::Double;
    default: throw IllegalArgument("Tensor has unknown dtype code " + std::to_string(dtype_code));
  }
}

jint dtype_code_of(c10::ScalarType type) {
  switch (type) {
    case c10::ScalarType::Byte: return kUint8;
    case c10::ScalarType::Char: return kInt8;
    case c10::ScalarType::Int: return kInt32;
    case c10::ScalarType::Float: return kFloat32;
    case c10::ScalarType::Long: return kInt64;
    case c10::ScalarType::Double: return kFloat64;
    default:
      throw Unsupported(std::string("unsupported tensor dtype ") + c10::toString(type) +
                        ": org.pytorch.Tensor holds uint8, int8, int32, float32, int64, float64");
  }
}

// The data owned by a Java Tensor built from a LibTorch result.
class TensorHolder final : public NativeObject {
 public:
  explicit TensorHolder(at::Tensor tensor) : tensor_(std::move(tensor)) {}

 private:
  at::Tensor tensor_;
};

}  // namespace

void BorrowedBuffers::add(const void* data, std::size_t bytes) {
  const char* begin = static_cast<const char*>(data);
  ranges_.emplace_back(begin, begin + bytes);
}

bool BorrowedBuffers::aliases(const at::Tensor& tensor) const {
  if (ranges_.empty() || !tensor.has_storage()) {
    return false;
  }
  const auto& storage = tensor.storage();
  const char* begin = static_cast<const char*>(storage.data());
  const char* end = begin + storage.nbytes();
  for (const auto& [b, e] : ranges_) {
    if (begin < e && b < end) {
      return true;
    }
  }
  return false;
}

at::Tensor tensor_from_java(JNIEnv* env, jobject tensor, BorrowedBuffers& borrowed) {
  const JniCache& c = jni_cache();
  if (tensor == nullptr) {
    throw IllegalArgument("Tensor is null");
  }
  auto shape_array = static_cast<jlongArray>(env->GetObjectField(tensor, c.tensor_shape));
  if (shape_array == nullptr) {
    throw IllegalArgument("Tensor has no shape");
  }
  const jsize rank = env->GetArrayLength(shape_array);
  c10::SmallVector<int64_t, 8> sizes(static_cast<std::size_t>(rank));
  env->GetLongArrayRegion(shape_array, 0, rank, reinterpret_cast<jlong*>(sizes.data()));
  env->DeleteLocalRef(shape_array);
  check_java(env);

  const jint dtype_code = env->CallIntMethod(tensor, c.tensor_dtype_code);
  check_java(env);
  const jint format_code = env->CallIntMethod(tensor, c.tensor_memory_format_code);
  check_java(env);
  jobject buffer = env->CallObjectMethod(tensor, c.tensor_raw_buffer);
  check_java(env);
  void* data = env->GetDirectBufferAddress(buffer);
  const jlong capacity = env->GetDirectBufferCapacity(buffer);  // in elements
  env->DeleteLocalRef(buffer);
  if (data == nullptr) {
    throw IllegalArgument("Tensor data buffer is not a direct buffer");
  }

  const c10::ScalarType type = scalar_type_of(dtype_code);
  int64_t numel = 1;
  for (int64_t size : sizes) {
    if (size < 0) {
      throw IllegalArgument("Tensor shape has a negative size");
    }
    numel *= size;
  }
  if (numel > capacity) {
    throw IllegalArgument("Tensor shape needs " + std::to_string(numel) +
                          " elements, its buffer holds " + std::to_string(capacity));
  }
  const auto options = at::TensorOptions().dtype(type);
  borrowed.add(data, static_cast<std::size_t>(numel) * c10::elementSize(type));
  switch (format_code) {
    case kContiguous:
      return at::from_blob(data, sizes, options);
    case kChannelsLast:
      if (sizes.size() != 4) {
        throw IllegalArgument("CHANNELS_LAST needs a 4-d shape");
      }
      return at::from_blob(data, sizes, c10::get_channels_last_strides_2d(sizes), options);
    case kChannelsLast3d:
      if (sizes.size() != 5) {
        throw IllegalArgument("CHANNELS_LAST_3D needs a 5-d shape");
      }
      return at::from_blob(data, sizes, c10::get_channels_last_strides_3d(sizes), options);
    default:
      throw IllegalArgument("Tensor has unknown memory format code " + std::to_string(format_code));
  }
}

jobject tensor_to_java(JNIEnv* env, at::Tensor tensor, const BorrowedBuffers& borrowed) {
  const JniCache& c = jni_cache();
  if (!tensor.defined()) {
    throw Unsupported("unsupported IValue kind: undefined Tensor");
  }
  if (!tensor.device().is_cpu()) {
    throw Unsupported("tensor on device " + tensor.device().str() + ": only CPU is supported");
  }
  const jint dtype_code = dtype_code_of(tensor.scalar_type());
  tensor = tensor.contiguous();
  if (borrowed.aliases(tensor)) {
    tensor = tensor.clone();
  }
  const auto nbytes = tensor.nbytes();
  if (nbytes > static_cast<std::size_t>(INT_MAX)) {
    throw Unsupported("tensor of " + std::to_string(nbytes) + " bytes: a Java buffer holds < 2 GiB");
  }
  static char empty_tensor_data = 0;  // NewDirectByteBuffer wants an address even for 0 bytes
  void* data = nbytes == 0 ? &empty_tensor_data : tensor.data_ptr();

  const auto rank = static_cast<jsize>(tensor.dim());
  jlongArray shape = checked(env, env->NewLongArray(rank));
  env->SetLongArrayRegion(shape, 0, rank, reinterpret_cast<const jlong*>(tensor.sizes().data()));

  jobject bytes = checked(env, env->NewDirectByteBuffer(data, static_cast<jlong>(nbytes)));
  jobject ordered = checked(env, env->CallObjectMethod(bytes, c.byte_buffer_order, c.native_byte_order));
  env->DeleteLocalRef(bytes);
  jobject hybrid = new_hybrid_data(env, std::make_unique<TensorHolder>(std::move(tensor)));
  jobject result = env->CallStaticObjectMethod(c.tensor_class, c.tensor_new_native, ordered, shape,
                                               dtype_code, kContiguous, hybrid);
  env->DeleteLocalRef(ordered);
  env->DeleteLocalRef(shape);
  env->DeleteLocalRef(hybrid);
  return checked(env, result);
}

}  // namespace callbench::jni
