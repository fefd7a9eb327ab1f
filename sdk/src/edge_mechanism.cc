#include "ldpgraph/edge_mechanism.h"

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

}  // namespace ldpgraph
