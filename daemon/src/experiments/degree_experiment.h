// ldpgraph experiment degree: how well each edge mechanism keeps every
// user's degree (the DPRR paper's Fig. 7). Every user of every graph is
// perturbed as her device would; her noisy degree is the size of her noisy
// list (for LocalLap, her degree in the graph the server assembles).
// Writes to DIR:
//   degrees.csv   dataset,mechanism,epsilon,graph,user,true_degree,noisy_degree
//   summary.csv   per mechanism: users, mean true and noisy degree, mean
//                 absolute error, RMSE, Pearson correlation
//   binned.csv    per mechanism and true-degree bin [2^k, 2^(k+1)): the mean
//                 and standard deviation of the noisy degree
//   degree_<mechanism>.svg (scatter, log axes, y = x dashed), degree_binned.svg
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_DEGREE_EXPERIMENT_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_DEGREE_EXPERIMENT_H_

#include <string>
#include <vector>

#include "dataset/graph_dataset.h"

namespace ldpgraph {

struct DegreeExperimentOptions {
  std::vector<std::string> mechanisms = {"dprr", "rr", "locallap"};
  double epsilon = 1.0;
  std::uint64_t seed = 0;
  std::string out_dir;
  std::size_t max_points = 4000;  // distinct points per scatter plot
};

// Errors: kInvalidArgument for an unknown mechanism or a bad epsilon; the
// mechanisms' and I/O errors otherwise.
Status RunDegreeExperiment(const GraphDataset& dataset, const DegreeExperimentOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_DEGREE_EXPERIMENT_H_
