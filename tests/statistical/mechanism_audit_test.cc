// The product's own audit (`ldpgraph audit mechanisms`, audit/) in CI's
// statistical tier at 2 x 10^5 seeded trials: every shipped mechanism's
// lower bound stays at or below its claim at 95%, the tight ones (DPRR, RR,
// label RR) reach more than half of it, and every broken double is caught.
// A mechanism whose claim is false by a known margin shows the bound is
// about where it should be.
#include <doctest/doctest.h>

#include <string>

#include "audit/epsilon_audit.h"
#include "audit/mechanism_audits.h"
#include "ldpgraph/label_rr.h"

using namespace ldpgraph;

namespace {

EpsilonAuditOptions Seeded(std::uint64_t seed, double delta = 0) {
  EpsilonAuditOptions o;
  o.trials = 200000;
  o.seeded = true;
  o.seed = seed;
  o.delta = delta;
  return o;
}

}  // namespace

TEST_CASE("MechanismAudit.EveryShippedClaimHoldsAndTheTightOnesAreReached") {
  Result<std::vector<MechanismAudit>> audits = ShippedMechanismAudits(1.0);
  REQUIRE(audits.ok());
  CHECK(audits->size() >= 10);
  // Seeded, so the tier is deterministic. (Each bound exceeds a true claim with probability at most 5%; a
  // tight mechanism's does so only after a 3-sigma deviation. Seeds 1-40 of label RR at 2 x 10^5 trials
  // gave estimates of 0.988 to 1.027 around e's 1.0, one bound above 1: seed 7.)
  std::uint64_t seed = 1000;
  for (const MechanismAudit& a : *audits) {
    Result<EpsilonAuditResult> r = AuditEpsilon(a.a, a.b, Seeded(seed++, a.delta));
    REQUIRE(r.ok());
    const std::string name = a.name;
    CAPTURE(name);
    CAPTURE(r->lower_bound);
    CHECK(!a.broken);
    CHECK(r->lower_bound <= a.claimed);
    if (name == "dprr-paper" || name == "dprr-fixed" || name == "rr" || name == "label-rr") {
      CHECK(r->lower_bound >= 0.5 * a.claimed);
    }
  }
}

TEST_CASE("MechanismAudit.EveryBrokenDoubleIsCaught") {
  Result<std::vector<MechanismAudit>> doubles = BrokenMechanismAudits(1.0);
  REQUIRE(doubles.ok());
  CHECK(doubles->size() >= 4);
  std::uint64_t seed = 100;
  for (const MechanismAudit& a : *doubles) {
    Result<EpsilonAuditResult> r = AuditEpsilon(a.a, a.b, Seeded(seed++, a.delta));
    REQUIRE(r.ok());
    const std::string name = a.name;
    CAPTURE(name);
    CAPTURE(r->lower_bound);
    CHECK(a.broken);
    CHECK(r->lower_bound > a.claimed);
  }
}

TEST_CASE("MechanismAudit.ABoundFollowsTheTrueEpsilon") {
  // Label RR that really spends 2 but is audited against inputs 0 and 1: the bound approaches 2 from below.
  Result<LabelRandomizer> rr = LabelRandomizer::Create(2, 2.0);
  REQUIRE(rr.ok());
  auto sample = [&](std::uint32_t y) {
    return [&, y](RandomSource& rng) { return std::to_string(*rr->Perturb(y, rng)); };
  };
  Result<EpsilonAuditResult> r = AuditEpsilon(sample(0), sample(1), Seeded(7));
  REQUIRE(r.ok());
  CHECK(r->lower_bound <= 2.0);
  CHECK(r->lower_bound > 1.8);
  CHECK(r->estimate == doctest::Approx(2.0).epsilon(0.05));
  // Identical inputs: nothing to distinguish, the bound stays near 0.
  Result<EpsilonAuditResult> same = AuditEpsilon(sample(0), sample(0), Seeded(8));
  REQUIRE(same.ok());
  CHECK(same->lower_bound < 0.05);
}

TEST_CASE("MechanismAudit.RefusesBadOptions") {
  auto constant = [](RandomSource&) { return std::string("x"); };
  EpsilonAuditOptions o = Seeded(1);
  o.trials = 3;
  CHECK(AuditEpsilon(constant, constant, o).status().code() == StatusCode::kInvalidArgument);
  o = Seeded(1);
  o.confidence = 1.0;
  CHECK(AuditEpsilon(constant, constant, o).status().code() == StatusCode::kInvalidArgument);
}
