#include "ldpgraph/graph_summary.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "internal/validation.h"

namespace ldpgraph {
namespace {

constexpr std::uint64_t kMaxCells = 65536;  // k-ary randomized response's limit (label_rr.h)

// x in [0, 1] cut into `bins` equal bins (1 falls in the last).
std::uint32_t Bin(double x, std::uint32_t bins) {
  const auto b = static_cast<std::uint32_t>(std::floor(x * bins));
  return std::min(b, bins - 1);
}

}  // namespace

GraphSummaryParams GraphSummaryParams::ForEpsilon(std::uint32_t dims, double epsilon, std::uint32_t min_nodes,
                                                  std::uint32_t max_nodes) {
  GraphSummaryParams p;
  p.dims = dims;
  p.epsilon = epsilon;
  p.min_nodes = min_nodes;
  p.max_nodes = max_nodes;
  // The finest of 8 x 8, 4 x 4 and 2 x 2 (per column and size) whose cell
  // survives randomized response with Pr >= 0.9: e^eps >= 9 (k - 1).
  p.value_bins = p.size_bins = 2;
  for (std::uint32_t bins : {8u, 4u}) {
    double cells = bins;
    for (std::uint32_t j = 0; j < dims; ++j) cells *= bins;
    if (cells <= kMaxCells && epsilon >= std::log(9 * (cells - 1))) {
      p.value_bins = p.size_bins = bins;
      break;
    }
  }
  return p;
}

Status GraphSummaryParams::Validate() const {
  if (dims == 0 || value_bins == 0 || size_bins == 0) {
    return Status::InvalidArgument("a graph summary needs dims, value_bins and size_bins of at least 1");
  }
  std::uint64_t cells = size_bins;
  for (std::uint32_t j = 0; j < dims && cells <= kMaxCells; ++j) cells *= value_bins;
  if (cells > kMaxCells) {
    // Messages name the fields, not their values: this check is in every
    // device image that validates a configuration (64 KB on a microcontroller).
    return Status::InvalidArgument("value_bins^dims x size_bins must be at most 65536 cells");
  }
  if (cells < 2) return Status::InvalidArgument("a graph summary needs at least 2 cells");
  if (min_nodes == 0 || min_nodes > max_nodes) {
    return Status::InvalidArgument("the size range must have 1 <= min_nodes <= max_nodes");
  }
  LDPGRAPH_RETURN_IF_ERROR(internal::CheckEpsilon(epsilon));
  if (!(range.lo < range.hi) || !std::isfinite(range.lo) || !std::isfinite(range.hi)) {
    return Status::InvalidArgument("the embedding range must be finite with lo < hi");
  }
  return Status::Ok();
}

std::uint32_t GraphSummaryParams::cells() const {
  std::uint64_t cells = size_bins;
  for (std::uint32_t j = 0; j < dims; ++j) cells *= value_bins;
  return static_cast<std::uint32_t>(cells);
}

Result<GraphSummaryEncoder> GraphSummaryEncoder::Create(GraphSummaryParams params) {
  LDPGRAPH_RETURN_IF_ERROR(params.Validate());
  Result<LabelRandomizer> randomizer = LabelRandomizer::Create(params.cells(), params.epsilon);
  if (!randomizer.ok()) return randomizer.status();
  GraphSummaryEncoder e;
  e.params_ = params;
  e.randomizer_ = *randomizer;
  return e;
}

Result<std::uint32_t> GraphSummaryEncoder::Cell(Span<const double> h, std::uint32_t nodes) const {
  const GraphSummaryParams& p = params_;
  if (nodes == 0) return Status::InvalidArgument("a graph summary needs a graph of at least one node");
  // In 64 bits: on a 32-bit device nodes x dims can wrap size_t.
  if (h.size() != static_cast<std::uint64_t>(nodes) * p.dims) {
    return Status::InvalidArgument("expected " + std::to_string(nodes) + " x " + std::to_string(p.dims) +
                                   " embedding entries, got " + std::to_string(h.size()));
  }
  std::vector<double> sums(p.dims, 0.0);
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double v = h[i];
    if (std::isnan(v)) return Status::InvalidArgument("embedding entry " + std::to_string(i) + " is NaN");
    if (v < p.range.lo || v > p.range.hi) {
      return Status::OutOfRange("embedding entry " + std::to_string(i) + " = " + internal::FormatDouble(v) +
                                " is outside [" + internal::FormatDouble(p.range.lo) + ", " +
                                internal::FormatDouble(p.range.hi) + "]");
    }
    sums[i % p.dims] += v;
  }
  std::uint64_t cell = 0;
  for (double sum : sums) {
    const double mean = sum / nodes;
    cell = cell * p.value_bins + Bin((mean - p.range.lo) / (p.range.hi - p.range.lo), p.value_bins);
  }
  const double clamped = std::clamp(static_cast<double>(nodes), static_cast<double>(p.min_nodes),
                                    static_cast<double>(p.max_nodes));
  const double span = std::log(static_cast<double>(p.max_nodes)) - std::log(static_cast<double>(p.min_nodes));
  const double size = span > 0 ? (std::log(clamped) - std::log(static_cast<double>(p.min_nodes))) / span : 0.0;
  return static_cast<std::uint32_t>(cell * p.size_bins + Bin(size, p.size_bins));
}

Result<std::uint32_t> GraphSummaryEncoder::Encode(Span<const double> h, std::uint32_t nodes, RandomSource& rng) const {
  Result<std::uint32_t> cell = Cell(h, nodes);
  if (!cell.ok()) return cell.status();
  return randomizer_.Perturb(*cell, rng);
}

std::vector<double> GraphSummaryEncoder::CellCentre(std::uint32_t cell) const {
  const GraphSummaryParams& p = params_;
  if (cell >= p.cells()) return {};
  std::vector<double> centre(p.dims + 1);
  centre[p.dims] = (cell % p.size_bins + 0.5) / p.size_bins;
  cell /= p.size_bins;
  for (std::uint32_t j = p.dims; j-- > 0;) {
    centre[j] = (cell % p.value_bins + 0.5) / p.value_bins;
    cell /= p.value_bins;
  }
  return centre;
}

}  // namespace ldpgraph
