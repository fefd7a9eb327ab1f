#include "gw/private_summary.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ldpgraph {
namespace {

Status CheckReports(const GraphSummaryEncoder& encoder, const std::vector<std::uint32_t>& reports) {
  if (reports.empty()) return Status::InvalidArgument("no graph summary reports to denoise");
  const std::uint32_t cells = encoder.params().cells();
  for (std::size_t g = 0; g < reports.size(); ++g) {
    if (reports[g] >= cells) {
      return Status::InvalidArgument("graph " + std::to_string(g) + "'s report " + std::to_string(reports[g]) +
                                     " is not a cell (there are " + std::to_string(cells) + ")");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<double>> SummaryPrior(const GraphSummaryEncoder& encoder,
                                         const std::vector<std::uint32_t>& reports) {
  LDPGRAPH_RETURN_IF_ERROR(CheckReports(encoder, reports));
  const std::uint32_t cells = encoder.params().cells();
  const double p = encoder.TransitionProbability(0, 0), q = encoder.TransitionProbability(0, 1);
  std::vector<double> prior(cells, 0.0);
  for (std::uint32_t r : reports) prior[r] += 1.0 / static_cast<double>(reports.size());
  double total = 0;
  for (double& v : prior) total += v = std::max(0.0, (v - q) / (p - q));
  // Clipping can leave nothing (every share at or below q): then no cell is
  // favoured.
  for (double& v : prior) v = total > 0 ? v / total : 1.0 / cells;
  return prior;
}

Result<Eigen::MatrixXd> DenoiseSummaries(const GraphSummaryEncoder& encoder,
                                         const std::vector<std::uint32_t>& reports) {
  Result<std::vector<double>> prior = SummaryPrior(encoder, reports);
  if (!prior.ok()) return prior.status();
  const std::uint32_t cells = encoder.params().cells();
  const auto width = static_cast<Eigen::Index>(encoder.params().dims + 1);
  Eigen::MatrixXd centres(cells, width);
  for (std::uint32_t c = 0; c < cells; ++c) {
    const std::vector<double> x = encoder.CellCentre(c);
    for (Eigen::Index j = 0; j < width; ++j) centres(c, j) = x[static_cast<std::size_t>(j)];
  }
  Eigen::MatrixXd points(static_cast<Eigen::Index>(reports.size()), width);
  for (std::size_t g = 0; g < reports.size(); ++g) {
    Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(width);
    double mass = 0;
    for (std::uint32_t c = 0; c < cells; ++c) {
      const double w = (*prior)[c] * encoder.TransitionProbability(c, reports[g]);
      sum += w * centres.row(c);
      mass += w;
    }
    // Mass is never 0: the reported cell's prior or the others' is positive.
    points.row(static_cast<Eigen::Index>(g)) = sum / mass;
  }
  return points;
}

GraphSpace SummarySpace(const Eigen::RowVectorXd& point) {
  GraphSpace space;
  space.structure = Eigen::MatrixXd::Zero(1, 1);
  space.features = point;
  return space;
}

Eigen::RowVectorXd ExactSummary(const GraphSummaryParams& p, const Eigen::MatrixXd& embeddings) {
  Eigen::RowVectorXd point(embeddings.cols() + 1);
  point.head(embeddings.cols()) = (embeddings.colwise().mean().array() - p.range.lo) / (p.range.hi - p.range.lo);
  const double n = std::clamp(static_cast<double>(embeddings.rows()), static_cast<double>(p.min_nodes),
                              static_cast<double>(p.max_nodes));
  const double span = std::log(static_cast<double>(p.max_nodes)) - std::log(static_cast<double>(p.min_nodes));
  point(embeddings.cols()) = span > 0 ? (std::log(n) - std::log(static_cast<double>(p.min_nodes))) / span : 0.0;
  return point;
}

Result<std::vector<GraphSpace>> SummarySpaces(const GraphSummaryEncoder& encoder,
                                              const std::vector<std::uint32_t>& reports) {
  Result<Eigen::MatrixXd> points = DenoiseSummaries(encoder, reports);
  if (!points.ok()) return points.status();
  std::vector<GraphSpace> spaces;
  spaces.reserve(reports.size());
  for (Eigen::Index g = 0; g < points->rows(); ++g) spaces.push_back(SummarySpace(points->row(g)));
  return spaces;
}

}  // namespace ldpgraph
