// A batch's colour classes: its graphs' classes (graph_colours.h), found
// once per graph, stacked level by level for GIN's layers to run once per
// class instead of once per node.
#ifndef LDPGRAPH_DAEMON_GRAPH_COLOUR_CLASSES_H_
#define LDPGRAPH_DAEMON_GRAPH_COLOUR_CLASSES_H_

#include <vector>

#include "engine/matrix.h"
#include "engine/sparse_matrix.h"
#include "graph/graph_batch.h"

namespace ldpgraph {

// A batch's classes at one level, stacked graph after graph.
struct ClassLevel {
  // Level 0: classes x nodes, a single 1 per row at a member, which picks
  // the class's input row. Level k: classes_k x classes_{k-1} (see above).
  SparseMatrix step, step_t;
  // graphs x classes: each class's members in each graph, divided by the
  // graph's size for a mean readout.
  SparseMatrix pool, pool_t;
  std::vector<float> members;
};

struct ColourClasses {
  std::vector<ClassLevel> levels;  // inputs, then one per aggregation; empty: not worth it
};

// Levels 0..`aggregations` of `batch`, whose node inputs are `inputs`.
// Empty when levels 1..`aggregations` (where the MLPs run) would have more
// than `max_share` as many rows as the nodes, summed over those levels (the
// fused node path is then as fast). A
// graph without colours, or whose inputs differ from those its colours were
// found for, takes part with every node its own class.
ColourClasses BuildColourClasses(const GraphBatch& batch, const Matrix& inputs, int aggregations, bool mean_readout,
                                 double max_share);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GRAPH_COLOUR_CLASSES_H_
