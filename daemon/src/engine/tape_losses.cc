// Tape operations that end a model: softmax, cross-entropy (plain, with a
// label transition, weighted), the NLL of probabilities.
#include "engine/tape.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "engine/parallel.h"

namespace ldpgraph {

namespace {

// The mean of -log q[i][labels[i]] over labelled rows (q clamped at 1e-30),
// as a 1x1 matrix; *scale = 1 / (labelled rows), 0 when there are none.
Matrix MeanNll(const Matrix& q, const std::vector<int>& labels, float* scale) {
  // Partial sums per thread over contiguous rows, added in thread order: the
  // loss depends on the thread count only.
  std::vector<double> partial(static_cast<std::size_t>(EngineThreads()), 0.0);
  std::vector<std::int64_t> counted(partial.size(), 0);
  ForEachRowBlock(q.rows(), [&](int t, Eigen::Index begin, Eigen::Index end) {
    double sum = 0.0;
    std::int64_t labelled = 0;
    // Without a branch: half of a node model's rows are unlabelled, at
    // random. Adding 0.0 for them leaves the same double sum.
    for (Eigen::Index i = begin; i < end; ++i) {
      const int y = labels[static_cast<std::size_t>(i)];
      const bool known = y >= 0;
      const double term = std::log(std::max(q(i, known ? y : 0), 1e-30f));
      sum -= known ? term : 0.0;
      labelled += known;
    }
    partial[static_cast<std::size_t>(t)] = sum;
    counted[static_cast<std::size_t>(t)] = labelled;
  });
  double loss = 0.0;
  std::int64_t count = 0;
  for (std::size_t t = 0; t < partial.size(); ++t) {
    loss += partial[t];
    count += counted[t];
  }
  *scale = count > 0 ? 1.0f / static_cast<float>(count) : 0.0f;
  Matrix out(1, 1);
  out(0, 0) = static_cast<float>(loss) * *scale;
  return out;
}

}  // namespace

Tape::Var Tape::SoftmaxCrossEntropy(Var logits, const std::vector<int>* labels, const Matrix* transition) {
  const Matrix& z = value(logits);
  auto probs = std::make_shared<Matrix>(Softmax(z));
  auto corrected = std::make_shared<Matrix>();
  if (transition != nullptr) *corrected = *probs * *transition;
  const Matrix& q = transition != nullptr ? *corrected : *probs;
  float scale = 0.0f;
  Var out = Push(MeanNll(q, *labels, &scale), Needs(logits));
  nodes_[out].backward = [this, logits, labels, transition, probs, corrected, scale, out] {
    if (!Needs(logits)) return;
    const float upstream = nodes_[out].grad(0, 0) * scale;
    bool fresh = false;
    Matrix& gz = GradSlot(logits, &fresh);
    const Matrix& p = *probs;
    const Eigen::Index cols = p.cols();
    ForEachRowBlock(p.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index i = begin; i < end; ++i) {
        const int y = (*labels)[static_cast<std::size_t>(i)];
        float* g = gz.row(i).data();
        if (y < 0) {
          if (fresh) std::fill(g, g + cols, 0.0f);
          continue;
        }
        if (transition == nullptr) {
          // Plain loops (Eigen's row expressions cost more than the
          // arithmetic on rows of a few classes): 0 + u p_c when fresh, as
          // setZero then += gave, so the same floats.
          const float* pr = p.row(i).data();
          for (Eigen::Index c = 0; c < cols; ++c) g[c] = (fresh ? 0.0f : g[c]) + upstream * pr[c];
          g[y] -= upstream;
          continue;
        }
        if (fresh) gz.row(i).setZero();
        // dL/dp = -T[:, y] / q_y; through softmax: p * (dL/dp - <dL/dp, p>).
        const float qy = std::max((*corrected)(i, y), 1e-30f);
        const RowVector dp = -transition->col(y).transpose() / qy;
        const float dot = dp.dot(p.row(i));
        gz.row(i) += upstream * (p.row(i).array() * (dp.array() - dot)).matrix();
      }
    });
  };
  return out;
}

Tape::Var Tape::SoftmaxRows(Var logits) {
  Var out = Push(Softmax(value(logits)), Needs(logits));
  nodes_[out].backward = [this, logits, out] {
    if (!Needs(logits)) return;
    // dz = p * (dp - <dp, p>) row by row.
    const Matrix& p = value(out);
    const Matrix& g = nodes_[out].grad;
    const Eigen::VectorXf dots = (g.array() * p.array()).rowwise().sum();
    GradOf(logits).array() += p.array() * (g.array().colwise() - dots.array());
  };
  return out;
}

Tape::Var Tape::ProbabilityNll(Var probs, const std::vector<int>* labels) {
  float scale = 0.0f;
  Var out = Push(MeanNll(value(probs), *labels, &scale), Needs(probs));
  nodes_[out].backward = [this, probs, labels, scale, out] {
    if (!Needs(probs)) return;
    const float upstream = nodes_[out].grad(0, 0) * scale;
    const Matrix& q = value(probs);
    Matrix& g = GradOf(probs);
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
      const int y = (*labels)[i];
      if (y < 0 || q(i, y) < 1e-30f) continue;  // clamped: no gradient
      g(i, y) -= upstream / q(i, y);
    }
  };
  return out;
}

Tape::Var Tape::WeightedCrossEntropySum(Var logits, const std::vector<int>* labels,
                                        const std::vector<float>* weights) {
  auto probs = std::make_shared<Matrix>(Softmax(value(logits)));
  double loss = 0;
  for (Eigen::Index i = 0; i < probs->rows(); ++i) {
    const int y = (*labels)[i];
    if (y >= 0) loss -= (*weights)[i] * std::log(std::max((*probs)(i, y), 1e-30f));
  }
  Matrix total(1, 1);
  total(0, 0) = static_cast<float>(loss);
  Var out = Push(std::move(total), Needs(logits));
  nodes_[out].backward = [this, logits, labels, weights, probs, out] {
    if (!Needs(logits)) return;
    const float upstream = nodes_[out].grad(0, 0);
    Matrix& gz = GradOf(logits);
    for (Eigen::Index i = 0; i < probs->rows(); ++i) {
      const int y = (*labels)[i];
      if (y < 0) continue;
      const float scale = upstream * (*weights)[i];
      gz.row(i) += scale * probs->row(i);
      gz(i, y) -= scale;
    }
  };
  return out;
}

}  // namespace ldpgraph
