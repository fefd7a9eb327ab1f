// Tape operations that drop: a layer's input (dense or sparse) with
// dropout, and dropout on any node; masks from engine/dropout_draws.h, one
// word of the tape's seeded source a call.
#include "engine/tape.h"

#include <memory>
#include <vector>

#include "engine/dropout_draws.h"
#include "engine/parallel.h"

namespace ldpgraph {

DropoutDraws Tape::NextDropout(float p, Eigen::Index rows, Eigen::Index cols) {
  const bool ids = row_ids_ != nullptr && static_cast<Eigen::Index>(row_ids_->size()) == rows;
  return DropoutDraws(rng_->NextU64(), p, cols, ids ? row_ids_->data() : nullptr);
}

Tape::InputVar Tape::Input(const SparseMatrix* x, float dropout) {
  InputNode node;
  node.sparse = x;
  if (training_ && dropout > 0.0f) {
    // Each row's stored entries draw in storage order, as a row 2^32 wide
    // (four entries a mixed word): the zeros stay zero, so this is dropout
    // on the whole matrix at the cost of its non-zeros.
    const DropoutDraws draws = NextDropout(dropout, static_cast<Eigen::Index>(x->rows), Eigen::Index{1} << 32);
    auto values = std::make_shared<std::vector<float>>(static_cast<std::size_t>(x->nnz()));
    ForEachRowBlock(static_cast<Eigen::Index>(x->rows), [&](int, Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index r = begin; r < end; ++r) {
        const std::int64_t first = x->offsets[r], count = x->offsets[r + 1] - first;
        float* out = values->data() + first;
        draws.Run(r, count, out);
        if (!x->unit_weights()) {
          for (std::int64_t k = 0; k < count; ++k) out[k] *= x->values[static_cast<std::size_t>(first + k)];
        }
      }
    });
    node.values = std::move(values);
    ChargeInput(x->cols);
  }
  inputs_.push_back(std::move(node));
  return static_cast<InputVar>(inputs_.size() - 1);
}

Tape::InputVar Tape::Input(MatrixView x, float dropout) {
  InputNode node;
  node.dense.emplace(x);
  if (training_ && dropout > 0.0f) {
    const DropoutDraws draws = NextDropout(dropout, x.rows(), x.cols());
    auto mask = std::make_shared<DropoutBytes>();
    mask->scale = draws.keep_scale();
    const Eigen::Index cols = x.cols();
    mask->keep.reset(new std::uint8_t[static_cast<std::size_t>(x.size())]);
    std::uint8_t* keep = mask->keep.get();
    ForEachRowBlock(x.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      std::vector<float> multipliers(static_cast<std::size_t>(cols));
      for (Eigen::Index r = begin; r < end; ++r) {
        draws.Row(r, multipliers.data());
        for (Eigen::Index c = 0; c < cols; ++c) keep[r * cols + c] = multipliers[static_cast<std::size_t>(c)] != 0.0f;
      }
    });
    node.mask = std::move(mask);
    ChargeInput(x.cols());
  }
  inputs_.push_back(std::move(node));
  return static_cast<InputVar>(inputs_.size() - 1);
}

Tape::Var Tape::Dropout(Var x, float p) {
  if (!training_ || p <= 0.0f) return x;
  const Matrix& in = value(x);
  const DropoutDraws draws = NextDropout(p, in.rows(), in.cols());
  const bool keep_mask = Needs(x);
  // The mask as bytes for the gradient (a quarter of the floats it once
  // was); a constant input (node features) needs none.
  auto mask = std::make_shared<DropoutBytes>();
  mask->scale = draws.keep_scale();
  if (keep_mask) mask->keep.reset(new std::uint8_t[static_cast<std::size_t>(in.size())]);
  Matrix y(in.rows(), in.cols());
  const Eigen::Index cols = in.cols();
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    std::vector<float> multipliers(static_cast<std::size_t>(cols));
    for (Eigen::Index r = begin; r < end; ++r) {
      draws.Row(r, multipliers.data());
      const float* f = in.row(r).data();
      float* o = y.row(r).data();
      for (Eigen::Index c = 0; c < cols; ++c) o[c] = f[c] * multipliers[static_cast<std::size_t>(c)];
      if (keep_mask) {
        std::uint8_t* k = mask->keep.get() + r * cols;
        for (Eigen::Index c = 0; c < cols; ++c) k[c] = multipliers[static_cast<std::size_t>(c)] != 0.0f;
      }
    }
  });
  if (!keep_mask) return Push(std::move(y), false);
  Var out = Push(std::move(y), true);
  nodes_[out].backward = [this, x, out, mask] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const Matrix& g = nodes_[out].grad;
    const Eigen::Index width = g.cols();
    ForEachRowBlock(g.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      for (Eigen::Index r = begin; r < end; ++r) {
        const float* from = g.row(r).data();
        const std::uint8_t* k = mask->keep.get() + r * width;
        float* to = gx.row(r).data();
        for (Eigen::Index c = 0; c < width; ++c) {
          const float d = from[c] * (static_cast<float>(k[c]) * mask->scale);
          to[c] = fresh ? d : to[c] + d;
        }
      }
    });
  };
  return out;
}

}  // namespace ldpgraph
