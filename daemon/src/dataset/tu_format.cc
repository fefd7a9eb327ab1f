// The TU (TUDataset) format: NAME_A.txt ("u, v" per directed edge, 1-based
// global node ids), NAME_graph_indicator.txt (graph of node i, 1-based),
// NAME_graph_labels.txt (label of graph g).
#include <algorithm>
#include <dirent.h>
#include <fstream>
#include <sys/stat.h>

#include "dataset/graph_dataset.h"
#include "dataset/text_reader.h"

namespace ldpgraph {
namespace {

// The NAME of the single NAME_A.txt in `folder`.
Result<std::string> TuName(const std::string& folder) {
  DIR* dir = ::opendir(folder.c_str());
  if (dir == nullptr) return Status::Unavailable("cannot open folder " + folder);
  std::vector<std::string> names;
  while (dirent* e = ::readdir(dir)) {
    const std::string file = e->d_name;
    if (file.size() > 6 && file.compare(file.size() - 6, 6, "_A.txt") == 0) {
      names.push_back(file.substr(0, file.size() - 6));
    }
  }
  ::closedir(dir);
  if (names.size() != 1) {
    return Status::InvalidArgument(folder + ": expected exactly one NAME_A.txt, found " +
                                   std::to_string(names.size()));
  }
  return names[0];
}

}  // namespace

Result<GraphDataset> ReadTu(const std::string& folder) {
  Result<std::string> name = TuName(folder);
  if (!name.ok()) return name.status();
  const std::string prefix = folder + "/" + *name;
  GraphDataset ds;
  ds.format = DatasetFormat::kTu;
  ds.name = *name;

  // Graph of every node, and each node's index inside its graph.
  Result<TextReader> indicator = TextReader::Open(prefix + "_graph_indicator.txt");
  if (!indicator.ok()) return indicator.status();
  std::vector<std::uint32_t> graph_of, local;
  std::vector<std::uint32_t> sizes;
  std::string_view line;
  while (indicator->NextLine(&line)) {
    if (OnlySpace(line)) continue;
    std::int64_t g = 0;
    if (!NextInt(&line, &g) || !OnlySpace(line) || g < 1 || g > 0xFFFFFFFFll) {
      return indicator->Error("expected a 1-based graph id");
    }
    const auto gi = static_cast<std::uint32_t>(g - 1);
    if (gi >= sizes.size()) sizes.resize(gi + 1, 0);
    graph_of.push_back(gi);
    local.push_back(sizes[gi]++);
  }

  Result<TextReader> labels = TextReader::Open(prefix + "_graph_labels.txt");
  if (!labels.ok()) return labels.status();
  while (labels->NextLine(&line)) {
    if (OnlySpace(line)) continue;
    std::int64_t label = 0;
    if (!NextInt(&line, &label) || !OnlySpace(line)) return labels->Error("expected a graph label");
    ds.raw_labels.push_back(label);
  }
  if (ds.raw_labels.size() < sizes.size()) {
    return Status::InvalidArgument(prefix + "_graph_labels.txt: " +
                                   std::to_string(ds.raw_labels.size()) + " labels for " +
                                   std::to_string(sizes.size()) + " graphs");
  }
  sizes.resize(ds.raw_labels.size(), 0);

  Result<TextReader> edges = TextReader::Open(prefix + "_A.txt");
  if (!edges.ok()) return edges.status();
  std::vector<std::vector<std::vector<std::uint32_t>>> rows(sizes.size());
  for (std::size_t g = 0; g < sizes.size(); ++g) rows[g].resize(sizes[g]);
  while (edges->NextLine(&line)) {
    if (OnlySpace(line)) continue;
    std::int64_t u = 0, v = 0;
    if (!NextInt(&line, &u) || !SkipSeparator(&line, ',') || !NextInt(&line, &v) || !OnlySpace(line)) {
      return edges->Error("expected 'u, v'");
    }
    if (u < 1 || v < 1 || u > static_cast<std::int64_t>(graph_of.size()) ||
        v > static_cast<std::int64_t>(graph_of.size())) {
      return edges->Error("node id outside 1.." + std::to_string(graph_of.size()));
    }
    const auto ui = static_cast<std::size_t>(u - 1), vi = static_cast<std::size_t>(v - 1);
    if (graph_of[ui] != graph_of[vi]) return edges->Error("edge joins two different graphs");
    if (ui == vi) continue;
    rows[graph_of[ui]][local[ui]].push_back(local[vi]);
  }
  for (auto& graph_rows : rows) {
    for (auto& row : graph_rows) {
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
    }
    ds.graphs.push_back(CsrGraph::FromRows(graph_rows));
  }
  MapLabels(&ds);
  return ds;
}

Status WriteTu(const GraphDataset& ds, const std::string& folder) {
  ::mkdir(folder.c_str(), 0755);
  const std::string prefix = folder + "/" + (ds.name.empty() ? std::string("GRAPHS") : ds.name);
  std::ofstream a(prefix + "_A.txt", std::ios::trunc), ind(prefix + "_graph_indicator.txt", std::ios::trunc),
      lab(prefix + "_graph_labels.txt", std::ios::trunc);
  if (!a || !ind || !lab) return Status::Unavailable("cannot create the TU files under " + folder);
  std::uint64_t base = 1;
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    const CsrGraph& graph = ds.graphs[g];
    std::string buf;
    for (std::uint32_t i = 0; i < graph.num_nodes(); ++i) {
      ind << (g + 1) << "\n";
      for (std::uint32_t v : graph.neighbours(i)) {
        buf += std::to_string(base + i) + ", " + std::to_string(base + v) + "\n";
      }
    }
    a << buf;
    lab << (g < ds.raw_labels.size() ? ds.raw_labels[g] : 0) << "\n";
    base += graph.num_nodes();
  }
  a.flush();
  ind.flush();
  lab.flush();
  if (!a || !ind || !lab) return Status::Unavailable("cannot write the TU files under " + folder);
  return Status::Ok();
}

}  // namespace ldpgraph
