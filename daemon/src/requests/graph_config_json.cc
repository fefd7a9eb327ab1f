#include "requests/graph_config_json.h"

#include <limits>
#include <set>

#include "net/json_body.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

Status Bad(const std::string& field, const std::string& what) {
  return Status::InvalidArgument("graph config: " + field + " " + what);
}

Status OnlyKnownKeys(const json& object, const std::string& where, const std::set<std::string>& known) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (!known.count(it.key())) return Bad(where + it.key(), "is not a known field");
  }
  return Status::Ok();
}

Result<const json*> Member(const json& object, const std::string& where, const char* key, bool required) {
  auto it = object.find(key);
  if (it == object.end()) {
    if (required) return Bad(where + key, "is required");
    return static_cast<const json*>(nullptr);
  }
  return &*it;
}

template <typename T>
Result<T> UnsignedField(const json& object, const std::string& where, const char* key, bool required, T fallback) {
  auto m = Member(object, where, key, required);
  if (!m.ok()) return m.status();
  if (!*m) return fallback;
  const json& v = **m;
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() > std::numeric_limits<T>::max()) {
    return Bad(where + key, "must be an integer in [0, " + std::to_string(std::numeric_limits<T>::max()) + "]");
  }
  return static_cast<T>(v.get<std::uint64_t>());
}

Result<double> NumberField(const json& object, const std::string& where, const char* key, bool required,
                           double fallback) {
  auto m = Member(object, where, key, required);
  if (!m.ok()) return m.status();
  if (!*m) return fallback;
  if (!(*m)->is_number()) return Bad(where + key, "must be a number");
  return (*m)->get<double>();
}

Result<std::string> StringField(const json& object, const std::string& where, const char* key, bool required,
                                const std::string& fallback) {
  auto m = Member(object, where, key, required);
  if (!m.ok()) return m.status();
  if (!*m) return fallback;
  if (!(*m)->is_string()) return Bad(where + key, "must be a string");
  return (*m)->get<std::string>();
}

Status ParseEdges(const json& e, EdgePolicy* out) {
  if (!e.is_object()) return Bad("edges", "must be an object");
  LDPGRAPH_RETURN_IF_ERROR(OnlyKnownKeys(e, "edges.", {"mechanism", "epsilon", "allocation", "n_max",
                                                        "locallap_resolution"}));
  auto mechanism = StringField(e, "edges.", "mechanism", true, "");
  if (!mechanism.ok()) return mechanism.status();
  auto parsed = ParseEdgeMechanism(*mechanism);
  if (!parsed.ok()) return Bad("edges.mechanism", parsed.status().message());
  out->mechanism = *parsed;
  const bool needs_epsilon = out->mechanism != EdgeMechanism::kNone;
  auto epsilon = NumberField(e, "edges.", "epsilon", needs_epsilon, std::numeric_limits<double>::infinity());
  if (!epsilon.ok()) return epsilon.status();
  out->epsilon = *epsilon;
  auto allocation = StringField(e, "edges.", "allocation", false, "paper");
  if (!allocation.ok()) return allocation.status();
  auto alloc = ParseBudgetAllocation(*allocation);
  if (!alloc.ok()) return Bad("edges.allocation", alloc.status().message());
  out->allocation = *alloc;
  auto n_max = UnsignedField<std::uint32_t>(e, "edges.", "n_max", false, 0);
  if (!n_max.ok()) return n_max.status();
  out->n_max = *n_max;
  auto resolution = UnsignedField<std::uint32_t>(e, "edges.", "locallap_resolution", false, 16);
  if (!resolution.ok()) return resolution.status();
  out->locallap_resolution = *resolution;
  return Status::Ok();
}

Status ParseFeatures(const json& f, FeaturePolicy* out) {
  if (!f.is_object()) return Bad("features", "must be an object");
  LDPGRAPH_RETURN_IF_ERROR(OnlyKnownKeys(f, "features.", {"dims", "epsilon", "ranges"}));
  out->enabled = true;
  auto dims = UnsignedField<std::uint32_t>(f, "features.", "dims", true, 0);
  if (!dims.ok()) return dims.status();
  out->params.dims = *dims;
  auto epsilon = NumberField(f, "features.", "epsilon", true, 0);
  if (!epsilon.ok()) return epsilon.status();
  out->params.epsilon = *epsilon;
  auto ranges = Member(f, "features.", "ranges", false);
  if (!ranges.ok()) return ranges.status();
  if (*ranges) {
    const json& r = **ranges;
    if (!r.is_array()) return Bad("features.ranges", "must be an array of [lo, hi] pairs");
    out->params.ranges.clear();
    for (std::size_t i = 0; i < r.size(); ++i) {
      const json& pair = r[i];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number() || !pair[1].is_number()) {
        return Bad("features.ranges[" + std::to_string(i) + "]", "must be a [lo, hi] pair of numbers");
      }
      out->params.ranges.push_back({pair[0].get<double>(), pair[1].get<double>()});
    }
  }
  return Status::Ok();
}

Status ParseLabel(const json& l, LabelPolicy* out) {
  if (!l.is_object()) return Bad("label", "must be an object");
  LDPGRAPH_RETURN_IF_ERROR(OnlyKnownKeys(l, "label.", {"classes", "epsilon"}));
  out->enabled = true;
  auto classes = UnsignedField<std::uint32_t>(l, "label.", "classes", true, 0);
  if (!classes.ok()) return classes.status();
  out->classes = *classes;
  auto epsilon = NumberField(l, "label.", "epsilon", true, 0);
  if (!epsilon.ok()) return epsilon.status();
  out->epsilon = *epsilon;
  return Status::Ok();
}

// GW-LDP: {"dims": h, "epsilon": e, "encoding": "multibit"}, the owner's
// whole-report budget; or "encoding": "summary" with the grid's
// "min_nodes" and "max_nodes" (1 and 1024) and "value_bins" and
// "size_bins" (GraphSummaryParams::ForEpsilon's for that range).
Status ParseEmbedding(const json& e, EmbeddingPolicy* out) {
  if (!e.is_object()) return Bad("embedding", "must be an object");
  LDPGRAPH_RETURN_IF_ERROR(OnlyKnownKeys(
      e, "embedding.", {"dims", "epsilon", "encoding", "value_bins", "size_bins", "min_nodes", "max_nodes"}));
  out->enabled = true;
  auto dims = UnsignedField<std::uint32_t>(e, "embedding.", "dims", true, 0);
  if (!dims.ok()) return dims.status();
  out->dims = *dims;
  auto epsilon = NumberField(e, "embedding.", "epsilon", true, 0);
  if (!epsilon.ok()) return epsilon.status();
  out->epsilon = *epsilon;
  auto encoding = StringField(e, "embedding.", "encoding", false, "multibit");
  if (!encoding.ok()) return encoding.status();
  if (*encoding == "multibit") {
    for (const char* key : {"value_bins", "size_bins", "min_nodes", "max_nodes"}) {
      if (e.contains(key)) return Bad(std::string("embedding.") + key, "is for the summary encoding only");
    }
    out->encoding = EmbeddingEncoding::kMultiBit;
    return Status::Ok();
  }
  if (*encoding != "summary") return Bad("embedding.encoding", "must be \"multibit\" or \"summary\"");
  out->encoding = EmbeddingEncoding::kSummary;
  const GraphSummaryParams defaults;
  auto min_nodes = UnsignedField<std::uint32_t>(e, "embedding.", "min_nodes", false, defaults.min_nodes);
  if (!min_nodes.ok()) return min_nodes.status();
  auto max_nodes = UnsignedField<std::uint32_t>(e, "embedding.", "max_nodes", false, defaults.max_nodes);
  if (!max_nodes.ok()) return max_nodes.status();
  out->min_nodes = *min_nodes;
  out->max_nodes = *max_nodes;
  const GraphSummaryParams grid = GraphSummaryParams::ForEpsilon(*dims, *epsilon, *min_nodes, *max_nodes);
  auto value_bins = UnsignedField<std::uint32_t>(e, "embedding.", "value_bins", false, grid.value_bins);
  if (!value_bins.ok()) return value_bins.status();
  auto size_bins = UnsignedField<std::uint32_t>(e, "embedding.", "size_bins", false, grid.size_bins);
  if (!size_bins.ok()) return size_bins.status();
  out->value_bins = *value_bins;
  out->size_bins = *size_bins;
  return Status::Ok();
}

json EmbeddingJson(const EmbeddingPolicy& e) {
  json j = {{"dims", e.dims}, {"epsilon", e.epsilon}, {"encoding", EmbeddingEncodingName(e.encoding)}};
  if (e.encoding == EmbeddingEncoding::kSummary) {
    j["value_bins"] = e.value_bins;
    j["size_bins"] = e.size_bins;
    j["min_nodes"] = e.min_nodes;
    j["max_nodes"] = e.max_nodes;
  }
  return j;
}

}  // namespace

std::string GraphConfigToJson(const GraphConfig& c) {
  json j;
  j["graph_id"] = c.graph_id;
  j["num_users"] = c.num_users;
  json edges;
  edges["mechanism"] = EdgeMechanismName(c.edges.mechanism);
  if (c.edges.mechanism != EdgeMechanism::kNone) edges["epsilon"] = c.edges.epsilon;
  edges["allocation"] = BudgetAllocationName(c.edges.allocation);
  edges["n_max"] = c.edges.n_max;
  edges["locallap_resolution"] = c.edges.locallap_resolution;
  j["edges"] = edges;
  if (c.features.enabled) {
    json ranges = json::array();
    for (const FeatureRange& r : c.features.params.ranges) ranges.push_back({r.lo, r.hi});
    j["features"] = {{"dims", c.features.params.dims}, {"epsilon", c.features.params.epsilon}, {"ranges", ranges}};
  }
  if (c.label.enabled) j["label"] = {{"classes", c.label.classes}, {"epsilon", c.label.epsilon}};
  if (c.embedding.enabled) j["embedding"] = EmbeddingJson(c.embedding);
  return j.dump();
}

Result<GraphConfig> GraphConfigFromJson(const std::string& text) {
  Result<json> parsed = ParseStrictJson(text);
  if (!parsed.ok()) return Status::InvalidArgument("graph config: " + parsed.status().message());
  return GraphConfigFromJsonValue(*parsed);
}

Result<GraphConfig> GraphConfigFromJsonValue(const json& j) {
  if (!j.is_object()) return Status::InvalidArgument("graph config: must be a JSON object");
  // "rounds" is the daemon's schedule (api/round_schedule.h), not the device's policy.
  LDPGRAPH_RETURN_IF_ERROR(
      OnlyKnownKeys(j, "", {"graph_id", "num_users", "edges", "features", "label", "embedding", "rounds"}));
  GraphConfig c;
  auto id = UnsignedField<std::uint64_t>(j, "", "graph_id", true, 0);
  if (!id.ok()) return id.status();
  c.graph_id = *id;
  auto n = UnsignedField<std::uint32_t>(j, "", "num_users", true, 0);
  if (!n.ok()) return n.status();
  c.num_users = *n;
  // An embedding graph's owner sends no edges: "edges" may be left out.
  auto embedding = Member(j, "", "embedding", false);
  if (!embedding.ok()) return embedding.status();
  if (*embedding && !(*embedding)->is_null()) LDPGRAPH_RETURN_IF_ERROR(ParseEmbedding(**embedding, &c.embedding));
  auto edges = Member(j, "", "edges", !c.embedding.enabled);
  if (!edges.ok()) return edges.status();
  if (*edges) {
    LDPGRAPH_RETURN_IF_ERROR(ParseEdges(**edges, &c.edges));
    if (c.embedding.enabled && c.edges.mechanism != EdgeMechanism::kNone) {
      return Status::InvalidArgument("graph config: an embedding graph takes no edges (leave \"edges\" out)");
    }
  } else {
    c.edges.mechanism = EdgeMechanism::kNone;
    c.edges.epsilon = std::numeric_limits<double>::infinity();
  }
  auto features = Member(j, "", "features", false);
  if (!features.ok()) return features.status();
  if (*features && !(*features)->is_null()) LDPGRAPH_RETURN_IF_ERROR(ParseFeatures(**features, &c.features));
  auto label = Member(j, "", "label", false);
  if (!label.ok()) return label.status();
  if (*label && !(*label)->is_null()) LDPGRAPH_RETURN_IF_ERROR(ParseLabel(**label, &c.label));
  Status valid = c.Validate();
  if (!valid.ok()) return Status::InvalidArgument("graph config: " + valid.message());
  return c;
}

}  // namespace ldpgraph
