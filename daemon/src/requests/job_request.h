// What an admin asks the daemon to train, as the API resolved it: the graphs
// and their labels, the model, and how to train it. The API builds it, the
// job runner (jobs/) trains it, and through a shared store it travels as
// JSON (job_request_codec.h): so it stands below both.
#ifndef LDPGRAPH_DAEMON_REQUESTS_JOB_REQUEST_H_
#define LDPGRAPH_DAEMON_REQUESTS_JOB_REQUEST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gap/gap_options.h"
#include "gap/held_graph.h"
#include "graph/symmetrise.h"
#include "ldpgraph/graph_config.h"
#include "linkldp/denoised_training.h"
#include "store/report_store.h"
#include "train/lpgnn_pipeline.h"

namespace ldpgraph {

enum class JobTask { kGraph, kNode, kGap };

struct GraphJobRequest {
  JobTask task = JobTask::kGraph;
  // kGraph: what to train on, each with a label (one per graph in `labels`).
  // kNode: exactly one graph; its users' own noisy labels are used.
  std::vector<GraphConfig> graphs;
  std::vector<std::int64_t> labels;
  NodeGnnKind node_model = NodeGnnKind::kSage;    // kNode
  LabelMethod label_method = LabelMethod::kDrop;  // kNode
  // kNode: the noisy edges as reported (nullopt), or the graph the link
  // denoiser makes of them (linkldp/denoised_training.h).
  std::optional<LinkDenoising> denoise;
  // kNode: the round of a graph collected in rounds whose graph it trains
  // on (each user's newest report up to it); kNewestRound otherwise.
  std::uint32_t round = kNewestRound;
  // One per graph: each graph's own policy, or one rule the job imposes.
  std::vector<Symmetrisation> rules;
  std::string rule_name = "per-graph";  // what the model remembers: a rule, or "per-graph"
  int max_epochs = 500;
  std::uint64_t seed = 0;
  int hidden = 0;  // 0: the model's own default (GIN-0: 64, LPGNN: 16)
  int layers = 5;
  // kGraph: GIN's node input (SetGinNodeInput's names); "constant" is the paper's.
  std::string node_input = "constant";
  // kGraph: GraphTrainOptions::bf16_products ("products": "bf16").
  bool bf16_products = false;
  // kGap: the held graph and how to train on it (its noise is the OS's).
  std::shared_ptr<const HeldGraph> held_graph;
  GapOptions gap;
  bool progap = false;             // kGap: ProGAP (gap/progap_pipeline.h) rather than GAP
  std::uint64_t memory_bytes = 0;  // the estimate it leases while it runs (GapMemoryEstimate, TrainingMemoryEstimate)
  std::string gap_request_json;    // kGap: the request's body, which a shared store's leader reads again
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_REQUESTS_JOB_REQUEST_H_
