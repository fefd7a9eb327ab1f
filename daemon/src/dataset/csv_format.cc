// CSV node datasets: edges.csv with header "source,target" (each undirected
// edge once) or "reporter,neighbour" (directed rows, what ldpgraph perturb
// writes), and optionally labels.csv "node,label". One graph.
#include <algorithm>
#include <cmath>
#include <cstdio>
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
      std::size_t line;
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
      if (value != 0.0f) {
        entries.push_back({static_cast<std::uint32_t>(node), static_cast<std::uint32_t>(feature), value,
                           feat->line_number()});
      }
    }
    // CSR by node then feature; the file may list them in any order.
    std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return a.node != b.node ? a.node < b.node : a.feature != b.feature ? a.feature < b.feature : a.line < b.line;
    });
    SparseMatrix& x = ds.node_features;
    x.rows = n;
    x.cols = dims;
    x.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
    x.indices.reserve(entries.size());
    bool unit = true;
    for (std::size_t k = 0; k < entries.size(); ++k) {
      const Entry& e = entries[k];
      if (k > 0 && e.node == entries[k - 1].node && e.feature == entries[k - 1].feature) {
        return Status::InvalidArgument(features_path + ":" + std::to_string(e.line) + ": feature " +
                                       std::to_string(e.feature) + " of node " + std::to_string(e.node) +
                                       " listed twice (first on line " + std::to_string(entries[k - 1].line) + ")");
      }
      ++x.offsets[e.node + 1];
      x.indices.push_back(static_cast<std::int32_t>(e.feature));
      unit = unit && e.value == 1.0f;
    }
    for (std::size_t i = 0; i < n; ++i) x.offsets[i + 1] += x.offsets[i];
    if (!unit) {
      x.values.reserve(entries.size());
      for (const Entry& e : entries) x.values.push_back(e.value);
    }
    ds.feature_dims = dims;
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
  if (ds.feature_dims > 0) {
    const SparseMatrix& x = ds.node_features;
    std::ofstream features(folder + "/features.csv", std::ios::trunc);
    features << "node,feature,value\n";
    std::string buf;
    char value[32];
    for (std::int64_t i = 0; i < x.rows; ++i) {
      for (std::int64_t k = x.offsets[i]; k < x.offsets[i + 1]; ++k) {
        std::snprintf(value, sizeof(value), "%.9g", x.unit_weights() ? 1.0f : x.values[k]);
        buf += std::to_string(i) + "," + std::to_string(x.indices[k]) + "," + value + "\n";
      }
      if (buf.size() > (1 << 20)) {
        features << buf;
        buf.clear();
      }
    }
    features << buf;
    features.flush();
    if (!features) return Status::Unavailable("cannot write " + folder + "/features.csv");
  }
  edges.flush();
  if (!edges) return Status::Unavailable("cannot write " + folder + "/edges.csv");
  return Status::Ok();
}

}  // namespace ldpgraph
