// ldpgraph federation <action>: FedCog runs among ldpgraphd parties
// (docs/federation.md), through the admin API of the daemon that
// coordinates them, and a throwaway PKI to try a federation out.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <thread>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cli/admin_client.h"
#include "cli/commands.h"
#include "gap/held_graph.h"
#include "testbed/test_pki.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

const char kFederationUsage[] =
    "usage: ldpgraph federation <action> --daemon https://HOST:PORT [--ca FILE] [--admin-token-file FILE]\n"
    "                                    [--timeout SECONDS]\n"
    "  (the daemon is the party that coordinates; the admin token is read from --admin-token-file or\n"
    "   $LDPGRAPH_ADMIN_TOKEN; --timeout: how long to wait for the daemon's answer, default 300)\n"
    "actions:\n"
    "  start --held-graph ID [--steps 2] [--epochs 200] [--lr 0.2] [--weight-decay 5e-4] [--seed 0]\n"
    "        [--train-fraction 0.5] [--val-fraction 0.25] [--lnnc] [--wait]\n"
    "                              train FedCog-SGC on the shares every party holds as held graph ID\n"
    "                              (ldpgraph daemon hold ... --parties); with --wait: progress, then the result\n"
    "  status --run ID | runs      a run's state (phase, round, accuracy, bytes per party), or every run's\n"
    "  cancel --run ID             stop a run in flight (no party keeps its model)\n"
    "  models                      the federated models this party holds\n"
    "  model --run ID              one of them\n"
    "  predict --run ID --keys K,K,...   class and probabilities of this party's users, by key\n"
    "  pki --dir DIR --parties A,B,C     a throwaway CA and one certificate per party, to try a federation\n"
    "                              on one machine (not for production: use your own CA)\n";

int Usage(const std::string& why) {
  std::fprintf(stderr, "ldpgraph federation: %s\n\n%s", why.c_str(), kFederationUsage);
  return 2;
}

int Failure(const std::string& why) {
  std::fprintf(stderr, "ldpgraph federation: %s\n", why.c_str());
  return 1;
}

void PrintRun(const json& s) {
  for (const auto& [key, value] : s.items()) {
    if (key == "party_traffic") continue;
    std::cout << key << "=" << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  }
  for (const json& p : s.value("party_traffic", json::array())) {
    std::cout << "party=" << p.value("name", "") << " users=" << p.value("users", 0)
              << " bytes_sent=" << p.value("bytes_sent", 0) << " bytes_received=" << p.value("bytes_received", 0)
              << " propagation_bytes_sent=" << p.value("propagation_bytes_sent", 0) << "\n";
  }
}

int WaitForRun(AdminClient& client, std::uint64_t run) {
  const bool tty = isatty(STDERR_FILENO);
  json status;
  for (;;) {
    if (!client.Call("GET", "/v1/admin/federation/runs/" + std::to_string(run), "", 200, &status)) return 1;
    const std::string state = status.value("state", "");
    if (tty) {
      std::fprintf(stderr, "\r%-12s step %d/%d  round %d/%d  val %.3f  recoveries %d   ",
                   status.value("phase", "").c_str(), status.value("step", 0), status.value("steps", 0),
                   status.value("round", 0), status.value("rounds", 0), status.value("last_val_accuracy", 0.0),
                   status.value("recoveries", 0));
    }
    if (state != "running") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  if (tty) std::fprintf(stderr, "\n");
  PrintRun(status);
  return status["state"] == "succeeded" ? 0 : 1;
}

int WritePki(const Flags& flags) {
  Result<std::vector<std::string>> parties = flags.StringList("parties", {});
  if (!flags.Has("dir") || !parties.ok() || parties->empty()) return Usage("pki needs --dir DIR and --parties A,B,...");
  for (const std::string& p : *parties) {
    if (!ValidPartyName(p)) return Usage("party name \"" + p + "\" is not 1-64 of [a-z0-9_-]");
  }
  Result<FederationPkiFiles> files = WriteTestFederationPki(flags.StringOr("dir", ""), *parties);
  if (!files.ok()) return Failure(files.status().message());
  std::cout << "ca=" << files->ca_certificate << "\n";
  for (std::size_t i = 0; i < parties->size(); ++i) {
    std::cout << "party=" << (*parties)[i] << " certificate=" << files->certificates[i] << " key=" << files->keys[i]
              << "\n";
  }
  return 0;
}

}  // namespace

int RunFederationCommand(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help") return Usage("an action is needed");
  const std::string action = args[0];
  Result<Flags> flags = Flags::Parse({args.begin() + 1, args.end()},
                                     {"daemon", "ca", "admin-token-file", "timeout", "held-graph", "steps", "epochs",
                                      "lr", "weight-decay", "seed", "train-fraction", "val-fraction", "run", "keys",
                                      "dir", "parties"},
                                     {"wait", "lnnc"});
  if (!flags.ok()) return Usage(flags.status().message());
  if (action == "pki") return WritePki(*flags);
  Result<AdminConnection> connection = ConnectToAdmin(*flags);
  if (!connection.ok()) {
    return connection.status().code() == StatusCode::kInvalidArgument ? Usage(connection.status().message())
                                                                       : Failure(connection.status().message());
  }
  AdminClient client(std::move(connection).value(), "ldpgraph federation");
  json out;
  auto run_id = [&](std::uint64_t* id) {
    Result<std::uint64_t> r = flags->Unsigned("run", 0);
    if (!flags->Has("run") || !r.ok()) return false;
    *id = *r;
    return true;
  };

  if (action == "start") {
    Result<std::uint64_t> held = flags->Unsigned("held-graph", 0);
    if (!flags->Has("held-graph") || !held.ok()) return Usage("--held-graph ID is required");
    json body = {{"held_graph", *held}, {"lnnc", flags->Has("lnnc")}};
    for (const auto& [flag, key] : {std::pair<const char*, const char*>{"steps", "steps"}, {"epochs", "epochs"}, {"seed", "seed"}}) {
      if (!flags->Has(flag)) continue;
      Result<std::uint64_t> v = flags->Unsigned(flag, 0);
      if (!v.ok()) return Usage(v.status().message());
      body[key] = *v;
    }
    for (const auto& [flag, key] : {std::pair<const char*, const char*>{"lr", "lr"},
                                    {"weight-decay", "weight_decay"},
                                    {"train-fraction", "train_fraction"},
                                    {"val-fraction", "val_fraction"}}) {
      if (!flags->Has(flag)) continue;
      Result<double> v = flags->Double(flag, 0);
      if (!v.ok()) return Usage(v.status().message());
      body[key] = *v;
    }
    if (!client.Call("POST", "/v1/admin/federation/runs", body.dump(), 202, &out)) return 1;
    const std::uint64_t run = out["run"];
    if (!flags->Has("wait")) {
      std::cout << "run=" << run << "\n";
      return 0;
    }
    return WaitForRun(client, run);
  }
  if (action == "status") {
    std::uint64_t run = 0;
    if (!run_id(&run)) return Usage("--run ID is required");
    if (flags->Has("wait")) return WaitForRun(client, run);
    if (!client.Call("GET", "/v1/admin/federation/runs/" + std::to_string(run), "", 200, &out)) return 1;
    PrintRun(out);
    return 0;
  }
  if (action == "runs") {
    if (!client.Call("GET", "/v1/admin/federation/runs", "", 200, &out)) return 1;
    for (const json& r : out["runs"]) {
      std::cout << "run=" << r.value("run", 0ull) << " state=" << r.value("state", "") << " held_graph="
                << r.value("held_graph", 0ull) << " parties=" << r.value("parties", json::array()).size()
                << " test_accuracy=" << r.value("test_accuracy", 0.0) << "\n";
    }
    return 0;
  }
  if (action == "cancel") {
    std::uint64_t run = 0;
    if (!run_id(&run)) return Usage("--run ID is required");
    if (!client.Call("DELETE", "/v1/admin/federation/runs/" + std::to_string(run), "", 202, &out)) return 1;
    PrintKeyValues(out);
    return 0;
  }
  if (action == "models") {
    if (!client.Call("GET", "/v1/admin/federation/models", "", 200, &out)) return 1;
    for (const json& m : out["models"]) {
      std::cout << "run=" << m.value("run", "") << " party=" << m.value("party", "") << " users=" << m.value("users", 0)
                << " best_round=" << m.value("best_round", 0) << " test_accuracy=" << m.value("test_accuracy", 0.0)
                << "\n";
    }
    return 0;
  }
  if (action == "model") {
    std::uint64_t run = 0;
    if (!run_id(&run)) return Usage("--run ID is required");
    if (!client.Call("GET", "/v1/admin/federation/models/" + std::to_string(run), "", 200, &out)) return 1;
    PrintKeyValues(out);
    return 0;
  }
  if (action == "predict") {
    std::uint64_t run = 0;
    Result<std::vector<double>> keys = flags->DoubleList("keys", {});
    if (!run_id(&run) || !keys.ok() || keys->empty()) return Usage("--run ID and --keys K,K,... are required");
    json list = json::array();
    for (double k : *keys) {
      if (k < 0 || k != static_cast<double>(static_cast<std::uint64_t>(k))) return Usage("keys are unsigned integers");
      list.push_back(static_cast<std::uint64_t>(k));
    }
    if (!client.Call("POST", "/v1/admin/federation/models/" + std::to_string(run) + "/predict",
                     json{{"keys", list}}.dump(), 200, &out)) {
      return 1;
    }
    for (const json& p : out["predictions"]) {
      std::cout << "key=" << p["key"] << " class=" << p["class"] << " probabilities=" << p["probabilities"].dump()
                << "\n";
    }
    return 0;
  }
  return Usage("unknown action '" + action + "'");
}

const char* FederationUsage() { return kFederationUsage; }

}  // namespace ldpgraph
