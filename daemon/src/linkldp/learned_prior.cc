#include "linkldp/learned_prior.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace ldpgraph {
namespace {

constexpr int kBins = 8;              // per similarity
constexpr double kPseudoEdges = 4.0;  // smoothing: edges spread as random pairs are
constexpr double kMaxLogRatio = 7.0;  // R within [e^-7, e^7]

// The two similarities of a pair.
class Similarity {
 public:
  explicit Similarity(const PairSideInformation& side) : probs_(side.class_probabilities) {
    if (side.features == nullptr) return;
    has_features_ = true;
    const NodeFeatures& x = *side.features;
    if (x.is_sparse()) {
      sparse_ = true;
      const SparseMatrix& s = x.sparse();
      offsets_ = s.offsets;
      indices_ = s.indices;
      values_.resize(s.indices.size());
      for (std::int64_t r = 0; r < s.rows; ++r) {
        double norm = 0;
        for (auto k = s.offsets[r]; k < s.offsets[r + 1]; ++k) {
          const double v = s.values.empty() ? 1.0 : s.values[k];
          norm += v * v;
        }
        const double scale = norm > 0 ? 1 / std::sqrt(norm) : 0;
        for (auto k = s.offsets[r]; k < s.offsets[r + 1]; ++k) {
          values_[k] = static_cast<float>((s.values.empty() ? 1.0 : s.values[k]) * scale);
        }
      }
    } else {
      dense_ = x.dense();
      for (Eigen::Index r = 0; r < dense_.rows(); ++r) {
        const float norm = dense_.row(r).norm();
        if (norm > 0) dense_.row(r) /= norm;
      }
    }
  }

  bool has_agreement() const { return probs_ != nullptr; }
  bool has_features() const { return has_features_; }

  double Agreement(std::uint32_t i, std::uint32_t j) const { return probs_->row(i).dot(probs_->row(j)); }

  double Cosine(std::uint32_t i, std::uint32_t j) const {
    if (!sparse_) return dense_.row(i).dot(dense_.row(j));
    auto a = offsets_[i], a_end = offsets_[i + 1], b = offsets_[j], b_end = offsets_[j + 1];
    double dot = 0;
    while (a < a_end && b < b_end) {
      if (indices_[a] < indices_[b]) {
        ++a;
      } else if (indices_[b] < indices_[a]) {
        ++b;
      } else {
        dot += static_cast<double>(values_[a++]) * values_[b++];
      }
    }
    return dot;
  }

 private:
  const Matrix* probs_;
  bool has_features_ = false;
  bool sparse_ = false;
  std::vector<std::int64_t> offsets_;
  std::vector<std::int32_t> indices_;
  std::vector<float> values_;
  Matrix dense_;
};

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

int Bin(const std::vector<double>& edges, double x) {
  return static_cast<int>(std::upper_bound(edges.begin(), edges.end(), x) - edges.begin());
}

}  // namespace

LearnedPrior::LearnedPrior(const CandidatePairs& candidates, const PairSideInformation& side,
                           std::uint32_t num_users, std::size_t background_pairs, std::uint64_t seed) {
  const Similarity sim(side);
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
    if (sim.has_agreement()) agreement[k] = sim.Agreement(pairs[k].first, pairs[k].second);
    if (sim.has_features()) cosine[k] = sim.Cosine(pairs[k].first, pairs[k].second);
  }
  const std::vector<double> a_edges = sim.has_agreement() ? QuantileEdges(agreement) : std::vector<double>{};
  const std::vector<double> c_edges = sim.has_features() ? QuantileEdges(cosine) : std::vector<double>{};
  const int c_bins = static_cast<int>(c_edges.size()) + 1;
  const int cells = (static_cast<int>(a_edges.size()) + 1) * c_bins;
  auto cell_of = [&](double a, double c) { return Bin(a_edges, a) * c_bins + Bin(c_edges, c); };

  background_.assign(cells, 0.0);
  for (std::int64_t k = 0; k < count; ++k) background_[cell_of(agreement[k], cosine[k])] += 1.0;
  for (double& b : background_) b /= std::max<double>(1.0, static_cast<double>(count));

  const CsrGraph& g = candidates.pairs;
  cell_.assign(g.num_entries(), 0);
  const auto& offsets = g.offsets();
  const auto n = static_cast<std::int64_t>(g.num_nodes());
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t row = 0; row < n; ++row) {
    const auto i = static_cast<std::uint32_t>(row);
    for (std::uint64_t e = offsets[i]; e < offsets[i + 1]; ++e) {
      const std::uint32_t j = g.targets()[e];
      const double a = sim.has_agreement() ? sim.Agreement(i, j) : 0.0;
      const double c = sim.has_features() ? sim.Cosine(i, j) : 0.0;
      cell_[e] = static_cast<std::uint16_t>(cell_of(a, c));
    }
  }
  log_ratio_.assign(cells, 0.0);
}

void LearnedPrior::Fit(const std::vector<float>& posterior) {
  std::vector<double> mass(background_.size(), 0.0);
  // Every pair sits in two rows: counting both halves each row's share.
  for (std::size_t e = 0; e < posterior.size(); ++e) mass[cell_[e]] += posterior[e];
  double total = 0;
  for (std::size_t c = 0; c < mass.size(); ++c) {
    mass[c] += 2 * kPseudoEdges * background_[c];
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
