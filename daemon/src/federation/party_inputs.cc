#include "federation/party_inputs.h"

namespace ldpgraph {

PartyInputs MakePartyInputs(const std::vector<PartyGraph>& parties, const Matrix& features,
                            const std::vector<int>& labels, const Split& roles) {
  enum Role : char { kNone, kTrain, kVal, kTest };
  std::vector<char> role(labels.size(), kNone);
  for (std::uint32_t u : roles.train) role[u] = kTrain;
  for (std::uint32_t u : roles.val) role[u] = kVal;
  for (std::uint32_t u : roles.test) role[u] = kTest;
  PartyInputs out;
  out.tasks.resize(parties.size());
  for (std::size_t p = 0; p < parties.size(); ++p) {
    const PartyGraph& party = parties[p];
    PartyTask& task = out.tasks[p];
    Matrix rows(static_cast<Eigen::Index>(party.num_users()), features.cols());
    for (std::uint32_t v = 0; v < party.num_users(); ++v) {
      const std::uint32_t u = party.users[v];
      rows.row(v) = features.row(u);
      task.labels.push_back(labels[u]);
      if (role[u] == kTrain) task.train.push_back(v);
      if (role[u] == kVal) task.val.push_back(v);
      if (role[u] == kTest) task.test.push_back(v);
    }
    out.features.push_back(std::move(rows));
  }
  return out;
}

}  // namespace ldpgraph
