#include "audit/membership_inference.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "audit/link_pairs.h"

namespace ldpgraph {

Result<MembershipScores> ScoreMembership(const Matrix& probabilities, const std::vector<int>& labels,
                                         const std::vector<std::uint32_t>& members,
                                         const std::vector<std::uint32_t>& non_members) {
  if (members.empty() || non_members.empty()) {
    return Status::InvalidArgument("membership inference needs members and non-members");
  }
  if (labels.size() != static_cast<std::size_t>(probabilities.rows())) {
    return Status::InvalidArgument("the model gives " + std::to_string(probabilities.rows()) +
                                   " rows of probabilities for " + std::to_string(labels.size()) + " labels");
  }
  const auto n = static_cast<std::uint32_t>(labels.size());
  std::vector<bool> audited(n, false);
  for (const std::vector<std::uint32_t>* list : {&members, &non_members}) {
    for (std::uint32_t u : *list) {
      if (u >= n) return Status::InvalidArgument("user " + std::to_string(u) + " is out of range");
      if (labels[u] < 0 || labels[u] >= probabilities.cols()) {
        return Status::InvalidArgument("user " + std::to_string(u) + " has no label the model knows");
      }
      if (audited[u]) return Status::InvalidArgument("user " + std::to_string(u) + " is listed twice");
      audited[u] = true;
    }
  }
  // Per class: the mean and deviation of the score over its audited users.
  const auto classes = static_cast<std::size_t>(probabilities.cols());
  MembershipScores out;
  out.log_probability.assign(n, 0);
  out.calibrated.assign(n, 0);
  std::vector<double> sum(classes, 0), squares(classes, 0), count(classes, 0);
  for (std::uint32_t u = 0; u < n; ++u) {
    if (!audited[u]) continue;
    const auto c = static_cast<std::size_t>(labels[u]);
    const double score = std::log(std::max(static_cast<double>(probabilities(u, labels[u])), 1e-30));
    out.log_probability[u] = score;
    sum[c] += score;
    squares[c] += score * score;
    count[c] += 1;
  }
  for (std::uint32_t u = 0; u < n; ++u) {
    if (!audited[u]) continue;
    const auto c = static_cast<std::size_t>(labels[u]);
    const double mean = sum[c] / count[c];
    const double sd = std::sqrt(std::max(squares[c] / count[c] - mean * mean, 0.0));
    out.calibrated[u] = sd > 0 ? (out.log_probability[u] - mean) / sd : 0.0;
  }
  return out;
}

Result<MembershipAttackResult> MembershipInferenceAuc(const Matrix& probabilities, const std::vector<int>& labels,
                                                      const std::vector<std::uint32_t>& members,
                                                      const std::vector<std::uint32_t>& non_members) {
  Result<MembershipScores> scores = ScoreMembership(probabilities, labels, members, non_members);
  if (!scores.ok()) return scores.status();
  std::vector<double> raw_in, raw_out, in, out;
  for (std::uint32_t u : members) {
    raw_in.push_back(scores->log_probability[u]);
    in.push_back(scores->calibrated[u]);
  }
  for (std::uint32_t u : non_members) {
    raw_out.push_back(scores->log_probability[u]);
    out.push_back(scores->calibrated[u]);
  }
  MembershipAttackResult r;
  r.auc = ScoreAuc(in, out);
  r.uncalibrated_auc = ScoreAuc(raw_in, raw_out);
  r.members = in.size();
  r.non_members = out.size();
  return r;
}

}  // namespace ldpgraph
