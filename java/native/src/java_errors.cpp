#include "java_errors.h"

#include <c10/util/Exception.h>

#include <exception>

namespace callbench::jni {

void check_java(JNIEnv* env) {
  if (env->ExceptionCheck()) {
    throw JavaExceptionPending{};
  }
}

namespace {

void throw_java(JNIEnv* env, const char* class_name, const std::string& message) noexcept {
  if (env->ExceptionCheck()) {
    return;  // keep the first failure, it names the cause
  }
  jclass cls = env->FindClass(class_name);
  if (cls != nullptr) {
    env->ThrowNew(cls, message.c_str());
    env->DeleteLocalRef(cls);
  }
}

}  // namespace

void throw_current_as_java(JNIEnv* env) noexcept {
  try {
    throw;
  } catch (const JavaExceptionPending&) {
    // already pending
  } catch (const IllegalArgument& e) {
    throw_java(env, "java/lang/IllegalArgumentException", e.what());
  } catch (const IllegalState& e) {
    throw_java(env, "java/lang/IllegalStateException", e.what());
  } catch (const Unsupported& e) {
    throw_java(env, "java/lang/UnsupportedOperationException", e.what());
  } catch (const c10::Error& e) {
    // Without the C++ backtrace: the message is what a Java caller can act on.
    throw_java(env, "java/lang/RuntimeException", e.what_without_backtrace());
  } catch (const std::bad_alloc&) {
    throw_java(env, "java/lang/OutOfMemoryError", "native allocation failed");
  } catch (const std::exception& e) {
    throw_java(env, "java/lang/RuntimeException", e.what());
  } catch (...) {
    throw_java(env, "java/lang/RuntimeException", "unknown C++ exception in pytorch_jni");
  }
}

}  // namespace callbench::jni
