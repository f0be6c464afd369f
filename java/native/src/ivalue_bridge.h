// org.pytorch.IValue <-> c10::IValue.
//
// Supported both ways: null, Tensor, bool, long, double, String, tuple, the
// typed lists (bool, long, double, Tensor) and generic lists of those. Any
// other kind raises UnsupportedOperationException naming it.
#pragma once

#include <jni.h>

#include <ATen/core/ivalue.h>

#include <vector>

#include "tensor_bridge.h"

namespace callbench::jni {

c10::IValue ivalue_from_java(JNIEnv* env, jobject value);

// The elements of a Java IValue[] (forward's varargs) as a call stack.
std::vector<c10::IValue> ivalues_from_java(JNIEnv* env, jobjectArray values);

jobject ivalue_to_java(JNIEnv* env, const c10::IValue& value);

}  // namespace callbench::jni
