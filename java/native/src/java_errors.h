// Turning C++ failures into Java exceptions at every JNI entry.
//
// No C++ exception may cross the JNI boundary (that aborts the JVM), so each
// entry point runs its body through guarded(), which catches everything and
// leaves exactly one pending Java exception instead.
#pragma once

#include <jni.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace callbench::jni {

// A JNI call already left a Java exception pending: unwind to the entry
// point and return to Java without replacing it.
struct JavaExceptionPending {};

// Becomes java.lang.IllegalArgumentException (bad input from Java).
class IllegalArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Becomes java.lang.IllegalStateException (e.g. a module used after reset).
class IllegalState : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Becomes java.lang.UnsupportedOperationException.
class Unsupported : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// Throws JavaExceptionPending if a Java exception is pending.
void check_java(JNIEnv* env);

// Throws JavaExceptionPending if `ref` is null (JNI reports failures that way).
template <typename T>
T checked(JNIEnv* env, T ref) {
  if (ref == nullptr) {
    check_java(env);
    throw std::runtime_error("a JNI call returned null without an exception");
  }
  return ref;
}

// Sets the Java exception matching the exception currently being handled.
void throw_current_as_java(JNIEnv* env) noexcept;

template <typename Result, typename Body>
Result guarded(JNIEnv* env, Result on_error, Body&& body) noexcept {
  try {
    return std::forward<Body>(body)();
  } catch (...) {
    throw_current_as_java(env);
    return on_error;
  }
}

}  // namespace callbench::jni
