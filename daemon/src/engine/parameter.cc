#include "engine/parameter.h"

#include "ldpgraph/samplers.h"

namespace ldpgraph {

void Parameter::InitUniform(RandomSource& rng, float bound) {
  for (Eigen::Index i = 0; i < value.size(); ++i) {
    value.data()[i] = static_cast<float>((2.0 * UniformUnit(rng) - 1.0) * bound);
  }
}

}  // namespace ldpgraph
