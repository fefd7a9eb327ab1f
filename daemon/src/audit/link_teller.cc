#include "audit/link_teller.h"

#include <algorithm>
#include <string>
#include <utility>

#include "engine/tape.h"

namespace ldpgraph {

Result<InfluenceProbe> InfluenceProbe::Create(NodeGnnModel* model, NodeTaskData data, double delta) {
  if (!(delta > 0 && delta <= 1)) return Status::InvalidArgument("the influence step must be in (0, 1]");
  if (data.features.cols() != model->config().input_dim) {
    return Status::InvalidArgument("the model expects " + std::to_string(model->config().input_dim) +
                                   " features, the dataset has " + std::to_string(data.features.cols()));
  }
  InfluenceProbe p;
  p.model_ = model;
  p.delta_ = delta;
  // The probe rescales rows in place: it needs its own features, with a
  // weight for every stored entry.
  if (data.features.is_view()) data.features = NodeFeatures::Dense(Matrix(data.features.dense()));
  if (data.features.is_sparse() && data.features.sparse().unit_weights()) {
    SparseMatrix* x = data.features.mutable_sparse();
    x->values.assign(x->indices.size(), 1.0f);
  }
  p.data_ = std::move(data);
  p.base_ = p.Probabilities();
  return p;
}

Matrix InfluenceProbe::Probabilities() {
  Tape tape(false, nullptr);
  return Softmax(tape.value(model_->Forward(tape, data_.graph, data_.features)));
}

void InfluenceProbe::ScaleRow(std::uint32_t u, float factor) {
  if (data_.features.is_sparse()) {
    SparseMatrix* x = data_.features.mutable_sparse();
    for (std::int64_t k = x->offsets[u]; k < x->offsets[u + 1]; ++k) x->values[k] *= factor;
  } else {
    data_.features.mutable_dense()->row(u) *= factor;
  }
}

std::vector<double> InfluenceProbe::Influence(std::uint32_t u, const std::vector<std::uint32_t>& targets) {
  // Scaling back by the inverse factor would leave rounding behind: keep
  // the row and put it back.
  const float factor = static_cast<float>(1 + delta_);
  std::vector<float> saved;
  if (data_.features.is_sparse()) {
    const SparseMatrix& x = data_.features.sparse();
    saved.assign(x.values.begin() + x.offsets[u], x.values.begin() + x.offsets[u + 1]);
  } else {
    const Matrix& x = data_.features.dense_matrix();
    saved.assign(x.row(u).data(), x.row(u).data() + x.cols());  // row-major: a row is contiguous
  }
  ScaleRow(u, factor);
  const Matrix moved = Probabilities();
  if (data_.features.is_sparse()) {
    SparseMatrix* x = data_.features.mutable_sparse();
    std::copy(saved.begin(), saved.end(), x->values.begin() + x->offsets[u]);
  } else {
    std::copy(saved.begin(), saved.end(), data_.features.mutable_dense()->row(u).data());
  }
  std::vector<double> out;
  out.reserve(targets.size());
  for (std::uint32_t v : targets) out.push_back((moved.row(v) - base_.row(v)).cwiseAbs().sum() / delta_);
  return out;
}

Result<LinkAttackResult> LinkTellerAuc(InfluenceProbe& probe, const CsrGraph& graph, std::uint64_t max_edges,
                                       std::uint64_t seed) {
  Result<LinkPairs> pairs = SampleLinkPairs(graph, max_edges, seed, NonEdgeDraw::kSameSource);
  if (!pairs.ok()) return pairs.status();
  std::vector<double> positive, negative;
  for (std::size_t i = 0; i < pairs->edges.size(); ++i) {
    const std::vector<double> influence =
        probe.Influence(pairs->edges[i].first, {pairs->edges[i].second, pairs->non_edges[i].second});
    positive.push_back(influence[0]);
    negative.push_back(influence[1]);
  }
  LinkAttackResult r;
  r.auc = ScoreAuc(positive, negative);
  r.edges = positive.size();
  r.non_edges = negative.size();
  return r;
}

}  // namespace ldpgraph
