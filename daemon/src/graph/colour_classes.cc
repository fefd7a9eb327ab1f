#include "graph/colour_classes.h"

#include <algorithm>
#include <utility>

namespace ldpgraph {
namespace {

// Where graph g's rows of one level of the batch begin, and how they are made.
struct GraphSlot {
  const GraphColours* colours;  // null: every node its own class at every level
  std::int64_t nodes, node_offset;
  mutable SparseMatrix bridge_t;  // the level after the last stored one, transposed
};

// Rows graph `s` has at level k.
std::int64_t RowsAt(const GraphSlot& s, std::size_t k) {
  if (s.colours != nullptr && k < s.colours->levels.size()) return s.colours->levels[k].classes();
  return s.nodes;
}

// Appends `block`'s rows to `out` with their column indices shifted by
// `shift`; with `weighted`, a unit block's weights are written out as 1.
void AppendRows(const SparseMatrix& block, std::int64_t shift, bool weighted, SparseMatrix* out) {
  const std::size_t first = out->indices.size();
  for (std::int32_t c : block.indices) out->indices.push_back(static_cast<std::int32_t>(shift + c));
  if (weighted) {
    if (block.unit_weights()) {
      out->values.resize(out->indices.size(), 1.0f);
    } else {
      out->values.insert(out->values.end(), block.values.begin(), block.values.end());
    }
  }
  for (std::int64_t r = 0; r < block.rows; ++r) {
    out->offsets.push_back(static_cast<std::int64_t>(first) + block.offsets[static_cast<std::size_t>(r) + 1]);
  }
}

// A graph's aggregation rows with each entry replaced by its class (nodes x classes).
SparseMatrix Bridge(const SparseMatrix& a, const std::vector<std::int32_t>& class_of, std::int64_t classes) {
  SparseMatrix bridge;
  bridge.rows = a.rows;
  bridge.cols = classes;
  bridge.offsets = a.offsets;
  bridge.indices.reserve(a.indices.size());
  for (std::int32_t u : a.indices) bridge.indices.push_back(class_of[static_cast<std::size_t>(u)]);
  bridge.values = a.unit_weights() ? std::vector<float>(a.indices.size(), 1.0f) : a.values;
  return bridge;
}

// graphs x classes and its transpose: each class's members in its graph
// (over the graph's size for a mean readout). A class belongs to one graph,
// so the transpose has one entry a row.
void Pool(const std::vector<GraphSlot>& slots, const std::vector<std::int64_t>& base, std::size_t k, bool mean,
          ClassLevel* level) {
  SparseMatrix& pool = level->pool;
  SparseMatrix& pool_t = level->pool_t;
  pool.rows = pool_t.cols = static_cast<std::int64_t>(slots.size());
  pool.cols = pool_t.rows = level->step.rows;
  level->members.clear();
  for (std::size_t g = 0; g < slots.size(); ++g) {
    const GraphSlot& s = slots[g];
    const bool stored = s.colours != nullptr && k < s.colours->levels.size();
    const std::int64_t count = RowsAt(s, k);
    const auto size = static_cast<float>(std::max<std::int64_t>(s.nodes, 1));
    for (std::int64_t c = 0; c < count; ++c) {
      const float members = stored ? s.colours->levels[k].members[static_cast<std::size_t>(c)] : 1.0f;
      const float weight = mean ? members / size : members;
      level->members.push_back(members);
      pool.indices.push_back(static_cast<std::int32_t>(base[g] + c));
      pool.values.push_back(weight);
      pool_t.indices.push_back(static_cast<std::int32_t>(g));
      pool_t.values.push_back(weight);
      pool_t.offsets.push_back(static_cast<std::int64_t>(pool_t.indices.size()));
    }
    pool.offsets.push_back(static_cast<std::int64_t>(pool.indices.size()));
  }
}

}  // namespace

ColourClasses BuildColourClasses(const GraphBatch& batch, const Matrix& inputs, int aggregations, bool mean_readout,
                                 double max_share) {
  ColourClasses result;
  const std::size_t graphs = batch.agg.blocks.size();
  const auto levels = static_cast<std::size_t>(aggregations) + 1;
  std::vector<GraphSlot> slots(graphs);
  double rows = 0;
  for (std::size_t g = 0; g < graphs; ++g) {
    GraphSlot& s = slots[g];
    s.node_offset = batch.offsets[g];
    s.nodes = batch.offsets[g + 1] - s.node_offset;
    s.colours = g < batch.colours.size() ? batch.colours[g] : nullptr;
    if (s.colours != nullptr) {  // colours found for other inputs (replaced after preparing) do not apply
      const GraphColours::Level& first = s.colours->levels[0];
      for (std::int64_t v = 0; v < s.nodes && s.colours != nullptr; ++v) {
        const auto member = first.step.indices[static_cast<std::size_t>(s.colours->input_class[v])];
        if (inputs.row(s.node_offset + v) != inputs.row(s.node_offset + member)) s.colours = nullptr;
      }
    }
    for (std::size_t k = 1; k < levels; ++k) rows += static_cast<double>(RowsAt(s, k));  // the MLPs' rows
  }
  if (rows > max_share * static_cast<double>(inputs.rows()) * static_cast<double>(aggregations)) return result;

  std::vector<std::int64_t> base(graphs), previous_base(graphs);  // each graph's first row at this level and the last
  result.levels.resize(levels);
  for (std::size_t k = 0; k < levels; ++k) {
    ClassLevel& level = result.levels[k];
    const bool weighted = k > 0;  // level 0 only picks rows
    level.step.cols = k == 0 ? inputs.rows() : result.levels[k - 1].step.rows;
    level.step_t.rows = level.step.cols;
    std::int64_t classes = 0;
    for (std::size_t g = 0; g < graphs; ++g) {
      base[g] = classes;
      classes += RowsAt(slots[g], k);
    }
    level.step.rows = level.step_t.cols = classes;
    // step and step_t, graph after graph: block g of step sits at rows base[g]
    // and columns previous_base[g] (level 0: the graph's nodes).
    for (std::size_t g = 0; g < graphs; ++g) {
      const GraphSlot& s = slots[g];
      const std::int64_t column = k == 0 ? s.node_offset : previous_base[g];
      if (s.colours != nullptr && k < s.colours->levels.size()) {
        const GraphColours::Level& own = s.colours->levels[k];
        AppendRows(own.step, column, weighted, &level.step);
      } else if (k == 0) {
        for (std::int64_t v = 0; v < s.nodes; ++v) {
          level.step.indices.push_back(static_cast<std::int32_t>(s.node_offset + v));
          level.step.offsets.push_back(static_cast<std::int64_t>(level.step.indices.size()));
        }
      } else if (s.colours != nullptr && k == s.colours->levels.size()) {
        // Every node its own class from here: its row of A + I, each entry
        // named by its class at the graph's last stored level.
        SparseMatrix bridge = Bridge(*batch.agg.blocks[g], s.colours->last_class, s.colours->levels.back().classes());
        AppendRows(bridge, column, true, &level.step);
        s.bridge_t = bridge.Transposed();
      } else {
        AppendRows(*batch.agg.blocks[g], column, true, &level.step);  // node to node
      }
    }
    // step_t: block g sits at rows previous_base[g] (level 0: the nodes), columns base[g].
    for (std::size_t g = 0; g < graphs; ++g) {
      const GraphSlot& s = slots[g];
      if (s.colours != nullptr && k < s.colours->levels.size()) {
        AppendRows(s.colours->levels[k].step_t, base[g], weighted, &level.step_t);
      } else if (k == 0) {
        for (std::int64_t v = 0; v < s.nodes; ++v) {
          level.step_t.indices.push_back(static_cast<std::int32_t>(base[g] + v));
          level.step_t.offsets.push_back(static_cast<std::int64_t>(level.step_t.indices.size()));
        }
      } else if (s.colours != nullptr && k == s.colours->levels.size()) {
        AppendRows(s.bridge_t, base[g], true, &level.step_t);
      } else {
        AppendRows(*batch.agg_t.blocks[g], base[g], true, &level.step_t);
      }
    }
    // Level 0's transpose has a row per node, in graph order: the graphs'
    // blocks above cover them all, as the nodes are stacked the same way.
    Pool(slots, base, k, mean_readout, &level);
    previous_base.swap(base);
  }
  return result;
}

}  // namespace ldpgraph
