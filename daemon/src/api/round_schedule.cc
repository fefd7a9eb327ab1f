#include "api/round_schedule.h"

#include <string>

#include "graph/symmetrise.h"
#include "linkldp/denoised_training.h"
#include "train/lpgnn_pipeline.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

Status Bad(const std::string& field, const std::string& what) {
  return Status::InvalidArgument("graph config: rounds." + field + " " + what);
}

// The values of a retraining job's options, checked when the graph is
// created rather than found wrong when its first round closes.
Status CheckRetrainValues(const json& r) {
  auto text = [&](const char* key) { return r.contains(key) && r[key].is_string() ? r[key].get<std::string>() : ""; };
  for (const char* key : {"model", "label_method", "denoise", "symmetrise"}) {
    if (r.contains(key) && !r[key].is_string()) return Bad(std::string("retrain.") + key, "must be a string");
  }
  if (r.contains("model") && text("model") != "sage" && text("model") != "gcn") {
    return Bad("retrain.model", "must be \"sage\" or \"gcn\"");
  }
  if (r.contains("label_method")) {
    if (auto m = ParseLabelMethod(text("label_method")); !m.ok()) return Bad("retrain.label_method", m.status().message());
  }
  if (r.contains("denoise") && text("denoise") != "none") {
    if (auto d = ParseLinkDenoising(text("denoise")); !d.ok()) {
      return Bad("retrain.denoise", "must be \"none\", \"blink\" or \"ours\"");
    }
  }
  if (r.contains("symmetrise")) {
    if (auto s = ParseSymmetrisation(text("symmetrise")); !s.ok()) return Bad("retrain.symmetrise", s.status().message());
  }
  for (const auto& [key, hi] : {std::make_pair("epochs", 100000), std::make_pair("hidden", 4096)}) {
    if (r.contains(key) && (!r[key].is_number_integer() || r[key].get<std::int64_t>() < 1 || r[key].get<std::int64_t>() > hi)) {
      return Bad(std::string("retrain.") + key, "must be an integer in [1, " + std::to_string(hi) + "]");
    }
  }
  if (r.contains("seed") && !r["seed"].is_number_unsigned()) return Bad("retrain.seed", "must be an unsigned integer");
  return Status::Ok();
}

}  // namespace

const std::vector<std::string_view>& RetrainKeys() {
  static const std::vector<std::string_view> keys = {"model", "label_method", "epochs", "seed",
                                                     "hidden", "denoise", "symmetrise"};
  return keys;
}

Result<RoundSchedule> ParseRoundSchedule(const json* rounds, const GraphConfig& config) {
  RoundSchedule s;
  if (rounds == nullptr || rounds->is_null()) return s;
  if (!rounds->is_object()) return Status::InvalidArgument("graph config: rounds must be an object");
  if (config.embedding.enabled) {
    return Status::InvalidArgument("graph config: an embedding graph's owner reports once: it takes no rounds");
  }
  for (auto it = rounds->begin(); it != rounds->end(); ++it) {
    if (it.key() != "every_hours" && it.key() != "history" && it.key() != "retrain") {
      return Bad(it.key(), "is not a known field (every_hours, history, retrain)");
    }
  }
  s.enabled = true;
  if (rounds->contains("every_hours")) {
    const json& h = (*rounds)["every_hours"];
    if (!h.is_number() || !(h.get<double>() >= kMinRoundHours) || h.get<double>() > 24.0 * 366 * 100) {
      return Bad("every_hours", "must be a number of hours from 1/3600 (a second) to 100 years");
    }
    s.every_hours = h.get<double>();
  }
  if (rounds->contains("history")) {
    const json& h = (*rounds)["history"];
    if (!h.is_number_unsigned() || h.get<std::uint64_t>() < 1 || h.get<std::uint64_t>() > kMaxRoundHistory) {
      return Bad("history", "must be an integer in [1, " + std::to_string(kMaxRoundHistory) + "]");
    }
    s.history = h.get<std::uint32_t>();
  }
  if (rounds->contains("retrain")) {
    const json& r = (*rounds)["retrain"];
    if (!r.is_object()) return Bad("retrain", "must be an object of node-job options");
    for (auto it = r.begin(); it != r.end(); ++it) {
      bool known = false;
      for (std::string_view k : RetrainKeys()) known = known || it.key() == k;
      if (!known) {
        return Bad("retrain." + it.key(), "is not a node job's option (model, label_method, epochs, seed, hidden, "
                                           "denoise, symmetrise)");
      }
    }
    LDPGRAPH_RETURN_IF_ERROR(CheckRetrainValues(r));
    if (!config.features.enabled || !config.label.enabled) {
      return Bad("retrain", "needs a graph whose users report features and labels (node training)");
    }
    s.retrain = r;
  }
  return s;
}

json RoundScheduleJson(const RoundSchedule& s) {
  json j = {{"history", s.history}};
  if (s.every_hours > 0) j["every_hours"] = s.every_hours;
  if (!s.retrain.is_null()) j["retrain"] = s.retrain;
  return j;
}

}  // namespace ldpgraph
