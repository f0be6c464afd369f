// org.pytorch.Tensor <-> at::Tensor.
#pragma once

#include <jni.h>

#include <ATen/core/Tensor.h>

#include <utility>
#include <vector>

namespace callbench::jni {

// Java memory lent to LibTorch for one call. Inputs are wrapped without a
// copy; an output that still points into one of them is copied before Java
// gets it, since Java may free the input buffer while the output lives on.
class BorrowedBuffers {
 public:
  void add(const void* data, std::size_t bytes);
  bool aliases(const at::Tensor& tensor) const;

 private:
  std::vector<std::pair<const char*, const char*>> ranges_;
};

// Wraps the Java tensor's direct buffer (no copy) with its shape, dtype and
// memory format. Throws IllegalArgument if the buffer is not direct or too
// small for the shape.
at::Tensor tensor_from_java(JNIEnv* env, jobject tensor, BorrowedBuffers& borrowed);

// A Java Tensor viewing the tensor's memory, which its HybridData keeps
// alive. Throws Unsupported for a dtype the Java API has no class for.
jobject tensor_to_java(JNIEnv* env, at::Tensor tensor, const BorrowedBuffers& borrowed);

}  // namespace callbench::jni
