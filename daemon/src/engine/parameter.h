// Parameter: a trainable tensor, its gradient and its Adam moments.
#ifndef LDPGRAPH_DAEMON_ENGINE_PARAMETER_H_
#define LDPGRAPH_DAEMON_ENGINE_PARAMETER_H_

#include <string>

#include "engine/matrix.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

struct Parameter {
  std::string name;
  Matrix value;
  Matrix grad;
  Matrix adam_m;
  Matrix adam_v;
  bool decay = true;  // weight decay applies (not to BatchNorm scales and shifts)

  Parameter() = default;
  Parameter(std::string n, int rows, int cols) : name(std::move(n)), value(Matrix::Zero(rows, cols)) {}
  void ZeroGrad() { grad.setZero(value.rows(), value.cols()); }
  // Uniform in [-bound, bound], as PyTorch initialises Linear layers.
  void InitUniform(RandomSource& rng, float bound);
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_PARAMETER_H_
