// The s2v text format: "G", then per graph "n label" and n node lines
// "tag k nb_1 ... nb_k" with 0-based neighbour ids inside the graph.
#include <algorithm>
#include <fstream>

#include "dataset/graph_dataset.h"
#include "dataset/text_reader.h"

namespace ldpgraph {
namespace {

// Sorts a row, drops repeats and self-loops.
void CleanRow(std::uint32_t self, std::vector<std::uint32_t>* row) {
  std::sort(row->begin(), row->end());
  row->erase(std::unique(row->begin(), row->end()), row->end());
  row->erase(std::remove(row->begin(), row->end(), self), row->end());
}

}  // namespace

Result<GraphDataset> ReadS2v(const std::string& path) {
  Result<TextReader> opened = TextReader::Open(path);
  if (!opened.ok()) return opened.status();
  TextReader& in = *opened;
  GraphDataset ds;
  ds.format = DatasetFormat::kS2v;
  const std::size_t slash = path.find_last_of('/');
  ds.name = path.substr(slash == std::string::npos ? 0 : slash + 1);
  if (ds.name.size() > 4 && ds.name.compare(ds.name.size() - 4, 4, ".txt") == 0) {
    ds.name.resize(ds.name.size() - 4);
  }

  std::string_view line;
  std::int64_t num_graphs = 0;
  if (!in.NextLine(&line) || !NextInt(&line, &num_graphs) || !OnlySpace(line) || num_graphs < 0) {
    return in.Error("expected the number of graphs");
  }
  std::vector<std::vector<std::uint32_t>> rows;
  for (std::int64_t g = 0; g < num_graphs; ++g) {
    std::int64_t n = 0, label = 0;
    if (!in.NextLine(&line)) return in.Error("file ends before graph " + std::to_string(g));
    if (!NextInt(&line, &n) || !NextInt(&line, &label) || !OnlySpace(line) || n < 0 ||
        n > 0xFFFFFFFFll) {
      return in.Error("expected 'nodes label' for graph " + std::to_string(g));
    }
    rows.assign(static_cast<std::size_t>(n), {});
    for (std::int64_t i = 0; i < n; ++i) {
      std::int64_t tag = 0, k = 0;
      if (!in.NextLine(&line)) return in.Error("file ends inside graph " + std::to_string(g));
      if (!NextInt(&line, &tag) || !NextInt(&line, &k) || k < 0) {
        return in.Error("expected 'tag degree neighbours...'");
      }
      ds.node_tags.push_back(tag);
      auto& row = rows[static_cast<std::size_t>(i)];
      row.reserve(static_cast<std::size_t>(std::min<std::int64_t>(k, n)));
      for (std::int64_t j = 0; j < k; ++j) {
        std::int64_t v = 0;
        if (!NextInt(&line, &v)) {
          return in.Error("expected " + std::to_string(k) + " neighbours, found " + std::to_string(j));
        }
        if (v < 0 || v >= n) {
          return in.Error("neighbour " + std::to_string(v) + " outside the graph's " +
                          std::to_string(n) + " nodes");
        }
        row.push_back(static_cast<std::uint32_t>(v));
      }
      if (!OnlySpace(line)) return in.Error("more than the " + std::to_string(k) + " neighbours announced");
      CleanRow(static_cast<std::uint32_t>(i), &row);
    }
    ds.graphs.push_back(CsrGraph::FromRows(rows));
    ds.raw_labels.push_back(label);
  }
  while (in.NextLine(&line)) {
    if (!OnlySpace(line)) return in.Error("unexpected content after the last graph");
  }
  if (std::all_of(ds.node_tags.begin(), ds.node_tags.end(), [](std::int64_t t) { return t == 0; })) {
    ds.node_tags.clear();
  }
  MapLabels(&ds);
  return ds;
}

Status WriteS2v(const GraphDataset& ds, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Unavailable("cannot create " + path);
  std::string buf;
  buf += std::to_string(ds.graphs.size()) + "\n";
  std::size_t node = 0;  // into node_tags
  for (std::size_t g = 0; g < ds.graphs.size(); ++g) {
    const CsrGraph& graph = ds.graphs[g];
    const std::int64_t label = g < ds.raw_labels.size() ? ds.raw_labels[g] : 0;
    buf += std::to_string(graph.num_nodes()) + " " + std::to_string(label) + "\n";
    for (std::uint32_t i = 0; i < graph.num_nodes(); ++i) {
      const std::int64_t tag = node < ds.node_tags.size() ? ds.node_tags[node] : 0;
      ++node;
      buf += std::to_string(tag) + " " + std::to_string(graph.degree(i));
      for (std::uint32_t v : graph.neighbours(i)) buf += " " + std::to_string(v);
      buf += "\n";
    }
    if (buf.size() > (1u << 20)) {
      out << buf;
      buf.clear();
    }
  }
  out << buf;
  out.flush();
  if (!out) return Status::Unavailable("cannot write " + path);
  return Status::Ok();
}

}  // namespace ldpgraph
