#include "federation/party_service.h"

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "federation/fedcog_party.h"
#include "federation/federation_wire.h"
#include "federation/lnnc.h"
#include "base/durable_file.h"
#include "net/base64url.h"
#include "net/json_body.h"
#include "net/json_response.h"
#include "net/storage_failure.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxRuns = 4;  // runs a party keeps state for at once
// The coordinator of a run whose model does not say (no certificate has
// this name: it has a space).
const char* const kNoParty = "(unknown)";

// The value of `key` in the query of `target`, if present.
std::optional<std::string> QueryValue(const std::string& target, const std::string& key) {
  const std::size_t q = target.find('?');
  if (q == std::string::npos) return std::nullopt;
  std::size_t at = q + 1;
  while (at <= target.size()) {
    const std::size_t end = std::min(target.find('&', at), target.size());
    const std::string pair = target.substr(at, end - at);
    if (pair.compare(0, key.size() + 1, key + "=") == 0) return pair.substr(key.size() + 1);
    at = end + 1;
  }
  return std::nullopt;
}

HttpResponse Binary(std::string body) {
  HttpResponse r;
  r.content_type = "application/octet-stream";
  r.body = std::move(body);
  return r;
}

Matrix Softmax(Matrix scores) {
  for (Eigen::Index r = 0; r < scores.rows(); ++r) {
    auto row = scores.row(r);
    row.array() -= row.maxCoeff();
    row = row.array().exp().matrix();
    row /= row.sum();
  }
  return scores;
}

}  // namespace

struct PartyService::Run {
  std::mutex mu;
  std::string coordinator;
  std::uint64_t held_graph = 0;
  std::vector<std::string> parties;
  int steps = 0;
  bool lnnc = false;
  std::uint64_t last_use = 0;
  std::unique_ptr<FedCogParty> party;
};

PartyService::PartyService(const FederationConfig& config, HeldGraphStore* held, std::string models_dir,
                           Logger* logger)
    : config_(config), held_(held), models_dir_(std::move(models_dir)), logger_(logger) {}

PartyService::~PartyService() = default;

Result<std::unique_ptr<PartyService>> PartyService::Create(const FederationConfig& config, HeldGraphStore* held,
                                                           std::string models_dir, Logger* logger) {
  std::error_code error;
  std::filesystem::create_directories(models_dir, error);
  if (error) return Status::Unavailable("cannot make " + models_dir + ": " + error.message());
  return std::unique_ptr<PartyService>(new PartyService(config, held, std::move(models_dir), logger));
}

std::string PartyService::ModelPath(std::uint64_t run) const {
  return models_dir_ + "/" + std::to_string(run) + ".fedmodel";
}

void PartyService::Handle(const HttpRequest& request, Respond respond) {
  // A body field of the wrong JSON type read unchecked must not end the daemon.
  try {
    respond(Route(request));
  } catch (const json::type_error& e) {
    respond(ErrorResponse(400, "invalid_body", "a field of the body has the wrong type: " + JsonErrorText(e)));
  }
}

HttpResponse PartyService::Route(const HttpRequest& request) {
  if (request.peer_name.empty() || !config_.Knows(request.peer_name)) {
    return ErrorResponse(403, "unknown_party",
                         "certificate \"" + request.peer_name + "\" is not a party of this federation");
  }
  const std::string path = request.target.substr(0, request.target.find('?'));
  static const std::string kRuns = "/v1/federation/runs/";
  if (path.compare(0, kRuns.size(), kRuns) != 0) return ErrorResponse(404, "not_found", "nothing is served at " + path);
  const std::string rest = path.substr(kRuns.size());
  const std::size_t slash = rest.find('/');
  const std::string id_text = rest.substr(0, slash);
  const std::string action = slash == std::string::npos ? "" : rest.substr(slash + 1);
  const std::optional<std::uint64_t> id = ParseGraphId(id_text);
  if (!id) return ErrorResponse(400, "invalid_request", "run id '" + id_text + "' is not an unsigned integer");
  if (action.empty()) {
    if (request.method != "DELETE") return MethodNotAllowed(request, path, "DELETE");
    return Forget(*id, request);
  }
  if (request.method != "POST") return MethodNotAllowed(request, path, "POST");
  if (action == "open") {
    // Opening again starts a run over: only its coordinator may.
    std::lock_guard<std::mutex> claiming(claim_mu_);
    const std::string coordinator = CoordinatorOf(*id);
    if (!coordinator.empty() && coordinator != request.peer_name) {
      return NotTheCoordinator(*id, request.peer_name, coordinator, "open");
    }
    return Open(*id, request.peer_name, request.body);
  }

  std::shared_ptr<Run> run;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = runs_.find(*id);
    if (it != runs_.end()) {
      run = it->second;
      run->last_use = ++uses_;
    }
  }
  if (!run) return ErrorResponse(404, "unknown_run", "party " + config_.party + " holds no run " + id_text);
  std::lock_guard<std::mutex> lock(run->mu);
  if (request.peer_name != run->coordinator) return NotTheCoordinator(*id, request.peer_name, run->coordinator, action);
  if (action == "send" || action == "receive") {
    const std::optional<std::uint64_t> step = ParseGraphId(QueryValue(request.target, "step").value_or(""));
    if (!step || *step > 64) return ErrorResponse(400, "invalid_request", "?step=K (1-64) is required");
    const int k = static_cast<int>(*step);
    if (action == "send") {
      Result<std::vector<BorderMessage>> sent = run->party->Send(k);
      if (!sent.ok()) return ErrorResponse(409, "out_of_order", sent.status().message());
      return Binary(EncodeMessages(*sent));
    }
    Result<std::vector<BorderMessage>> received = DecodeMessages(request.body);
    if (!received.ok()) return ErrorResponse(400, "invalid_body", received.status().message());
    Status done = run->party->Receive(k, *received);
    if (done.code() == StatusCode::kFailedPrecondition) return ErrorResponse(409, "out_of_order", done.message());
    if (!done.ok()) return ErrorResponse(400, "invalid_body", done.message());
    return JsonResponse(200, json{{"steps_done", run->party->steps_done()}}.dump());
  }
  if (action == "round") {
    if (run->party->steps_done() != run->steps) {
      return ErrorResponse(409, "out_of_order", "training before propagation is done (" +
                                                    std::to_string(run->party->steps_done()) + " of " +
                                                    std::to_string(run->steps) + " steps)");
    }
    Result<std::vector<Matrix>> weights = DecodeMatrices(request.body);
    if (!weights.ok()) return ErrorResponse(400, "invalid_body", weights.status().message());
    Result<PartyRound> r = run->party->Round(*weights, QueryValue(request.target, "gradient").value_or("1") != "0");
    if (!r.ok()) return ErrorResponse(400, "invalid_body", r.status().message());
    return Binary(EncodePartyRound(*r));
  }
  if (action == "finish") return Finish(*run, *id, request.body);
  return ErrorResponse(404, "not_found", "nothing is served at " + path);
}

std::string PartyService::CoordinatorOf(std::uint64_t id) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = runs_.find(id);
    if (it != runs_.end()) return it->second->coordinator;
  }
  std::error_code error;
  if (!std::filesystem::exists(ModelPath(id), error)) return "";
  Result<FederatedModel> model = LoadModel(id);
  // A model whose coordinator is unreadable (damaged, or written before it
  // was recorded) belongs to no party that could prove it: nobody may
  // replace or discard it over the network.
  if (!model.ok() || model->coordinator.empty()) return kNoParty;
  return model->coordinator;
}

HttpResponse PartyService::NotTheCoordinator(std::uint64_t id, const std::string& caller,
                                             const std::string& coordinator, const std::string& action) const {
  logger_->Warning("federation_refused", {{"run", std::to_string(id)},
                                          {"party", caller},
                                          {"action", action.empty() ? "delete" : action},
                                          {"coordinator", coordinator}});
  return ErrorResponse(403, "not_coordinator",
                       "run " + std::to_string(id) + " is coordinated by " +
                           (coordinator == kNoParty ? std::string("a party this one cannot name") : coordinator) +
                           "; party " + caller + " may not " + (action.empty() ? "delete" : action) + " it");
}

HttpResponse PartyService::Forget(std::uint64_t id, const HttpRequest& request) {
  const bool discard = QueryValue(request.target, "discard_model").value_or("0") == "1";
  std::lock_guard<std::mutex> claiming(claim_mu_);  // no open slips in between the check and the erase
  const std::string coordinator = CoordinatorOf(id);
  // Forgetting a run that is not there is harmless; touching another
  // party's run or model is not.
  if (!coordinator.empty() && coordinator != request.peer_name) {
    return NotTheCoordinator(id, request.peer_name, coordinator, "");
  }
  bool known = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    known = runs_.erase(id) > 0;
  }
  // A run that failed while the parties wrote their models: none keeps it.
  bool discarded = false;
  if (discard) {
    std::error_code error;
    discarded = std::filesystem::remove(ModelPath(id), error);
    if (discarded) {
      logger_->Info("federated_model_discarded", {{"run", std::to_string(id)}, {"party", request.peer_name}});
    }
  }
  return JsonResponse(200, json{{"run", id}, {"forgotten", known}, {"model_discarded", discarded}}.dump());
}

HttpResponse PartyService::Open(std::uint64_t id, const std::string& coordinator, const std::string& body) {
  json j;
  if (auto refused = ReadJsonBody(
          body, {"held_graph", "parties", "steps", "seed", "train_fraction", "val_fraction", "lnnc"}, &j)) {
    return *refused;
  }
  auto run = std::make_shared<Run>();
  run->coordinator = coordinator;
  std::uint64_t seed = 0;
  double train_fraction = 0, val_fraction = 0;
  try {
    run->held_graph = j.at("held_graph").get<std::uint64_t>();
    run->parties = j.at("parties").get<std::vector<std::string>>();
    run->steps = j.at("steps").get<int>();
    run->lnnc = j.at("lnnc").get<bool>();
    seed = j.at("seed").get<std::uint64_t>();
    train_fraction = j.at("train_fraction").get<double>();
    val_fraction = j.at("val_fraction").get<double>();
  } catch (const json::exception& e) {
    return ErrorResponse(400, "invalid_body", std::string("open: ") + e.what());
  }
  if (run->steps < 0 || run->steps > 64 || !(train_fraction > 0) || !(val_fraction >= 0) ||
      train_fraction + val_fraction > 1) {
    return ErrorResponse(400, "invalid_body", "open: steps must be in [0, 64] and the fractions in (0, 1]");
  }
  for (const std::string& name : run->parties) {
    if (!config_.Knows(name)) {
      return ErrorResponse(422, "unknown_party", "party " + config_.party + " does not know party \"" + name + "\"");
    }
  }
  Result<HeldGraph> held = held_->Load(run->held_graph);
  if (!held.ok()) {
    return ErrorResponse(422, "unknown_held_graph", "party " + config_.party + ": " + held.status().message());
  }
  Result<PartyShare> share = MakePartyShare(*held, run->parties, config_.party);
  if (!share.ok()) return ErrorResponse(422, "invalid_share", "party " + config_.party + ": " + share.status().message());
  std::size_t lnnc_edges = 0;
  if (run->lnnc) lnnc_edges = ConnectLoneBorderUsers(share->features, &share->graph);
  PartyTask task = SplitPartyUsers(*share, config_.party, seed, train_fraction, val_fraction);
  const json answer = {{"users", share->graph.num_users()},
                       {"train", task.train.size()},
                       {"val", task.val.size()},
                       {"test", task.test.size()},
                       {"feature_dims", share->features.cols()},
                       {"classes", held->classes},
                       {"lnnc_edges", lnnc_edges}};
  run->party = std::make_unique<FedCogParty>(std::move(share).value(), std::move(task));
  {
    std::lock_guard<std::mutex> lock(mu_);
    run->last_use = ++uses_;
    runs_[id] = run;
    while (runs_.size() > kMaxRuns) {
      auto oldest = std::min_element(runs_.begin(), runs_.end(), [](const auto& a, const auto& b) {
        return a.second->last_use < b.second->last_use;
      });
      runs_.erase(oldest);
    }
  }
  logger_->Info("federation_run_opened", {{"run", std::to_string(id)},
                                          {"coordinator", coordinator},
                                          {"held_graph", std::to_string(run->held_graph)},
                                          {"users", answer["users"].dump()}});
  return JsonResponse(200, answer.dump());
}

HttpResponse PartyService::Finish(Run& run, std::uint64_t id, const std::string& body) {
  json j;
  if (auto refused = ReadJsonBody(body, {"weights", "best_round", "val_accuracy", "test_accuracy"}, &j)) {
    return *refused;
  }
  if (!j.contains("weights") || !j["weights"].is_string()) {
    return ErrorResponse(400, "invalid_body", "finish: {\"weights\": base64url, ...} is required");
  }
  const auto raw = Base64UrlDecode(j["weights"].get<std::string>());
  Result<std::vector<Matrix>> weights =
      raw ? DecodeMatrices(std::string(raw->begin(), raw->end())) : Result<std::vector<Matrix>>(Status::InvalidArgument("not base64url"));
  if (!weights.ok()) return ErrorResponse(400, "invalid_body", "finish: weights: " + weights.status().message());
  if (run.party->steps_done() != run.steps) return ErrorResponse(409, "out_of_order", "finish before propagation is done");
  Result<PartyRound> check = run.party->Round(*weights, false);  // the weights fit the features
  if (!check.ok()) return ErrorResponse(400, "invalid_body", check.status().message());
  FederatedModel m;
  m.run = std::to_string(id);
  m.party = config_.party;
  m.coordinator = run.coordinator;
  m.parties = run.parties;
  m.held_graph = run.held_graph;
  m.steps = run.steps;
  m.lnnc = run.lnnc;
  m.best_round = j.value("best_round", 0);
  m.val_accuracy = j.value("val_accuracy", 0.0);
  m.test_accuracy = j.value("test_accuracy", 0.0);
  m.weights = std::move(weights).value();
  m.keys = run.party->share().graph.users;
  m.probabilities = Softmax(run.party->Scores(m.weights));
  const std::vector<std::uint8_t> bytes = EncodeFederatedModel(m);
  // A repeat (the coordinator retrying) finds the same file: nothing to do.
  std::vector<std::uint8_t> existing;
  bool exists = false;
  Status read = base::ReadWholeFile(ModelPath(id), &existing, &exists);
  if (read.ok() && exists && existing != bytes) {
    return ErrorResponse(409, "exists", "party " + config_.party + " holds another model for run " + m.run);
  }
  if (!exists) {
    Status written = base::WriteFileDurably(ModelPath(id), bytes);
    if (!written.ok()) return StorageFailureResponse(logger_, "the model of run " + m.run, written);
    logger_->Info("federated_model_stored", {{"run", m.run}, {"users", std::to_string(m.keys.size())}});
  }
  return JsonResponse(200, json{{"users", m.keys.size()}, {"bytes", bytes.size()}}.dump());
}

std::map<std::uint64_t, std::string> PartyService::Models() const {
  std::map<std::uint64_t, std::string> out;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(models_dir_, error)) {
    const std::string name = entry.path().filename().string();
    const std::size_t dot = name.find(".fedmodel");
    if (dot == std::string::npos || dot + 9 != name.size()) continue;
    const std::optional<std::uint64_t> run = ParseGraphId(name.substr(0, dot));
    if (!run) continue;
    Result<FederatedModel> m = LoadModel(*run);
    out[*run] = m.ok() ? m->Summary() : json{{"run", *run}, {"error", m.status().message()}}.dump();
  }
  return out;
}

Result<FederatedModel> PartyService::LoadModel(std::uint64_t run) const {
  std::vector<std::uint8_t> bytes;
  bool exists = false;
  LDPGRAPH_RETURN_IF_ERROR(base::ReadWholeFile(ModelPath(run), &bytes, &exists));
  if (!exists) return Status::FailedPrecondition("party " + config_.party + " holds no model of run " + std::to_string(run));
  return DecodeFederatedModel(bytes);
}

}  // namespace ldpgraph
