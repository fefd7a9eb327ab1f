#include "ldpgraph/edge_mechanism.h"

#include "ldpgraph/dprr.h"
#include "ldpgraph/local_lap.h"
#include "ldpgraph/non_private.h"
#include "ldpgraph/randomized_response.h"
#include "ldpgraph/rr_with_degree.h"

namespace ldpgraph {

const char* EdgeMechanismName(EdgeMechanism mechanism) {
  switch (mechanism) {
    case EdgeMechanism::kNone: return "none";
    case EdgeMechanism::kDprr: return "dprr";
    case EdgeMechanism::kRr: return "rr";
    case EdgeMechanism::kLocalLap: return "locallap";
    case EdgeMechanism::kRrDegree: return "rr-degree";
  }
  return "unknown";
}

Result<EdgeMechanism> ParseEdgeMechanism(const std::string& name) {
  for (auto m : {EdgeMechanism::kNone, EdgeMechanism::kDprr, EdgeMechanism::kRr,
                 EdgeMechanism::kLocalLap, EdgeMechanism::kRrDegree}) {
    if (name == EdgeMechanismName(m)) return m;
  }
  return Status::InvalidArgument("unknown edge mechanism '" + name +
                                 "' (expected none, dprr, rr, locallap or rr-degree)");
}

const char* BudgetAllocationName(BudgetAllocation allocation) {
  return allocation == BudgetAllocation::kPaper ? "paper" : "fixed";
}

Result<BudgetAllocation> ParseBudgetAllocation(const std::string& name) {
  if (name == "paper") return BudgetAllocation::kPaper;
  if (name == "fixed") return BudgetAllocation::kFixed;
  return Status::InvalidArgument("unknown budget allocation '" + name +
                                 "' (expected paper or fixed)");
}

namespace {
template <typename T>
Result<std::unique_ptr<EdgeRandomizer>> Box(Result<T> r) {
  if (!r.ok()) return r.status();
  return std::unique_ptr<EdgeRandomizer>(new T(std::move(r).value()));
}
}  // namespace

Result<std::unique_ptr<EdgeRandomizer>> MakeEdgeRandomizer(std::uint32_t num_users,
                                                           const EdgePolicy& policy) {
  switch (policy.mechanism) {
    case EdgeMechanism::kNone:
      return Box(NonPrivateEdges::Create(num_users));
    case EdgeMechanism::kDprr:
      return Box(Dprr::Create(num_users, policy.epsilon, policy.allocation, policy.n_max));
    case EdgeMechanism::kRr:
      return Box(RandomizedResponse::Create(num_users, policy.epsilon));
    case EdgeMechanism::kLocalLap:
      return Box(LocalLapClient::Create(num_users, policy.epsilon, policy.allocation,
                                        policy.n_max, policy.locallap_resolution));
    case EdgeMechanism::kRrDegree:
      return Box(RrWithDegree::Create(num_users, policy.epsilon, policy.allocation, policy.n_max));
  }
  return Status::InvalidArgument("unknown edge mechanism value " +
                                 std::to_string(static_cast<int>(policy.mechanism)));
}

}  // namespace ldpgraph
