// CSV node datasets: edges.csv with header "source,target" (each undirected
// edge once) or "reporter,neighbour" (directed rows, what ldpgraph perturb
// writes), and optionally labels.csv "node,label". One graph.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sys/stat.h>

#include "dataset/graph_dataset.h"
#include "dataset/text_reader.h"

namespace ldpgraph {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool FileExists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

}  // namespace

Result<GraphDataset> ReadCsv(const std::string& path) {
  const bool folder = IsDirectory(path);
  const std::string edges_path = folder ? path + "/edges.csv" : path;
  Result<TextReader> in = TextReader::Open(edges_path);
  if (!in.ok()) return in.status();
  std::string_view line;
  if (!in->NextLine(&line)) return in->Error("empty file: expected a header");
  const std::string header(line);
  bool directed;
  if (header == "source,target") {
    directed = false;
  } else if (header == "reporter,neighbour") {
    directed = true;
  } else {
    return in->Error("expected the header 'source,target' or 'reporter,neighbour', got '" + header + "'");
  }
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  std::int64_t max_id = -1;
  while (in->NextLine(&line)) {
    if (OnlySpace(line)) continue;
    std::int64_t u = 0, v = 0;
    if (!NextInt(&line, &u) || !SkipSeparator(&line, ',') || !NextInt(&line, &v) || !OnlySpace(line)) {
      return in->Error("expected 'source,target' integers");
    }
    if (u < 0 || v < 0 || u >= 0xFFFFFFFFll || v >= 0xFFFFFFFFll) return in->Error("node id out of range");
    max_id = std::max({max_id, u, v});
    pairs.emplace_back(static_cast<std::uint32_t>(u), static_cast<std::uint32_t>(v));
  }

  GraphDataset ds;
  ds.format = DatasetFormat::kCsv;
  const std::size_t slash = path.find_last_of('/', path.size() > 1 ? path.size() - 2 : 0);
  ds.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (!ds.name.empty() && ds.name.back() == '/') ds.name.pop_back();

  const std::string labels_path = folder ? path + "/labels.csv" : "";
  if (folder && FileExists(labels_path)) {
    Result<TextReader> lab = TextReader::Open(labels_path);
    if (!lab.ok()) return lab.status();
    if (!lab->NextLine(&line) || line != "node,label") return lab->Error("expected the header 'node,label'");
    std::vector<std::pair<std::int64_t, std::int64_t>> entries;
    while (lab->NextLine(&line)) {
      if (OnlySpace(line)) continue;
      std::int64_t node = 0, label = 0;
      if (!NextInt(&line, &node) || !SkipSeparator(&line, ',') || !NextInt(&line, &label) || !OnlySpace(line) || node < 0 ||
          node >= 0xFFFFFFFFll) {
        return lab->Error("expected 'node,label' integers");
      }
      max_id = std::max(max_id, node);
      entries.emplace_back(node, label);
    }
    ds.node_labels.assign(static_cast<std::size_t>(max_id + 1), -1);
    for (auto [node, label] : entries) ds.node_labels[static_cast<std::size_t>(node)] = label;
  }
  const auto n = static_cast<std::uint32_t>(max_id + 1);
  if (directed) {
    std::vector<std::vector<std::uint32_t>> rows(n);
    for (auto [u, v] : pairs) {
      if (u != v) rows[u].push_back(v);
    }
    for (auto& row : rows) {
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    ds.graphs.push_back(CsrGraph::FromRows(rows));
  } else {
    ds.graphs.push_back(CsrGraph::FromUndirectedEdges(n, pairs));
  }
  if (!ds.node_labels.empty()) ds.node_labels.resize(n, -1);

  // features.csv: "node,feature,value", sparse (only non-zeros listed).
  const std::string features_path = folder ? path + "/features.csv" : "";
  if (folder && FileExists(features_path)) {
    Result<TextReader> feat = TextReader::Open(features_path);
    if (!feat.ok()) return feat.status();
    if (!feat->NextLine(&line) || line != "node,feature,value") {
      return feat->Error("expected the header 'node,feature,value'");
    }
    struct Entry {
      std::uint32_t node, feature;
      float value;
    };
    std::vector<Entry> entries;
    std::uint32_t dims = 0;
    while (feat->NextLine(&line)) {
      if (OnlySpace(line)) continue;
      std::int64_t node = 0, feature = 0;
      if (!NextInt(&line, &node) || !SkipSeparator(&line, ',') || !NextInt(&line, &feature) ||
          !SkipSeparator(&line, ',')) {
        return feat->Error("expected 'node,feature,value'");
      }
      const std::string text(line);
      char* end = nullptr;
      const float value = std::strtof(text.c_str(), &end);
      if (end == text.c_str() || !OnlySpace(end) || !std::isfinite(value)) {
        return feat->Error("feature value '" + text + "' is not a finite number");
      }
      if (node < 0 || node >= static_cast<std::int64_t>(n)) return feat->Error("node id outside the graph");
      if (feature < 0 || feature >= (1 << 24)) return feat->Error("feature index outside [0, 2^24)");
      dims = std::max(dims, static_cast<std::uint32_t>(feature + 1));
      entries.push_back({static_cast<std::uint32_t>(node), static_cast<std::uint32_t>(feature), value});
    }
    ds.feature_dims = dims;
    ds.node_features.assign(static_cast<std::size_t>(n) * dims, 0.0f);
    for (const Entry& e : entries) ds.node_features[static_cast<std::size_t>(e.node) * dims + e.feature] = e.value;
  }
  return ds;
}

Status WriteCsv(const GraphDataset& ds, const std::string& folder) {
  ::mkdir(folder.c_str(), 0755);
  std::ofstream edges(folder + "/edges.csv", std::ios::trunc);
  if (!edges) return Status::Unavailable("cannot create " + folder + "/edges.csv");
  edges << "reporter,neighbour\n";
  for (const CsrGraph& graph : ds.graphs) {
    std::string buf;
    for (std::uint32_t i = 0; i < graph.num_nodes(); ++i) {
      for (std::uint32_t v : graph.neighbours(i)) buf += std::to_string(i) + "," + std::to_string(v) + "\n";
    }
    edges << buf;
  }
  if (!ds.node_labels.empty()) {
    std::ofstream labels(folder + "/labels.csv", std::ios::trunc);
    labels << "node,label\n";
    for (std::size_t i = 0; i < ds.node_labels.size(); ++i) {
      if (ds.node_labels[i] >= 0) labels << i << "," << ds.node_labels[i] << "\n";
    }
    if (!labels) return Status::Unavailable("cannot write " + folder + "/labels.csv");
  }
  edges.flush();
  if (!edges) return Status::Unavailable("cannot write " + folder + "/edges.csv");
  return Status::Ok();
}

}  // namespace ldpgraph
