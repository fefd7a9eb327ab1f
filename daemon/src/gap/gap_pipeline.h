// GAP end to end on a graph the server holds (edge-level DP, GAP-EDP):
//   1. the encoder, an MLP on the features and training labels alone (no
//      edges, so no privacy cost for them), trained with a linear softmax
//      head; its last hidden layer, rows normalised, is X^(0);
//   2. PMA: K noisy aggregations of X^(0) over the graph, their noise
//      calibrated by the RDP accountant so that the K releases together are
//      (epsilon, delta)-DP for one edge (an undirected edge moves two rows:
//      sensitivity sqrt(2));
//   3. the classifier on X^(0) .. X^(K), post-processing of the release.
// Epsilon infinity: no noise (the non-private GAP). Training labels and
// features are the server's own, not protected here: edge-level DP hides
// the friendships only, as the paper defines it.
#ifndef LDPGRAPH_DAEMON_GAP_GAP_PIPELINE_H_
#define LDPGRAPH_DAEMON_GAP_GAP_PIPELINE_H_

#include <cmath>
#include <memory>
#include <vector>

#include "gap/gap_model.h"
#include "graph/csr_graph.h"
#include "train/splits.h"

namespace ldpgraph {

struct GapInputs {
  const CsrGraph* graph = nullptr;
  const NodeFeatures* features = nullptr;
  const std::vector<int>* labels = nullptr;  // -1 unknown
  int classes = 2;
  Split split;
};

struct GapOptions {
  GapModelConfig model;
  int encoder_layers = 2;
  float encoder_dropout = 0.5f;
  double epsilon = INFINITY;  // for the K aggregations together
  double delta = 0;           // 0: 1 / (10 x the number of edges)
  int encoder_epochs = 100;
  int classifier_epochs = 100;
  float lr = 0.01f;
  float weight_decay = 5e-4f;
  std::uint64_t seed = 0;  // weights, dropout and the aggregation noise
};

struct GapRun {
  double val_accuracy = 0, test_accuracy = 0;
  // The encoder with its softmax head alone: the MLP without edges, the bar
  // the aggregates have to clear.
  double mlp_test_accuracy = 0;
  // The release: L2 sensitivity per hop (grid rounding included), the noise's
  // multiplier and standard deviation, and the (epsilon, delta) they give.
  double sensitivity = 0, noise_multiplier = 0, noise_stddev = 0;
  double epsilon = INFINITY, delta = 0;
  double seconds = 0;
  std::unique_ptr<Mlp> encoder;
  std::unique_ptr<GapClassifier> classifier;
};

// Errors: kInvalidArgument for missing or disagreeing inputs, epsilon not
// positive (or NaN), delta outside [0, 1), hops < 1; the accountant's.
Result<GapRun> TrainGap(const GapInputs& inputs, const GapOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_GAP_PIPELINE_H_
