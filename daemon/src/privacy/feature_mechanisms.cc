#include "privacy/feature_mechanisms.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ldpgraph/multibit.h"
#include "ldpgraph/samplers.h"
#include "util/seed_mix.h"

namespace ldpgraph {
namespace {

// Row i of `x` as doubles in `row` (sized to the columns); sparse rows
// cost their entries, after the last row's are cleared.
class RowReader {
 public:
  explicit RowReader(const NodeFeatures& x) : x_(x), row_(static_cast<std::size_t>(x.cols()), 0.0) {}
  const std::vector<double>& Row(Eigen::Index i) {
    if (x_.is_sparse()) {
      const SparseMatrix& s = x_.sparse();
      for (std::int32_t c : last_) row_[static_cast<std::size_t>(c)] = 0.0;
      last_.clear();
      for (std::int64_t k = s.offsets[i]; k < s.offsets[i + 1]; ++k) {
        row_[static_cast<std::size_t>(s.indices[k])] = s.unit_weights() ? 1.0 : s.values[k];
        last_.push_back(s.indices[k]);
      }
    } else {
      const MatrixView d = x_.dense();
      for (Eigen::Index j = 0; j < d.cols(); ++j) row_[static_cast<std::size_t>(j)] = d(i, j);
    }
    return row_;
  }

 private:
  const NodeFeatures& x_;
  std::vector<double> row_;
  std::vector<std::int32_t> last_;
};

// The m reported dimensions of every user as a sparse matrix plus the
// midpoints: what the rectifier's dense estimate is, in m values a user.
Result<NodeFeatures> MultiBit(const NodeFeatures& x, double epsilon, std::uint64_t seed) {
  MultiBitParams params;
  params.dims = static_cast<std::uint32_t>(x.cols());
  params.epsilon = epsilon;
  Result<MultiBitEncoder> encoder = MultiBitEncoder::Create(params);
  if (!encoder.ok()) return encoder.status();
  Result<MultiBitRectifier> rectifier = MultiBitRectifier::Create(params);
  if (!rectifier.ok()) return rectifier.status();
  SparseMatrix reports;
  reports.rows = x.rows();
  reports.cols = x.cols();
  reports.offsets.reserve(static_cast<std::size_t>(x.rows()) + 1);
  RowReader reader(x);
  std::vector<double> deviations;
  std::vector<EncodedFeature> encoded;
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    SeededRandomSource rng(MixSeed(seed, static_cast<std::uint64_t>(i)));
    LDPGRAPH_RETURN_IF_ERROR(encoder->Encode(reader.Row(i), rng, &encoded));
    LDPGRAPH_RETURN_IF_ERROR(rectifier->RectifyDeviations(encoded, &deviations));
    for (std::size_t k = 0; k < encoded.size(); ++k) {
      reports.indices.push_back(static_cast<std::int32_t>(encoded[k].index));
      reports.values.push_back(static_cast<float>(deviations[k]));
    }
    reports.offsets.push_back(reports.nnz());
  }
  return NodeFeatures::Factored(MultiBitEstimates(std::move(reports), *rectifier));
}

// One bit per dimension at eps / d; unbiased: E[x'] = x.
Matrix OneBit(const NodeFeatures& x, double epsilon, std::uint64_t seed) {
  const double e = std::exp(epsilon / static_cast<double>(x.cols()));
  Matrix out(x.rows(), x.cols());
  RowReader reader(x);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    SeededRandomSource rng(MixSeed(seed, static_cast<std::uint64_t>(i)));
    const std::vector<double>& row = reader.Row(i);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      const double p = 1.0 / (e + 1.0) + row[static_cast<std::size_t>(j)] * (e - 1.0) / (e + 1.0);
      const double t = Bernoulli(rng, p) ? 1.0 : 0.0;
      out(i, j) = static_cast<float>(((e + 1.0) * t - 1.0) / (e - 1.0));
    }
  }
  return out;
}

Matrix Laplace(const NodeFeatures& x, double epsilon, std::uint64_t seed) {
  const double scale = static_cast<double>(x.cols()) / epsilon;
  Matrix out(x.rows(), x.cols());
  RowReader reader(x);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    SeededRandomSource rng(MixSeed(seed, static_cast<std::uint64_t>(i)));
    const std::vector<double>& row = reader.Row(i);
    for (Eigen::Index j = 0; j < x.cols(); ++j) {
      // Inverse CDF of Lap(scale) from u in (-1/2, 1/2).
      const double u = UniformUnit(rng) - 0.5;
      const double noise = -scale * std::copysign(1.0, u) * std::log1p(-2.0 * std::fabs(u));
      out(i, j) = static_cast<float>(row[static_cast<std::size_t>(j)] + noise);
    }
  }
  return out;
}

}  // namespace

Result<FeatureMechanism> ParseFeatureMechanism(const std::string& name) {
  if (name == "mbm") return FeatureMechanism::kMultiBit;
  if (name == "1bm") return FeatureMechanism::kOneBit;
  if (name == "laplace") return FeatureMechanism::kLaplace;
  return Status::InvalidArgument("unknown feature mechanism '" + name + "' (mbm, 1bm or laplace)");
}

void ScaleColumnsToUnit(Matrix* features) {
  for (Eigen::Index j = 0; j < features->cols(); ++j) {
    auto col = features->col(j);
    const float lo = col.minCoeff(), hi = col.maxCoeff();
    if (hi > lo) {
      col = (col.array() - lo) / (hi - lo);
    } else {
      col.setZero();
    }
  }
}

void ScaleColumnsToUnit(NodeFeatures* features) {
  if (!features->is_sparse()) return ScaleColumnsToUnit(features->mutable_dense());
  SparseMatrix& x = *features->mutable_sparse();
  const auto cols = static_cast<std::size_t>(x.cols);
  if (x.unit_weights()) x.values.assign(static_cast<std::size_t>(x.nnz()), 1.0f);
  std::vector<float> lo(cols, INFINITY), hi(cols, -INFINITY);
  std::vector<std::int64_t> stored(cols, 0);
  for (std::int64_t k = 0; k < x.nnz(); ++k) {
    const auto c = static_cast<std::size_t>(x.indices[k]);
    lo[c] = std::min(lo[c], x.values[k]);
    hi[c] = std::max(hi[c], x.values[k]);
    ++stored[c];
  }
  for (std::size_t c = 0; c < cols; ++c) {
    if (stored[c] == x.rows) continue;  // no unstored zero
    if (lo[c] < 0) {
      *features = NodeFeatures::Dense(ToDense(x));
      return ScaleColumnsToUnit(features->mutable_dense());
    }
    lo[c] = 0;
    hi[c] = std::max(hi[c], 0.0f);
  }
  bool unit = true;
  for (std::int64_t k = 0; k < x.nnz(); ++k) {
    const auto c = static_cast<std::size_t>(x.indices[k]);
    float& v = x.values[k];
    v = hi[c] > lo[c] ? (v - lo[c]) / (hi[c] - lo[c]) : 0.0f;
    unit = unit && v == 1.0f;
  }
  if (unit) x.values.clear();
}

FactoredFeatures MultiBitEstimates(SparseMatrix deviations, const MultiBitRectifier& rectifier) {
  std::vector<float> midpoints(static_cast<std::size_t>(deviations.cols));
  for (std::size_t j = 0; j < midpoints.size(); ++j) {
    midpoints[j] = static_cast<float>(rectifier.Midpoint(static_cast<std::uint32_t>(j)));
  }
  return SparsePlusOffset(std::move(deviations), midpoints);
}

Result<NodeFeatures> PerturbFeatures(const NodeFeatures& features, FeatureMechanism mechanism, double epsilon,
                                     std::uint64_t seed) {
  if (!(epsilon > 0) || std::isinf(epsilon)) return Status::InvalidArgument("feature epsilon must be positive and finite");
  if (features.cols() == 0) return Status::InvalidArgument("the dataset has no features");
  if (features.is_factored()) return Status::InvalidArgument("the features are already private estimates");
  switch (mechanism) {
    case FeatureMechanism::kMultiBit: return MultiBit(features, epsilon, seed);
    case FeatureMechanism::kOneBit: return NodeFeatures::Dense(OneBit(features, epsilon, seed));
    case FeatureMechanism::kLaplace: return NodeFeatures::Dense(Laplace(features, epsilon, seed));
  }
  return Status::InvalidArgument("unknown feature mechanism");
}

}  // namespace ldpgraph
