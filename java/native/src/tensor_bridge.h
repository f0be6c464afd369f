// org.pytorch.Tensor <-> at::Tensor.
#pragma once

#include <jni.h>

#include <ATen/core/Tensor.h>

namespace callbench::jni {

// The Java tensor as an at::Tensor with its shape, dtype and memory format.
// A direct buffer (Tensor.fromBlob, allocateXxxBuffer) is wrapped without a
// copy: Java keeps it alive for the duration of the native call, and outputs
// never point into it (tensor_to_java copies). Any other buffer (a tensor
// this peer returned) is copied. Throws IllegalArgument for a buffer too
// small for the shape or an unknown dtype or memory format.
at::Tensor tensor_from_java(JNIEnv* env, jobject tensor);

// A Java Tensor holding a copy of the tensor's data in a Java heap buffer.
// Copying (for the benchmark's [B, 1] outputs, a few bytes) frees the native
// tensor at once on the calling thread, instead of handing each output to
// fbjni's DestructorThread through a HybridData; the Java tensor is plain
// garbage then. Throws Unsupported for a dtype the Java API has no class for.
jobject tensor_to_java(JNIEnv* env, const at::Tensor& tensor);

}  // namespace callbench::jni
