// org.ldpgraph.RandomSource: the OS CSPRNG, or a seeded source for tests.
#include "jni_support.h"

using namespace ldpgraph_jni;

extern "C" {

JNIEXPORT jlong JNICALL Java_org_ldpgraph_RandomSource_nativeOs(JNIEnv* env, jclass) {
  ldpgraph_rng* rng = nullptr;
  return Check(env, ldpgraph_rng_new_os(&rng)) ? reinterpret_cast<jlong>(rng) : 0;
}

JNIEXPORT jlong JNICALL Java_org_ldpgraph_RandomSource_nativeSeeded(JNIEnv* env, jclass, jlong seed) {
  ldpgraph_rng* rng = nullptr;
  return Check(env, ldpgraph_rng_new_seeded_not_private(static_cast<std::uint64_t>(seed), &rng))
             ? reinterpret_cast<jlong>(rng)
             : 0;
}

JNIEXPORT void JNICALL Java_org_ldpgraph_RandomSource_nativeFree(JNIEnv*, jclass, jlong handle) {
  ldpgraph_rng_free(reinterpret_cast<ldpgraph_rng*>(handle));
}

}  // extern "C"
