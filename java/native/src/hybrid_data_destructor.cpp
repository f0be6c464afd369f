// libfbjni: the one native method of com.facebook.jni.HybridData$Destructor.
//
// Java calls deleteNative(mNativePointer) from resetNative() or from the
// DestructorThread once the owner is unreachable, then sets the field to 0;
// a second reset therefore arrives here with 0, which must do nothing.
#include <jni.h>

#include <cstdint>

#include "native_object.h"

extern "C" JNIEXPORT void JNICALL
Java_com_facebook_jni_HybridData_00024Destructor_deleteNative(JNIEnv* /*env*/, jclass /*cls*/,
                                                               jlong pointer) {
  // Destructors are noexcept: nothing can unwind into the JVM from here.
  auto* object = reinterpret_cast<callbench::jni::NativeObject*>(static_cast<std::intptr_t>(pointer));
  delete object;
}
