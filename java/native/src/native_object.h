// What a HybridData's native pointer points to.
//
// HybridData$Destructor.mNativePointer holds a NativeObject*; deleteNative
// (in libfbjni) deletes it through the virtual destructor, so it needs no
// knowledge of LibTorch, and libpytorch_jni decides what the object holds.
#pragma once

namespace callbench::jni {

class NativeObject {
 public:
  NativeObject() = default;
  NativeObject(const NativeObject&) = delete;
  NativeObject& operator=(const NativeObject&) = delete;
  virtual ~NativeObject() = default;
};

}  // namespace callbench::jni
