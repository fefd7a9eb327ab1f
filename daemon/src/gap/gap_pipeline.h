// GAP end to end on a graph the server holds (Sajadmanesh et al., USENIX
// Security 2023):
//   1. the encoder, an MLP on the features and training labels alone (no
//      edges), trained with a linear softmax head; its last hidden layer,
//      rows normalised, is X^(0);
//   2. PMA: K noisy aggregations of X^(0) over the graph (gap/aggregation.h);
//   3. the classifier on X^(0) .. X^(K).
// Edge level (GAP-EDP): the aggregations' noise alone hides any one edge;
// the features and labels are the server's own and not protected, so the
// encoder and classifier train normally (full batch, best validation epoch)
// as post-processing of the release. An undirected edge moves two rows:
// sensitivity sqrt(2) per hop.
// Node level (GAP-NDP): every node keeps at most D edges (BoundDegree), so
// one node moves at most D unit rows: sensitivity sqrt(D) per hop; encoder
// and classifier train with DP-SGD (train/dp_sgd.h), each node one example,
// and keep their last step. One noise multiplier s serves the three parts,
// calibrated so that together (the encoder's steps, the K aggregations, the
// classifier's steps) they are (epsilon, delta)-DP for adding or removing
// one node with its features, label and edges. As in the paper, the
// sensitivity is that of the degree-bounded graph.
// Epsilon infinity: no noise and no clipping at either level (the
// non-private GAP; at node level still on the degree-bounded graph).
//
// Beyond the paper, the residual classifier: its scores are added to the
// encoder head's (private already), its output layer starting at zero, so
// training starts from the edge-free MLP and learns what the aggregates add.
// Under DP-SGD the paper's classifier, trained from scratch on noisy
// gradients, loses much of what the encoder knew; the residual keeps it.
#ifndef LDPGRAPH_DAEMON_GAP_GAP_PIPELINE_H_
#define LDPGRAPH_DAEMON_GAP_GAP_PIPELINE_H_

#include <atomic>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "gap/gap_model.h"
#include "gap/gap_options.h"
#include "graph/csr_graph.h"
#include "train/splits.h"

namespace ldpgraph {

// What a GAP or ProGAP training reports beside its model: the guarantee of
// its release and its accuracy.
struct GapRelease {
  GapPrivacy privacy = GapPrivacy::kEdge;
  std::uint32_t max_degree = 0;  // node level
  double val_accuracy = 0, test_accuracy = 0;
  // The model without edges (GAP: the encoder with its softmax head alone;
  // ProGAP: stage 0), under node-level DP trained with DP-SGD like the rest:
  // the bar the aggregates have to clear.
  double mlp_test_accuracy = 0;
  // The release: the aggregation's L2 sensitivity per hop (grid rounding
  // included), the noise multiplier, the aggregation noise's standard
  // deviation, and the (epsilon, delta) the whole release has.
  double sensitivity = 0, noise_multiplier = 0, noise_stddev = 0;
  double epsilon = INFINITY, delta = 0;
  std::int64_t dp_sgd_steps = 0;  // node level: every module's
  double seconds = 0;
  std::unique_ptr<GapModel> model;  // what a model file keeps

  // Takes the calibration's sensitivity, delta, noise and epsilon.
  void Record(const GapCalibration& calibration);
};

struct GapRun : GapRelease {
  bool residual = false;  // the classifier kept adds to its encoder's scores
};

// The noise a run of these options draws (GapCalibration, gap_options.h).
Result<GapCalibration> CalibrateGap(const GapInputs& inputs, const GapOptions& options);

// An upper bound of what a GAP run of these options holds at its peak: each
// weight with its gradient and Adam's two moments (the encoder's first
// layer is feature_dims x hidden: wide features make it the largest part),
// the features as held, the K + 1 aggregates and the classifier's
// activations over every node, the graph (twice at node level). The daemon
// refuses a job whose estimate exceeds its memory budget before queueing it.
std::uint64_t GapMemoryEstimate(const GapInputs& inputs, const GapOptions& options);

// Errors: those of ValidateGap; the accountant's (kOutOfRange when no
// noise reaches epsilon); kFailedPrecondition "cancelled" once
// options.cancel is set.
//
// Measured on Cora (50/25/25, 5 splits, `ldpgraph experiment gap`): see
// docs/results.md, study 15.
Result<GapRun> TrainGap(const GapInputs& inputs, const GapOptions& options);

// What TrainGap checks before it trains anything: kInvalidArgument for
// missing or disagreeing inputs, no training node, epsilon not positive (or
// NaN), delta outside [0, 1), hops < 1, encoder epochs < 1; at node level
// D < 1, a batch size above the training nodes, a clipping norm not
// positive and finite, a graph that is not undirected.
Status ValidateGap(const GapInputs& inputs, const GapOptions& options);

// The edge-free baseline under node-level DP: the encoder with its softmax
// head trained by DP-SGD with the whole (epsilon, delta) (an MLP reads no
// edge, so this is also its edge-level guarantee). Returns its test
// accuracy with every node's class probabilities. Errors: as TrainGap's.
struct PrivateMlpRun {
  double test_accuracy = 0;
  double epsilon = INFINITY, delta = 0;  // what the training has (epsilon inf: no noise)
  Matrix probabilities;                  // nodes x classes
};
Result<PrivateMlpRun> TrainPrivateMlp(const GapInputs& inputs, const GapOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_GAP_PIPELINE_H_
