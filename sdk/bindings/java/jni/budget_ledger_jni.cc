// org.ldpgraph.BudgetLedger: never randomize the same data twice.
#include <cmath>
#include <string>
#include <vector>

#include "jni_support.h"
#include "user_data.h"

using namespace ldpgraph_jni;

extern "C" {

JNIEXPORT jlong JNICALL Java_org_ldpgraph_BudgetLedger_nativeOpenFile(JNIEnv* env, jclass, jstring path,
                                                                       jdouble epsilon_cap) {
  if (path == nullptr) {
    ThrowIllegalArgument(env, "path must not be null");
    return 0;
  }
  const char* chars = env->GetStringUTFChars(path, nullptr);
  if (chars == nullptr) return 0;
  const std::string file(chars);
  env->ReleaseStringUTFChars(path, chars);
  ldpgraph_ledger* ledger = nullptr;
  return Check(env, ldpgraph_ledger_open_file(file.c_str(), epsilon_cap, &ledger)) ? reinterpret_cast<jlong>(ledger)
                                                                                    : 0;
}

JNIEXPORT void JNICALL Java_org_ldpgraph_BudgetLedger_nativeFree(JNIEnv*, jclass, jlong handle) {
  ldpgraph_ledger_free(reinterpret_cast<ldpgraph_ledger*>(handle));
}

JNIEXPORT jdouble JNICALL Java_org_ldpgraph_BudgetLedger_nativeSpent(JNIEnv* env, jclass, jlong handle) {
  auto* l = Handle<ldpgraph_ledger>(env, handle, "BudgetLedger");
  return l ? ldpgraph_ledger_spent(l) : 0.0;
}

JNIEXPORT jbyteArray JNICALL Java_org_ldpgraph_BudgetLedger_nativeReport(JNIEnv* env, jclass, jlong ledger,
                                                                          jlong graph, jlong rng, jint user,
                                                                          jintArray neighbours, jdoubleArray features,
                                                                          jboolean has_label, jint label) {
  auto* l = Handle<ldpgraph_ledger>(env, ledger, "BudgetLedger");
  auto* g = l ? Handle<ldpgraph_graph>(env, graph, "Graph") : nullptr;
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  JavaUser u;
  if (r == nullptr || !u.Read(env, user, neighbours, features, has_label, label)) return nullptr;
  std::size_t capacity = ldpgraph_graph_max_report_bytes(g), len = 0;
  ldpgraph_status s = ldpgraph_ledger_report(l, g, r, &u.data, ReportBuffer(capacity), capacity, &len);
  if (s == LDPGRAPH_BUFFER_TOO_SMALL) {  // a report recorded earlier under a larger bound: read it again
    capacity = len;
    s = ldpgraph_ledger_report(l, g, r, &u.data, ReportBuffer(capacity), capacity, &len);
  }
  if (!Check(env, s)) return nullptr;
  return NewBytes(env, ReportBuffer(len), len);
}

}  // extern "C"
