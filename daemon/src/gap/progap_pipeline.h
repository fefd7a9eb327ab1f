// ProGAP (Sajadmanesh and Gatica-Perez, WSDM 2024): GAP trained in stages.
// GAP aggregates one edge-free encoder's embedding K times; ProGAP lets
// every aggregation read an embedding that has already seen the graph:
//   stage 0: an encoder of the features alone gives h_0, and a head
//            classifies h_0's rows normalised (gap/progap_stage.h);
//   stage k = 1..K: x_k = row-normalise(A^T unit(h_{k-1}) + noise), one
//            noisy hop released once (gap/aggregation.h); stage k's encoder
//            reads x_k alone and gives h_k, its head classifies
//            [h_0 .. h_{k-1} (frozen), h_k] normalised. From stage 2 on the
//            encoder starts from the stage before's, which read a like input;
//   the last stage's head predicts.
// The K releases have GAP's per-hop sensitivity (sqrt 2 for an edge, sqrt D
// for a node of the degree-bounded graph). At edge level the stages train
// normally as post-processing of the releases; at node level each of the
// K + 1 stages trains by DP-SGD, and one noise multiplier serves every
// release and every stage's steps in the RDP accountant, as GAP's does.
#ifndef LDPGRAPH_DAEMON_GAP_PROGAP_PIPELINE_H_
#define LDPGRAPH_DAEMON_GAP_PROGAP_PIPELINE_H_

#include "gap/gap_pipeline.h"

namespace ldpgraph {

struct ProGapRun : GapRelease {
  int stages = 0;  // K + 1; mlp_test_accuracy is stage 0's
  // Each stage's own head, 0..K (stage 0: the MLP without edges).
  std::vector<double> stage_val_accuracy, stage_test_accuracy;
  Matrix probabilities;  // every node's, from the last stage (model->stages set)
};

// The noise a ProGAP run of these options draws, found before anything
// trains (GapCalibration's fields; encoder_sgd is stage 0's schedule,
// classifier_sgd each later stage's). Errors: as TrainProGap's, but for
// "cancelled". The daemon refuses a job it cannot calibrate before queueing it.
Result<GapCalibration> CalibrateProGap(const GapInputs& inputs, const GapOptions& options);

// The epochs a run trains, its progress's total: stage 0 trains
// encoder_epochs; each later stage the classifier's epochs under DP-SGD
// (node level, finite epsilon) or when they are set, else as many as stage 0.
int ProGapEpochs(const GapOptions& options);

// `options.model.hops` is K; each stage trains `options.encoder_epochs`
// epochs with GAP's encoder shape. Errors: ValidateGap's; the accountant's
// (kOutOfRange when no noise multiplier reaches epsilon); kFailedPrecondition
// "cancelled" once options.cancel is set.
Result<ProGapRun> TrainProGap(const GapInputs& inputs, const GapOptions& options);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_PROGAP_PIPELINE_H_
