// MakeEdgeRandomizer (edge_randomizers.h): the factory over every mechanism.
#include "ldpgraph/dprr.h"
#include "ldpgraph/edge_randomizers.h"
#include "ldpgraph/local_lap.h"
#include "ldpgraph/non_private.h"
#include "ldpgraph/randomized_response.h"
#include "ldpgraph/rr_with_degree.h"

namespace ldpgraph {

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
