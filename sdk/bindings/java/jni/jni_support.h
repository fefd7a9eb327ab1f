// What the JNI files share: C statuses as Java exceptions, handles checked
// before use, Java arrays read into vectors. Every entry point validates
// again what the Java side already checked: a caller of the native methods
// through reflection gets an exception, not a crash.
#ifndef LDPGRAPH_SDK_BINDINGS_JAVA_JNI_SUPPORT_H_
#define LDPGRAPH_SDK_BINDINGS_JAVA_JNI_SUPPORT_H_

#include <jni.h>

#include <cstdint>
#include <vector>

#include "ldpgraph/ldpgraph.h"

namespace ldpgraph_jni {

// Throws org.ldpgraph.LdpgraphException(status, message) unless `status` is
// LDPGRAPH_OK; the message is ldpgraph_last_error(). True when OK.
bool Check(JNIEnv* env, ldpgraph_status status);
// Throws java.lang.IllegalArgumentException.
void ThrowIllegalArgument(JNIEnv* env, const char* message);
// Throws java.lang.IllegalStateException (a closed object).
void ThrowClosed(JNIEnv* env, const char* what);

// The native object behind `handle`, or null after throwing (closed).
template <typename T>
T* Handle(JNIEnv* env, jlong handle, const char* what) {
  if (handle == 0) {
    ThrowClosed(env, what);
    return nullptr;
  }
  return reinterpret_cast<T*>(handle);
}

// A Java int[] of non-negative values as uint32s; false after throwing.
bool ReadIds(JNIEnv* env, jintArray array, const char* what, std::vector<std::uint32_t>* out);
// A Java double[]; false after throwing (null is an error unless `optional`).
bool ReadDoubles(JNIEnv* env, jdoubleArray array, const char* what, bool optional, std::vector<double>* out);
// A Java byte[]; false after throwing.
bool ReadBytes(JNIEnv* env, jbyteArray array, const char* what, std::vector<std::uint8_t>* out);
// A buffer of at least `size` bytes for this thread, kept between calls: a
// report's bound is 5 bytes per user of the graph (5 MB at 10^6 users), and
// allocating and zeroing it per report cost 17x the report itself.
std::uint8_t* ReportBuffer(std::size_t size);
// A new Java byte[] of `bytes` (null after an OutOfMemoryError).
jbyteArray NewBytes(JNIEnv* env, const std::uint8_t* bytes, std::size_t size);

}  // namespace ldpgraph_jni

#endif  // LDPGRAPH_SDK_BINDINGS_JAVA_JNI_SUPPORT_H_
