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
      std::vector<std::uint64_t> words;
      for (Eigen::Index r = begin; r < end; ++r) {
        const std::int64_t first = x->offsets[r], count = x->offsets[r + 1] - first;
        words.resize(static_cast<std::size_t>(count / 4 + 2));
        float* out = values->data() + first;
        draws.Run(r, count, words.data(), out);
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
      for (Eigen::Index r = begin; r < end; ++r) {
        for (Eigen::Index c = 0; c < cols; ++c) keep[r * cols + c] = draws.Kept(r, c);
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
  // out = multipliers . from, row by row: forward on the input, backward on
  // the gradient, the multipliers drawn again rather than held (n x F).
  auto drop_rows = [draws](const Matrix& from, Matrix* out, bool add) {
    ForEachRowBlock(from.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      std::vector<float> multipliers(static_cast<std::size_t>(from.cols()));
      std::vector<std::uint64_t> words(static_cast<std::size_t>(draws.row_words()));
      for (Eigen::Index r = begin; r < end; ++r) {
        draws.Row(r, words.data(), multipliers.data());
        const float* f = from.row(r).data();
        float* o = out->row(r).data();
        for (Eigen::Index c = 0; c < from.cols(); ++c) {
          o[c] = add ? o[c] + f[c] * multipliers[static_cast<std::size_t>(c)] : f[c] * multipliers[static_cast<std::size_t>(c)];
        }
      }
    });
  };
  Matrix y(in.rows(), in.cols());
  drop_rows(in, &y, false);
  if (!Needs(x)) return Push(std::move(y), false);  // a constant input (node features): nothing more
  Var out = Push(std::move(y), true);
  nodes_[out].backward = [this, x, out, drop_rows] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    drop_rows(nodes_[out].grad, &gx, !fresh);
  };
  return out;
}

}  // namespace ldpgraph
