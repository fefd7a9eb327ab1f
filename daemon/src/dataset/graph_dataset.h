// GraphDataset: a set of graphs read from one of the formats of
// ../shared/data (see its README), and the readers and writers for them.
//   s2v: one text file, graphs with per-node neighbour lists (GIN, DPRR code)
//   TU:  a folder NAME_A.txt, NAME_graph_indicator.txt, NAME_graph_labels.txt
//   CSV: a folder with edges.csv (and labels.csv), or an edge-list .csv file;
//        one graph (node classification)
// Every malformed input is an error naming the file and line; nothing crashes.
#ifndef LDPGRAPH_DAEMON_DATASET_GRAPH_DATASET_H_
#define LDPGRAPH_DAEMON_DATASET_GRAPH_DATASET_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/sparse_matrix.h"
#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

enum class DatasetFormat { kS2v, kTu, kCsv };

const char* DatasetFormatName(DatasetFormat format);

struct GraphDataset {
  DatasetFormat format = DatasetFormat::kS2v;
  std::string name;                      // TU prefix or file stem
  std::vector<CsrGraph> graphs;
  std::vector<std::int64_t> raw_labels;  // one per graph (s2v, TU); empty for CSV
  std::vector<std::uint32_t> labels;     // raw labels mapped to 0..C-1 in sorted order
  std::uint32_t num_classes = 0;
  // s2v: every node's tag (MUTAG's atom type, PROTEINS' structure type),
  // graph after graph; empty when every tag is 0 (nothing to tell apart).
  std::vector<std::int64_t> node_tags;
  // CSV node datasets: per-node labels when labels.csv exists (-1: none),
  // and features from features.csv as CSR (num nodes x feature_dims, the
  // non-zeros only; no stored weights when every value is 1).
  std::vector<std::int64_t> node_labels;
  std::uint32_t feature_dims = 0;
  SparseMatrix node_features;

  std::uint64_t num_nodes() const;
  std::uint64_t num_entries() const;     // directed row entries over all graphs
  std::uint32_t max_nodes() const;
};

// Which format `path` holds: a folder with *_A.txt is TU, a folder with
// edges.csv or a *.csv file is CSV, any other file is s2v.
Result<DatasetFormat> DetectDatasetFormat(const std::string& path);

Result<GraphDataset> ReadDataset(const std::string& path);
Result<GraphDataset> ReadS2v(const std::string& path);
Result<GraphDataset> ReadTu(const std::string& folder);
Result<GraphDataset> ReadCsv(const std::string& path);

// Writes `dataset` in its own format at `path` (a file for s2v, a folder for
// TU and CSV, created if missing). Rows are written as stored (directed);
// a CSV dataset's labels and features too.
Status WriteDataset(const GraphDataset& dataset, const std::string& path);

// Maps raw labels to 0..C-1 by sorted distinct value; fills labels/num_classes.
void MapLabels(GraphDataset* dataset);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_DATASET_GRAPH_DATASET_H_
