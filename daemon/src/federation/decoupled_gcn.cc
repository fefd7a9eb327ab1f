#include "federation/decoupled_gcn.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <unordered_map>

namespace ldpgraph {
namespace {

// The activation between layers, as the tape computes it.
void Activate(Matrix* h, bool selu) {
  constexpr float kScale = 1.0507009873554805f, kAlpha = 1.6732632423543772f;
  for (Eigen::Index i = 0; i < h->size(); ++i) {
    float& v = h->data()[i];
    if (selu) {
      v = v > 0.0f ? kScale * v : kScale * kAlpha * (std::exp(v) - 1.0f);
    } else {
      v = std::max(v, 0.0f);
    }
  }
}

}  // namespace

Matrix ScaledStates(const PartyGraph& party, const Matrix& z) {
  Matrix s = z;
  for (std::uint32_t v = 0; v < party.num_users(); ++v) {
    s.row(v) *= static_cast<float>(1.0 / std::sqrt(1.0 + party.degree[v]));
  }
  return s;
}

BorderMessage BorderStates(const PartyGraph& party, const Matrix& scaled) {
  BorderMessage m;
  m.from_party = party.party;
  m.rows.resize(static_cast<Eigen::Index>(party.border_users.size()), scaled.cols());
  for (std::size_t k = 0; k < party.border_users.size(); ++k) {
    const std::uint32_t v = party.border_users[k];
    m.users.push_back(party.users[v]);
    m.rows.row(static_cast<Eigen::Index>(k)) = scaled.row(v);
  }
  return m;
}

Result<Matrix> PropagateLayer(const PartyGraph& party, const Matrix& scaled,
                              const std::vector<BorderMessage>& received) {
  if (scaled.rows() != static_cast<Eigen::Index>(party.num_users())) {
    return Status::InvalidArgument("party " + std::to_string(party.party) + ": " + std::to_string(scaled.rows()) +
                                   " states for " + std::to_string(party.num_users()) + " users");
  }
  std::unordered_map<std::uint32_t, const float*> across;
  for (const BorderMessage& m : received) {
    if (m.from_party == party.party) continue;
    if (m.rows.cols() != scaled.cols() || m.rows.rows() != static_cast<Eigen::Index>(m.users.size())) {
      return Status::InvalidArgument("party " + std::to_string(m.from_party) + "'s message does not match the layer's width");
    }
    // Row-major rows: a pointer to each user's row.
    for (std::size_t k = 0; k < m.users.size(); ++k) across[m.users[k]] = m.rows.row(static_cast<Eigen::Index>(k)).data();
  }
  const Eigen::Index width = scaled.cols();
  Matrix out(scaled.rows(), width);
  for (std::uint32_t v = 0; v < party.num_users(); ++v) {
    auto row = out.row(v);
    row = scaled.row(v);  // the self-loop
    for (std::uint32_t u : party.internal.neighbours(v)) row += scaled.row(u);
    for (std::uint64_t e = party.border_offsets[v]; e < party.border_offsets[v + 1]; ++e) {
      const std::uint32_t u = party.border_targets[e];
      auto found = across.find(u);
      if (found == across.end()) {
        return Status::FailedPrecondition("party " + std::to_string(party.party) + " has no state for user " +
                                          std::to_string(u) + ", a friend of its user " +
                                          std::to_string(party.users[v]));
      }
      row += Eigen::Map<const Eigen::Matrix<float, 1, Eigen::Dynamic>>(found->second, width);
    }
    row *= static_cast<float>(1.0 / std::sqrt(1.0 + party.degree[v]));
  }
  return out;
}

Result<std::vector<Matrix>> DecoupledGcnForward(const std::vector<PartyGraph>& parties,
                                                const std::vector<Matrix>& features,
                                                const std::vector<const Matrix*>& weights,
                                                const std::vector<const Matrix*>& biases, bool selu) {
  if (features.size() != parties.size()) return Status::InvalidArgument("one feature matrix per party is needed");
  if (weights.empty() || weights.size() != biases.size()) {
    return Status::InvalidArgument("one weight and one bias per layer are needed");
  }
  std::vector<Matrix> h = features;
  for (std::size_t layer = 0; layer < weights.size(); ++layer) {
    std::vector<Matrix> scaled(parties.size());
    std::vector<BorderMessage> messages;
    for (std::size_t p = 0; p < parties.size(); ++p) {
      if (layer > 0) Activate(&h[p], selu);
      if (h[p].cols() != weights[layer]->rows()) {
        return Status::InvalidArgument("layer " + std::to_string(layer) + "'s input width does not match its weights");
      }
      scaled[p] = ScaledStates(parties[p], h[p] * *weights[layer]);
      messages.push_back(BorderStates(parties[p], scaled[p]));
    }
    for (std::size_t p = 0; p < parties.size(); ++p) {
      Result<Matrix> next = PropagateLayer(parties[p], scaled[p], messages);
      if (!next.ok()) return next.status();
      h[p] = std::move(next).value();
      h[p].rowwise() += biases[layer]->row(0);
    }
  }
  return h;
}

}  // namespace ldpgraph
