#include "requests/job_request_codec.h"

#include <nlohmann/json.hpp>

#include "gap/progap_pipeline.h"
#include "graph/symmetrise.h"
#include "requests/gap_request_json.h"
#include "requests/graph_config_json.h"

namespace ldpgraph {

using nlohmann::json;

std::string EncodeJobRequest(const GraphJobRequest& r) {
  json j;
  j["task"] = r.task == JobTask::kGap ? "gap" : r.task == JobTask::kNode ? "node" : "graph";
  if (r.task == JobTask::kGap) {
    j["held_graph"] = r.held_graph ? r.held_graph->id : 0;
    j["body"] = json::parse(r.gap_request_json, nullptr, false);
    j["memory_bytes"] = r.memory_bytes;
    return j.dump();
  }
  json graphs = json::array();
  for (const GraphConfig& g : r.graphs) graphs.push_back(json::parse(GraphConfigToJson(g)));
  json rules = json::array();
  for (Symmetrisation rule : r.rules) rules.push_back(SymmetrisationName(rule));
  j["graphs"] = graphs;
  j["labels"] = r.labels;
  j["node_model"] = r.node_model == NodeGnnKind::kGcn ? "gcn" : "sage";
  j["label_method"] = LabelMethodName(r.label_method);
  j["denoise"] = r.denoise ? LinkDenoisingName(*r.denoise) : "none";
  j["rules"] = rules;
  j["rule_name"] = r.rule_name;
  j["max_epochs"] = r.max_epochs;
  j["seed"] = r.seed;
  j["round"] = r.round;
  j["hidden"] = r.hidden;
  j["layers"] = r.layers;
  j["node_input"] = r.node_input;
  j["bf16_products"] = r.bf16_products;
  j["memory_bytes"] = r.memory_bytes;
  return j.dump();
}

Result<GraphJobRequest> DecodeJobRequest(const std::string& text, const HeldGraphStore* held_graphs) {
  const json j = json::parse(text, nullptr, false);
  GraphJobRequest r;
  try {
    if (!j.is_object()) throw std::invalid_argument("not an object");
    const std::string task = j.at("task").get<std::string>();
    if (task == "gap") {
      r.task = JobTask::kGap;
      const json& body = j.at("body");
      LDPGRAPH_RETURN_IF_ERROR(GapOptionsFromJson(body, &r));
      r.gap_request_json = body.dump();
      r.memory_bytes = j.at("memory_bytes").get<std::uint64_t>();
      if (held_graphs == nullptr) return Status::FailedPrecondition("this daemon keeps no held graphs");
      Result<HeldGraph> held = held_graphs->Load(j.at("held_graph").get<std::uint64_t>());
      if (!held.ok()) return held.status();
      r.held_graph = std::make_shared<const HeldGraph>(std::move(held).value());
      const GapOptions resolved = ResolveGapOptions(r.gap, 1);
      r.max_epochs = r.progap ? ProGapEpochs(r.gap) : resolved.encoder_epochs + resolved.classifier_epochs;
      return r;
    }
    r.task = task == "node" ? JobTask::kNode : JobTask::kGraph;
    r.memory_bytes = j.value("memory_bytes", std::uint64_t{0});  // absent: queued by a daemon before issue 66
    for (const json& g : j.at("graphs")) {
      Result<GraphConfig> config = GraphConfigFromJson(g.dump());
      if (!config.ok()) return Status::DataLoss("queued job: " + config.status().message());
      r.graphs.push_back(*config);
    }
    r.labels = j.at("labels").get<std::vector<std::int64_t>>();
    r.node_model = j.at("node_model").get<std::string>() == "gcn" ? NodeGnnKind::kGcn : NodeGnnKind::kSage;
    Result<LabelMethod> method = ParseLabelMethod(j.at("label_method").get<std::string>());
    if (!method.ok()) return Status::DataLoss("queued job: " + method.status().message());
    r.label_method = *method;
    const std::string denoise = j.at("denoise").get<std::string>();
    if (denoise != "none") {
      Result<LinkDenoising> d = ParseLinkDenoising(denoise);
      if (!d.ok()) return Status::DataLoss("queued job: " + d.status().message());
      r.denoise = *d;
    }
    for (const json& rule : j.at("rules")) {
      Result<Symmetrisation> parsed = ParseSymmetrisation(rule.get<std::string>());
      if (!parsed.ok()) return Status::DataLoss("queued job: " + parsed.status().message());
      r.rules.push_back(*parsed);
    }
    r.rule_name = j.at("rule_name").get<std::string>();
    r.max_epochs = j.at("max_epochs").get<int>();
    r.seed = j.at("seed").get<std::uint64_t>();
    // A request queued before rounds existed has no round: the newest reports.
    r.round = j.value("round", kNewestRound);
    r.hidden = j.at("hidden").get<int>();
    r.layers = j.at("layers").get<int>();
    r.node_input = j.at("node_input").get<std::string>();
    r.bf16_products = j.at("bf16_products").get<bool>();
  } catch (const std::exception& e) {
    return Status::DataLoss(std::string("a queued job's request does not parse: ") + e.what());
  }
  return r;
}

}  // namespace ldpgraph
