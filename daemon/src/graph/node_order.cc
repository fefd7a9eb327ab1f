#include "graph/node_order.h"

#include <algorithm>
#include <numeric>

namespace ldpgraph {
namespace {

// Breadth-first from `start` over unvisited nodes, each node's unvisited
// neighbours appended in increasing degree (ties by number); marks them.
// Returns a node of the farthest level: of the last 64 reached, one of
// least degree.
std::uint32_t Sweep(const CsrGraph& g, std::uint32_t start, std::vector<std::uint8_t>* seen,
                    std::vector<std::uint32_t>* order) {
  const std::size_t first = order->size();
  order->push_back(start);
  (*seen)[start] = 1;
  std::vector<std::uint32_t> next;
  for (std::size_t head = first; head < order->size(); ++head) {
    const std::uint32_t v = (*order)[head];
    next.clear();
    for (std::uint32_t u : g.neighbours(v)) {
      if ((*seen)[u] == 0) {
        (*seen)[u] = 1;
        next.push_back(u);
      }
    }
    std::sort(next.begin(), next.end(), [&](std::uint32_t a, std::uint32_t b) {
      return g.degree(a) != g.degree(b) ? g.degree(a) < g.degree(b) : a < b;
    });
    order->insert(order->end(), next.begin(), next.end());
  }
  // The last node reached lies in the farthest level; of the last few
  // reached, the one of least degree.
  std::uint32_t far = order->back();
  const std::size_t tail = std::max(first, order->size() - std::min<std::size_t>(order->size() - first, 64));
  for (std::size_t i = tail; i < order->size(); ++i) {
    if (g.degree((*order)[i]) < g.degree(far)) far = (*order)[i];
  }
  return far;
}

std::vector<std::uint32_t> ReverseCuthillMcKee(const CsrGraph& g) {
  const std::uint32_t n = g.num_nodes();
  std::vector<std::uint32_t> by_degree(n);
  std::iota(by_degree.begin(), by_degree.end(), 0u);
  std::stable_sort(by_degree.begin(), by_degree.end(),
                   [&](std::uint32_t a, std::uint32_t b) { return g.degree(a) < g.degree(b); });
  std::vector<std::uint8_t> seen(n, 0), scratch_seen;
  std::vector<std::uint32_t> order, scratch;
  order.reserve(n);
  for (std::uint32_t start : by_degree) {
    if (seen[start] != 0) continue;
    // One trial sweep from the least-degree unvisited node finds a node far
    // from it, a pseudo-peripheral start (George and Liu's idea, one step).
    scratch_seen = seen;
    scratch.clear();
    const std::uint32_t far = Sweep(g, start, &scratch_seen, &scratch);
    Sweep(g, far, &seen, &order);
  }
  std::reverse(order.begin(), order.end());
  return order;
}

}  // namespace

const char* NodeOrderName(NodeOrder order) {
  switch (order) {
    case NodeOrder::kRcm: return "rcm";
    case NodeOrder::kDegree: return "degree";
    case NodeOrder::kAsGiven: break;
  }
  return "as-given";
}

Result<NodeOrder> ParseNodeOrder(const std::string& name) {
  for (NodeOrder o : {NodeOrder::kAsGiven, NodeOrder::kRcm, NodeOrder::kDegree}) {
    if (name == NodeOrderName(o)) return o;
  }
  return Status::InvalidArgument("unknown node order '" + name + "' (as-given, rcm or degree)");
}

NodePermutation NodePermutation::FromOrder(std::vector<std::uint32_t> old_of_new) {
  NodePermutation p;
  p.new_of_old.assign(old_of_new.size(), 0);
  for (std::size_t i = 0; i < old_of_new.size(); ++i) p.new_of_old[old_of_new[i]] = static_cast<std::uint32_t>(i);
  p.old_of_new = std::move(old_of_new);
  return p;
}

NodePermutation OrderNodes(const CsrGraph& graph, NodeOrder order) {
  const std::uint32_t n = graph.num_nodes();
  std::vector<std::uint32_t> old_of_new(n);
  std::iota(old_of_new.begin(), old_of_new.end(), 0u);
  if (order == NodeOrder::kRcm) {
    // Rows may be one-sided (noisy graphs): the order follows both directions.
    const CsrGraph t = graph.Transposed();
    const bool symmetric = t.targets() == graph.targets() && t.offsets() == graph.offsets();
    if (symmetric) {
      old_of_new = ReverseCuthillMcKee(graph);
    } else {
      std::vector<std::vector<std::uint32_t>> rows(n);
      for (std::uint32_t v = 0; v < n; ++v) {
        auto a = graph.neighbours(v);
        auto b = t.neighbours(v);
        std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(rows[v]));
      }
      old_of_new = ReverseCuthillMcKee(CsrGraph::FromRows(rows));
    }
  } else if (order == NodeOrder::kDegree) {
    std::stable_sort(old_of_new.begin(), old_of_new.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return graph.degree(a) > graph.degree(b); });
  }
  return NodePermutation::FromOrder(std::move(old_of_new));
}

CsrGraph PermuteGraph(const CsrGraph& graph, const NodePermutation& p, const std::vector<float>* weights,
                      std::vector<float>* permuted_weights) {
  const std::uint32_t n = graph.num_nodes();
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(n) + 1, 0);
  for (std::uint32_t i = 0; i < n; ++i) offsets[i + 1] = offsets[i] + graph.degree(p.old_of_new[i]);
  std::vector<std::uint32_t> targets(graph.num_entries());
  if (weights != nullptr) permuted_weights->assign(graph.num_entries(), 0.0f);
  std::vector<std::pair<std::uint32_t, float>> row;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t old = p.old_of_new[i];
    const std::uint64_t from = graph.offsets()[old];
    row.clear();
    for (std::uint32_t k = 0; k < graph.degree(old); ++k) {
      row.emplace_back(p.new_of_old[graph.targets()[from + k]], weights != nullptr ? (*weights)[from + k] : 0.0f);
    }
    std::sort(row.begin(), row.end());
    for (std::size_t k = 0; k < row.size(); ++k) {
      targets[offsets[i] + k] = row[k].first;
      if (weights != nullptr) (*permuted_weights)[offsets[i] + k] = row[k].second;
    }
  }
  return CsrGraph::FromCsr(std::move(offsets), std::move(targets));
}

}  // namespace ldpgraph
