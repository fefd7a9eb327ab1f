// org.ldpgraph.Graph: a graph's public configuration, its mechanisms and its
// reports.
#include <vector>

#include "jni_support.h"
#include "user_data.h"

using namespace ldpgraph_jni;

extern "C" {

JNIEXPORT jlong JNICALL Java_org_ldpgraph_Graph_nativeCreate(JNIEnv* env, jclass, jlong graph_id, jint num_users,
                                                              jint n_max, jint mechanism, jint allocation,
                                                              jdouble edge_epsilon, jint feature_dims,
                                                              jdouble feature_epsilon, jdouble feature_lo,
                                                              jdouble feature_hi, jint classes,
                                                              jdouble label_epsilon) {
  if (num_users < 0 || n_max < 0 || mechanism < 0 || allocation < 0 || feature_dims < 0 || classes < 0) {
    ThrowIllegalArgument(env, "graph parameters must not be negative");
    return 0;
  }
  ldpgraph_graph_params p;
  ldpgraph_graph_params_init(&p);
  p.graph_id = static_cast<std::uint64_t>(graph_id);
  p.num_users = static_cast<std::uint32_t>(num_users);
  p.n_max = static_cast<std::uint32_t>(n_max);
  p.edge_mechanism = static_cast<std::uint32_t>(mechanism);
  p.allocation = static_cast<std::uint32_t>(allocation);
  p.edge_epsilon = edge_epsilon;
  p.feature_dims = static_cast<std::uint32_t>(feature_dims);
  p.feature_epsilon = feature_epsilon;
  p.feature_lo = feature_lo;
  p.feature_hi = feature_hi;
  p.classes = static_cast<std::uint32_t>(classes);
  p.label_epsilon = label_epsilon;
  ldpgraph_graph* graph = nullptr;
  return Check(env, ldpgraph_graph_new(&p, &graph)) ? reinterpret_cast<jlong>(graph) : 0;
}

JNIEXPORT jlong JNICALL Java_org_ldpgraph_Graph_nativeFromConfig(JNIEnv* env, jclass, jbyteArray config) {
  std::vector<std::uint8_t> bytes;
  if (!ReadBytes(env, config, "config", &bytes)) return 0;
  ldpgraph_graph* graph = nullptr;
  return Check(env, ldpgraph_graph_from_config(bytes.data(), bytes.size(), &graph)) ? reinterpret_cast<jlong>(graph)
                                                                                     : 0;
}

JNIEXPORT void JNICALL Java_org_ldpgraph_Graph_nativeFree(JNIEnv*, jclass, jlong handle) {
  ldpgraph_graph_free(reinterpret_cast<ldpgraph_graph*>(handle));
}

JNIEXPORT jlong JNICALL Java_org_ldpgraph_Graph_nativeId(JNIEnv* env, jclass, jlong handle) {
  auto* g = Handle<ldpgraph_graph>(env, handle, "Graph");
  return g ? static_cast<jlong>(ldpgraph_graph_id(g)) : 0;
}

JNIEXPORT jint JNICALL Java_org_ldpgraph_Graph_nativeNumUsers(JNIEnv* env, jclass, jlong handle) {
  auto* g = Handle<ldpgraph_graph>(env, handle, "Graph");
  return g ? static_cast<jint>(ldpgraph_graph_num_users(g)) : 0;
}

JNIEXPORT jint JNICALL Java_org_ldpgraph_Graph_nativeEmbeddingDims(JNIEnv* env, jclass, jlong handle) {
  auto* g = Handle<ldpgraph_graph>(env, handle, "Graph");
  return g ? static_cast<jint>(ldpgraph_graph_embedding_dims(g)) : 0;
}

JNIEXPORT jintArray JNICALL Java_org_ldpgraph_Graph_nativePerturbEdges(JNIEnv* env, jclass, jlong graph, jlong rng,
                                                                        jint user, jintArray neighbours) {
  auto* g = Handle<ldpgraph_graph>(env, graph, "Graph");
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  std::vector<std::uint32_t> in;
  if (r == nullptr || !ReadIds(env, neighbours, "neighbours", &in)) return nullptr;
  if (user < 0) {
    ThrowIllegalArgument(env, "userId is negative");
    return nullptr;
  }
  std::vector<std::uint32_t> out(ldpgraph_graph_max_neighbours(g));
  std::size_t count = 0;
  if (!Check(env, ldpgraph_perturb_edges(g, r, static_cast<std::uint32_t>(user), in.data(), in.size(), out.data(),
                                         out.size(), &count))) {
    return nullptr;
  }
  jintArray result = env->NewIntArray(static_cast<jsize>(count));
  if (result != nullptr) {
    env->SetIntArrayRegion(result, 0, static_cast<jsize>(count), reinterpret_cast<const jint*>(out.data()));
  }
  return result;
}

JNIEXPORT jintArray JNICALL Java_org_ldpgraph_Graph_nativeEncodeFeatures(JNIEnv* env, jclass, jlong graph, jlong rng,
                                                                          jdoubleArray features) {
  auto* g = Handle<ldpgraph_graph>(env, graph, "Graph");
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  std::vector<double> x;
  if (r == nullptr || !ReadDoubles(env, features, "features", /*optional=*/false, &x)) return nullptr;
  const std::size_t m = ldpgraph_graph_encoded_features(g);
  std::vector<std::uint32_t> index(m);
  std::vector<std::int8_t> sign(m);
  std::size_t count = 0;
  if (!Check(env, ldpgraph_encode_features(g, r, x.data(), x.size(), index.data(), sign.data(), m, &count))) {
    return nullptr;
  }
  // index0, sign0, index1, sign1, ...
  std::vector<jint> pairs(2 * count);
  for (std::size_t i = 0; i < count; ++i) {
    pairs[2 * i] = static_cast<jint>(index[i]);
    pairs[2 * i + 1] = sign[i];
  }
  jintArray result = env->NewIntArray(static_cast<jsize>(pairs.size()));
  if (result != nullptr) env->SetIntArrayRegion(result, 0, static_cast<jsize>(pairs.size()), pairs.data());
  return result;
}

JNIEXPORT jint JNICALL Java_org_ldpgraph_Graph_nativePerturbLabel(JNIEnv* env, jclass, jlong graph, jlong rng,
                                                                   jint label) {
  auto* g = Handle<ldpgraph_graph>(env, graph, "Graph");
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  if (r == nullptr) return 0;
  if (label < 0) {
    ThrowIllegalArgument(env, "label is negative");
    return 0;
  }
  std::uint32_t out = 0;
  return Check(env, ldpgraph_perturb_label(g, r, static_cast<std::uint32_t>(label), &out)) ? static_cast<jint>(out)
                                                                                           : 0;
}

JNIEXPORT jbyteArray JNICALL Java_org_ldpgraph_Graph_nativeBuildReport(JNIEnv* env, jclass, jlong graph, jlong rng,
                                                                        jint user, jintArray neighbours,
                                                                        jdoubleArray features, jboolean has_label,
                                                                        jint label) {
  auto* g = Handle<ldpgraph_graph>(env, graph, "Graph");
  auto* r = g ? Handle<ldpgraph_rng>(env, rng, "RandomSource") : nullptr;
  JavaUser u;
  if (r == nullptr || !u.Read(env, user, neighbours, features, has_label, label)) return nullptr;
  const std::size_t capacity = ldpgraph_graph_max_report_bytes(g);
  std::uint8_t* out = ReportBuffer(capacity);
  std::size_t len = 0;
  if (!Check(env, ldpgraph_report_new(g, r, &u.data, out, capacity, &len))) return nullptr;
  return NewBytes(env, out, len);
}

}  // extern "C"
