// The non-private user of the customized setting: epsilon = infinity, her
// true list is sent as it is (sorted). She chose this; the ledger counts it
// as an infinite spend.
#ifndef LDPGRAPH_NON_PRIVATE_H_
#define LDPGRAPH_NON_PRIVATE_H_

#include "ldpgraph/edge_mechanism.h"

namespace ldpgraph {

class NonPrivateEdges final : public EdgeRandomizer {
 public:
  // Errors: kInvalidArgument for n < 2.
  static Result<NonPrivateEdges> Create(std::uint32_t n);
  NonPrivateEdges() = default;  // only for Result<>; use Create()

  Status Perturb(std::uint32_t user, Span<const std::uint32_t> neighbours, RandomSource& rng,
                 NoisyEdges* out) const override;
  Status PerturbMemoised(std::uint32_t user, Span<const std::uint32_t> neighbours, const PermanentCoins& coins,
                         NoisyEdges* out) const;  // see ldpgraph::PerturbMemoised
  EdgeMechanism mechanism() const override { return EdgeMechanism::kNone; }
  std::uint32_t num_users() const override { return n_; }

 private:
  // Sets the fields every report of this mechanism carries alike.
  void Describe(NoisyEdges* out) const;
  std::uint32_t n_ = 2;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_NON_PRIVATE_H_
