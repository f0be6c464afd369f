// dev.callbench.pytorch.LibTorch: LibTorch-wide settings that pytorch_java_only
// has no Java API for on Linux (Android's PyTorchAndroid.setNumThreads is not
// in the jar), added by the project beside the peer.
#include <jni.h>

#include <ATen/Parallel.h>
#include <torch/version.h>

#include <string>

#include "java_errors.h"

extern "C" {

JNIEXPORT void JNICALL Java_dev_callbench_pytorch_LibTorch_nativeSetNumThreads(JNIEnv* env, jclass /*cls*/,
                                                                         jint threads) {
  using namespace callbench::jni;
  guarded(env, 0, [&]() {
    if (threads < 1) {
      throw IllegalArgument("threads must be >= 1, got " + std::to_string(threads));
    }
    at::set_num_threads(threads);
    return 0;
  });
}

JNIEXPORT jint JNICALL Java_dev_callbench_pytorch_LibTorch_nativeGetNumThreads(JNIEnv* env,
                                                                         jclass /*cls*/) {
  using namespace callbench::jni;
  return guarded(env, jint{0}, []() { return static_cast<jint>(at::get_num_threads()); });
}

JNIEXPORT jstring JNICALL Java_dev_callbench_pytorch_LibTorch_nativeVersion(JNIEnv* env, jclass /*cls*/) {
  return env->NewStringUTF(TORCH_VERSION);
}

}  // extern "C"
