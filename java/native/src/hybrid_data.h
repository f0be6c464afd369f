// Creating com.facebook.jni.HybridData objects that own a NativeObject, and
// reading the object back.
#pragma once

#include <jni.h>

#include <memory>

#include "native_object.h"

namespace callbench::jni {

// A new HybridData whose Destructor.mNativePointer owns `object`: Java frees
// it through resetNative() or, once unreachable, the DestructorThread.
jobject new_hybrid_data(JNIEnv* env, std::unique_ptr<NativeObject> object);

// The object a HybridData owns, or nullptr once it was reset.
NativeObject* hybrid_data_object(JNIEnv* env, jobject hybrid_data);

}  // namespace callbench::jni
