// Node membership inference: was this user's label in the model's training
// set? A model fits its training users better than the others, so the
// probability it gives a user's true class (the attack's score: the log of
// it, minus the loss) is higher for members. Some classes are simply easier
// than others; a threshold calibrated per class removes that, which for a
// ranking means scoring each user against her class: the score standardised
// over the audited users of her class. The AUC counts how well the score
// ranks members above non-members.
#ifndef LDPGRAPH_DAEMON_AUDIT_MEMBERSHIP_INFERENCE_H_
#define LDPGRAPH_DAEMON_AUDIT_MEMBERSHIP_INFERENCE_H_

#include <cstdint>
#include <vector>

#include "engine/matrix.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

struct MembershipAttackResult {
  double auc = 0;               // calibrated per class
  double uncalibrated_auc = 0;  // the log-probability of the true class as it is
  std::uint64_t members = 0, non_members = 0;
};

// Every user's score (0 for users not audited): the log-probability of her
// true class, and the same standardised over the audited users of her class.
struct MembershipScores {
  std::vector<double> log_probability, calibrated;
};

// `labels`: one per row of `probabilities` (-1 unknown). Errors:
// kInvalidArgument for no member or non-member, a user out of range or
// without a label, or a user in both lists.
Result<MembershipScores> ScoreMembership(const Matrix& probabilities, const std::vector<int>& labels,
                                         const std::vector<std::uint32_t>& members,
                                         const std::vector<std::uint32_t>& non_members);

// ScoreMembership's scores of the members against the non-members. Errors: its.
Result<MembershipAttackResult> MembershipInferenceAuc(const Matrix& probabilities, const std::vector<int>& labels,
                                                      const std::vector<std::uint32_t>& members,
                                                      const std::vector<std::uint32_t>& non_members);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_MEMBERSHIP_INFERENCE_H_
