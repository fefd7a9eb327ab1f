// One stage of ProGAP (gap/progap_pipeline.h). Its encoder reads only the
// stage's own input (stage 0: the features; stage k: the k-th released
// aggregate) and gives the embedding h_k. The earlier stages' embeddings
// h_0 .. h_{k-1}, frozen, join it side by side (jumping knowledge by
// concatenation); the joined row is normalised to unit length (unless the
// config says not) and a head gives the class scores. Only h_k goes on to the next aggregation, so each
// stage adds what one more hop tells, and the head still sees every hop.
#ifndef LDPGRAPH_DAEMON_GAP_PROGAP_STAGE_H_
#define LDPGRAPH_DAEMON_GAP_PROGAP_STAGE_H_

#include <cstdint>
#include <vector>

#include "models/mlp.h"

namespace ldpgraph {

struct ProGapStageConfig {
  int input_dim = 1;
  int hidden = 16;          // h_k's width, and the head's hidden layers'
  int encoder_layers = 2;
  int head_layers = 1;
  int earlier_stages = 0;   // k: how many frozen embeddings join h_k
  int classes = 2;
  float dropout = 0.5f;     // the encoder's
  bool normalise = true;    // the joined row made unit before the head
};

class ProGapStage {
 public:
  // Errors: kInvalidArgument for a bad shape (Mlp::Create's), earlier_stages < 0.
  static Result<ProGapStage> Create(const ProGapStageConfig& config, std::uint64_t seed);
  ProGapStage() = default;

  struct Output {
    Tape::Var embedding;  // h_k, before any normalisation
    Tape::Var scores;     // class scores
  };
  // `input`: the stage's input rows; `earlier`: h_0 .. h_{k-1} of the same
  // rows, in stage order (constants: no gradient flows into them).
  Output Forward(Tape& tape, Tape::Var input, const std::vector<Tape::Var>& earlier);
  Output Forward(Tape& tape, const NodeFeatures& input, const std::vector<Tape::Var>& earlier);
  std::vector<Parameter*> Parameters();
  std::vector<BatchNormStats*> Stats() { return {}; }
  // Starts this stage's encoder from `other`'s (the same shape): a stage
  // after the first reads an aggregate like the one before it did.
  Status CopyEncoder(ProGapStage& other);
  // Zeroes the head's output layer: a stage whose scores add to the stage
  // before's starts from that stage's predictions.
  void StartAtZero();
  const ProGapStageConfig& config() const { return config_; }

 private:
  Output Join(Tape& tape, Tape::Var embedding, const std::vector<Tape::Var>& earlier);

  ProGapStageConfig config_;
  Mlp encoder_, head_;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_PROGAP_STAGE_H_
