#include "federation/decoupled_gcn.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

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

std::vector<BorderMessage> BorderMessages(const PartyGraph& party, const Matrix& scaled) {
  // For each other party, its users adjacent to ours (sorted, distinct) and
  // the partial sums, accumulated in one pass over the border entries.
  std::map<int, std::map<std::uint32_t, Eigen::Index>> slot;  // party -> user -> row
  for (std::size_t e = 0; e < party.border_targets.size(); ++e) {
    slot[party.border_party[e]].emplace(party.border_targets[e], 0);
  }
  std::vector<BorderMessage> out;
  std::map<int, std::size_t> message_of;
  for (auto& [to, users] : slot) {
    BorderMessage m;
    m.from_party = party.party;
    m.to_party = to;
    Eigen::Index row = 0;
    for (auto& [user, index] : users) {
      index = row++;
      m.users.push_back(user);
    }
    m.rows = Matrix::Zero(row, scaled.cols());
    message_of[to] = out.size();
    out.push_back(std::move(m));
  }
  for (std::uint32_t u = 0; u < party.num_users(); ++u) {
    for (std::uint64_t e = party.border_offsets[u]; e < party.border_offsets[u + 1]; ++e) {
      const int to = party.border_party[e];
      out[message_of[to]].rows.row(slot[to][party.border_targets[e]]) += scaled.row(u);
    }
  }
  return out;
}

Result<Matrix> PropagateLayer(const PartyGraph& party, const Matrix& scaled,
                              const std::vector<BorderMessage>& received) {
  if (scaled.rows() != static_cast<Eigen::Index>(party.num_users())) {
    return Status::InvalidArgument("party " + std::to_string(party.party) + ": " + std::to_string(scaled.rows()) +
                                   " states for " + std::to_string(party.num_users()) + " users");
  }
  const Eigen::Index width = scaled.cols();
  Matrix out = scaled;  // the self-loops
  // (user, sending party) pairs received, to check against the border graph.
  std::set<std::pair<std::uint32_t, int>> heard;
  for (const BorderMessage& m : received) {
    if (m.to_party != party.party) continue;
    if (m.rows.cols() != width || m.rows.rows() != static_cast<Eigen::Index>(m.users.size())) {
      return Status::InvalidArgument("party " + std::to_string(m.from_party) + "'s message does not match the layer's width");
    }
    for (std::size_t k = 0; k < m.users.size(); ++k) {
      const auto at = std::lower_bound(party.users.begin(), party.users.end(), m.users[k]);
      if (at == party.users.end() || *at != m.users[k]) {
        return Status::InvalidArgument("party " + std::to_string(m.from_party) + " sent a sum for user " +
                                       std::to_string(m.users[k]) + ", who is not party " +
                                       std::to_string(party.party) + "'s");
      }
      out.row(at - party.users.begin()) += m.rows.row(static_cast<Eigen::Index>(k));
      heard.emplace(m.users[k], m.from_party);
    }
  }
  for (std::uint32_t v = 0; v < party.num_users(); ++v) {
    for (std::uint64_t e = party.border_offsets[v]; e < party.border_offsets[v + 1]; ++e) {
      if (!heard.count({party.users[v], party.border_party[e]})) {
        return Status::FailedPrecondition("party " + std::to_string(party.border_party[e]) +
                                          " sent no sum for user " + std::to_string(party.users[v]) +
                                          ", who has friends there");
      }
    }
    auto row = out.row(v);
    for (std::uint32_t u : party.internal.neighbours(v)) row += scaled.row(u);
    row *= static_cast<float>(1.0 / std::sqrt(1.0 + party.degree[v]));
  }
  return out;
}

Result<std::vector<Matrix>> DecoupledRound(const std::vector<PartyGraph>& parties, const std::vector<Matrix>& z,
                                           std::uint64_t* bytes_sent) {
  if (z.size() != parties.size()) return Status::InvalidArgument("one matrix per party is needed");
  std::vector<Matrix> scaled(parties.size());
  std::vector<BorderMessage> messages;
  for (std::size_t p = 0; p < parties.size(); ++p) {
    if (z[p].rows() != static_cast<Eigen::Index>(parties[p].num_users())) {
      return Status::InvalidArgument("party " + std::to_string(p) + "'s matrix does not have a row per user");
    }
    scaled[p] = ScaledStates(parties[p], z[p]);
    for (BorderMessage& m : BorderMessages(parties[p], scaled[p])) {
      if (bytes_sent != nullptr) {
        *bytes_sent += static_cast<std::uint64_t>(m.rows.size()) * sizeof(float) + m.users.size() * sizeof(std::uint32_t);
      }
      messages.push_back(std::move(m));
    }
  }
  std::vector<Matrix> out(parties.size());
  for (std::size_t p = 0; p < parties.size(); ++p) {
    Result<Matrix> next = PropagateLayer(parties[p], scaled[p], messages);
    if (!next.ok()) return next.status();
    out[p] = std::move(next).value();
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
    std::vector<Matrix> z(parties.size());
    for (std::size_t p = 0; p < parties.size(); ++p) {
      if (layer > 0) Activate(&h[p], selu);
      if (h[p].cols() != weights[layer]->rows()) {
        return Status::InvalidArgument("layer " + std::to_string(layer) + "'s input width does not match its weights");
      }
      z[p] = h[p] * *weights[layer];
    }
    Result<std::vector<Matrix>> next = DecoupledRound(parties, z, nullptr);
    if (!next.ok()) return next.status();
    h = std::move(next).value();
    for (Matrix& party_h : h) party_h.rowwise() += biases[layer]->row(0);
  }
  return h;
}

}  // namespace ldpgraph
