#include "linkldp/learned_prior.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ldpgraph {
namespace {

constexpr int kBins = 8;              // per similarity
constexpr double kPseudoEdges = 4.0;  // smoothing: edges spread as random pairs are
constexpr double kMaxLogRatio = 7.0;  // R within [e^-7, e^7]

}  // namespace

// The two similarities of a pair: class agreement and feature cosine, the
// features normalised once (kept sparse when at most a third is nonzero).
struct LearnedPrior::Similarity {
  explicit Similarity(const PairSideInformation& side) : probs(side.class_probabilities) {
    if (side.features == nullptr) return;
    has_features = true;
    const NodeFeatures& x = *side.features;
    dims = x.cols();
    if (x.is_sparse()) {
      const SparseMatrix& s = x.sparse();
      offsets = s.offsets;
      indices = s.indices;
      values.resize(s.indices.size());
      for (std::size_t k = 0; k < values.size(); ++k) values[k] = s.values.empty() ? 1.0f : s.values[k];
    } else {
      const Matrix& d = x.dense();
      if (static_cast<double>((d.array() != 0).count()) * 3 > static_cast<double>(d.size())) {
        dense = d;
        for (Eigen::Index r = 0; r < dense.rows(); ++r) {
          const float norm = dense.row(r).norm();
          if (norm > 0) dense.row(r) /= norm;
        }
        return;
      }
      offsets.push_back(0);
      for (Eigen::Index r = 0; r < d.rows(); ++r) {
        for (Eigen::Index k = 0; k < d.cols(); ++k) {
          if (d(r, k) == 0) continue;
          indices.push_back(static_cast<std::int32_t>(k));
          values.push_back(d(r, k));
        }
        offsets.push_back(static_cast<std::int64_t>(indices.size()));
      }
    }
    sparse = true;
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) {
      double norm = 0;
      for (auto k = offsets[r]; k < offsets[r + 1]; ++k) norm += static_cast<double>(values[k]) * values[k];
      const double scale = norm > 0 ? 1 / std::sqrt(norm) : 0;
      for (auto k = offsets[r]; k < offsets[r + 1]; ++k) values[k] = static_cast<float>(values[k] * scale);
    }
  }

  double Agreement(std::uint32_t i, std::uint32_t j) const { return probs->row(i).dot(probs->row(j)); }

  double Cosine(std::uint32_t i, std::uint32_t j) const {
    if (!sparse) return dense.row(i).dot(dense.row(j));
    auto a = offsets[i], a_end = offsets[i + 1], b = offsets[j], b_end = offsets[j + 1];
    double dot = 0;
    while (a < a_end && b < b_end) {
      if (indices[a] < indices[b]) {
        ++a;
      } else if (indices[b] < indices[a]) {
        ++b;
      } else {
        dot += static_cast<double>(values[a++]) * values[b++];
      }
    }
    return dot;
  }

  const Matrix* probs;
  bool has_features = false;
  bool sparse = false;
  Eigen::Index dims = 0;
  std::vector<std::int64_t> offsets;
  std::vector<std::int32_t> indices;
  std::vector<float> values;
  Matrix dense;
};

namespace {

// Inner bin edges at the sample's quantiles, without repeats (ties, such as
// the many pairs of different one-hot labels, share a bin).
std::vector<double> QuantileEdges(std::vector<double> sample) {
  std::sort(sample.begin(), sample.end());
  std::vector<double> edges;
  for (int k = 1; k < kBins && !sample.empty(); ++k) {
    const double v = sample[sample.size() * static_cast<std::size_t>(k) / kBins];
    if (edges.empty() || v > edges.back()) edges.push_back(v);
  }
  return edges;
}

// The number of edges at or below x (at most kBins - 1 of them: a scan).
int Bin(const std::vector<double>& edges, double x) {
  int b = 0;
  for (double e : edges) b += e <= x ? 1 : 0;
  return b;
}

}  // namespace

LearnedPrior::LearnedPrior(const PairSideInformation& side, std::uint32_t num_users, std::size_t background_pairs,
                           std::uint64_t seed)
    : similarity_(std::make_shared<const Similarity>(side)) {
  const Similarity& sim = *similarity_;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint32_t> pick(0, num_users - 1);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  pairs.reserve(background_pairs);
  while (pairs.size() < background_pairs && num_users > 1) {
    const std::uint32_t i = pick(rng), j = pick(rng);
    if (i != j) pairs.emplace_back(i, j);
  }
  std::vector<double> agreement(pairs.size()), cosine(pairs.size());
  const auto count = static_cast<std::int64_t>(pairs.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < count; ++k) {
    if (sim.probs != nullptr) agreement[k] = sim.Agreement(pairs[k].first, pairs[k].second);
    if (sim.has_features) cosine[k] = sim.Cosine(pairs[k].first, pairs[k].second);
  }
  if (sim.probs != nullptr) agreement_edges_ = QuantileEdges(agreement);
  if (sim.has_features) cosine_edges_ = QuantileEdges(cosine);
  const int cells = static_cast<int>((agreement_edges_.size() + 1) * (cosine_edges_.size() + 1));
  background_.assign(cells, 0.0);
  for (std::int64_t k = 0; k < count; ++k) background_[CellOf(agreement[k], cosine[k])] += 1.0;
  for (double& b : background_) b /= std::max<double>(1.0, static_cast<double>(count));
  log_ratio_.assign(cells, 0.0);
}

int LearnedPrior::CellOf(double agreement, double cosine) const {
  return Bin(agreement_edges_, agreement) * static_cast<int>(cosine_edges_.size() + 1) + Bin(cosine_edges_, cosine);
}

int LearnedPrior::Cell(std::uint32_t i, std::uint32_t j) const {
  const Similarity& sim = *similarity_;
  return CellOf(sim.probs != nullptr ? sim.Agreement(i, j) : 0.0, sim.has_features ? sim.Cosine(i, j) : 0.0);
}

LearnedPrior::Row::Row(const LearnedPrior& prior) : prior_(prior) {
  const Similarity& sim = *prior.similarity_;
  if (sim.sparse) x_.assign(static_cast<std::size_t>(sim.dims), 0.0f);
}

void LearnedPrior::Row::Reset(std::uint32_t i) {
  const Similarity& sim = *prior_.similarity_;
  if (sim.sparse) {
    if (spread_) {
      for (auto k = sim.offsets[i_]; k < sim.offsets[i_ + 1]; ++k) x_[sim.indices[k]] = 0.0f;
    }
    for (auto k = sim.offsets[i]; k < sim.offsets[i + 1]; ++k) x_[sim.indices[k]] = sim.values[k];
    spread_ = true;
  }
  i_ = i;
}

int LearnedPrior::Row::Cell(std::uint32_t j) const {
  const Similarity& sim = *prior_.similarity_;
  const double agreement = sim.probs != nullptr ? sim.Agreement(i_, j) : 0.0;
  double cosine = 0;
  if (sim.sparse) {
    // The same terms in the same order and precision as Similarity::Cosine,
    // so that a pair's cell is the same whichever way it is asked for.
    for (auto k = sim.offsets[j]; k < sim.offsets[j + 1]; ++k) {
      cosine += static_cast<double>(sim.values[k]) * x_[sim.indices[k]];
    }
  } else if (sim.has_features) {
    cosine = sim.Cosine(i_, j);
  }
  return prior_.CellOf(agreement, cosine);
}

void LearnedPrior::Fit(const std::vector<double>& pair_mass) {
  std::vector<double> mass = pair_mass;
  double total = 0;
  for (std::size_t c = 0; c < mass.size(); ++c) {
    mass[c] += kPseudoEdges * background_[c];
    total += mass[c];
  }
  for (std::size_t c = 0; c < mass.size(); ++c) {
    if (background_[c] <= 0 || total <= 0) {
      log_ratio_[c] = 0;  // no random pair lands here: no evidence either way
      continue;
    }
    log_ratio_[c] = std::clamp(std::log(mass[c] / total / background_[c]), -kMaxLogRatio, kMaxLogRatio);
  }
}

}  // namespace ldpgraph
