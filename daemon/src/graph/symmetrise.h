// Symmetrising a directed graph: the noisy adjacency is the stack of the rows
// the users reported, so u may list v without v listing u. Making it
// undirected is post-processing of what the server holds and costs no
// privacy; which rule suits a graph is the graph owner's choice.
#ifndef LDPGRAPH_DAEMON_GRAPH_SYMMETRISE_H_
#define LDPGRAPH_DAEMON_GRAPH_SYMMETRISE_H_

#include <string>

#include "graph/csr_graph.h"
#include "ldpgraph/status.h"

namespace ldpgraph {

enum class Symmetrisation {
  kNone,  // rows as reported
  kOr,    // an edge when either end listed the other
  kAnd,   // an edge only when both ends listed each other
};

const char* SymmetrisationName(Symmetrisation rule);
// "none", "or", "and". Errors: kInvalidArgument naming the choices.
Result<Symmetrisation> ParseSymmetrisation(const std::string& name);

// The graph under `rule`, in O(nodes + entries) time and memory.
CsrGraph Symmetrise(const CsrGraph& graph, Symmetrisation rule);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GRAPH_SYMMETRISE_H_
