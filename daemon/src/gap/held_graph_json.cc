#include "gap/held_graph_json.h"

#include <string>

namespace ldpgraph {
namespace {

using nlohmann::json;

bool IsUnsigned(const json& j) { return j.is_number_unsigned() || (j.is_number_integer() && j.get<std::int64_t>() >= 0); }

}  // namespace

Result<HeldGraphParts> HeldGraphPartsFromJson(const json& body, std::uint64_t id) {
  for (const char* key : {"num_nodes", "classes", "feature_dims"}) {
    if (!body.contains(key) || !IsUnsigned(body[key])) {
      return Status::InvalidArgument(std::string("\"") + key + "\" must be an unsigned integer");
    }
  }
  for (const char* key : {"edges", "features", "labels"}) {
    if (!body.contains(key) || !body[key].is_array()) return Status::InvalidArgument(std::string("\"") + key + "\" must be an array");
  }
  HeldGraphParts p;
  p.id = id;
  p.num_nodes = body["num_nodes"].get<std::uint64_t>();
  p.classes = body["classes"].get<std::uint64_t>();
  p.feature_dims = body["feature_dims"].get<std::uint64_t>();
  const json& edges = body["edges"];
  p.edges.reserve(edges.size());
  for (std::size_t i = 0; i < edges.size(); ++i) {
    const json& e = edges[i];
    if (!e.is_array() || e.size() != 2 || !IsUnsigned(e[0]) || !IsUnsigned(e[1])) {
      return Status::InvalidArgument("edges[" + std::to_string(i) + "] must be [u, v] with unsigned integers");
    }
    p.edges.emplace_back(e[0].get<std::uint64_t>(), e[1].get<std::uint64_t>());
  }
  const json& features = body["features"];
  p.features.reserve(features.size());
  for (std::size_t i = 0; i < features.size(); ++i) {
    const json& f = features[i];
    if (!f.is_array() || f.size() != 3 || !IsUnsigned(f[0]) || !IsUnsigned(f[1]) || !f[2].is_number()) {
      return Status::InvalidArgument("features[" + std::to_string(i) +
                                     "] must be [node, feature, value] with unsigned integers and a number");
    }
    p.features.push_back({f[0].get<std::uint64_t>(), f[1].get<std::uint64_t>(), f[2].get<double>()});
  }
  for (std::size_t i = 0; i < body["labels"].size(); ++i) {
    const json& y = body["labels"][i];
    if (!y.is_number_integer()) return Status::InvalidArgument("labels[" + std::to_string(i) + "] must be an integer");
    p.labels.push_back(y.get<std::int64_t>());
  }
  for (const char* key : {"keys", "border"}) {
    if (body.contains(key) && !body[key].is_array()) return Status::InvalidArgument(std::string("\"") + key + "\" must be an array");
  }
  if (body.contains("keys")) {
    for (std::size_t i = 0; i < body["keys"].size(); ++i) {
      const json& k = body["keys"][i];
      if (!IsUnsigned(k)) return Status::InvalidArgument("keys[" + std::to_string(i) + "] must be an unsigned integer");
      p.keys.push_back(k.get<std::uint64_t>());
    }
  }
  if (body.contains("border")) {
    for (std::size_t i = 0; i < body["border"].size(); ++i) {
      const json& b = body["border"][i];
      if (!b.is_array() || b.size() != 3 || !IsUnsigned(b[0]) || !b[1].is_string() || !IsUnsigned(b[2])) {
        return Status::InvalidArgument("border[" + std::to_string(i) + "] must be [node, \"party\", key]");
      }
      p.border.push_back({b[0].get<std::uint64_t>(), b[1].get<std::string>(), b[2].get<std::uint64_t>()});
    }
  }
  return p;
}


std::string HeldGraphUploadJson(const HeldGraphParts& p) {
  json edges = json::array(), features = json::array(), border = json::array();
  for (const auto& [u, v] : p.edges) edges.push_back({u, v});
  for (const HeldGraphParts::Entry& e : p.features) features.push_back({e.node, e.feature, e.value});
  json body = {{"num_nodes", p.num_nodes}, {"classes", p.classes}, {"feature_dims", p.feature_dims},
               {"edges", edges},           {"features", features}, {"labels", p.labels}};
  if (!p.keys.empty()) {
    for (const HeldGraphParts::Border& b : p.border) border.push_back({b.node, b.party, b.key});
    body["keys"] = p.keys;
    body["border"] = border;
  }
  return body.dump();
}

}  // namespace ldpgraph
