// The one way an LPGNN node classifier is trained from what a server holds:
// the experiments (`ldpgraph experiment lpgnn`) and the daemon's node jobs
// both call TrainLpgnn, so their numbers agree for the same data and seed.
//
// Given a graph (true or noisy edges), features (true or rectified) and
// labels (true or randomized), it chooses the feature KProp steps kx on the
// validation split, then for Drop the label steps ky with that kx, and
// returns the best model by validation accuracy. Validation accuracy counts
// against the labels the server has; with randomized labels, by default
// against those labels denoised by the longest label KProp of the choices
// that has not converged to one class (a post-processing of what the server
// holds, the same for every method).
#ifndef LDPGRAPH_DAEMON_TRAIN_LPGNN_PIPELINE_H_
#define LDPGRAPH_DAEMON_TRAIN_LPGNN_PIPELINE_H_

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/csr_graph.h"
#include "graph/node_order.h"
#include "models/node_gnn.h"
#include "train/factored_kprop.h"
#include "train/node_trainer.h"
#include "train/splits.h"

namespace ldpgraph {

enum class LabelMethod {
  kCrossEntropy,        // "ce": plain softmax cross-entropy on the labels as they are
  kForwardCorrection,   // "fc": through the randomized-response transition matrix
  kDrop,                // "drop": LPGNN's label denoising with propagation
};
const char* LabelMethodName(LabelMethod method);
Result<LabelMethod> ParseLabelMethod(const std::string& name);  // "ce", "fc", "drop"

// With randomized labels, the labels validation counts against.
enum class ValidationReference {
  // The labels denoised by the longest label KProp of the ky choices that
  // still names every class for a quarter of its estimated share (LPGNN's
  // longest KProp, the cleaner reference on a homophilous graph, made safe
  // on well-mixed ones).
  kPropagated,
  kNoisy,  // the labels as they are: the same for every graph
  // Whichever of the labels as they are and their KProp at each ky choice
  // (naming every class) is estimated to be right most often, from the
  // randomized labels alone (train/label_reference.h).
  kEstimated,
};
const char* ValidationReferenceName(ValidationReference reference);  // "propagated", "noisy", "estimated"
Result<ValidationReference> ParseValidationReference(const std::string& name);

struct LpgnnInputs {
  const CsrGraph* graph = nullptr;
  // One weight per row entry of `graph` (a denoised graph's edge
  // probabilities, linkldp/); null: every edge weighs 1.
  const std::vector<float>* edge_weights = nullptr;
  const NodeFeatures* features = nullptr;  // nodes x dims, as the server has them
  const std::vector<int>* labels = nullptr;  // per node as the server has them; -1 unknown
  int classes = 2;
  // The labels' randomized response; infinity: the labels are true.
  double label_epsilon = INFINITY;
  Split split;                             // training, validation and test nodes
  // What test accuracy counts against (the experiments' true labels); null: `labels`.
  const std::vector<int>* test_labels = nullptr;
  // The features are a mechanism's rectified estimates (the daemon's always
  // are), not true values: standardised after KProp (see NodeModelInputs).
  bool rectified_features = true;
};

struct LpgnnOptions {
  NodeGnnKind kind = NodeGnnKind::kSage;
  LabelMethod label_method = LabelMethod::kDrop;
  std::vector<int> kx_choices = {0, 2, 4, 8, 16};
  std::vector<int> ky_choices = {0, 2, 4, 8, 16};
  // With randomized labels, what validation counts against (see
  // ValidationReference). Estimated by default: a propagated reference
  // favours Drop's propagated candidates whatever the graph. On Twitch
  // (friends barely alike) it made Drop lose to forward correction, 0.557
  // against 0.580 (GCN, features and labels at epsilon 1, 5 splits); the
  // estimate keeps the raw labels there, 0.583 against 0.577 (10 splits).
  // On a small homophilous graph the raw labels are too few to choose by
  // (300 users, 75 validating: a Drop model 0.61 against them where the
  // propagated reference keeps a good one), and the estimate propagates
  // (docs/lpgnn.md). A denoised graph needs kNoisy: its propagation pulls
  // the labels toward the largest class (Cora, GCN, Blink's graph at edge
  // epsilon 4: 0.27 against 0.46).
  ValidationReference validation_reference = ValidationReference::kEstimated;
  // Whether Drop's label KProp spreads the validation users' labels too
  // (LPGNN's protocol: every label outside the test split). Spread, a
  // validation user's own label reaches her neighbours' targets and comes
  // back in her prediction, the more so the more the graph joins her to
  // them: validation then favours such graphs (the 22,470-user social
  // graph, edge epsilon 2, features and labels at 1: a soft graph validated
  // 0.035 above the edge-free model and tested 0.010 below it). Left out,
  // the labels teach less (linkldp/denoised_training.h has the cost).
  bool propagate_validation_labels = true;
  // Whether the class prior competes with the trained models: a model that
  // answers every user with the classes' estimated shares (from the
  // randomized labels by inverting RR), so the majority class, chosen when
  // it validates above every trained one. Where the inputs tell little of
  // the class (features at epsilon 1 without edges: Twitch, GCN, 0.507
  // against a majority of 0.546) a trained model can validate and test
  // below that constant; what is served should not.
  bool prior_candidate = true;
  int hidden = 16;
  float dropout = 0.5f;
  // Factored features (the multi-bit estimates) of at most this many values
  // (nodes x dimensions) are made dense first, so that input dropout falls
  // on the inputs themselves, as LPGNN's model has it; larger ones stay
  // factored, where dropout falls on the first product's units instead
  // (models/node_gnn.cc). That costs accuracy with GCN: on Cora, forced
  // factored, plain cross-entropy -0.05 to +0.02 and forward correction
  // 0.03-0.05 lower over 10 splits; on a 22,470 x 4,714 social graph GCN
  // with cross-entropy 0.74 against 0.83. Dense, by contrast, that graph
  // takes 7.5 times as long (22.6 s a training against 3.0 s) and 4.4
  // times the memory. 2^25 values (128 MB) keeps Cora, CiteSeer and PubMed
  // dense and the social graph factored. 0: always factored.
  std::int64_t dense_input_values = std::int64_t{1} << 25;
  // Factored features KProp'd at least once are held packed, as bfloat16
  // (engine/packed_rows.h), when the CPU multiplies those on AMX tiles and
  // they take at most this many bytes (n x d x 2; 0: never): the first
  // layer then reads them in one stream each way instead of making kx
  // neighbour sums each way. At 10^6 users, 500 dimensions and kx 4 that
  // is 1 GB more held and, per epoch, 8 of 11 wide sums fewer. Each kx
  // choice then makes its own KProp pass (a pass for all is the factored
  // route's), and the values differ from the factored route's by rounding
  // (docs/roofline.md).
  std::int64_t packed_input_bytes = std::int64_t{2} << 30;
  // Graphs of at least `node_order_from` users are renumbered by
  // `node_order` (graph/node_order.h) before training, so that a neighbour
  // sum finds friends' rows near each other, and each user keeps her
  // reports, labels, split and dropout masks (NodeTrainOptions::row_ids):
  // what is learnt is the same up to float rounding, and nothing returned
  // depends on the numbering (a model's weights do not). Below 2^18 users
  // a hidden layer's rows (16 bfloat16 values each) fit in L2 in any order.
  // In a daemon's arrival order, at 10^6 users, reverse Cuthill-McKee makes
  // an epoch faster (docs/roofline.md).
  NodeOrder node_order = NodeOrder::kRcm;
  std::int64_t node_order_from = std::int64_t{1} << 18;
  NodeTrainOptions train;
  std::uint64_t seed = 0;  // weights and dropout
  // Told where training is, e.g. "training 3/9 (kx 4, ky 0) epoch 120", after
  // every epoch (may be empty).
  std::function<void(const std::string&)> on_progress;
};

// How many models TrainLpgnn trains for `options`: one per feature KProp
// choice, then for Drop one per further label KProp choice.
int LpgnnTrainings(const LpgnnOptions& options);

struct LpgnnRun {
  int kx = 0, ky = 0;
  bool prior = false;  // the chosen model is the class prior (LpgnnOptions::prior_candidate)
  // The label KProp steps of the validation reference (0: the labels as
  // they are); see TrainLpgnn.
  int reference_steps = 0;
  double val_accuracy = 0, test_accuracy = 0;
  std::unique_ptr<NodeGnnModel> model;  // the chosen one, on NodeModelInputs(graph, features, kx)
};

// A node model's inputs as the pipeline makes them: feature KProp (the mean
// over neighbours) `steps` times, then, for rectified features, every column
// standardised over the nodes (mean 0, standard deviation 1; constant
// columns only centred). Rectified multi-bit features are huge (d/2m times
// the range): after KProp their scale is still far from what the weights
// and Adam's steps suit. On Cora (GraphSAGE, 3 splits) standardising lifts
// feature epsilon 1 from 0.81 to 0.83 (1-bit and Laplace from 0.75 to 0.82)
// but costs true sparse binary features 0.02, whose rare words it blows up:
// true features are used as they are. It uses no labels and is
// post-processing of what the server holds.
// Sparse features stay sparse when nothing is done to them (steps 0, not
// rectified), factored ones (multi-bit, before any step) stay factored
// (train/factored_kprop.h); everything else is dense.
NodeFeatures NodeModelInputs(const CsrGraph& graph, const NodeFeatures& features, int steps, bool rectified);

// NodeModelInputs for increasing step counts, each built from the last
// (KProp is a fixed linear map: done once per setting, not per epoch).
class PropagatedInputs {
 public:
  // `features` and `mean` (the graph prepared with Aggregation::kMean) must
  // outlive this and what At() returns. Factored features are standardised
  // for every step of `planned_steps` in one pass when the first is asked for.
  // Factored features are packed (FactoredFeatures::packed) for any step
  // count from 1 on when the CPU multiplies packed rows on AMX tiles and
  // they take at most `packed_bytes` (0: never): each such At() then makes
  // its own pass of `steps` steps, standardising on the way.
  PropagatedInputs(const NodeFeatures& features, const PreparedGraph& mean, bool rectified,
                   std::vector<int> planned_steps = {}, std::int64_t packed_bytes = 0);
  // The inputs after `steps` steps; valid until the next call. `steps` must
  // not be fewer than the last call's.
  const NodeFeatures& At(int steps);

 private:
  const NodeFeatures& AtFactored(int steps);
  bool Packs(int steps) const;

  const NodeFeatures& features_;
  const PreparedGraph& mean_;
  bool rectified_;
  std::vector<int> planned_steps_;
  std::int64_t packed_bytes_;
  int steps_ = 0;  // aggregations done
  Matrix propagated_;  // their result, unless state_in_current_
  NodeFeatures current_;
  bool state_in_current_ = false;
  // Factored features: mean_'s matrices (not owned), and the planned steps'
  // standardisations not yet used, by step.
  std::shared_ptr<const SparseMatrix> p_, p_t_;
  std::vector<std::pair<int, ColumnStandardisation>> standardisations_;
};

// Standardises every column of `x` in place, as NodeModelInputs does.
void StandardiseColumns(Matrix* x);

// Errors: kInvalidArgument for missing inputs or sizes that disagree; the
// trainer's.
Result<LpgnnRun> TrainLpgnn(const LpgnnInputs& inputs, const LpgnnOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TRAIN_LPGNN_PIPELINE_H_
