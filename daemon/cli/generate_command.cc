// ldpgraph generate: synthetic datasets: graph classification as s2v files
// (communities, ba, er), node classification as CSV folders (sbm).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "dataset/generators.h"
#include "util/flag_reader.h"
#include "util/flags.h"

namespace ldpgraph {

int RunGenerateCommand(const std::vector<std::string>& args) {
  Result<Flags> flags =
      Flags::Parse(args, {"kind", "graphs", "nodes", "min-nodes", "max-nodes", "m", "p", "degree", "seed", "output", "classes",
                            "features", "words", "homophily", "signal", "class-shares", "degree-exponent",
                            "max-degree", "bridge-fraction", "misfit-fraction"});
  auto usage = [](const std::string& m) {
    std::fprintf(stderr, "ldpgraph generate: %s\n", m.c_str());
    return 2;
  };
  if (!flags.ok()) return usage(flags.status().message());
  std::string kind = "communities", output;
  FlagReader read(*flags);
  read.Required("output", &output).Choice("kind", &kind, {"communities", "ba", "er", "sbm"});
  if (!read.ok()) return usage(read.status().message());
  // Graph datasets (communities, ba, er), then the node dataset's (sbm):
  // each option's defaults, overwritten by the flags given.
  std::uint32_t graphs = kind == "communities" ? 200 : 1, m = 3;
  std::uint64_t seed = 0;
  double p = 0.01;
  SyntheticSpec communities;
  NodeDatasetSpec sbm;
  sbm.nodes = kind == "sbm" ? 10000 : 1000;
  communities.mean_degree = 4.0;
  sbm.mean_degree = kind == "sbm" ? 10.0 : 4.0;
  read.Unsigned("graphs", &graphs, 1, 10000000)
      .Unsigned("nodes", &sbm.nodes, 2, 100000000)
      .Unsigned("min-nodes", &communities.min_nodes, 4, 10000000)
      .Unsigned("max-nodes", &communities.max_nodes, 4, 10000000)
      .Unsigned("m", &m, 1, 100000000)
      .Double("p", &p, 0, 1)
      .Double("degree", &sbm.mean_degree, 1e-9, 1e8)
      .Unsigned("seed", &seed, 0, UINT64_MAX)
      .Unsigned("classes", &sbm.classes, 2, 1000)
      .Unsigned("features", &sbm.features, 0, 1u << 24)
      .Unsigned("words", &sbm.words, 1, 1u << 24)
      .Double("homophily", &sbm.homophily, 0, 1)
      .Double("signal", &sbm.signal, 0, 1)
      .Doubles("class-shares", &sbm.class_shares)
      .Double("degree-exponent", &sbm.degree_exponent, 0, 10)
      .Unsigned("max-degree", &sbm.max_degree, 0, 100000000)
      .Double("bridge-fraction", &sbm.bridge_fraction, 0, 1)
      .Double("misfit-fraction", &sbm.misfit_fraction, 0, 1);
  if (!read.ok()) return usage(read.status().message());
  communities.graphs = graphs;
  communities.mean_degree = sbm.mean_degree;
  SeededRandomSource rng(seed);
  GraphDataset ds;
  if (kind == "communities") {
    if (communities.max_nodes < communities.min_nodes) return usage("need --min-nodes <= --max-nodes");
    ds = SyntheticCommunities(communities, rng);
  } else if (kind == "ba" || kind == "er") {
    if (kind == "ba" && m >= sbm.nodes) return usage("--m must be in [1, nodes)");
    ds.format = DatasetFormat::kS2v;
    ds.name = kind;
    for (std::uint32_t g = 0; g < graphs; ++g) {
      ds.graphs.push_back(kind == "ba" ? BarabasiAlbert(sbm.nodes, m, rng) : ErdosRenyi(sbm.nodes, p, rng));
      ds.raw_labels.push_back(0);
    }
    MapLabels(&ds);
  } else {
    if (graphs != 1) return usage("--kind sbm makes one graph (node classification): --graphs must be 1");
    if (sbm.nodes < 2 * sbm.classes) return usage("--nodes must be in [2 * classes, 10^8]");
    if (sbm.mean_degree > static_cast<double>(sbm.nodes) / 2) return usage("--degree must be in (0, nodes / 2]");
    if (sbm.max_degree >= sbm.nodes) return usage("--max-degree must be below --nodes");
    if (sbm.features != 0 && sbm.features < sbm.classes) return usage("--features must be 0 or in [classes, 2^24]");
    if (sbm.features != 0 && sbm.words > sbm.features) return usage("--words must be in [1, features]");
    if (Status s = CheckNodeDatasetSpec(sbm); !s.ok()) return usage(s.message());
    ds = SyntheticNodeDataset(sbm, rng);
  }
  Status s = WriteDataset(ds, output);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph generate: %s\n", s.ToString().c_str());
    return 1;
  }
  std::cout << "kind=" << kind << "\ngraphs=" << ds.graphs.size() << "\nnodes=" << ds.num_nodes()
            << "\nedges=" << ds.num_entries() / 2;
  if (kind == "sbm") std::cout << "\nfeatures=" << ds.feature_dims << "\nfeature_nonzeros=" << ds.node_features.nnz();
  std::cout << "\noutput=" << output << "\n";
  return 0;
}

}  // namespace ldpgraph
