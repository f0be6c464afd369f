// libpytorch_jni: the native methods of org.pytorch.NativePeer.
//
//   static HybridData initHybrid(String path, Map<String,String> extraFiles, int device)
//   static HybridData initHybridAndroidAsset(String, Object, int)   (Android only)
//   IValue forward(IValue...)
//   IValue runMethod(String, IValue...)
#include <jni.h>

#include <c10/core/InferenceMode.h>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/serialization/import.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "hybrid_data.h"
#include "ivalue_bridge.h"
#include "java_errors.h"
#include "jni_cache.h"
#include "native_object.h"

namespace callbench::jni {
namespace {

constexpr jint kDeviceCpu = 1;  // org.pytorch.Device.CPU.jniCode

// Modules alive in this process: lets tests see that reset and collection free them.
std::atomic<long> g_live_modules{0};

class ModuleHolder final : public NativeObject {
 public:
  explicit ModuleHolder(torch::jit::Module module)
      : module_(std::move(module)), forward_(module_.find_method("forward")) {
    ++g_live_modules;
  }
  ~ModuleHolder() override { --g_live_modules; }

  torch::jit::Module& module() { return module_; }
  // Looked up once: Module::forward would search the method table every call.
  const std::optional<torch::jit::Method>& forward() const { return forward_; }

 private:
  torch::jit::Module module_;
  std::optional<torch::jit::Method> forward_;
};

std::string string_from_java(JNIEnv* env, jstring value) {
  const char* utf = checked(env, env->GetStringUTFChars(value, nullptr));
  std::string result(utf);
  env->ReleaseStringUTFChars(value, utf);
  return result;
}

// The keys of the Java map name the extra files wanted; their contents go back
// into the same map after loading (the API's documented contract).
std::unordered_map<std::string, std::string> requested_extra_files(JNIEnv* env, jobject map) {
  std::unordered_map<std::string, std::string> files;
  if (map == nullptr) {
    return files;
  }
  const JniCache& c = jni_cache();
  jobject key_set = checked(env, env->CallObjectMethod(map, c.map_key_set));
  auto keys = static_cast<jobjectArray>(checked(env, env->CallObjectMethod(key_set, c.set_to_array)));
  env->DeleteLocalRef(key_set);
  const jsize n = env->GetArrayLength(keys);
  for (jsize i = 0; i < n; ++i) {
    auto key = static_cast<jstring>(env->GetObjectArrayElement(keys, i));
    if (key != nullptr && env->IsInstanceOf(key, c.string_class)) {
      files.emplace(string_from_java(env, key), std::string());
    }
    env->DeleteLocalRef(key);
  }
  env->DeleteLocalRef(keys);
  return files;
}

void return_extra_files(JNIEnv* env, jobject map,
                        const std::unordered_map<std::string, std::string>& files) {
  const JniCache& c = jni_cache();
  for (const auto& [name, content] : files) {
    jstring key = checked(env, env->NewStringUTF(name.c_str()));
    jstring value = checked(env, env->NewStringUTF(content.c_str()));
    jobject previous = env->CallObjectMethod(map, c.map_put, key, value);
    check_java(env);
    env->DeleteLocalRef(previous);
    env->DeleteLocalRef(key);
    env->DeleteLocalRef(value);
  }
}

ModuleHolder& module_of(JNIEnv* env, jobject peer) {
  jobject hybrid = env->GetObjectField(peer, jni_cache().peer_hybrid_data);
  NativeObject* object = hybrid == nullptr ? nullptr : hybrid_data_object(env, hybrid);
  env->DeleteLocalRef(hybrid);
  if (object == nullptr) {
    throw IllegalState("Module was destroyed (resetNative/destroy was called)");
  }
  return static_cast<ModuleHolder&>(*object);
}

jobject run(JNIEnv* env, const torch::jit::Method& method, jobjectArray args) {
  // No autograd bookkeeping: the fastest documented mode for inference. The
  // inputs are wrapped inside it too, so they are inference tensors, as in
  // the C++ drivers.
  c10::InferenceMode inference;
  std::vector<c10::IValue> stack = ivalues_from_java(env, args);
  c10::IValue result = method(std::move(stack));
  return ivalue_to_java(env, result);
}

}  // namespace
}  // namespace callbench::jni

using callbench::jni::guarded;

extern "C" {

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM* /*vm*/, void* /*reserved*/) { return JNI_VERSION_1_8; }

JNIEXPORT jobject JNICALL Java_org_pytorch_NativePeer_initHybrid(JNIEnv* env, jclass /*cls*/,
                                                                 jstring path, jobject extra_files,
                                                                 jint device) {
  using namespace callbench::jni;
  return guarded(env, jobject{nullptr}, [&]() -> jobject {
    init_jni_cache(env);
    if (path == nullptr) {
      throw IllegalArgument("model path is null");
    }
    const std::string file = string_from_java(env, path);
    if (device != kDeviceCpu) {
      throw Unsupported(file + ": only Device.CPU is supported by this native peer");
    }
    auto files = requested_extra_files(env, extra_files);
    std::unique_ptr<ModuleHolder> holder;
    try {
      torch::jit::ExtraFilesMap extra(files.begin(), files.end());
      auto module = torch::jit::load(file, c10::Device(c10::kCPU), extra);
      module.eval();
      for (auto& [name, content] : extra) files[name] = content;
      holder = std::make_unique<ModuleHolder>(std::move(module));
    } catch (const c10::Error& e) {
      // Name the file: LibTorch's message alone often does not.
      throw IllegalArgument(file + ": cannot load TorchScript module: " +
                            e.what_without_backtrace());
    }
    if (extra_files != nullptr) {
      return_extra_files(env, extra_files, files);
    }
    return new_hybrid_data(env, std::move(holder));
  });
}

JNIEXPORT jobject JNICALL Java_org_pytorch_NativePeer_initHybridAndroidAsset(
    JNIEnv* env, jclass /*cls*/, jstring /*asset*/, jobject /*manager*/, jint /*device*/) {
  using namespace callbench::jni;
  return guarded(env, jobject{nullptr}, []() -> jobject {
    throw Unsupported("Android assets do not exist on Linux: use Module.load(path)");
  });
}

JNIEXPORT jobject JNICALL Java_org_pytorch_NativePeer_forward(JNIEnv* env, jobject self,
                                                              jobjectArray args) {
  using namespace callbench::jni;
  return guarded(env, jobject{nullptr}, [&]() -> jobject {
    ModuleHolder& holder = module_of(env, self);
    if (!holder.forward()) {
      throw IllegalArgument("module has no method forward");
    }
    return run(env, *holder.forward(), args);
  });
}

JNIEXPORT jobject JNICALL Java_org_pytorch_NativePeer_runMethod(JNIEnv* env, jobject self,
                                                                jstring name, jobjectArray args) {
  using namespace callbench::jni;
  return guarded(env, jobject{nullptr}, [&]() -> jobject {
    ModuleHolder& holder = module_of(env, self);
    if (name == nullptr) {
      throw IllegalArgument("method name is null");
    }
    const std::string method_name = string_from_java(env, name);
    auto method = holder.module().find_method(method_name);
    if (!method) {
      throw IllegalArgument("module has no method " + method_name);
    }
    return run(env, *method, args);
  });
}

// dev.callbench.pytorch.LibTorch.liveModules(): how many modules are not yet freed.
JNIEXPORT jlong JNICALL Java_dev_callbench_pytorch_LibTorch_nativeLiveModules(JNIEnv* /*env*/,
                                                                               jclass /*cls*/) {
  return callbench::jni::g_live_modules.load();
}

}  // extern "C"
