// GW-LDP's graph summary encoder: a client that holds one graph sends the
// server a single cell of a public grid instead of its n x h node
// embeddings. The cell is fixed by two things the client computes:
//   - each embedding column's mean over the graph's nodes, scaled to [0, 1]
//     by the range and cut into `value_bins` equal bins;
//   - the graph's size n, clamped to [min_nodes, max_nodes], scaled on a log
//     scale to [0, 1] and cut into `size_bins` equal bins;
// so there are value_bins^h x size_bins cells. The cell goes out by k-ary
// randomized response: itself with Pr e^eps / (e^eps + k - 1), each other
// cell with 1 / (e^eps + k - 1).
//
// Privacy: the report is one cell and nothing else (its length does not
// depend on n). For any two graphs (with any embeddings) and any cell y,
// Pr[y | one] / Pr[y | other] <= e^eps: the whole report is eps-LDP for
// everything the client holds, its graph's size included. (The multi-bit
// encoder of embedding_encoder.h sends n rows: its report's length tells
// the server n.)
//
// Why: under the multi-bit encoder each of n nodes gets eps / n, and at
// eps <= 8 what reaches the server is noise shaped by n (docs/gw.md). A
// graph's pooled embedding is the graph classifier's own evidence; one
// cell of it survives randomized response at eps 4 with Pr 0.78 on a 4 x 4
// grid.
// Thread-safety: immutable after creation; concurrent calls are safe with
// distinct RandomSources.
#ifndef LDPGRAPH_GRAPH_SUMMARY_H_
#define LDPGRAPH_GRAPH_SUMMARY_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/label_rr.h"
#include "ldpgraph/multibit.h"
#include "ldpgraph/span.h"

namespace ldpgraph {

struct GraphSummaryParams {
  std::uint32_t dims = 1;         // h: embedding columns
  std::uint32_t value_bins = 4;   // per column
  std::uint32_t size_bins = 4;
  std::uint32_t min_nodes = 1;    // the public size range the grid covers
  std::uint32_t max_nodes = 1024;
  double epsilon = 1.0;           // for the whole report
  FeatureRange range = {0.0, 1.0};  // every embedding entry's: softmax outputs by default

  // The grid this SDK uses at `epsilon`: the finest of 8, 4 and 2 bins per
  // column and for the size whose cell survives randomized response with
  // Pr >= 0.9 (e^eps >= 9 (cells - 1)). One column: 8 x 8 from eps 6.34,
  // 4 x 4 from 4.91, else 2 x 2. On MUTAG at eps 4, 2 x 2 beat 2 x 4 and
  // 4 x 4 (docs/gw.md).
  static GraphSummaryParams ForEpsilon(std::uint32_t dims, double epsilon, std::uint32_t min_nodes,
                                       std::uint32_t max_nodes);
  // Errors: kInvalidArgument for dims, value_bins or size_bins of 0, more
  // than 65536 cells, min_nodes of 0 or above max_nodes, a bad epsilon or
  // range.
  Status Validate() const;
  std::uint32_t cells() const;  // value_bins^dims x size_bins; requires Validate()
};

class GraphSummaryEncoder {
 public:
  static Result<GraphSummaryEncoder> Create(GraphSummaryParams params);
  GraphSummaryEncoder() = default;  // only for Result<>; use Create()

  // The cell of a graph of `nodes` nodes whose embeddings are `h` (nodes x
  // dims, row after row). Errors: kInvalidArgument for nodes of 0, a wrong
  // length or a NaN; kOutOfRange for an entry outside the range (naming it).
  Result<std::uint32_t> Cell(Span<const double> h, std::uint32_t nodes) const;
  // Cell(), then randomized response: what the client sends. On error no
  // randomness is used.
  Result<std::uint32_t> Encode(Span<const double> h, std::uint32_t nodes, RandomSource& rng) const;

  // A cell's centre in the grid's [0, 1] units: the dims column means, then
  // the size. Empty for a cell out of range.
  std::vector<double> CellCentre(std::uint32_t cell) const;
  // Pr[report = to | cell = from].
  double TransitionProbability(std::uint32_t from, std::uint32_t to) const {
    return randomizer_.TransitionProbability(from, to);
  }
  double keep_probability() const { return randomizer_.keep_probability(); }
  const GraphSummaryParams& params() const { return params_; }

 private:
  GraphSummaryParams params_;
  LabelRandomizer randomizer_;  // k-ary randomized response over the cells
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_GRAPH_SUMMARY_H_
