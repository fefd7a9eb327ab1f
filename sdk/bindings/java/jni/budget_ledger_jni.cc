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

JNIEXPORT jbyteArray JNICALL Java_org_ldpgraph_BudgetLedger_nativeReportRound(
    JNIEnv* env, jclass, jlong ledger, jlong graph, jlong rng, jint user, jintArray neighbours, jdoubleArray features,
    jboolean has_label, jint label, jlong round) {
  auto* l = Handle<ldpgraph_ledger>(env, ledger, "BudgetLedger");
  auto* g = l ? Handle<ldpgraph_graph>(env, graph, "Graph") : nullptr;
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  JavaUser u;
  if (r == nullptr || !u.Read(env, user, neighbours, features, has_label, label)) return nullptr;
  const auto number = static_cast<std::uint64_t>(round);
  std::size_t capacity = ldpgraph_graph_max_report_bytes(g), len = 0;
  ldpgraph_status s = ldpgraph_ledger_report_round(l, g, r, &u.data, number, ReportBuffer(capacity), capacity, &len);
  if (s == LDPGRAPH_BUFFER_TOO_SMALL) {  // recorded: read it again into a buffer of its size
    capacity = len;
    s = ldpgraph_ledger_report_round(l, g, r, &u.data, number, ReportBuffer(capacity), capacity, &len);
  }
  if (!Check(env, s)) return nullptr;
  return NewBytes(env, ReportBuffer(len), len);
}

JNIEXPORT jbyteArray JNICALL Java_org_ldpgraph_BudgetLedger_nativeReportEmbedding(
    JNIEnv* env, jclass, jlong ledger, jlong graph, jlong rng, jdoubleArray embeddings, jint dims, jboolean has_label,
    jint label) {
  auto* l = Handle<ldpgraph_ledger>(env, ledger, "BudgetLedger");
  auto* g = l ? Handle<ldpgraph_graph>(env, graph, "Graph") : nullptr;
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  if (r == nullptr) return nullptr;
  if (dims < 1 || (has_label && label < 0)) {
    ThrowIllegalArgument(env, dims < 1 ? "dims must be at least 1" : "label is negative");
    return nullptr;
  }
  std::vector<double> h;
  if (!ReadDoubles(env, embeddings, "embeddings", /*optional=*/false, &h)) return nullptr;
  const auto columns = static_cast<std::size_t>(dims);
  if (h.size() % columns != 0) {
    ThrowIllegalArgument(env, ("embeddings hold " + std::to_string(h.size()) + " values, not rows x dims = rows x " +
                               std::to_string(columns))
                                  .c_str());
    return nullptr;
  }
  const std::size_t rows = h.size() / columns;
  std::size_t capacity = ldpgraph_graph_max_report_bytes(g), len = 0;
  auto call = [&] {
    return ldpgraph_ledger_report_embedding(l, g, r, h.data(), rows, columns, has_label ? 1 : 0,
                                            static_cast<std::uint32_t>(label), ReportBuffer(capacity), capacity, &len);
  };
  ldpgraph_status s = call();
  if (s == LDPGRAPH_BUFFER_TOO_SMALL) {  // recorded: read it again into a buffer of its size
    capacity = len;
    s = call();
  }
  if (!Check(env, s)) return nullptr;
  return NewBytes(env, ReportBuffer(len), len);
}

// The loss as 7 doubles: epsilon, naive, rounds, last round, edges, features, label.
JNIEXPORT jdoubleArray JNICALL Java_org_ldpgraph_BudgetLedger_nativeLoss(JNIEnv* env, jclass, jlong ledger,
                                                                          jlong graph_id) {
  auto* l = Handle<ldpgraph_ledger>(env, ledger, "BudgetLedger");
  if (l == nullptr) return nullptr;
  ldpgraph_loss loss;
  if (!Check(env, ldpgraph_ledger_loss(l, static_cast<std::uint64_t>(graph_id), &loss))) return nullptr;
  const jdouble values[7] = {loss.epsilon, loss.naive_epsilon, static_cast<double>(loss.rounds),
                             static_cast<double>(loss.last_round), loss.edges_epsilon, loss.features_epsilon,
                             loss.label_epsilon};
  jdoubleArray out = env->NewDoubleArray(7);
  if (out != nullptr) env->SetDoubleArrayRegion(out, 0, 7, values);
  return out;
}

}  // extern "C"
