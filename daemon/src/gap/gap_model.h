// GAP's classification module: one MLP per hop aggregate X^(0) .. X^(K)
// (the encoder's output and the private aggregates, all fixed inputs), their
// outputs combined by concatenation (or sum) and a head MLP giving the class
// scores. It never sees the graph: the aggregates carry all it knows of the
// edges, so whatever it learns is post-processing of the PMA release.
#ifndef LDPGRAPH_DAEMON_GAP_GAP_MODEL_H_
#define LDPGRAPH_DAEMON_GAP_GAP_MODEL_H_

#include <cmath>
#include <cstdint>
#include <vector>

#include "gap/progap_stage.h"
#include "models/mlp.h"

namespace ldpgraph {

enum class GapPrivacy { kEdge, kNode };
const char* GapPrivacyName(GapPrivacy privacy);  // "edge", "node"

// What a GAP release guarantees, as its model file records it: the level,
// (epsilon, delta) (epsilon inf: no noise), the noise multiplier and the
// aggregation noise's standard deviation, the L2 sensitivity per hop, and at
// node level the degree bound D.
struct GapPrivacyRecord {
  GapPrivacy level = GapPrivacy::kEdge;
  double epsilon = INFINITY, delta = 0;
  double noise_multiplier = 0, noise_stddev = 0, sensitivity = 0;
  std::uint32_t max_degree = 0;
};

struct GapModelConfig {
  int hops = 2;        // K
  int hidden = 16;     // the encoder's output and every module's width
  int base_layers = 1; // per hop
  int head_layers = 1;
  bool concat = true;  // false: sum
  int classes = 2;
  float dropout = 0.0f;
};

class GapClassifier {
 public:
  // Errors: kInvalidArgument for hops < 1 or a bad MLP shape.
  static Result<GapClassifier> Create(const GapModelConfig& config, std::uint64_t seed);
  GapClassifier() = default;

  // Class scores of every node from the K + 1 aggregates (n x hidden each,
  // read in place: they must outlive the tape).
  Tape::Var Forward(Tape& tape, const std::vector<Matrix>& aggregates);
  // The same on inputs already on the tape (one per hop, 0..K).
  Tape::Var Forward(Tape& tape, const std::vector<Tape::Var>& aggregates);
  std::vector<Parameter*> Parameters();
  std::vector<BatchNormStats*> Stats() { return {}; }
  const GapModelConfig& config() const { return config_; }

 private:
  GapModelConfig config_;
  std::vector<Mlp> bases_;  // one per hop, 0..K
  Mlp head_;
};

// A trained GAP model as it is saved and served: the encoder and the
// classifier, the guarantee, and every node's class probabilities computed
// from the released aggregates. GAP is transductive: its predictions for the
// graph it was trained on are post-processing of that release and cost no
// more budget; aggregating again would draw new noise and spend more.
//
// ProGAP's release (gap/progap_pipeline.h) is kept in the same record: its
// K + 1 stages instead of the encoder and classifier, `residual` meaning its
// later stages add to the stage before's scores (DP-SGD).
struct GapModel {
  std::vector<ProGapStage> stages;  // ProGAP's; empty for GAP
  bool progressive() const { return !stages.empty(); }
  MlpConfig encoder_config;         // GAP's encoder; ProGAP's stage 0 encoder
  Mlp encoder;
  Mlp encoder_head;       // the encoder's softmax head (its scores, under a residual classifier)
  bool residual = false;  // class scores: classifier's + encoder head's
  GapClassifier classifier;
  GapPrivacyRecord privacy;
  Matrix node_probabilities;  // nodes x classes
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_GAP_MODEL_H_
