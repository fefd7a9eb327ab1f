// rounds_fleet: an app that reports for months. Its users' friend lists
// change between collection rounds; each round every phone asks the daemon
// which round is open, makes that round's memoised report through her budget
// ledger (a file in her app's storage, reopened each round as an app
// restarts) and uploads it over her own TLS connection. The admin then
// closes the round, which retrains the graph's model on it. Prints, per
// round, what changed, what was delivered, the model the round gave, and
// what the users' ledgers say their privacy loss is beside fresh noise's.
//
//   rounds_fleet --daemon https://127.0.0.1:8443 --ca ca.crt --admin-token-file admin-token
//                --dataset NODES_DIR --ledgers DIR [--rounds 3] [--graph-id 1]
//                [--epsilon 4] [--feature-epsilon 4] [--label-epsilon 4]
//                [--change-users 0.1] [--change-friends 0.1] [--epochs 100] [--clients 64] [--seed 1]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>

#include "dataset/graph_dataset.h"
#include "experiments/friend_churn.h"
#include "fleet.h"
#include "ldpgraph/budget_ledger.h"
#include "ldpgraph/report_builder.h"

using nlohmann::json;

namespace {

int Fail(const std::string& why) {
  std::fprintf(stderr, "rounds_fleet: %s\n", why.c_str());
  return 1;
}

// Every user's dense feature row (the SDK takes one per user).
std::vector<std::vector<double>> DenseFeatures(const ldpgraph::GraphDataset& ds) {
  const ldpgraph::SparseMatrix& x = ds.node_features;
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(x.rows), std::vector<double>(ds.feature_dims, 0.0));
  for (std::int64_t r = 0; r < x.rows; ++r) {
    for (std::int64_t k = x.offsets[r]; k < x.offsets[r + 1]; ++k) {
      rows[r][x.indices[k]] = x.unit_weights() ? 1.0 : x.values[k];
    }
  }
  return rows;
}

// Polls a job until it ends; its status.
ldpgraph::Result<json> WaitForJob(fleet::Admin& admin, std::uint64_t job) {
  for (;;) {
    auto status = admin.Call("GET", "/v1/admin/jobs/" + std::to_string(job), nullptr, 200);
    if (!status.ok()) return status.status();
    const std::string state = (*status)["state"];
    if (state == "succeeded" || state == "failed" || state == "cancelled") return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace

int main(int argc, char** argv) {
  auto flags = ldpgraph::Flags::Parse(
      {argv + 1, argv + argc},
      {"daemon", "ca", "admin-token-file", "dataset", "ledgers", "rounds", "graph-id", "epsilon", "feature-epsilon",
       "label-epsilon", "change-users", "change-friends", "epochs", "clients", "seed"});
  if (!flags.ok()) return Fail(flags.status().message());
  auto daemon = fleet::DaemonFromFlags(*flags);
  if (!daemon.ok()) return Fail(daemon.status().message());
  auto rounds = flags->Unsigned("rounds", 3);
  auto graph_id = flags->Unsigned("graph-id", 1);
  auto epsilon = flags->Double("epsilon", 4);
  auto feature_epsilon = flags->Double("feature-epsilon", 4);
  auto label_epsilon = flags->Double("label-epsilon", 4);
  auto change_users = flags->Double("change-users", 0.1);
  auto change_friends = flags->Double("change-friends", 0.1);
  auto epochs = flags->Unsigned("epochs", 100);
  auto clients = flags->Unsigned("clients", 64);
  auto seed = flags->Unsigned("seed", 1);
  for (const ldpgraph::Status* s : {&rounds.status(), &graph_id.status(), &epsilon.status(), &feature_epsilon.status(),
                                    &label_epsilon.status(), &change_users.status(), &change_friends.status(),
                                    &epochs.status(), &clients.status(), &seed.status()}) {
    if (!s->ok()) return Fail(s->message());
  }
  if (*rounds < 1 || *rounds > 100 || *clients < 1 || *clients > 4096) {
    return Fail("--rounds in [1, 100] and --clients in [1, 4096]");
  }
  const std::string ledgers = flags->StringOr("ledgers", "");
  if (ledgers.empty()) return Fail("--ledgers DIR (the phones' storage) is required");
  auto dataset = ldpgraph::ReadDataset(flags->StringOr("dataset", ""));
  if (!dataset.ok()) return Fail(dataset.status().ToString());
  const std::vector<int> labels(dataset->node_labels.begin(), dataset->node_labels.end());
  const int classes = labels.empty() ? 0 : *std::max_element(labels.begin(), labels.end()) + 1;
  if (dataset->graphs.size() != 1 || dataset->feature_dims == 0 || classes < 2) {
    return Fail("--dataset must be one node graph with features.csv and labels.csv");
  }
  const std::uint32_t n = dataset->graphs[0].num_nodes();
  ldpgraph::ChurnOptions churn_options;
  churn_options.user_fraction = *change_users;
  churn_options.friend_fraction = *change_friends;
  churn_options.seed = *seed;
  auto churn = ldpgraph::FriendChurn::Create(dataset->graphs[0], labels, churn_options);
  if (!churn.ok()) return Fail(churn.status().message());
  const std::vector<std::vector<double>> features = DenseFeatures(*dataset);

  // 1. The admin: a graph collected in rounds, retrained on each closed round.
  auto admin = fleet::Admin::Connect(*daemon);
  if (!admin.ok()) return Fail(admin.status().ToString());
  const std::string graph_path = "/v1/admin/graphs/" + std::to_string(*graph_id);
  const json policy = {
      {"graph_id", *graph_id},
      {"num_users", n},
      {"edges", {{"mechanism", "rr-degree"}, {"epsilon", *epsilon}, {"allocation", "fixed"}}},
      {"features", {{"dims", dataset->feature_dims}, {"epsilon", *feature_epsilon}}},
      {"label", {{"classes", classes}, {"epsilon", *label_epsilon}}},
      {"rounds",
       {{"retrain", {{"model", "gcn"}, {"denoise", "ours"}, {"label_method", "fc"}, {"epochs", *epochs}, {"seed", 1}}}}}};
  auto created = (*admin)->Call("POST", "/v1/admin/graphs", policy, 201);
  if (!created.ok()) return Fail(created.status().message());
  auto issued = (*admin)->Call("POST", graph_path + "/tokens", {{"first", 0}, {"count", n}}, 200);
  if (!issued.ok()) return Fail(issued.status().message());
  std::vector<std::string> tokens(n);
  for (const json& t : (*issued)["tokens"]) tokens[t["user_id"].get<std::uint32_t>()] = t["token"];
  std::printf("graph=%llu users=%u policy=%s\n", static_cast<unsigned long long>(*graph_id), n,
              (*created)["edges"].dump().c_str());

  std::vector<bool> ever_changed(n, false);
  for (std::uint64_t r = 1; r <= *rounds; ++r) {
    // 2. Friend lists change between rounds.
    const ldpgraph::ChurnStep step = r > 1 ? (*churn)->Step() : ldpgraph::ChurnStep{};
    for (std::uint32_t u : step.changed) ever_changed[u] = true;
    const ldpgraph::CsrGraph graph = (*churn)->Graph();

    // 3. Every phone: the open round, her ledger's memoised report, the upload.
    std::vector<ldpgraph::GraphLoss> loss(n);
    const fleet::Tally tally = fleet::RunDevices(
        *daemon, n, *clients, *seed + r,
        [&](std::size_t u, ldpgraph::RandomSource& rng, fleet::lt::Uploader& uploader)
            -> ldpgraph::Result<fleet::lt::SendOutcome> {
          std::uint32_t open = 0;
          auto config = uploader.FetchGraphConfig(*graph_id, &open);
          if (!config.ok()) return config.status();
          auto builder = ldpgraph::ReportBuilder::Create(*config);
          if (!builder.ok()) return builder.status();
          auto ledger = ldpgraph::BudgetLedger::Open(
              ldpgraph::FileLedgerStorage(ledgers + "/user-" + std::to_string(u) + ".ledger"), 100);
          if (!ledger.ok()) return ledger.status();
          ldpgraph::UserData data;
          data.user_id = static_cast<std::uint32_t>(u);
          data.neighbours = graph.neighbours(data.user_id);
          data.features = ldpgraph::Span<const double>(features[u].data(), features[u].size());
          data.has_label = labels[u] >= 0;
          data.label = data.has_label ? static_cast<std::uint32_t>(labels[u]) : 0;
          auto bytes = (*ledger)->ReportRound(**builder, data, open, rng);
          if (!bytes.ok()) return bytes.status();
          auto spent = (*ledger)->Loss(*graph_id);
          if (!spent.ok()) return spent.status();
          loss[u] = *spent;
          return uploader.Send(tokens[u], *bytes);
        });
    if (!tally.first_error.empty()) return Fail("round " + std::to_string(r) + ": " + tally.first_error);

    // 4. The admin closes the round: the daemon retrains on it.
    auto closed = (*admin)->Call("POST", graph_path + "/rounds", {{"close", r}}, 201);
    if (!closed.ok()) return Fail(closed.status().message());
    auto job = WaitForJob(**admin, (*closed)["retrain"]["job_id"].get<std::uint64_t>());
    if (!job.ok()) return Fail(job.status().message());
    if ((*job)["state"] != "succeeded") return Fail("round " + std::to_string(r) + "'s retraining: " + job->dump());

    double mean = 0, largest = 0, unchanged = 0, naive = 0;
    std::uint32_t unchanged_users = 0;
    for (std::uint32_t u = 0; u < n; ++u) {
      mean += loss[u].epsilon / n;
      largest = std::max(largest, loss[u].epsilon);
      naive = loss[u].naive_epsilon;
      if (!ever_changed[u]) {
        unchanged += loss[u].epsilon;
        ++unchanged_users;
      }
    }
    std::printf(
        "round=%llu lists_changed=%llu delivered=%zu refused=%zu seconds=%.1f model_version=%llu "
        "test_accuracy=%.3f loss_mean=%.2f loss_max=%.2f loss_never_changed=%.2f naive=%.2f\n",
        static_cast<unsigned long long>(r), static_cast<unsigned long long>(step.changed.size()), tally.delivered,
        tally.refused, tally.seconds, static_cast<unsigned long long>((*job)["model_version"].get<std::uint64_t>()),
        (*job)["test_accuracy"].get<double>(), mean, largest,
        unchanged_users ? unchanged / unchanged_users : 0.0, naive);
  }
  return 0;
}
