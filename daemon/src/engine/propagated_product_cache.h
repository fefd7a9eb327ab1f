// The propagated half of a factored first layer, P^k (S W), kept from one
// forward pass for the next that uses the same weights. A node trainer's
// validation pass after epoch t and its training pass of epoch t + 1 read
// the same W (dropout falls after the product), so the second need not
// make the k neighbour sums again: at 10^6 users, 4 of an epoch's 15 wide
// ones. Held by the caller of one training, never by a model: a model may
// serve several threads.
#ifndef LDPGRAPH_DAEMON_ENGINE_PROPAGATED_PRODUCT_CACHE_H_
#define LDPGRAPH_DAEMON_ENGINE_PROPAGATED_PRODUCT_CACHE_H_

#include <array>
#include <cstring>

#include "engine/factored_features.h"

namespace ldpgraph {

class PropagatedProductCache {
 public:
  // One remembered product: for which features (by identity) and weights
  // (by value, compared bit for bit), and what it came to.
  struct Entry {
    const FactoredFeatures* input = nullptr;
    Matrix weight;
    Matrix value;

    bool Holds(const FactoredFeatures& x, const Matrix& w) const {
      return input == &x && weight.rows() == w.rows() && weight.cols() == w.cols() &&
             std::memcmp(weight.data(), w.data(), sizeof(float) * static_cast<std::size_t>(w.size())) == 0;
    }
  };

  // A model's first layer has at most two products of its input
  // (GraphSAGE's root and neighbour weights).
  Entry& slot(int product) { return slots_[static_cast<std::size_t>(product)]; }

 private:
  std::array<Entry, 2> slots_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_PROPAGATED_PRODUCT_CACHE_H_
