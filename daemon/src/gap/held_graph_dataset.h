// A node dataset (one graph, its features and labels) as the parts of a
// held graph: what `ldpgraph daemon hold` uploads, and what the tests and
// experiments deal among FedCog's parties (federation/share_split.h).
#ifndef LDPGRAPH_DAEMON_GAP_HELD_GRAPH_DATASET_H_
#define LDPGRAPH_DAEMON_GAP_HELD_GRAPH_DATASET_H_

#include "dataset/graph_dataset.h"
#include "gap/held_graph.h"

namespace ldpgraph {

// Labels are mapped to 0..C-1 as the trainers map them; a dataset without
// features gets the constant input the trainers use. Errors: those of
// MakeNodeTaskData (not a node dataset).
Result<HeldGraphParts> HeldGraphFromDataset(const GraphDataset& dataset);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GAP_HELD_GRAPH_DATASET_H_
