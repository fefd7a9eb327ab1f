#include "jni_support.h"

#include <string>

namespace ldpgraph_jni {

bool Check(JNIEnv* env, ldpgraph_status status) {
  if (status == LDPGRAPH_OK) return true;
  jclass type = env->FindClass("org/ldpgraph/LdpgraphException");
  if (type == nullptr) return false;  // NoClassDefFoundError pending
  jmethodID make = env->GetMethodID(type, "<init>", "(ILjava/lang/String;)V");
  if (make == nullptr) return false;
  jstring message = env->NewStringUTF(ldpgraph_last_error());
  if (message == nullptr) return false;
  auto error = static_cast<jthrowable>(env->NewObject(type, make, static_cast<jint>(status), message));
  if (error != nullptr) env->Throw(error);
  return false;
}

void ThrowIllegalArgument(JNIEnv* env, const char* message) {
  jclass type = env->FindClass("java/lang/IllegalArgumentException");
  if (type != nullptr) env->ThrowNew(type, message);
}

void ThrowClosed(JNIEnv* env, const char* what) {
  jclass type = env->FindClass("java/lang/IllegalStateException");
  if (type != nullptr) env->ThrowNew(type, (std::string(what) + " is closed").c_str());
}

bool ReadIds(JNIEnv* env, jintArray array, const char* what, std::vector<std::uint32_t>* out) {
  if (array == nullptr) {
    ThrowIllegalArgument(env, (std::string(what) + " must not be null").c_str());
    return false;
  }
  const jsize n = env->GetArrayLength(array);
  std::vector<jint> values(static_cast<std::size_t>(n));
  env->GetIntArrayRegion(array, 0, n, values.data());
  out->resize(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] < 0) {
      ThrowIllegalArgument(env, (std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(values[i]) +
                                 " is negative")
                                    .c_str());
      return false;
    }
    (*out)[i] = static_cast<std::uint32_t>(values[i]);
  }
  return true;
}

bool ReadDoubles(JNIEnv* env, jdoubleArray array, const char* what, bool optional, std::vector<double>* out) {
  out->clear();
  if (array == nullptr) {
    if (optional) return true;
    ThrowIllegalArgument(env, (std::string(what) + " must not be null").c_str());
    return false;
  }
  const jsize n = env->GetArrayLength(array);
  out->resize(static_cast<std::size_t>(n));
  env->GetDoubleArrayRegion(array, 0, n, out->data());
  return true;
}

bool ReadBytes(JNIEnv* env, jbyteArray array, const char* what, std::vector<std::uint8_t>* out) {
  if (array == nullptr) {
    ThrowIllegalArgument(env, (std::string(what) + " must not be null").c_str());
    return false;
  }
  const jsize n = env->GetArrayLength(array);
  out->resize(static_cast<std::size_t>(n));
  env->GetByteArrayRegion(array, 0, n, reinterpret_cast<jbyte*>(out->data()));
  return true;
}

std::uint8_t* ReportBuffer(std::size_t size) {
  thread_local std::vector<std::uint8_t> buffer;
  if (buffer.size() < size) buffer.resize(size);
  return buffer.data();
}

jbyteArray NewBytes(JNIEnv* env, const std::uint8_t* bytes, std::size_t size) {
  jbyteArray array = env->NewByteArray(static_cast<jsize>(size));
  if (array != nullptr) env->SetByteArrayRegion(array, 0, static_cast<jsize>(size), reinterpret_cast<const jbyte*>(bytes));
  return array;
}

}  // namespace ldpgraph_jni
