#include "audit/membership_inference.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "audit/link_pairs.h"

namespace ldpgraph {

Result<MembershipAttackResult> MembershipInferenceAuc(const Matrix& probabilities, const std::vector<int>& labels,
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
  std::vector<char> role(n, 0);  // 1 member, 2 non-member
  for (int pass = 1; pass <= 2; ++pass) {
    for (std::uint32_t u : pass == 1 ? members : non_members) {
      if (u >= n) return Status::InvalidArgument("user " + std::to_string(u) + " is out of range");
      if (labels[u] < 0 || labels[u] >= probabilities.cols()) {
        return Status::InvalidArgument("user " + std::to_string(u) + " has no label the model knows");
      }
      if (role[u] != 0) return Status::InvalidArgument("user " + std::to_string(u) + " is listed twice");
      role[u] = static_cast<char>(pass);
    }
  }
  // Per class: the mean and deviation of the score over its audited users.
  const auto classes = static_cast<std::size_t>(probabilities.cols());
  std::vector<double> score(n, 0), sum(classes, 0), squares(classes, 0), count(classes, 0);
  for (std::uint32_t u = 0; u < n; ++u) {
    if (role[u] == 0) continue;
    const auto c = static_cast<std::size_t>(labels[u]);
    score[u] = std::log(std::max(static_cast<double>(probabilities(u, labels[u])), 1e-30));
    sum[c] += score[u];
    squares[c] += score[u] * score[u];
    count[c] += 1;
  }
  std::vector<double> raw_in, raw_out, in, out;
  for (std::uint32_t u = 0; u < n; ++u) {
    if (role[u] == 0) continue;
    const auto c = static_cast<std::size_t>(labels[u]);
    const double mean = sum[c] / count[c];
    const double sd = std::sqrt(std::max(squares[c] / count[c] - mean * mean, 0.0));
    const double calibrated = sd > 0 ? (score[u] - mean) / sd : 0.0;
    (role[u] == 1 ? raw_in : raw_out).push_back(score[u]);
    (role[u] == 1 ? in : out).push_back(calibrated);
  }
  MembershipAttackResult r;
  r.auc = ScoreAuc(in, out);
  r.uncalibrated_auc = ScoreAuc(raw_in, raw_out);
  r.members = in.size();
  r.non_members = out.size();
  return r;
}

}  // namespace ldpgraph
