#include "ivalue_bridge.h"

#include <ATen/core/List.h>
#include <ATen/core/jit_type.h>

#include <string>

#include "java_errors.h"
#include "jni_cache.h"

namespace callbench::jni {

namespace {

// org.pytorch.IValue.TYPE_CODE_* of pytorch_java_only 1.13.1.
enum TypeCode : jint {
  kNull = 1,
  kTensor = 2,
  kBool = 3,
  kLong = 4,
  kDouble = 5,
  kString = 6,
  kTuple = 7,
  kBoolList = 8,
  kLongList = 9,
  kDoubleList = 10,
  kTensorList = 11,
  kList = 12,
  kDictStringKey = 13,
  kDictLongKey = 14,
};

const char* type_code_name(jint code) {
  switch (code) {
    case kDictStringKey: return "DictStringKey";
    case kDictLongKey: return "DictLongKey";
    default: return "unknown";
  }
}

// Deletes a local reference when leaving scope, so loops over long lists do
// not exhaust the JNI local reference table.
class LocalRef {
 public:
  LocalRef(JNIEnv* env, jobject ref) : env_(env), ref_(ref) {}
  LocalRef(const LocalRef&) = delete;
  LocalRef& operator=(const LocalRef&) = delete;
  ~LocalRef() {
    if (ref_ != nullptr) env_->DeleteLocalRef(ref_);
  }
  jobject get() const { return ref_; }

 private:
  JNIEnv* env_;
  jobject ref_;
};

std::string string_from_java(JNIEnv* env, jstring value) {
  const char* utf = checked(env, env->GetStringUTFChars(value, nullptr));
  std::string result(utf);
  env->ReleaseStringUTFChars(value, utf);
  return result;
}

template <typename Element, typename JArray, typename JElement>
c10::List<Element> list_from_java(JNIEnv* env, JArray array,
                                  void (JNIEnv::*get_region)(JArray, jsize, jsize, JElement*)) {
  const jsize n = env->GetArrayLength(array);
  std::vector<JElement> raw(static_cast<std::size_t>(n));
  (env->*get_region)(array, 0, n, raw.data());
  check_java(env);
  c10::List<Element> list;
  list.reserve(raw.size());
  for (JElement e : raw) list.push_back(static_cast<Element>(e));
  return list;
}

c10::TypePtr element_type(const std::vector<c10::IValue>& elements) {
  // Unify element types so TorchScript sees e.g. List[Tensor], not List[Any].
  if (elements.empty()) return c10::AnyType::get();
  c10::TypePtr type = elements.front().type();
  for (const auto& e : elements) {
    auto unified = c10::unifyTypes(type, e.type());
    if (!unified) return c10::AnyType::get();
    type = *unified;
  }
  return type;
}

template <typename JArray, typename JElement, typename List>
jobject primitive_list_to_java(JNIEnv* env, const List& list,
                               JArray (JNIEnv::*new_array)(jsize),
                               void (JNIEnv::*set_region)(JArray, jsize, jsize, const JElement*),
                               jmethodID factory) {
  std::vector<JElement> raw;
  raw.reserve(list.size());
  for (const auto& e : list) raw.push_back(static_cast<JElement>(e));
  const auto n = static_cast<jsize>(raw.size());
  JArray array = checked(env, (env->*new_array)(n));
  LocalRef owner(env, array);
  (env->*set_region)(array, 0, n, raw.data());
  return env->CallStaticObjectMethod(jni_cache().ivalue_class, factory, array);
}

}  // namespace

c10::IValue ivalue_from_java(JNIEnv* env, jobject value) {
  const JniCache& c = jni_cache();
  if (value == nullptr) {
    throw IllegalArgument("IValue is null (use IValue.optionalNull())");
  }
  const jint code = env->GetIntField(value, c.ivalue_type_code);
  LocalRef data(env, env->GetObjectField(value, c.ivalue_data));
  switch (code) {
    case kNull:
      return c10::IValue();
    case kTensor:
      return tensor_from_java(env, data.get());
    case kBool: {
      const bool b = env->CallBooleanMethod(data.get(), c.boolean_value) == JNI_TRUE;
      check_java(env);
      return b;
    }
    case kLong: {
      const auto l = static_cast<int64_t>(env->CallLongMethod(data.get(), c.long_value));
      check_java(env);
      return l;
    }
    case kDouble: {
      const double d = env->CallDoubleMethod(data.get(), c.double_value);
      check_java(env);
      return d;
    }
    case kString:
      return string_from_java(env, static_cast<jstring>(data.get()));
    case kBoolList:
      return list_from_java<bool>(env, static_cast<jbooleanArray>(data.get()),
                                  &JNIEnv::GetBooleanArrayRegion);
    case kLongList:
      return list_from_java<int64_t>(env, static_cast<jlongArray>(data.get()),
                                     &JNIEnv::GetLongArrayRegion);
    case kDoubleList:
      return list_from_java<double>(env, static_cast<jdoubleArray>(data.get()),
                                    &JNIEnv::GetDoubleArrayRegion);
    case kTensorList: {
      auto array = static_cast<jobjectArray>(data.get());
      const jsize n = env->GetArrayLength(array);
      c10::List<at::Tensor> list;
      list.reserve(static_cast<std::size_t>(n));
      for (jsize i = 0; i < n; ++i) {
        LocalRef t(env, env->GetObjectArrayElement(array, i));
        list.push_back(tensor_from_java(env, t.get()));
      }
      return list;
    }
    case kTuple:
      return c10::ivalue::Tuple::create(
          ivalues_from_java(env, static_cast<jobjectArray>(data.get())));
    case kList: {
      auto elements = ivalues_from_java(env, static_cast<jobjectArray>(data.get()));
      c10::impl::GenericList list(element_type(elements));
      list.reserve(elements.size());
      for (auto& e : elements) list.push_back(std::move(e));
      return list;
    }
    default:
      throw Unsupported(std::string("unsupported IValue kind ") + type_code_name(code) +
                        " (type code " + std::to_string(code) + ")");
  }
}

std::vector<c10::IValue> ivalues_from_java(JNIEnv* env, jobjectArray values) {
  std::vector<c10::IValue> result;
  if (values == nullptr) {
    return result;
  }
  const jsize n = env->GetArrayLength(values);
  result.reserve(static_cast<std::size_t>(n));
  for (jsize i = 0; i < n; ++i) {
    LocalRef element(env, env->GetObjectArrayElement(values, i));
    result.push_back(ivalue_from_java(env, element.get()));
  }
  return result;
}

namespace {

jobject ivalue_array_to_java(JNIEnv* env, c10::ArrayRef<c10::IValue> values,
                             jmethodID factory) {
  const JniCache& c = jni_cache();
  const auto n = static_cast<jsize>(values.size());
  jobjectArray array = checked(env, env->NewObjectArray(n, c.ivalue_class, nullptr));
  LocalRef owner(env, array);
  for (jsize i = 0; i < n; ++i) {
    LocalRef element(env, ivalue_to_java(env, values[static_cast<std::size_t>(i)]));
    env->SetObjectArrayElement(array, i, element.get());
  }
  return env->CallStaticObjectMethod(c.ivalue_class, factory, array);
}

jobject tensor_list_to_java(JNIEnv* env, const c10::List<at::Tensor>& list) {
  const JniCache& c = jni_cache();
  const auto n = static_cast<jsize>(list.size());
  jobjectArray array = checked(env, env->NewObjectArray(n, c.tensor_class, nullptr));
  LocalRef owner(env, array);
  for (jsize i = 0; i < n; ++i) {
    LocalRef element(env, tensor_to_java(env, list.get(static_cast<std::size_t>(i))));
    env->SetObjectArrayElement(array, i, element.get());
  }
  return env->CallStaticObjectMethod(c.ivalue_class, c.ivalue_tensor_list, array);
}

jobject checked_result(JNIEnv* env, jobject result) { return checked(env, result); }

}  // namespace

jobject ivalue_to_java(JNIEnv* env, const c10::IValue& value) {
  const JniCache& c = jni_cache();
  jclass iv = c.ivalue_class;
  if (value.isNone()) {
    return checked_result(env, env->CallStaticObjectMethod(iv, c.ivalue_null));
  }
  if (value.isTensor()) {
    LocalRef tensor(env, tensor_to_java(env, value.toTensor()));
    return checked_result(env, env->CallStaticObjectMethod(iv, c.ivalue_from_tensor, tensor.get()));
  }
  if (value.isBool()) {
    return checked_result(env, env->CallStaticObjectMethod(iv, c.ivalue_from_bool,
                                                           static_cast<jboolean>(value.toBool())));
  }
  if (value.isInt()) {
    return checked_result(env, env->CallStaticObjectMethod(iv, c.ivalue_from_long,
                                                           static_cast<jlong>(value.toInt())));
  }
  if (value.isDouble()) {
    return checked_result(env, env->CallStaticObjectMethod(iv, c.ivalue_from_double,
                                                           static_cast<jdouble>(value.toDouble())));
  }
  if (value.isString()) {
    LocalRef s(env, checked(env, env->NewStringUTF(value.toStringRef().c_str())));
    return checked_result(env, env->CallStaticObjectMethod(iv, c.ivalue_from_string, s.get()));
  }
  if (value.isTuple()) {
    return checked_result(
        env, ivalue_array_to_java(env, value.toTupleRef().elements(), c.ivalue_tuple));
  }
  if (value.isBoolList()) {
    return checked_result(env, primitive_list_to_java<jbooleanArray, jboolean>(
                                   env, value.toBoolList(), &JNIEnv::NewBooleanArray,
                                   &JNIEnv::SetBooleanArrayRegion, c.ivalue_bool_list));
  }
  if (value.isIntList()) {
    return checked_result(env, primitive_list_to_java<jlongArray, jlong>(
                                   env, value.toIntList(), &JNIEnv::NewLongArray,
                                   &JNIEnv::SetLongArrayRegion, c.ivalue_long_list));
  }
  if (value.isDoubleList()) {
    return checked_result(env, primitive_list_to_java<jdoubleArray, jdouble>(
                                   env, value.toDoubleList(), &JNIEnv::NewDoubleArray,
                                   &JNIEnv::SetDoubleArrayRegion, c.ivalue_double_list));
  }
  if (value.isTensorList()) {
    return checked_result(env, tensor_list_to_java(env, value.toTensorList()));
  }
  if (value.isList()) {
    const auto list = value.toListRef();
    return checked_result(env, ivalue_array_to_java(env, list, c.ivalue_list));
  }
  throw Unsupported("unsupported IValue kind " + value.tagKind() + " (" +
                    value.type()->repr_str() + ")");
}

}  // namespace callbench::jni
