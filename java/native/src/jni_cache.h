// Classes, fields and methods of the jar that the peer touches, looked up once.
//
// Looked up on the first Module load, from inside a NativePeer native method,
// so FindClass resolves through the class loader that loaded the jar (which
// is not always the system one, e.g. under JPype).
#pragma once

#include <jni.h>

namespace callbench::jni {

struct JniCache {
  // org.pytorch.IValue and its factories (its constructor is private; the
  // public static factories keep its invariants).
  jclass ivalue_class;
  jfieldID ivalue_type_code;  // int mTypeCode
  jfieldID ivalue_data;       // Object mData
  jmethodID ivalue_null;
  jmethodID ivalue_from_tensor;
  jmethodID ivalue_from_bool;
  jmethodID ivalue_from_long;
  jmethodID ivalue_from_double;
  jmethodID ivalue_from_string;
  jmethodID ivalue_bool_list;
  jmethodID ivalue_long_list;
  jmethodID ivalue_double_list;
  jmethodID ivalue_tensor_list;
  jmethodID ivalue_list;
  jmethodID ivalue_tuple;

  // org.pytorch.Tensor
  jclass tensor_class;
  jfieldID tensor_shape;          // long[] shape
  jfieldID tensor_memory_format;  // MemoryFormat memoryFormat
  jfieldID memory_format_code;    // int MemoryFormat.jniCode
  jmethodID tensor_new_native;    // static nativeNewTensor(ByteBuffer, long[], int, int, HybridData)

  // One entry per Tensor subclass (Tensor_float32, ...): reading its `data`
  // field directly spares the JNI up-calls of dtype() and getRawDataBuffer()
  // on every call; getDataAs...Array() is the copy path for a heap buffer.
  struct TensorKind {
    jclass cls;
    jfieldID data;      // the subclass's private final XxxBuffer data
    jint dtype_code;    // DType.jniCode
    jmethodID as_array; // public getDataAsXxxArray()
  };
  static constexpr int kTensorKinds = 6;
  TensorKind tensor_kinds[kTensorKinds];

  // org.pytorch.NativePeer, com.facebook.jni.HybridData(+$Destructor)
  jfieldID peer_hybrid_data;
  jclass hybrid_data_class;
  jmethodID hybrid_data_init;
  jfieldID hybrid_data_destructor;
  jfieldID destructor_native_pointer;

  // java.nio: Tensor views its ByteBuffer as Float/Int/...Buffer, which needs
  // native byte order (ByteBuffer.wrap gives big endian).
  jclass byte_buffer_class;
  jmethodID byte_buffer_wrap;
  jmethodID byte_buffer_order;
  jobject native_byte_order;

  // Boxed scalars and maps.
  jclass boolean_class;
  jmethodID boolean_value;
  jclass long_class;
  jmethodID long_value;
  jclass double_class;
  jmethodID double_value;
  jclass string_class;
  jmethodID map_get;
  jmethodID map_put;
  jmethodID map_key_set;
  jmethodID set_to_array;
};

// Builds the cache on first use; throws JavaExceptionPending if a class or
// member is missing (a jar version this peer was not written for).
void init_jni_cache(JNIEnv* env);

// Only valid after init_jni_cache succeeded once (any Module.load).
const JniCache& jni_cache();

}  // namespace callbench::jni
