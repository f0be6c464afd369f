#include "hybrid_data.h"

#include <cstdint>

#include "java_errors.h"
#include "jni_cache.h"

namespace callbench::jni {

jobject new_hybrid_data(JNIEnv* env, std::unique_ptr<NativeObject> object) {
  const JniCache& c = jni_cache();
  jobject hybrid = checked(env, env->NewObject(c.hybrid_data_class, c.hybrid_data_init));
  jobject destructor = checked(env, env->GetObjectField(hybrid, c.hybrid_data_destructor));
  // From here on Java owns the object.
  env->SetLongField(destructor, c.destructor_native_pointer,
                    static_cast<jlong>(reinterpret_cast<std::intptr_t>(object.release())));
  env->DeleteLocalRef(destructor);
  return hybrid;
}

NativeObject* hybrid_data_object(JNIEnv* env, jobject hybrid_data) {
  const JniCache& c = jni_cache();
  jobject destructor = checked(env, env->GetObjectField(hybrid_data, c.hybrid_data_destructor));
  jlong pointer = env->GetLongField(destructor, c.destructor_native_pointer);
  env->DeleteLocalRef(destructor);
  return reinterpret_cast<NativeObject*>(static_cast<std::intptr_t>(pointer));
}

}  // namespace callbench::jni
