#include "jni_cache.h"

#include <mutex>

#include "java_errors.h"

namespace callbench::jni {

namespace {

JniCache g_cache{};
bool g_ready = false;

jclass global_class(JNIEnv* env, const char* name) {
  jclass local = checked(env, env->FindClass(name));
  auto global = static_cast<jclass>(checked(env, env->NewGlobalRef(local)));
  env->DeleteLocalRef(local);
  return global;
}

jfieldID field(JNIEnv* env, jclass cls, const char* name, const char* sig) {
  return checked(env, env->GetFieldID(cls, name, sig));
}

jmethodID method(JNIEnv* env, jclass cls, const char* name, const char* sig) {
  return checked(env, env->GetMethodID(cls, name, sig));
}

jmethodID static_method(JNIEnv* env, jclass cls, const char* name, const char* sig) {
  return checked(env, env->GetStaticMethodID(cls, name, sig));
}

void fill(JNIEnv* env, JniCache& c) {
  c.ivalue_class = global_class(env, "org/pytorch/IValue");
  jclass iv = c.ivalue_class;
  c.ivalue_type_code = field(env, iv, "mTypeCode", "I");
  c.ivalue_data = field(env, iv, "mData", "Ljava/lang/Object;");
  c.ivalue_null = static_method(env, iv, "optionalNull", "()Lorg/pytorch/IValue;");
  c.ivalue_from_tensor = static_method(env, iv, "from", "(Lorg/pytorch/Tensor;)Lorg/pytorch/IValue;");
  c.ivalue_from_bool = static_method(env, iv, "from", "(Z)Lorg/pytorch/IValue;");
  c.ivalue_from_long = static_method(env, iv, "from", "(J)Lorg/pytorch/IValue;");
  c.ivalue_from_double = static_method(env, iv, "from", "(D)Lorg/pytorch/IValue;");
  c.ivalue_from_string = static_method(env, iv, "from", "(Ljava/lang/String;)Lorg/pytorch/IValue;");
  c.ivalue_bool_list = static_method(env, iv, "listFrom", "([Z)Lorg/pytorch/IValue;");
  c.ivalue_long_list = static_method(env, iv, "listFrom", "([J)Lorg/pytorch/IValue;");
  c.ivalue_double_list = static_method(env, iv, "listFrom", "([D)Lorg/pytorch/IValue;");
  c.ivalue_tensor_list =
      static_method(env, iv, "listFrom", "([Lorg/pytorch/Tensor;)Lorg/pytorch/IValue;");
  c.ivalue_list = static_method(env, iv, "listFrom", "([Lorg/pytorch/IValue;)Lorg/pytorch/IValue;");
  c.ivalue_tuple = static_method(env, iv, "tupleFrom", "([Lorg/pytorch/IValue;)Lorg/pytorch/IValue;");

  c.tensor_class = global_class(env, "org/pytorch/Tensor");
  jclass t = c.tensor_class;
  c.tensor_shape = field(env, t, "shape", "[J");
  c.tensor_memory_format = field(env, t, "memoryFormat", "Lorg/pytorch/MemoryFormat;");
  jclass format = global_class(env, "org/pytorch/MemoryFormat");
  c.memory_format_code = field(env, format, "jniCode", "I");
  struct KindName {
    const char* cls;
    const char* buffer;
    jint dtype_code;
    const char* as_array;
    const char* array;
  };
  // DType.jniCode: UINT8 1, INT8 2, INT32 3, FLOAT32 4, INT64 5, FLOAT64 6.
  static constexpr KindName kinds[JniCache::kTensorKinds] = {
      {"org/pytorch/Tensor$Tensor_float32", "Ljava/nio/FloatBuffer;", 4, "getDataAsFloatArray", "()[F"},
      {"org/pytorch/Tensor$Tensor_int64", "Ljava/nio/LongBuffer;", 5, "getDataAsLongArray", "()[J"},
      {"org/pytorch/Tensor$Tensor_int32", "Ljava/nio/IntBuffer;", 3, "getDataAsIntArray", "()[I"},
      {"org/pytorch/Tensor$Tensor_float64", "Ljava/nio/DoubleBuffer;", 6, "getDataAsDoubleArray", "()[D"},
      {"org/pytorch/Tensor$Tensor_uint8", "Ljava/nio/ByteBuffer;", 1, "getDataAsUnsignedByteArray", "()[B"},
      {"org/pytorch/Tensor$Tensor_int8", "Ljava/nio/ByteBuffer;", 2, "getDataAsByteArray", "()[B"},
  };
  for (int i = 0; i < JniCache::kTensorKinds; ++i) {
    JniCache::TensorKind& kind = c.tensor_kinds[i];
    kind.cls = global_class(env, kinds[i].cls);
    kind.data = field(env, kind.cls, "data", kinds[i].buffer);
    kind.dtype_code = kinds[i].dtype_code;
    kind.as_array = method(env, kind.cls, kinds[i].as_array, kinds[i].array);
  }
  c.tensor_new_native = static_method(
      env, t, "nativeNewTensor",
      "(Ljava/nio/ByteBuffer;[JIILcom/facebook/jni/HybridData;)Lorg/pytorch/Tensor;");

  jclass peer = global_class(env, "org/pytorch/NativePeer");
  c.peer_hybrid_data = field(env, peer, "mHybridData", "Lcom/facebook/jni/HybridData;");
  c.hybrid_data_class = global_class(env, "com/facebook/jni/HybridData");
  c.hybrid_data_init = method(env, c.hybrid_data_class, "<init>", "()V");
  c.hybrid_data_destructor =
      field(env, c.hybrid_data_class, "mDestructor", "Lcom/facebook/jni/HybridData$Destructor;");
  jclass destructor = global_class(env, "com/facebook/jni/HybridData$Destructor");
  c.destructor_native_pointer = field(env, destructor, "mNativePointer", "J");

  c.byte_buffer_class = global_class(env, "java/nio/ByteBuffer");
  c.byte_buffer_wrap = static_method(env, c.byte_buffer_class, "wrap", "([B)Ljava/nio/ByteBuffer;");
  c.byte_buffer_order =
      method(env, c.byte_buffer_class, "order", "(Ljava/nio/ByteOrder;)Ljava/nio/ByteBuffer;");
  jclass byte_order = global_class(env, "java/nio/ByteOrder");
  jobject order = checked(env, env->CallStaticObjectMethod(
                                   byte_order, static_method(env, byte_order, "nativeOrder",
                                                             "()Ljava/nio/ByteOrder;")));
  c.native_byte_order = checked(env, env->NewGlobalRef(order));
  env->DeleteLocalRef(order);

  c.boolean_class = global_class(env, "java/lang/Boolean");
  c.boolean_value = method(env, c.boolean_class, "booleanValue", "()Z");
  c.long_class = global_class(env, "java/lang/Long");
  c.long_value = method(env, c.long_class, "longValue", "()J");
  c.double_class = global_class(env, "java/lang/Double");
  c.double_value = method(env, c.double_class, "doubleValue", "()D");
  c.string_class = global_class(env, "java/lang/String");
  jclass map = global_class(env, "java/util/Map");
  c.map_get = method(env, map, "get", "(Ljava/lang/Object;)Ljava/lang/Object;");
  c.map_put = method(env, map, "put", "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;");
  c.map_key_set = method(env, map, "keySet", "()Ljava/util/Set;");
  jclass set = global_class(env, "java/util/Set");
  c.set_to_array = method(env, set, "toArray", "()[Ljava/lang/Object;");
}

}  // namespace

void init_jni_cache(JNIEnv* env) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  if (g_ready) {
    return;
  }
  JniCache fresh{};
  fill(env, fresh);  // throws on failure; a later load retries
  g_cache = fresh;
  g_ready = true;
}

const JniCache& jni_cache() { return g_cache; }

}  // namespace callbench::jni
