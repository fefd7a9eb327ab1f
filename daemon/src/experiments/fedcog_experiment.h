// ldpgraph experiment fedcog (issue 24): one graph's users dealt to parties
// (federation/partition.h), each party holding its users' features, labels
// and friendships, and a node classifier trained three ways:
//   fedcog       FedCog-SGC (federation/federated_sgc.h): propagation over
//                the whole graph by exchanging partial sums, then rounds of
//                party gradients averaged by the parameter server;
//   local        each party alone on its own users and the friendships among
//                them (cross-party edges dropped), its own model;
//   centralised  SGC with the whole graph in one place (parties = 1).
// Every party runs in this process. Rows in DIR/results.csv:
//   dataset,partition,parties,method,split,accuracy,val_accuracy,cross_edges,propagation_bytes,round_bytes,seconds
// propagation_bytes: what the parties send each other to propagate (once);
// round_bytes: gradients up and weights down in one training round.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_FEDCOG_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_FEDCOG_EXPERIMENT_H_

#include <string>
#include <vector>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

struct FedCogExperimentOptions {
  std::vector<std::string> partitions = {"random", "community"};
  std::vector<int> parties = {2, 3, 5, 10};
  std::vector<std::string> methods = {"fedcog", "local", "centralised"};
  int steps = 2;  // SGC's propagation steps K
  int splits = 5;
  int jobs = 2;
  std::string out_dir;
};

// Errors: kInvalidArgument for an unknown partition or method, parties < 2,
// steps < 1, splits < 1, a dataset that is not one graph with features and
// labels; the first failing run's error otherwise.
Status RunFedCogExperiment(const GraphDataset& dataset, const FedCogExperimentOptions& options);

Status SummariseFedCogExperiment(const std::string& out_dir);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_FEDCOG_EXPERIMENT_H_
