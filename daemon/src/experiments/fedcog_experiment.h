// ldpgraph experiment fedcog (issue 24): one graph's users dealt to parties
// (federation/partition.h), each party holding its users' features, labels
// and friendships, and a node classifier trained three ways:
//   fedcog       FedCog-SGC (federation/federated_sgc.h): propagation over
//                the whole graph by exchanging partial sums, then rounds of
//                party gradients averaged by the parameter server;
//   fedcog-lnnc  the same with LNNC (federation/lnnc.h), the paper's
//                privacy-enhanced variant;
//   local        each party alone on its own users and the friendships among
//                them (cross-party edges dropped), its own model;
//   centralised  SGC with the whole graph in one place (parties = 1);
//   gcn          GCN with the whole graph in one place, as `ldpgraph train`;
//   fedcog-tls   FedCog-SGC by real ldpgraphd processes on loopback, one per
//                party, exchanging over mutual TLS (FedCogExperimentOptions::
//                over_tls): each party splits its own labelled users
//                (50/25/25, seeded by the split), as a party would, so its
//                users are not the other methods' (same proportions).
// The first three run every party in this process. Rows in DIR/results.csv:
//   dataset,partition,parties,method,split,accuracy,val_accuracy,cross_edges,propagation_bytes,round_bytes,seconds
// propagation_bytes: what the parties send each other to propagate (once);
// round_bytes: gradients up and weights down in one training round.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_FEDCOG_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_FEDCOG_EXPERIMENT_H_

#include <functional>
#include <string>
#include <vector>

#include "dataset/graph_dataset.h"
#include "gap/held_graph.h"

namespace ldpgraph {

// One FedCog run by real parties: what fedcog-tls needs from the service
// side (the CLI builds it on testbed/loopback_federation.h).
struct FedCogTlsResult {
  double test_accuracy = 0, val_accuracy = 0;
  std::uint64_t propagation_bytes = 0, round_bytes = 0;  // sent by all parties together
  double seconds = 0;                                    // the run as the coordinator timed it
};
using FedCogOverTls = std::function<Result<FedCogTlsResult>(const std::vector<HeldGraphParts>& shares, int steps,
                                                            std::uint64_t seed)>;

struct FedCogExperimentOptions {
  std::vector<std::string> partitions = {"random", "community"};
  std::vector<int> parties = {2, 3, 5, 10};
  std::vector<std::string> methods = {"fedcog", "fedcog-lnnc", "local", "centralised", "gcn"};
  int steps = 2;  // SGC's propagation steps K
  int splits = 5;
  int jobs = 2;
  std::string out_dir;
  FedCogOverTls over_tls;  // empty: no fedcog-tls method
};

// Errors: kInvalidArgument for an unknown partition or method, parties < 2,
// steps < 1, splits < 1, a dataset that is not one graph with features and
// labels; the first failing run's error otherwise.
Status RunFedCogExperiment(const GraphDataset& dataset, const FedCogExperimentOptions& options);

Status SummariseFedCogExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_FEDCOG_EXPERIMENT_H_
