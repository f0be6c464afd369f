// dev.callbench.pytorch.TorchThreads.setNumThreads(int): pytorch_java_only
// declares no way to set LibTorch's intra-op threads (Android's PyTorchAndroid
// does), so the project adds this one native method beside the peer.
#include <jni.h>

#include <ATen/Parallel.h>

#include <string>

#include "java_errors.h"

extern "C" JNIEXPORT void JNICALL Java_dev_callbench_pytorch_TorchThreads_setNumThreads(
    JNIEnv* env, jclass /*cls*/, jint threads) {
  using namespace callbench::jni;
  guarded(env, 0, [&]() {
    if (threads < 1) {
      throw IllegalArgument("threads must be >= 1, got " + std::to_string(threads));
    }
    at::set_num_threads(threads);
    return 0;
  });
}

extern "C" JNIEXPORT jint JNICALL Java_dev_callbench_pytorch_TorchThreads_getNumThreads(
    JNIEnv* env, jclass /*cls*/) {
  using namespace callbench::jni;
  return guarded(env, jint{0}, []() { return static_cast<jint>(at::get_num_threads()); });
}
