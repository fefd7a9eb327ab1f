// org.ldpgraph.Uploader: the SDK's TLS uploader (ldpgraph_transport.h), in
// the library built with the transport.
#include <string>
#include <vector>

#include "jni_support.h"
#include "ldpgraph/ldpgraph_transport.h"

using namespace ldpgraph_jni;

namespace {

// A Java string as UTF-8; false after throwing (null is an error unless
// `optional`, and then leaves *out empty).
bool ReadString(JNIEnv* env, jstring value, const char* what, bool optional, std::string* out) {
  if (value == nullptr) {
    if (optional) return true;
    ThrowIllegalArgument(env, (std::string(what) + " must not be null").c_str());
    return false;
  }
  const char* chars = env->GetStringUTFChars(value, nullptr);
  if (chars == nullptr) return false;
  *out = chars;
  env->ReleaseStringUTFChars(value, chars);
  return true;
}

// What send and enqueue take: the uploader, the token and the report bytes;
// null after throwing.
ldpgraph_uploader* ReadUpload(JNIEnv* env, jlong handle, jstring token, jbyteArray report, std::string* t,
                              std::vector<std::uint8_t>* bytes) {
  auto* u = Handle<ldpgraph_uploader>(env, handle, "Uploader");
  if (u == nullptr || !ReadString(env, token, "token", false, t) || !ReadBytes(env, report, "report", bytes)) {
    return nullptr;
  }
  return u;
}

}  // namespace

extern "C" {

JNIEXPORT jlong JNICALL Java_org_ldpgraph_Uploader_nativeCreate(JNIEnv* env, jclass, jstring host, jint port,
                                                                 jstring ca_file, jstring queue_dir,
                                                                 jlong max_reports, jlong max_bytes,
                                                                 jint max_retry_ms) {
  std::string h, ca, queue;
  if (!ReadString(env, host, "host", false, &h) || !ReadString(env, ca_file, "caFile", true, &ca) ||
      !ReadString(env, queue_dir, "queueDir", true, &queue)) {
    return 0;
  }
  if (port <= 0 || port > 65535 || max_reports < 0 || max_bytes < 0 || max_retry_ms < 0) {
    ThrowIllegalArgument(env, "port must be in 1..65535 and the limits not negative");
    return 0;
  }
  ldpgraph_uploader_params p{};
  p.host = h.c_str();
  p.port = static_cast<std::uint16_t>(port);
  p.ca_file = ca_file != nullptr ? ca.c_str() : nullptr;
  p.queue_dir = queue_dir != nullptr ? queue.c_str() : nullptr;
  p.max_queued_reports = static_cast<std::size_t>(max_reports);
  p.max_queued_bytes = static_cast<std::size_t>(max_bytes);
  p.max_retry_ms = static_cast<std::uint32_t>(max_retry_ms);
  ldpgraph_uploader* u = nullptr;
  return Check(env, ldpgraph_uploader_new(&p, &u)) ? reinterpret_cast<jlong>(u) : 0;
}

JNIEXPORT void JNICALL Java_org_ldpgraph_Uploader_nativeFree(JNIEnv*, jclass, jlong handle) {
  ldpgraph_uploader_free(reinterpret_cast<ldpgraph_uploader*>(handle));
}

JNIEXPORT jbyteArray JNICALL Java_org_ldpgraph_Uploader_nativeFetchConfig(JNIEnv* env, jclass, jlong handle,
                                                                           jlong graph_id) {
  auto* u = Handle<ldpgraph_uploader>(env, handle, "Uploader");
  if (u == nullptr) return nullptr;
  std::size_t len = 0;
  ldpgraph_status s = ldpgraph_uploader_fetch_config(u, static_cast<std::uint64_t>(graph_id), nullptr, 0, &len);
  if (s != LDPGRAPH_BUFFER_TOO_SMALL && !Check(env, s)) return nullptr;
  std::vector<std::uint8_t> bytes(len);
  if (!Check(env, ldpgraph_uploader_fetch_config(u, static_cast<std::uint64_t>(graph_id), bytes.data(), bytes.size(),
                                                 &len))) {
    return nullptr;
  }
  return NewBytes(env, bytes.data(), len);
}

JNIEXPORT jlong JNICALL Java_org_ldpgraph_Uploader_nativeFetchOpenRound(JNIEnv* env, jclass, jlong handle,
                                                                       jlong graph_id) {
  auto* u = Handle<ldpgraph_uploader>(env, handle, "Uploader");
  if (u == nullptr) return 0;
  std::uint32_t round = 0;
  return Check(env, ldpgraph_uploader_fetch_open_round(u, static_cast<std::uint64_t>(graph_id), &round)) ? round : 0;
}

JNIEXPORT jint JNICALL Java_org_ldpgraph_Uploader_nativeSend(JNIEnv* env, jclass, jlong handle, jstring token,
                                                             jbyteArray report) {
  std::string t;
  std::vector<std::uint8_t> bytes;
  ldpgraph_uploader* u = ReadUpload(env, handle, token, report, &t, &bytes);
  if (u == nullptr) return 0;
  int status = 0;
  return Check(env, ldpgraph_uploader_send(u, t.c_str(), bytes.data(), bytes.size(), &status)) ? status : 0;
}

JNIEXPORT void JNICALL Java_org_ldpgraph_Uploader_nativeEnqueue(JNIEnv* env, jclass, jlong handle, jstring token,
                                                                jbyteArray report) {
  std::string t;
  std::vector<std::uint8_t> bytes;
  ldpgraph_uploader* u = ReadUpload(env, handle, token, report, &t, &bytes);
  if (u == nullptr) return;
  Check(env, ldpgraph_uploader_enqueue(u, t.c_str(), bytes.data(), bytes.size()));
}

JNIEXPORT jlongArray JNICALL Java_org_ldpgraph_Uploader_nativeFlush(JNIEnv* env, jclass, jlong handle) {
  auto* u = Handle<ldpgraph_uploader>(env, handle, "Uploader");
  if (u == nullptr) return nullptr;
  std::size_t delivered = 0, refused = 0, remaining = 0;
  if (!Check(env, ldpgraph_uploader_flush(u, &delivered, &refused, &remaining))) return nullptr;
  const jlong counts[3] = {static_cast<jlong>(delivered), static_cast<jlong>(refused), static_cast<jlong>(remaining)};
  jlongArray out = env->NewLongArray(3);
  if (out != nullptr) env->SetLongArrayRegion(out, 0, 3, counts);
  return out;
}

JNIEXPORT jlong JNICALL Java_org_ldpgraph_Uploader_nativeQueued(JNIEnv* env, jclass, jlong handle) {
  auto* u = Handle<ldpgraph_uploader>(env, handle, "Uploader");
  return u ? static_cast<jlong>(ldpgraph_uploader_queued(u)) : 0;
}

JNIEXPORT jobject JNICALL Java_org_ldpgraph_Uploader_nativeFetchResult(JNIEnv* env, jclass, jlong handle,
                                                                        jlong graph_id, jstring token) {
  auto* u = Handle<ldpgraph_uploader>(env, handle, "Uploader");
  std::string t;
  if (u == nullptr || !ReadString(env, token, "token", false, &t)) return nullptr;
  ldpgraph_device_result r{};
  std::size_t classes = 0;
  ldpgraph_status s =
      ldpgraph_uploader_fetch_result(u, static_cast<std::uint64_t>(graph_id), t.c_str(), &r, nullptr, 0, &classes);
  if (s != LDPGRAPH_RESOURCE_EXHAUSTED && !Check(env, s)) return nullptr;
  std::vector<double> probabilities(classes);
  if (!Check(env, ldpgraph_uploader_fetch_result(u, static_cast<std::uint64_t>(graph_id), t.c_str(), &r,
                                                 probabilities.data(), probabilities.size(), &classes))) {
    return nullptr;
  }
  jdoubleArray p = env->NewDoubleArray(static_cast<jsize>(classes));
  if (p == nullptr) return nullptr;
  env->SetDoubleArrayRegion(p, 0, static_cast<jsize>(classes), probabilities.data());
  jclass type = env->FindClass("org/ldpgraph/DeviceResult");
  if (type == nullptr) return nullptr;
  jmethodID make = env->GetMethodID(type, "<init>", "(JIIJJIJ[D)V");
  if (make == nullptr) return nullptr;
  return env->NewObject(type, make, static_cast<jlong>(r.graph_id), static_cast<jint>(r.user_id),
                        static_cast<jint>(r.task), static_cast<jlong>(r.model_version), static_cast<jlong>(r.trained_at),
                        static_cast<jint>(r.class_index), static_cast<jlong>(r.class_label), p);
}

}  // extern "C"
