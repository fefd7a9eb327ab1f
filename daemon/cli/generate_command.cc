// ldpgraph generate: synthetic datasets: graph classification as s2v files
// (communities, ba, er), node classification as CSV folders (sbm).
#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "dataset/generators.h"
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
  Result<std::string> output = flags->String("output");
  if (!output.ok()) return usage(output.status().message());
  const std::string kind = flags->StringOr("kind", "communities");
  Result<std::uint64_t> graphs = flags->Unsigned("graphs", kind == "communities" ? 200 : 1);
  Result<std::uint64_t> nodes = flags->Unsigned("nodes", kind == "sbm" ? 10000 : 1000);
  Result<std::uint64_t> min_nodes = flags->Unsigned("min-nodes", 60);
  Result<std::uint64_t> max_nodes = flags->Unsigned("max-nodes", 140);
  Result<std::uint64_t> m = flags->Unsigned("m", 3);
  Result<double> p = flags->Double("p", 0.01);
  Result<double> degree = flags->Double("degree", kind == "sbm" ? 10.0 : 4.0);
  const NodeDatasetSpec node_defaults;
  Result<std::uint64_t> classes = flags->Unsigned("classes", node_defaults.classes);
  Result<std::uint64_t> features = flags->Unsigned("features", node_defaults.features);
  Result<std::uint64_t> words = flags->Unsigned("words", node_defaults.words);
  Result<double> homophily = flags->Double("homophily", node_defaults.homophily);
  Result<double> signal = flags->Double("signal", node_defaults.signal);
  Result<std::vector<double>> shares = flags->DoubleList("class-shares", {});
  Result<double> exponent = flags->Double("degree-exponent", node_defaults.degree_exponent);
  Result<std::uint64_t> max_degree = flags->Unsigned("max-degree", node_defaults.max_degree);
  Result<double> bridges = flags->Double("bridge-fraction", node_defaults.bridge_fraction);
  Result<double> misfits = flags->Double("misfit-fraction", node_defaults.misfit_fraction);
  for (const Status* s : {&shares.status(), &exponent.status(), &max_degree.status(), &bridges.status(),
                          &misfits.status()}) {
    if (!s->ok()) return usage(s->message());
  }
  Result<std::uint64_t> seed = flags->Unsigned("seed", 0);
  for (const Status* s : {&graphs.status(), &nodes.status(), &min_nodes.status(), &max_nodes.status(), &m.status(),
                          &p.status(), &degree.status(), &seed.status(), &classes.status(), &features.status(),
                          &words.status(), &homophily.status(), &signal.status()}) {
    if (!s->ok()) return usage(s->message());
  }
  if (*graphs < 1 || *graphs > 10000000) return usage("--graphs must be in [1, 10^7]");
  SeededRandomSource rng(*seed);
  GraphDataset ds;
  if (kind == "communities") {
    if (*min_nodes < 4 || *max_nodes < *min_nodes || *max_nodes > 10000000) {
      return usage("need 4 <= --min-nodes <= --max-nodes <= 10^7");
    }
    if (!(*degree > 0)) return usage("--degree must be positive");
    SyntheticSpec spec;
    spec.graphs = static_cast<std::uint32_t>(*graphs);
    spec.min_nodes = static_cast<std::uint32_t>(*min_nodes);
    spec.max_nodes = static_cast<std::uint32_t>(*max_nodes);
    spec.mean_degree = *degree;
    ds = SyntheticCommunities(spec, rng);
  } else if (kind == "ba" || kind == "er") {
    if (*nodes < 2 || *nodes > 100000000) return usage("--nodes must be in [2, 10^8]");
    if (kind == "ba" && (*m < 1 || *m >= *nodes)) return usage("--m must be in [1, nodes)");
    if (kind == "er" && !(*p >= 0 && *p <= 1)) return usage("--p must be in [0, 1]");
    ds.format = DatasetFormat::kS2v;
    ds.name = kind;
    for (std::uint64_t g = 0; g < *graphs; ++g) {
      const auto n = static_cast<std::uint32_t>(*nodes);
      ds.graphs.push_back(kind == "ba" ? BarabasiAlbert(n, static_cast<std::uint32_t>(*m), rng) : ErdosRenyi(n, *p, rng));
      ds.raw_labels.push_back(0);
    }
    MapLabels(&ds);
  } else if (kind == "sbm") {
    if (*graphs != 1) return usage("--kind sbm makes one graph (node classification): --graphs must be 1");
    if (*classes < 2 || *classes > 1000) return usage("--classes must be in [2, 1000]");
    if (*nodes < 2 * *classes || *nodes > 100000000) return usage("--nodes must be in [2 * classes, 10^8]");
    if (!(*degree > 0) || *degree > static_cast<double>(*nodes) / 2) return usage("--degree must be in (0, nodes / 2]");
    if (*max_degree >= *nodes) return usage("--max-degree must be below --nodes");
    if (*features != 0 && (*features < *classes || *features > (1u << 24))) {
      return usage("--features must be 0 or in [classes, 2^24]");
    }
    if (*features != 0 && (*words < 1 || *words > *features)) return usage("--words must be in [1, features]");
    if (!(*homophily >= 0 && *homophily <= 1)) return usage("--homophily must be in [0, 1]");
    if (!(*signal >= 0 && *signal <= 1)) return usage("--signal must be in [0, 1]");
    NodeDatasetSpec spec;
    spec.nodes = static_cast<std::uint32_t>(*nodes);
    spec.classes = static_cast<std::uint32_t>(*classes);
    spec.mean_degree = *degree;
    spec.homophily = *homophily;
    spec.features = static_cast<std::uint32_t>(*features);
    spec.words = static_cast<std::uint32_t>(*words);
    spec.signal = *signal;
    spec.class_shares = *shares;
    spec.degree_exponent = *exponent;
    spec.max_degree = static_cast<std::uint32_t>(*max_degree);
    spec.bridge_fraction = *bridges;
    spec.misfit_fraction = *misfits;
    if (Status s = CheckNodeDatasetSpec(spec); !s.ok()) return usage(s.message());
    ds = SyntheticNodeDataset(spec, rng);
  } else {
    return usage("--kind must be communities, ba, er or sbm");
  }
  Status s = WriteDataset(ds, *output);
  if (!s.ok()) {
    std::fprintf(stderr, "ldpgraph generate: %s\n", s.ToString().c_str());
    return 1;
  }
  std::cout << "kind=" << kind << "\ngraphs=" << ds.graphs.size() << "\nnodes=" << ds.num_nodes()
            << "\nedges=" << ds.num_entries() / 2;
  if (kind == "sbm") std::cout << "\nfeatures=" << ds.feature_dims << "\nfeature_nonzeros=" << ds.node_features.nnz();
  std::cout << "\noutput=" << *output << "\n";
  return 0;
}

}  // namespace ldpgraph
