// One user's data from Java arrays, held while a native call uses it.
#ifndef LDPGRAPH_SDK_BINDINGS_JAVA_JNI_USER_DATA_H_
#define LDPGRAPH_SDK_BINDINGS_JAVA_JNI_USER_DATA_H_

#include <vector>

#include "jni_support.h"

namespace ldpgraph_jni {

struct JavaUser {
  std::vector<std::uint32_t> neighbours;
  std::vector<double> features;
  ldpgraph_user_data data{};

  // False after throwing. `features` may be null (a graph without them).
  bool Read(JNIEnv* env, jint user, jintArray neighbour_ids, jdoubleArray feature_values, jboolean has_label,
            jint label) {
    if (user < 0 || (has_label && label < 0)) {
      ThrowIllegalArgument(env, user < 0 ? "userId is negative" : "label is negative");
      return false;
    }
    if (!ReadIds(env, neighbour_ids, "neighbours", &neighbours)) return false;
    if (!ReadDoubles(env, feature_values, "features", /*optional=*/true, &features)) return false;
    data.user_id = static_cast<std::uint32_t>(user);
    data.neighbours = neighbours.data();
    data.neighbour_count = neighbours.size();
    data.features = feature_values == nullptr ? nullptr : features.data();
    data.feature_count = features.size();
    data.has_label = has_label ? 1 : 0;
    data.label = static_cast<std::uint32_t>(label);
    return true;
  }
};

}  // namespace ldpgraph_jni

#endif  // LDPGRAPH_SDK_BINDINGS_JAVA_JNI_USER_DATA_H_
