#include "tensor_bridge.h"

#include <ATen/Functions.h>
#include <c10/core/MemoryFormat.h>
#include <c10/util/SmallVector.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <string>

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

const JniCache::TensorKind& kind_of(JNIEnv* env, jobject tensor) {
  const JniCache& c = jni_cache();
  jclass cls = env->GetObjectClass(tensor);
  for (const auto& kind : c.tensor_kinds) {
    if (env->IsSameObject(cls, kind.cls)) {
      env->DeleteLocalRef(cls);
      return kind;
    }
  }
  env->DeleteLocalRef(cls);
  throw IllegalArgument("Tensor is of an unknown subclass (not one of org.pytorch.Tensor's dtypes)");
}

c10::SmallVector<int64_t, 8> shape_of(JNIEnv* env, jobject tensor) {
  auto array = static_cast<jlongArray>(env->GetObjectField(tensor, jni_cache().tensor_shape));
  if (array == nullptr) {
    throw IllegalArgument("Tensor has no shape");
  }
  const jsize rank = env->GetArrayLength(array);
  c10::SmallVector<int64_t, 8> sizes(static_cast<std::size_t>(rank));
  env->GetLongArrayRegion(array, 0, rank, reinterpret_cast<jlong*>(sizes.data()));
  env->DeleteLocalRef(array);
  check_java(env);
  for (int64_t size : sizes) {
    if (size < 0) {
      throw IllegalArgument("Tensor shape has a negative size");
    }
  }
  return sizes;
}

jint memory_format_of(JNIEnv* env, jobject tensor) {
  const JniCache& c = jni_cache();
  jobject format = env->GetObjectField(tensor, c.tensor_memory_format);
  if (format == nullptr) {
    return kContiguous;
  }
  const jint code = env->GetIntField(format, c.memory_format_code);
  env->DeleteLocalRef(format);
  return code;
}

// The strides of a Java tensor's layout (Java states the shape in NCHW order).
c10::SmallVector<int64_t, 8> strides_of(jint format, c10::IntArrayRef sizes) {
  switch (format) {
    case kContiguous: {
      c10::SmallVector<int64_t, 8> strides(sizes.size());
      int64_t stride = 1;
      for (std::size_t i = sizes.size(); i-- > 0;) {
        strides[i] = stride;
        stride *= std::max<int64_t>(sizes[i], 1);
      }
      return strides;
    }
    case kChannelsLast:
      if (sizes.size() != 4) throw IllegalArgument("CHANNELS_LAST needs a 4-d shape");
      return c10::SmallVector<int64_t, 8>(c10::get_channels_last_strides_2d(sizes));
    case kChannelsLast3d:
      if (sizes.size() != 5) throw IllegalArgument("CHANNELS_LAST_3D needs a 5-d shape");
      return c10::SmallVector<int64_t, 8>(c10::get_channels_last_strides_3d(sizes));
    default:
      throw IllegalArgument("Tensor has unknown memory format code " + std::to_string(format));
  }
}

// A heap buffer: copy what getDataAsXxxArray() returns (the API's own accessor).
at::Tensor copy_from_heap(JNIEnv* env, jobject tensor, const JniCache::TensorKind& kind,
                          c10::ScalarType type, c10::IntArrayRef sizes,
                          c10::IntArrayRef strides, int64_t numel) {
  auto array = static_cast<jarray>(env->CallObjectMethod(tensor, kind.as_array));
  check_java(env);
  const jsize length = env->GetArrayLength(array);
  if (length < numel) {
    env->DeleteLocalRef(array);
    throw IllegalArgument("Tensor shape needs " + std::to_string(numel) +
                          " elements, its buffer holds " + std::to_string(length));
  }
  at::Tensor result = at::empty_strided(sizes, strides, at::TensorOptions().dtype(type));
  void* raw = env->GetPrimitiveArrayCritical(array, nullptr);
  if (raw == nullptr) {
    env->DeleteLocalRef(array);
    check_java(env);
    throw std::runtime_error("GetPrimitiveArrayCritical failed");
  }
  std::memcpy(result.data_ptr(), raw, static_cast<std::size_t>(numel) * c10::elementSize(type));
  env->ReleasePrimitiveArrayCritical(array, raw, JNI_ABORT);
  env->DeleteLocalRef(array);
  return result;
}

}  // namespace

at::Tensor tensor_from_java(JNIEnv* env, jobject tensor) {
  if (tensor == nullptr) {
    throw IllegalArgument("Tensor is null");
  }
  const JniCache::TensorKind& kind = kind_of(env, tensor);
  const c10::ScalarType type = scalar_type_of(kind.dtype_code);
  const auto sizes = shape_of(env, tensor);
  const auto strides = strides_of(memory_format_of(env, tensor), sizes);
  int64_t numel = 1;
  for (int64_t size : sizes) numel *= size;

  jobject buffer = env->GetObjectField(tensor, kind.data);
  if (buffer == nullptr) {
    throw IllegalArgument("Tensor has no data buffer");
  }
  void* data = env->GetDirectBufferAddress(buffer);
  const jlong capacity = env->GetDirectBufferCapacity(buffer);  // in elements
  env->DeleteLocalRef(buffer);
  if (data == nullptr) {
    return copy_from_heap(env, tensor, kind, type, sizes, strides, numel);
  }
  if (numel > capacity) {
    throw IllegalArgument("Tensor shape needs " + std::to_string(numel) +
                          " elements, its buffer holds " + std::to_string(capacity));
  }
  return at::from_blob(data, sizes, strides, at::TensorOptions().dtype(type));
}

jobject tensor_to_java(JNIEnv* env, const at::Tensor& value) {
  const JniCache& c = jni_cache();
  if (!value.defined()) {
    throw Unsupported("unsupported IValue kind: undefined Tensor");
  }
  if (!value.device().is_cpu()) {
    throw Unsupported("tensor on device " + value.device().str() + ": only CPU is supported");
  }
  const jint dtype_code = dtype_code_of(value.scalar_type());
  const at::Tensor tensor = value.contiguous();
  const auto nbytes = tensor.nbytes();
  if (nbytes > static_cast<std::size_t>(INT_MAX)) {
    throw Unsupported("tensor of " + std::to_string(nbytes) + " bytes: a Java array holds < 2 GiB");
  }
  const auto length = static_cast<jsize>(nbytes);

  jbyteArray bytes = checked(env, env->NewByteArray(length));
  if (length > 0) {
    env->SetByteArrayRegion(bytes, 0, length, static_cast<const jbyte*>(tensor.const_data_ptr()));
  }
  jobject wrapped = env->CallStaticObjectMethod(c.byte_buffer_class, c.byte_buffer_wrap, bytes);
  env->DeleteLocalRef(bytes);
  checked(env, wrapped);
  jobject ordered = env->CallObjectMethod(wrapped, c.byte_buffer_order, c.native_byte_order);
  env->DeleteLocalRef(wrapped);
  checked(env, ordered);

  const auto rank = static_cast<jsize>(tensor.dim());
  jlongArray shape = env->NewLongArray(rank);
  if (shape == nullptr) {
    env->DeleteLocalRef(ordered);
    checked(env, shape);
  }
  env->SetLongArrayRegion(shape, 0, rank, reinterpret_cast<const jlong*>(tensor.sizes().data()));
  // No HybridData: the Java tensor owns its (heap) data.
  jobject result = env->CallStaticObjectMethod(c.tensor_class, c.tensor_new_native, ordered, shape,
                                               dtype_code, kContiguous, nullptr);
  env->DeleteLocalRef(ordered);
  env->DeleteLocalRef(shape);
  return checked(env, result);
}

}  // namespace callbench::jni
