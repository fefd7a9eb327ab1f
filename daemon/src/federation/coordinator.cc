#include "federation/coordinator.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include <nlohmann/json.hpp>

#include "federation/federation_wire.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/transport/https_client.h"
#include "net/base64url.h"
#include "train/graph_trainer.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr std::size_t kMaxRunning = 4;
constexpr const char* kBinary = "application/octet-stream";

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// One party as the coordinator reaches it, and what crossed the link.
struct PartyLink {
  std::string name;
  std::unique_ptr<transport::HttpsClient> client;
  std::uint64_t bytes_sent = 0;              // the party's answers
  std::uint64_t bytes_received = 0;          // the coordinator's requests to it
  std::uint64_t propagation_bytes_sent = 0;  // its partial sums, every step
  json opened;                               // its answer to open

  // A transient failure is kUnavailable: no connection, 503, or unknown_run
  // (the party restarted and lost the run). Anything else will not get
  // better by retrying.
  Result<std::string> Call(const std::string& method, const std::string& path, const char* type,
                           const std::string& body) {
    Result<transport::HttpAnswer> answer = client->Request(method, path, body.empty() ? "" : type, body, "");
    if (!answer.ok()) {
      const std::string message = "party " + name + ": " + answer.status().message();
      if (answer.status().code() == StatusCode::kUnavailable) return Status::Unavailable(message);
      return Status::FailedPrecondition(message);
    }
    bytes_received += body.size();
    bytes_sent += answer->body.size();
    if (answer->status == 200) return std::move(answer->body);
    const json error = json::parse(answer->body, nullptr, false);
    const std::string reason = error.is_object() ? error.value("error", "") : "";
    const std::string message = "party " + name + " answered " + method + " " + path.substr(path.rfind('/') + 1) +
                                " with HTTP " + std::to_string(answer->status) + ": " +
                                (error.is_object() ? error.value("message", answer->body) : answer->body);
    if (answer->status == 503 || (answer->status == 404 && reason == "unknown_run")) {
      return Status::Unavailable(message);
    }
    return Status::FailedPrecondition(message);
  }
};

}  // namespace

struct Coordinator::RunState {
  std::uint64_t id = 0;
  FedCogRunRequest request;
  std::vector<std::string> parties;  // by name: the order every party is told
  std::thread thread;
  std::atomic<bool> stop{false};
  std::atomic<bool> done{false};
  std::string stop_reason;  // set before stop
  mutable std::mutex mu;
  json status;  // guarded by mu
};

Coordinator::Coordinator(const FederationConfig& config, std::uint16_t self_port,
                         std::unique_ptr<DocumentStore> runs, std::string instance, Logger* logger)
    : config_(config),
      self_port_(self_port),
      stored_(std::move(runs)),
      instance_(std::move(instance)),
      logger_(logger) {}

Result<std::unique_ptr<Coordinator>> Coordinator::Create(const FederationConfig& config, std::uint16_t self_port,
                                                         std::unique_ptr<DocumentStore> runs, std::string instance,
                                                         Logger* logger) {
  Result<std::map<std::uint64_t, std::string>> stored = runs->List();
  if (!stored.ok()) return stored.status();
  std::unique_ptr<Coordinator> c(new Coordinator(config, self_port, std::move(runs), std::move(instance), logger));
  for (auto& [id, text] : *stored) {
    json status = json::parse(text, nullptr, false);
    if (!status.is_object() || status.value("state", "") != "running") continue;
    // This daemon died during the run (a run of a daemon sharing the store
    // is that daemon's to report; older statuses name no instance: ours).
    if (status.value("instance", c->instance_) != c->instance_) continue;
    status["state"] = "failed";
    status["error"] = "the coordinator stopped during the run";
    (void)c->stored_->SetSummary(id, status.dump());
  }
  return c;
}

Coordinator::~Coordinator() {
  std::vector<std::shared_ptr<RunState>> runs;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, run] : runs_) runs.push_back(run);
  }
  for (auto& run : runs) {
    if (!run->done) {
      {
        std::lock_guard<std::mutex> lock(run->mu);
        run->stop_reason = "the coordinator stopped";
      }
      run->stop = true;
    }
    if (run->thread.joinable()) run->thread.join();
  }
}

Result<std::uint64_t> Coordinator::Start(const FedCogRunRequest& r) {
  if (r.steps < 0 || r.steps > 64) return Status::InvalidArgument("steps must be in [0, 64]");
  if (r.training.max_epochs < 1 || r.training.max_epochs > 100000) {
    return Status::InvalidArgument("epochs must be in [1, 100000]");
  }
  LDPGRAPH_RETURN_IF_ERROR(CheckLearningRate(r.training.lr));
  LDPGRAPH_RETURN_IF_ERROR(CheckWeightDecay(r.training.weight_decay));
  if (!(r.train_fraction > 0 && r.train_fraction <= 1) || !(r.val_fraction >= 0) ||
      !(r.train_fraction + r.val_fraction <= 1)) {
    return Status::InvalidArgument("train_fraction must be in (0, 1] and train_fraction + val_fraction <= 1");
  }
  auto run = std::make_shared<RunState>();
  run->request = r;
  run->parties.push_back(config_.party);
  for (const FederationPeer& p : config_.peers) run->parties.push_back(p.name);
  std::sort(run->parties.begin(), run->parties.end());
  auto rng = OsRandomSource::Create();
  if (!rng.ok()) return rng.status();
  const std::uint64_t id = (*rng)->NextU64();
  run->id = (id & ((1ull << 53) - 1)) | 1;  // exact in any JSON reader, never 0
  run->status = {{"run", run->id},
                 {"state", "running"},
                 {"phase", "opening"},
                 {"coordinator", config_.party},
                 {"instance", instance_},
                 {"parties", run->parties},
                 {"held_graph", r.held_graph},
                 {"steps", r.steps},
                 {"rounds", r.training.max_epochs},
                 {"lr", r.training.lr},
                 {"weight_decay", r.training.weight_decay},
                 {"seed", r.training.seed},
                 {"train_fraction", r.train_fraction},
                 {"val_fraction", r.val_fraction},
                 {"lnnc", r.lnnc},
                 {"round", 0},
                 {"step", 0},
                 {"recoveries", 0}};
  {
    std::lock_guard<std::mutex> lock(mu_);
    std::size_t running = 0;
    for (auto& [other, state] : runs_) running += !state->done;
    if (running >= kMaxRunning) {
      return Status::ResourceExhausted(std::to_string(running) + " runs are in flight; wait for one to end");
    }
    runs_[run->id] = run;
  }
  {
    std::string text;
    {
      std::lock_guard<std::mutex> run_lock(run->mu);
      text = run->status.dump();
    }
    Status recorded = stored_->AddAt(run->id, {}, text);
    if (!recorded.ok()) {
      std::lock_guard<std::mutex> lock(mu_);
      runs_.erase(run->id);
      return recorded;
    }
  }
  run->thread = std::thread([this, run] { Execute(run); });
  logger_->Info("federation_run_started", {{"run", std::to_string(run->id)},
                                           {"parties", std::to_string(run->parties.size())},
                                           {"held_graph", std::to_string(r.held_graph)}});
  return run->id;
}

Result<std::optional<std::string>> Coordinator::RunStatus(std::uint64_t id) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = runs_.find(id);
    if (it != runs_.end()) {  // this daemon's: the freshest
      std::lock_guard<std::mutex> run_lock(it->second->mu);
      return std::optional<std::string>(it->second->status.dump());
    }
  }
  Result<std::string> stored = stored_->Summary(id);
  if (stored.status().code() == StatusCode::kFailedPrecondition) return std::optional<std::string>();
  if (!stored.ok()) return stored.status();
  return std::optional<std::string>(std::move(stored).value());
}

Result<std::map<std::uint64_t, std::string>> Coordinator::Runs() const {
  Result<std::map<std::uint64_t, std::string>> out = stored_->List();
  if (!out.ok()) return out.status();
  std::lock_guard<std::mutex> lock(mu_);
  for (auto& [id, run] : runs_) {
    std::lock_guard<std::mutex> run_lock(run->mu);
    (*out)[id] = run->status.dump();
  }
  return out;
}

Status Coordinator::Cancel(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = runs_.find(id);
  if (it == runs_.end() || it->second->done) {
    return Status::FailedPrecondition("run " + std::to_string(id) + " is not in flight");
  }
  {
    std::lock_guard<std::mutex> run_lock(it->second->mu);
    it->second->stop_reason = "cancelled";
  }
  it->second->stop = true;
  return Status::Ok();
}

void Coordinator::Persist(RunState& run) {
  std::string text;
  {
    std::lock_guard<std::mutex> lock(run.mu);
    text = run.status.dump();
  }
  Status written = stored_->SetSummary(run.id, text);
  if (!written.ok()) logger_->Warning("federation_run_not_persisted", {{"error", written.message()}});
}

void Coordinator::Execute(std::shared_ptr<RunState> run) {
  const Clock::time_point started = Clock::now();
  const FedCogRunRequest& r = run->request;
  const std::string base = "/v1/federation/runs/" + std::to_string(run->id);
  auto update = [&](auto&& change) {
    std::lock_guard<std::mutex> lock(run->mu);
    change(run->status);
    run->status["seconds"] = Seconds(started);
  };
  std::vector<PartyLink> links;
  auto party_summaries = [&] {
    json list = json::array();
    for (const PartyLink& l : links) {
      json p = {{"name", l.name},
                {"bytes_sent", l.bytes_sent},
                {"bytes_received", l.bytes_received},
                {"propagation_bytes_sent", l.propagation_bytes_sent}};
      for (const char* key : {"users", "train", "val", "test", "lnnc_edges"}) {
        if (l.opened.contains(key)) p[key] = l.opened[key];
      }
      list.push_back(p);
    }
    return list;
  };
  std::string phase_now = "opening";  // restored after a recovery's propagation
  auto set_phase = [&](const char* phase) {
    if (std::string(phase) != "propagating") phase_now = phase;
    update([&](json& s) {
      s["phase"] = phase;
      s["party_traffic"] = party_summaries();
    });
    Persist(*run);
  };

  Status result = [&]() -> Status {
    for (const std::string& name : run->parties) {
      transport::ServerEndpoint e;
      if (name == config_.party) {
        const bool any = config_.listen_address == "0.0.0.0" || config_.listen_address == "::";
        e.host = any ? "127.0.0.1" : config_.listen_address;
        e.port = self_port_;
      } else {
        for (const FederationPeer& p : config_.peers) {
          if (p.name == name) {
            e.host = p.host;
            e.port = p.port;
          }
        }
      }
      e.ca_file = config_.ca_file;
      e.client_certificate_file = config_.certificate_file;
      e.client_key_file = config_.private_key_file;
      e.connect_timeout_ms = 3000;
      e.io_timeout_ms = std::max<std::uint32_t>(config_.party_timeout_ms, 10000);
      e.max_answer_bytes = config_.max_message_bytes;  // a party's partial sums
      Result<std::unique_ptr<transport::HttpsClient>> client = transport::HttpsClient::Create(e);
      if (!client.ok()) return client.status();
      PartyLink link;
      link.name = name;
      link.client = std::move(client).value();
      links.push_back(std::move(link));
    }

    // Every party's state for the run from scratch: open, then K steps.
    auto prepare = [&]() -> Status {
      const std::string open = json{{"held_graph", r.held_graph},
                                    {"parties", run->parties},
                                    {"steps", r.steps},
                                    {"seed", r.training.seed},
                                    {"train_fraction", r.train_fraction},
                                    {"val_fraction", r.val_fraction},
                                    {"lnnc", r.lnnc}}
                                   .dump();
      for (PartyLink& l : links) {
        Result<std::string> answer = l.Call("POST", base + "/open", "application/json", open);
        if (!answer.ok()) return answer.status();
        l.opened = json::parse(*answer, nullptr, false);
        if (!l.opened.is_object()) return Status::FailedPrecondition("party " + l.name + " answered open with no JSON");
      }
      set_phase("propagating");
      for (int k = 1; k <= r.steps; ++k) {
        std::vector<std::vector<BorderMessage>> inbox(links.size());
        for (std::size_t p = 0; p < links.size(); ++p) {
          Result<std::string> answer = links[p].Call("POST", base + "/send?step=" + std::to_string(k), kBinary, "");
          if (!answer.ok()) return answer.status();
          links[p].propagation_bytes_sent += answer->size();
          Result<std::vector<BorderMessage>> sent = DecodeMessages(*answer);
          if (!sent.ok()) return Status::FailedPrecondition("party " + links[p].name + ": " + sent.status().message());
          for (BorderMessage& m : *sent) {
            // A party speaks for itself only, and only to another party.
            if (m.from_party != static_cast<int>(p) || m.to_party < 0 ||
                m.to_party >= static_cast<int>(links.size()) || m.to_party == m.from_party) {
              return Status::FailedPrecondition("party " + links[p].name + " sent a message it may not send");
            }
            inbox[static_cast<std::size_t>(m.to_party)].push_back(std::move(m));
          }
        }
        for (std::size_t p = 0; p < links.size(); ++p) {
          Result<std::string> answer =
              links[p].Call("POST", base + "/receive?step=" + std::to_string(k), kBinary, EncodeMessages(inbox[p]));
          if (!answer.ok()) return answer.status();
        }
        update([&](json& s) { s["step"] = k; });
      }
      return Status::Ok();
    };

    // Runs `op` until it succeeds; a transient failure waits for every party
    // to answer again and prepares the run afresh before trying again.
    bool failing = false;
    Clock::time_point failing_since;
    auto retrying = [&](const std::function<Status()>& op) -> Status {
      for (;;) {
        if (run->stop) return Status::FailedPrecondition("stopped");
        Status s = op();
        if (s.ok()) {
          failing = false;
          return s;
        }
        if (s.code() != StatusCode::kUnavailable) return s;
        if (!failing) {
          failing = true;
          failing_since = Clock::now();
          logger_->Warning("federation_party_unavailable", {{"run", std::to_string(run->id)}, {"error", s.message()}});
        }
        if (Clock::now() - failing_since > std::chrono::milliseconds(config_.party_timeout_ms)) {
          return Status::Unavailable(s.message() + " (no answer for " + std::to_string(config_.party_timeout_ms) +
                                     " ms)");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        if (run->stop) return Status::FailedPrecondition("stopped");
        Status prepared = prepare();
        if (prepared.ok()) {
          update([](json& st) { st["recoveries"] = st["recoveries"].get<int>() + 1; });
          logger_->Info("federation_run_recovered", {{"run", std::to_string(run->id)}});
          set_phase(phase_now.c_str());
        } else if (prepared.code() != StatusCode::kUnavailable) {
          return prepared;
        }
      }
    };

    LDPGRAPH_RETURN_IF_ERROR(retrying(prepare));
    const Clock::time_point propagated = Clock::now();
    update([&](json& s) { s["propagation_seconds"] = Seconds(started); });
    std::int64_t width = -1, classes = -1;
    for (const PartyLink& l : links) {
      const std::int64_t w = l.opened.value("feature_dims", -1), c = l.opened.value("classes", -1);
      if ((width >= 0 && w != width) || (classes >= 0 && c != classes)) {
        return Status::FailedPrecondition("party " + l.name + "'s share has " + std::to_string(w) + " features and " +
                                          std::to_string(c) + " classes; the others' " + std::to_string(width) +
                                          " and " + std::to_string(classes));
      }
      width = w;
      classes = c;
    }
    set_phase("training");
    Result<FederatedSgcRun> trained = DriveFederatedSgc(
        links.size(), static_cast<int>(width), static_cast<int>(classes), r.training,
        [&](std::size_t p, const std::vector<Matrix>& weights, bool gradient) -> Result<PartyRound> {
          const std::string body = EncodeMatrices(weights);
          Result<PartyRound> out = Status::Internal("no answer");
          Status s = retrying([&]() -> Status {
            Result<std::string> answer =
                links[p].Call("POST", base + "/round?gradient=" + (gradient ? "1" : "0"), kBinary, body);
            if (!answer.ok()) return answer.status();
            out = DecodePartyRound(*answer);
            if (!out.ok()) return Status::FailedPrecondition("party " + links[p].name + ": " + out.status().message());
            return Status::Ok();
          });
          if (!s.ok()) return s;
          return out;
        },
        [&](int round, double val_accuracy) {
          update([&](json& s) {
            s["round"] = round;
            s["last_val_accuracy"] = val_accuracy;
          });
          return !run->stop;
        });
    if (!trained.ok()) return trained.status();
    update([&](json& s) {
      s["training_seconds"] = Seconds(propagated);
      s["rounds_per_second"] = r.training.max_epochs / std::max(1e-9, Seconds(propagated));
      s["best_round"] = trained->best_epoch;
      s["val_accuracy"] = trained->val_accuracy;
      s["test_accuracy"] = trained->test_accuracy;
    });
    set_phase("finishing");
    const std::string encoded = EncodeMatrices(trained->weights);
    const std::string finish =
        json{{"weights", Base64UrlEncode(reinterpret_cast<const std::uint8_t*>(encoded.data()), encoded.size())},
             {"best_round", trained->best_epoch},
             {"val_accuracy", trained->val_accuracy},
             {"test_accuracy", trained->test_accuracy}}
            .dump();
    for (PartyLink& l : links) {
      LDPGRAPH_RETURN_IF_ERROR(retrying([&]() -> Status {
        Result<std::string> answer = l.Call("POST", base + "/finish", "application/json", finish);
        return answer.ok() ? Status::Ok() : answer.status();
      }));
    }
    return Status::Ok();
  }();

  // Best effort: free the parties' memory; after a failure, no party keeps
  // a model of the run (some may have written theirs before it failed).
  for (PartyLink& l : links) (void)l.Call("DELETE", base + (result.ok() ? "" : "?discard_model=1"), "", "");
  std::string stop_reason;
  {
    std::lock_guard<std::mutex> lock(run->mu);
    stop_reason = run->stop_reason;
  }
  update([&](json& s) {
    s["party_traffic"] = party_summaries();
    s["phase"] = "";
    if (result.ok()) {
      s["state"] = "succeeded";
    } else if (run->stop && stop_reason == "cancelled") {
      s["state"] = "cancelled";
    } else {
      s["state"] = "failed";
      s["error"] = run->stop ? stop_reason : result.message();
    }
  });
  Persist(*run);
  run->done = true;
  std::string state;
  {
    std::lock_guard<std::mutex> lock(run->mu);
    state = run->status["state"];
  }
  logger_->Info("federation_run_ended", {{"run", std::to_string(run->id)}, {"state", state},
                                         {"seconds", std::to_string(Seconds(started))}});
}

}  // namespace ldpgraph
