// ldpgraph daemon <action>: the admin API of a running ldpgraphd from the
// command line, over TLS with the server certificate verified.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/admin_client.h"
#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "federation/partition.h"
#include "federation/share_split.h"
#include "gap/held_graph_dataset.h"
#include "gap/held_graph_json.h"
#include "ldpgraph/transport/https_client.h"
#include "train/task_data.h"
#include "util/flags.h"
#include "util/https_url.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

const char kDaemonUsage[] =
    "usage: ldpgraph daemon <action> --daemon https://HOST:PORT [--ca FILE] [--admin-token-file FILE]\n"
    "                                [--timeout SECONDS]\n"
    "  (the admin token is read from --admin-token-file or $LDPGRAPH_ADMIN_TOKEN; --timeout: how long\n"
    "  to wait for the daemon's answer, default 300)\n"
    "actions:\n"
    "  graphs                                  every graph with its report count\n"
    "  create-graph --config FILE              a graph from its JSON configuration\n"
    "  tokens --graph ID --count N [--first U]  device tokens of users U .. U+N-1, one \"user token\"\n"
    "                                          line each (at most 100000 a call)\n"
    "  label --graph ID --label K              the class of a whole graph\n"
    "  symmetrise --graph ID --rule none|or|and  how the graph's noisy rows are made undirected\n"
    "  rounds --graph ID                       the round state of a graph collected in rounds\n"
    "  close-round --graph ID [--round R]      closes the open round (only if it is still R) and opens the\n"
    "                                          next; names the retraining job it queued (docs/rounds.md)\n"
    "  train [--graphs ID,ID,...] [--epochs N] [--seed S] [--symmetrise none|or|and]\n"
    "        [--node-input constant|degree|size|degree+size] [--products float|bf16] [--wait]\n"
    "                                          graph classification on labelled graphs (with --wait:\n"
    "                                          progress, then its result)\n"
    "  train --graph ID [--model sage|gcn] [--label-method drop|fc|ce] [...]\n"
    "                                          node classification on one graph's noisy labels\n"
    "  hold --graph ID --dataset PATH          upload a node dataset (CSV folder) whole as held graph ID:\n"
    "                                          trusted to the server, for GAP (see docs/http-api.md)\n"
    "  hold --graph ID --dataset PATH --parties A,B,C --party B [--partition community|random]\n"
    "       [--partition-seed S]               only party B's share when the dataset is dealt among the\n"
    "                                          parties (FedCog: ldpgraph federation --help)\n"
    "  held-graphs | unhold --graph ID         the held graphs; delete one\n"
    "  train --held-graph ID --epsilon E [--privacy edge|node] [--delta D] [--hops K]\n"
    "        [--max-degree D] [--batch-size B] [--residual auto|on|off] [--epochs N] [--seed S] [--wait]\n"
    "        [--model gap|progap]              GAP (or ProGAP) on a held graph, released under edge- or\n"
    "                                          node-level DP\n"
    "  job --id N | cancel --id N              a job's state, or cancel it\n"
    "  models                                  every model version\n"
    "  predict --model V --graphs ID,ID,...    class and probabilities per graph\n"
    "  predict --model V --nodes U,U,...       the same per user, for a node model\n"
    "  gw --graph A --to B [--alpha 0.5]       GW-LDP: the (fused) GW discrepancy between two embedding\n"
    "                                          graphs, from their owners' LDP-encoded embeddings\n"
    "  nearest --graph ID [--k 5] [--alpha 0.5] [--among all|labelled]\n"
    "                                          the k embedding graphs closest to one, with their labels\n"
    "                                          and the k-NN vote\n"
    "  metrics                                 the daemon's Prometheus metrics\n";

int Usage(const std::string& why) {
  std::fprintf(stderr, "ldpgraph daemon: %s\n\n%s", why.c_str(), kDaemonUsage);
  return 2;
}

int Failure(const std::string& why) {
  std::fprintf(stderr, "ldpgraph daemon: %s\n", why.c_str());
  return 1;
}

Result<json> IdList(const std::string& text) {
  json ids = json::array();
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty() || item.find_first_not_of("0123456789") != std::string::npos || item.size() > 19) {
      return Status::InvalidArgument("'" + item + "' is not a graph id");
    }
    ids.push_back(std::stoull(item));
  }
  if (ids.empty()) return Status::InvalidArgument("an empty id list");
  return ids;
}

// `hold` with --parties: the share of party --party when the dataset is
// dealt among the parties (FedCog; the same flags give every party the
// same deal).
Result<HeldGraphParts> PartyShareOf(const HeldGraphParts& whole, const CsrGraph& graph, const Flags& flags) {
  Result<std::vector<std::string>> names = flags.StringList("parties", {});
  if (!names.ok()) return names.status();
  const std::string party = flags.StringOr("party", "");
  const auto at = std::find(names->begin(), names->end(), party);
  if (at == names->end()) return Status::InvalidArgument("--party must be one of --parties");
  Result<std::uint64_t> seed = flags.Unsigned("partition-seed", 0);
  if (!seed.ok()) return seed.status();
  Result<std::vector<int>> party_of =
      PartitionUsers(graph, flags.StringOr("partition", "community"), static_cast<int>(names->size()), *seed);
  if (!party_of.ok()) return party_of.status();
  Result<std::vector<HeldGraphParts>> shares = SplitIntoShares(whole, *party_of, *names);
  if (!shares.ok()) return shares.status();
  return (*shares)[static_cast<std::size_t>(at - names->begin())];
}

int WaitForJob(AdminClient& client, std::uint64_t id) {
  const bool tty = isatty(STDERR_FILENO);
  json status;
  for (;;) {
    if (!client.Call("GET", "/v1/admin/jobs/" + std::to_string(id), "", 200, &status)) return 1;
    const std::string state = status["state"];
    if (tty) {
      std::fprintf(stderr, "\rjob %llu: %s, graphs %s/%s, epoch %s/%s, val acc %.3f   ",
                   static_cast<unsigned long long>(id), state.c_str(), status["graphs_assembled"].dump().c_str(),
                   status["graphs"].dump().c_str(), status["epoch"].dump().c_str(), status["max_epochs"].dump().c_str(),
                   status["val_accuracy"].get<double>());
    }
    if (state == "succeeded" || state == "failed" || state == "cancelled") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (tty) std::fputc('\n', stderr);
  PrintKeyValues(status);
  return status["state"] == "succeeded" ? 0 : 1;
}

// Starts the job `body` describes; prints its id, or with `wait` follows it
// to its end (WaitForJob).
int StartJob(AdminClient& client, const json& body, bool wait) {
  json out;
  if (!client.Call("POST", "/v1/admin/jobs", body.dump(), 202, &out)) return 1;
  const std::uint64_t id = out["job_id"];
  if (!wait) {
    std::cout << "job_id=" << id << "\n";
    return 0;
  }
  return WaitForJob(client, id);
}

}  // namespace

int RunDaemonCommand(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help") return Usage("an action is needed");
  const std::string action = args[0];
  Result<Flags> flags = Flags::Parse({args.begin() + 1, args.end()},
                                     {"daemon", "ca", "admin-token-file", "timeout", "config", "graph", "label",
                                      "graphs", "epochs", "seed", "symmetrise", "id", "model", "nodes", "label-method",
                                      "rule", "node-input", "products", "dataset", "held-graph", "privacy", "epsilon",
                                      "delta", "hops", "max-degree", "batch-size", "residual", "parties", "party",
                                      "partition", "partition-seed", "to", "k", "alpha", "among", "first", "count", "round"},
                                     {"wait"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<AdminConnection> connection = ConnectToAdmin(*flags);
  if (!connection.ok()) {
    return connection.status().code() == StatusCode::kInvalidArgument ? Usage(connection.status().message())
                                                                       : Failure(connection.status().message());
  }
  json out;

  if (action == "metrics") {
    auto answer = connection->https->Request("GET", "/metrics", "", "", "");
    if (!answer.ok()) return Failure(answer.status().ToString());
    if (answer->status != 200) return Failure("GET /metrics: HTTP " + std::to_string(answer->status));
    std::cout << answer->body;
    return 0;
  }
  AdminClient client(std::move(connection).value(), "ldpgraph daemon");
  if (action == "graphs") {
    if (!client.Call("GET", "/v1/admin/graphs", "", 200, &out)) return 1;
    for (const json& g : out["graphs"]) {
      std::cout << "graph_id=" << g["graph_id"] << " num_users=" << g["num_users"] << " reports=" << g["reports"]
                << " symmetrise=" << g.value("symmetrise", "none")
                << " label=" << (g.contains("label") ? g["label"].dump() : "none") << "\n";
    }
    return 0;
  }
  if (action == "create-graph") {
    bool ok = false;
    const std::string config = ReadText(flags->StringOr("config", ""), &ok);
    if (!ok || config.empty()) return Usage("--config FILE (a graph's JSON configuration) is required");
    if (!client.Call("POST", "/v1/admin/graphs", config, 201, &out)) return 1;
    std::cout << "graph_id=" << out["graph_id"] << "\n";
    return 0;
  }
  if (action == "tokens") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    Result<std::uint64_t> first = flags->Unsigned("first", 0);
    Result<std::uint64_t> count = flags->Unsigned("count", 0);
    if (!flags->Has("graph") || !flags->Has("count") || !graph.ok() || !first.ok() || !count.ok()) {
      return Usage("--graph ID and --count N are required (--first U: the first user, default 0)");
    }
    if (!client.Call("POST", "/v1/admin/graphs/" + std::to_string(*graph) + "/tokens",
                     json{{"first", *first}, {"count", *count}}.dump(), 200, &out)) {
      return 1;
    }
    // One device's credentials a line, for a provisioning script.
    for (const json& t : out["tokens"]) std::cout << t["user_id"] << " " << t["token"].get<std::string>() << "\n";
    return 0;
  }
  if (action == "label") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    Result<std::uint64_t> label = flags->Unsigned("label", 0);
    if (!flags->Has("graph") || !flags->Has("label") || !graph.ok() || !label.ok()) {
      return Usage("--graph ID and --label K are required");
    }
    if (!client.Call("PUT", "/v1/admin/graphs/" + std::to_string(*graph) + "/label", json{{"label", *label}}.dump(), 200,
                     &out)) {
      return 1;
    }
    PrintKeyValues(out);
    return 0;
  }
  if (action == "symmetrise") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    if (!flags->Has("graph") || !graph.ok() || !flags->Has("rule")) return Usage("--graph ID and --rule none|or|and are required");
    if (!client.Call("PUT", "/v1/admin/graphs/" + std::to_string(*graph) + "/symmetrise",
                     json{{"rule", flags->StringOr("rule", "")}}.dump(), 200, &out)) {
      return 1;
    }
    PrintKeyValues(out);
    return 0;
  }
  if (action == "rounds" || action == "close-round") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    Result<std::uint64_t> round = flags->Unsigned("round", 0);
    if (!flags->Has("graph") || !graph.ok()) return Usage("--graph ID is required");
    if (!round.ok()) return Usage(round.status().message());
    if (action == "rounds" && flags->Has("round")) return Usage("--round is for close-round");
    const std::string path = "/v1/admin/graphs/" + std::to_string(*graph) + "/rounds";
    const bool close = action == "close-round";
    const json body = close && flags->Has("round") ? json{{"close", *round}} : json::object();
    if (!client.Call(close ? "POST" : "GET", path, close ? body.dump() : "", close ? 201 : 200, &out)) return 1;
    PrintKeyValues(out);
    return 0;
  }
  if (action == "gw" || action == "nearest") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    Result<std::uint64_t> to = flags->Unsigned("to", 0);
    Result<std::uint64_t> k = flags->Unsigned("k", 5);
    Result<double> alpha = flags->Double("alpha", 0.5);
    const bool pair = action == "gw";
    if (!flags->Has("graph") || !graph.ok() || (pair && (!flags->Has("to") || !to.ok()))) {
      return Usage(pair ? "--graph A and --to B are required" : "--graph ID is required");
    }
    if (!k.ok() || !alpha.ok()) return Usage(!k.ok() ? k.status().message() : alpha.status().message());
    const json body = pair ? json{{"a", *graph}, {"b", *to}, {"alpha", *alpha}}
                           : json{{"graph", *graph}, {"k", *k}, {"alpha", *alpha},
                                  {"among", flags->StringOr("among", "all")}};
    if (!client.Call("POST", pair ? "/v1/admin/gw" : "/v1/admin/gw/nearest", body.dump(), 200, &out)) return 1;
    if (pair) {
      PrintKeyValues(out);
      return 0;
    }
    std::cout << "graph=" << out["graph"] << "\ncompared=" << out["compared"] << "\n";
    for (const json& n : out["nearest"]) {
      std::cout << "neighbour=" << n["graph"] << " gw=" << n["gw"]
                << " label=" << (n.contains("label") ? n["label"].dump() : "none") << "\n";
    }
    if (out.contains("predicted_label")) std::cout << "predicted_label=" << out["predicted_label"] << "\n";
    return 0;
  }
  if (action == "hold") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    if (!flags->Has("graph") || !graph.ok() || !flags->Has("dataset")) {
      return Usage("--graph ID and --dataset PATH (a CSV node dataset) are required");
    }
    Result<GraphDataset> ds = ReadDataset(flags->StringOr("dataset", ""));
    if (!ds.ok()) return Failure(ds.status().message());
    Result<HeldGraphParts> parts = HeldGraphFromDataset(*ds);
    if (!parts.ok()) return Failure(parts.status().message());
    const CsrGraph& whole_graph = ds->graphs[0];
    if (flags->Has("parties")) {
      parts = PartyShareOf(*parts, whole_graph, *flags);
      if (!parts.ok()) return Usage(parts.status().message());
    }
    if (!client.Call("PUT", "/v1/admin/held-graphs/" + std::to_string(*graph), HeldGraphUploadJson(*parts), 201, &out)) {
      return 1;
    }
    PrintKeyValues(out);
    return 0;
  }
  if (action == "held-graphs") {
    if (!client.Call("GET", "/v1/admin/held-graphs", "", 200, &out)) return 1;
    for (const json& g : out["held_graphs"]) {
      std::cout << "graph_id=" << g["graph_id"] << " num_nodes=" << g.value("num_nodes", 0) << " edges="
                << g.value("edges", 0) << " labelled=" << g.value("labelled", 0) << "\n";
    }
    return 0;
  }
  if (action == "unhold") {
    Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
    if (!flags->Has("graph") || !graph.ok()) return Usage("--graph ID is required");
    if (!client.Call("DELETE", "/v1/admin/held-graphs/" + std::to_string(*graph), "", 200, &out)) return 1;
    PrintKeyValues(out);
    return 0;
  }
  if (action == "train" && flags->Has("held-graph")) {  // GAP
    Result<std::uint64_t> held = flags->Unsigned("held-graph", 0);
    if (!held.ok()) return Usage(held.status().message());
    json body = {{"task", "gap"}, {"held_graph", *held}, {"privacy", flags->StringOr("privacy", "edge")}};
    const std::string epsilon = flags->StringOr("epsilon", "");
    if (epsilon == "inf") {
      body["epsilon"] = "inf";
    } else {
      Result<double> e = flags->Double("epsilon", 0);
      if (!flags->Has("epsilon") || !e.ok()) return Usage("--epsilon E (a number, or inf) is required");
      body["epsilon"] = *e;
    }
    if (flags->Has("delta")) {
      Result<double> d = flags->Double("delta", 0);
      if (!d.ok()) return Usage(d.status().message());
      body["delta"] = *d;
    }
    for (const auto& [flag, key] : {std::pair<const char*, const char*>{"hops", "hops"}, {"max-degree", "max_degree"},
                                    {"batch-size", "batch_size"}, {"epochs", "epochs"}, {"seed", "seed"}}) {
      if (!flags->Has(flag)) continue;
      Result<std::uint64_t> v = flags->Unsigned(flag, 0);
      if (!v.ok()) return Usage(v.status().message());
      body[key] = *v;
    }
    if (flags->Has("residual")) body["residual"] = flags->StringOr("residual", "");
    if (flags->Has("model")) body["model"] = flags->StringOr("model", "");  // gap or progap: the daemon checks
    return StartJob(client, body, flags->Has("wait"));
  }
  if (action == "train") {
    json body = json::object();
    if (flags->Has("graph")) {  // node classification
      Result<std::uint64_t> graph = flags->Unsigned("graph", 0);
      if (!graph.ok()) return Usage(graph.status().message());
      body["task"] = "node";
      body["graph"] = *graph;
      body["model"] = flags->StringOr("model", "sage");
      body["label_method"] = flags->StringOr("label-method", "drop");
    } else if (flags->Has("model") || flags->Has("label-method")) {
      return Usage("--model and --label-method are for node jobs (--graph ID)");
    }
    if (flags->Has("graphs")) {
      Result<json> ids = IdList(flags->StringOr("graphs", ""));
      if (!ids.ok()) return Usage(ids.status().message());
      body["graphs"] = *ids;
    }
    for (const char* key : {"epochs", "seed"}) {
      if (!flags->Has(key)) continue;
      Result<std::uint64_t> v = flags->Unsigned(key, 0);
      if (!v.ok()) return Usage(v.status().message());
      body[key] = *v;
    }
    if (flags->Has("symmetrise")) body["symmetrise"] = flags->StringOr("symmetrise", "");
    if (flags->Has("node-input")) body["node_input"] = flags->StringOr("node-input", "");
    if (flags->Has("products")) body["products"] = flags->StringOr("products", "");
    return StartJob(client, body, flags->Has("wait"));
  }
  if (action == "job" || action == "cancel") {
    Result<std::uint64_t> id = flags->Unsigned("id", 0);
    if (!flags->Has("id") || !id.ok()) return Usage("--id N is required");
    const std::string path = "/v1/admin/jobs/" + std::to_string(*id);
    if (!client.Call(action == "job" ? "GET" : "DELETE", path, "", action == "job" ? 200 : 202, &out)) return 1;
    PrintKeyValues(out);
    return 0;
  }
  if (action == "models") {
    if (!client.Call("GET", "/v1/admin/models", "", 200, &out)) return 1;
    for (const json& m : out["models"]) {
      std::cout << "version=" << m["version"] << " task=" << m.value("task", "?") << " model=" << m.value("model", "?")
                << " test_accuracy=" << m.value("test_accuracy", 0.0);
      if (m.contains("held_graph")) {  // GAP: what it guarantees
        std::cout << " held_graph=" << m["held_graph"] << " privacy=" << m.value("privacy", "?")
                  << " epsilon=" << (m["epsilon"].is_string() ? m["epsilon"].get<std::string>() : m["epsilon"].dump())
                  << " delta=" << m.value("delta", 0.0);
      } else {
        std::cout << " graphs=" << m.value("graphs", json::array()).size();
      }
      std::cout << "\n";
    }
    return 0;
  }
  if (action == "predict") {
    Result<std::uint64_t> model = flags->Unsigned("model", 0);
    const char* what = flags->Has("nodes") ? "nodes" : "graphs";
    Result<json> ids = IdList(flags->StringOr(what, ""));
    if (!flags->Has("model") || !model.ok() || !ids.ok()) {
      return Usage("--model V and --graphs ID,ID,... (or --nodes U,U,... for a node model) are required");
    }
    if (!client.Call("POST", "/v1/admin/models/" + std::to_string(*model) + "/predict", json{{what, *ids}}.dump(), 200,
                     &out)) {
      return 1;
    }
    for (const json& p : out["predictions"]) {
      std::cout << (p.contains("node") ? "node=" + p["node"].dump() : "graph_id=" + p["graph_id"].dump())
                << " class=" << p["class"] << " probabilities=" << p["probabilities"] << "\n";
    }
    return 0;
  }
  return Usage("unknown action '" + action + "'");
}

const char* DaemonUsage() { return kDaemonUsage; }

}  // namespace ldpgraph
