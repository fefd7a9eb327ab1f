// Membership inference's score: members the model is surer of are found;
// a class that is merely easier does not pass for membership once the
// threshold is calibrated per class.
#include "audit/membership_inference.h"

#include <doctest/doctest.h>

using namespace ldpgraph;

TEST_CASE("MembershipInference.ConfidentMembersAreFound") {
  Matrix p(40, 2);
  std::vector<int> labels(40);
  std::vector<std::uint32_t> in, out;
  for (std::uint32_t u = 0; u < 40; ++u) {
    labels[u] = static_cast<int>(u % 2);
    const bool member = u < 20;
    const float sure = member ? 0.9f + 0.001f * u : 0.6f + 0.001f * u;
    p(u, labels[u]) = sure;
    p(u, 1 - labels[u]) = 1 - sure;
    (member ? in : out).push_back(u);
  }
  Result<MembershipAttackResult> r = MembershipInferenceAuc(p, labels, in, out);
  REQUIRE(r.ok());
  CHECK(r->auc == 1.0);
  CHECK(r->uncalibrated_auc == 1.0);
  CHECK(r->members == 20);
  CHECK(r->non_members == 20);
}

TEST_CASE("MembershipInference.AnEasyClassIsNotMembership") {
  // Class 0 is easy (0.95), class 1 hard (0.55); within each class half the
  // members and half the non-members are a little surer, so nothing there
  // tells them apart.
  // Most members are of class 0: the uncalibrated score mistakes the class
  // for membership.
  Matrix p(80, 2);
  std::vector<int> labels(80);
  std::vector<std::uint32_t> in, out;
  for (std::uint32_t u = 0; u < 80; ++u) {
    labels[u] = u < 40 ? 0 : 1;
    const float sure = (labels[u] == 0 ? 0.95f : 0.55f) + 0.01f * static_cast<float>(u % 2);
    p(u, labels[u]) = sure;
    p(u, 1 - labels[u]) = 1 - sure;
    const bool member = labels[u] == 0 ? u % 8 < 6 : u % 8 < 2;
    (member ? in : out).push_back(u);
  }
  Result<MembershipAttackResult> r = MembershipInferenceAuc(p, labels, in, out);
  REQUIRE(r.ok());
  CHECK(r->uncalibrated_auc > 0.7);
  CHECK(r->auc == doctest::Approx(0.5));
}

TEST_CASE("MembershipInference.BadListsAreRefused") {
  Matrix p = Matrix::Constant(4, 2, 0.5f);
  const std::vector<int> labels = {0, 1, -1, 0};
  CHECK(MembershipInferenceAuc(p, labels, {}, {1}).status().code() == StatusCode::kInvalidArgument);
  CHECK(MembershipInferenceAuc(p, labels, {0}, {2}).status().code() == StatusCode::kInvalidArgument);  // no label
  CHECK(MembershipInferenceAuc(p, labels, {0}, {0}).status().code() == StatusCode::kInvalidArgument);  // twice
  CHECK(MembershipInferenceAuc(p, labels, {0}, {9}).status().code() == StatusCode::kInvalidArgument);  // range
  CHECK(MembershipInferenceAuc(p, {0, 1}, {0}, {1}).status().code() == StatusCode::kInvalidArgument);  // sizes
}
