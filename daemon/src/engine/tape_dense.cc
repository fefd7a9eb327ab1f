// Tape operations of the dense family: linear layers and their inputs'
// products, sums, scaling, activations, constant products.
#include "engine/tape.h"

#include <cmath>
#include <vector>

#include "engine/kernels/kernel_table.h"
#include "engine/packed_rows.h"
#include "engine/parallel.h"
#include "engine/row_gradient_norms.h"
#include "engine/tall_gemm.h"

namespace ldpgraph {

Tape::Var Tape::Linear(Var x, Var w, Var b) {
  const Matrix& in = value(x);
  const Matrix& weight = value(w);
  const bool biased = b != kNone;
  const RowVector bias = biased ? RowVector(value(b).row(0)) : RowVector();
  const Eigen::Index in_dim = in.cols(), out_dim = weight.cols();
  Matrix y(in.rows(), out_dim);
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    GemmOperands product{in.data() + begin * in_dim, in_dim, 1, weight.data(), out_dim, y.data() + begin * out_dim,
                         out_dim, biased ? bias.data() : nullptr};
    product.bf16 = bf16_products_;
    TallGemm(product, end - begin, out_dim, in_dim, false);
  });
  Var out = Push(std::move(y), Needs(x) || Needs(w) || (biased && Needs(b)));
  NoteParameterRead(w);
  if (biased) NoteParameterRead(b);
  nodes_[out].backward = [this, x, w, b, out] {
    const Matrix& g = nodes_[out].grad;
    const Matrix& in2 = value(x);
    const Matrix& weight2 = value(w);
    const bool need_x = Needs(x), need_w = Needs(w), need_b = b != kNone && Needs(b);
    if (row_norms_ != nullptr && need_w) AddRowGradientNorms(&in2, g, row_norms_);
    if (row_norms_ != nullptr && need_b) AddRowGradientNorms(nullptr, g, row_norms_);
    bool fresh_x = false;
    Matrix* gx = need_x ? &GradSlot(x, &fresh_x) : nullptr;
    const Eigen::Index k = in2.cols(), m = weight2.cols();
    const Matrix weight_t = need_x ? Matrix(weight2.transpose()) : Matrix();
    // Per-thread partial weight and bias gradients, summed after.
    std::vector<Matrix> gw(static_cast<std::size_t>(EngineThreads()));
    std::vector<RowVector> gb(gw.size());
    ForEachRowBlock(g.rows(), [&](int t, Eigen::Index begin, Eigen::Index end) {
      const float* gblock = g.data() + begin * m;
      if (need_x) {  // dX = G W^T
        GemmOperands product{gblock, m, 1, weight_t.data(), k, gx->data() + begin * k, k};
        product.bf16 = bf16_products_;
        TallGemm(product, end - begin, k, m, !fresh_x);
      }
      if (need_w) {  // dW = X^T G: A = X^T addressed in place (row stride 1, inner stride k)
        gw[t].resize(k, m);
        GemmOperands product{in2.data() + begin * k, 1, k, gblock, m, gw[t].data(), m};
        product.bf16 = bf16_products_;
        TallGemm(product, k, m, end - begin, false);
      }
      if (need_b) {
        gb[t] = RowVector::Zero(m);
        Kernels().column_sums(gblock, end - begin, m, gb[t].data());
      }
    });
    for (std::size_t t = 0; t < gw.size(); ++t) {
      if (need_w && gw[t].size() != 0) GradOf(w) += gw[t];
      if (need_b && gb[t].size() != 0) GradOf(b) += gb[t];
    }
  };
  return out;
}

Tape::Var Tape::AddBias(Var x, Var b) {
  const Matrix& in = value(x);
  const RowVector bias = value(b).row(0);
  Matrix y(in.rows(), in.cols());
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    y.middleRows(begin, end - begin) = in.middleRows(begin, end - begin).rowwise() + bias;
  });
  Var out = Push(std::move(y), Needs(x) || Needs(b));
  NoteParameterRead(b);
  nodes_[out].backward = [this, x, b, out] {
    const Matrix& g = nodes_[out].grad;
    if (Needs(x)) AddGradient(x, g);
    if (Needs(b)) {  // column sums per thread, added in thread order
      std::vector<RowVector> partial(static_cast<std::size_t>(EngineThreads()));
      ForEachRowBlock(g.rows(), [&](int t, Eigen::Index begin, Eigen::Index end) {
        partial[static_cast<std::size_t>(t)] = RowVector::Zero(g.cols());
        Kernels().column_sums(g.data() + begin * g.cols(), end - begin, g.cols(), partial[static_cast<std::size_t>(t)].data());
      });
      Matrix& gb = GradOf(b);
      for (const RowVector& sums : partial) {
        if (sums.size() != 0) gb.row(0) += sums;
      }
    }
    if (row_norms_ != nullptr && Needs(b)) AddRowGradientNorms(nullptr, g, row_norms_);
  };
  return out;
}

Tape::Var Tape::InputProduct(InputVar x, Var w) {
  const InputNode input = inputs_[static_cast<std::size_t>(x)];
  Matrix y;
  const float* values = nullptr;
  if (input.sparse != nullptr) {
    values = input.values != nullptr ? input.values->data()
             : input.sparse->unit_weights() ? nullptr
                                            : input.sparse->values.data();
    SpMM(*input.sparse, values, value(w), &y);
  } else {
    MaskedProduct(*input.dense, input.mask.get(), value(w), &y);
  }
  Var out = Push(std::move(y), Needs(w));
  NoteParameterRead(w);
  nodes_[out].backward = [this, input, values, w, out] {  // `input` keeps the dropped values alive
    if (!Needs(w)) return;
    Matrix gw;  // dW = X^T G
    const Matrix& g = nodes_[out].grad;
    if (input.sparse != nullptr) {
      SpMMTransposed(*input.sparse, values, g, &gw);
      if (row_norms_ != nullptr) AddRowGradientNorms(*input.sparse, values, g, row_norms_);
    } else {
      MaskedWeightGradient(*input.dense, input.mask.get(), g, &gw);
      if (row_norms_ != nullptr) AddRowGradientNorms(*input.dense, input.mask.get(), g, row_norms_);
    }
    GradOf(w) += gw;
  };
  return out;
}

Tape::Var Tape::PackedProduct(const PackedRows* z, Var w, Matrix* known) {
  rows_separable_ = false;  // its gradient is not split by rows (row_gradient_norms.h)
  Matrix y;
  if (known != nullptr && known->size() > 0) {
    y = std::move(*known);
  } else {
    ldpgraph::PackedProduct(*z, value(w), &y);
  }
  Var out = Push(std::move(y), Needs(w));
  NoteParameterRead(w);
  nodes_[out].backward = [this, z, w, out] {
    if (!Needs(w)) return;
    bool fresh = false;
    Matrix& gw = GradSlot(w, &fresh);
    PackedWeightGradient(*z, nodes_[out].grad, &gw, fresh);
  };
  return out;
}

Tape::Var Tape::ConcatColumns(const std::vector<Var>& parts) {
  Eigen::Index cols = 0;
  bool needs = false;
  for (Var p : parts) {
    cols += value(p).cols();
    needs = needs || Needs(p);
  }
  Matrix y(value(parts.front()).rows(), cols);
  Eigen::Index at = 0;
  for (Var p : parts) {
    y.middleCols(at, value(p).cols()) = value(p);
    at += value(p).cols();
  }
  Var out = Push(std::move(y), needs);
  nodes_[out].backward = [this, parts, out] {
    Eigen::Index from = 0;
    for (Var p : parts) {
      const Eigen::Index width = value(p).cols();
      if (Needs(p)) GradOf(p) += nodes_[out].grad.middleCols(from, width);
      from += width;
    }
  };
  return out;
}

Tape::Var Tape::NormaliseRows(Var x) {
  const Matrix& in = value(x);
  Eigen::VectorXf inverse_norms(in.rows());
  Matrix y(in.rows(), in.cols());
  for (Eigen::Index r = 0; r < in.rows(); ++r) {
    const float norm = in.row(r).norm();
    inverse_norms[r] = norm > 0 ? 1 / norm : 0.0f;
    y.row(r) = in.row(r) * inverse_norms[r];
  }
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, x, out, inverse_norms] {
    if (!Needs(x)) return;
    // d(x / |x|) = (g - y (y . g)) / |x|, y the unit row.
    const Matrix& unit = value(out);
    const Matrix& g = nodes_[out].grad;
    Matrix& dx = GradOf(x);
    for (Eigen::Index r = 0; r < unit.rows(); ++r) {
      const float along = unit.row(r).dot(g.row(r));
      dx.row(r) += (g.row(r) - along * unit.row(r)) * inverse_norms[r];
    }
  };
  return out;
}

Tape::Var Tape::Add(Var a, Var b) {
  const Matrix& va = value(a);
  const Matrix& vb = value(b);
  Matrix y(va.rows(), va.cols());
  ForEachRowBlock(va.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    const Eigen::Index len = end - begin;
    y.middleRows(begin, len) = va.middleRows(begin, len) + vb.middleRows(begin, len);
  });
  Var out = Push(std::move(y), Needs(a) || Needs(b));
  nodes_[out].backward = [this, a, b, out] {
    if (Needs(a)) AddGradient(a, nodes_[out].grad);
    if (Needs(b)) AddGradient(b, nodes_[out].grad);
  };
  return out;
}

Tape::Var Tape::Scale(Var x, float s) {
  Var out = Push(value(x) * s, Needs(x));
  nodes_[out].backward = [this, x, s, out] {
    if (Needs(x)) GradOf(x) += nodes_[out].grad * s;
  };
  return out;
}

Tape::Var Tape::Relu(Var x) {
  const Matrix& in = value(x);
  Matrix y(in.rows(), in.cols());
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    y.middleRows(begin, end - begin) = in.middleRows(begin, end - begin).cwiseMax(0.0f);
  });
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, x, out] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const Matrix& yv = value(out);
    const Matrix& g = nodes_[out].grad;
    ForEachRowBlock(g.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      const Eigen::Index len = end - begin;
      const auto masked = (yv.middleRows(begin, len).array() > 0.0f).select(g.middleRows(begin, len).array(), 0.0f);
      if (fresh) {
        gx.middleRows(begin, len).array() = masked;
      } else {
        gx.middleRows(begin, len).array() += masked;
      }
    });
  };
  return out;
}

Tape::Var Tape::Selu(Var x) {
  const Matrix& in = value(x);
  Matrix y(in.rows(), in.cols());
  const Eigen::Index cols = in.cols();
  // The kernel's own vector exp, branch-free: Eigen's exp is the baseline's
  // 4 lanes wide and the sign's select a branch per element (a 10^6 x 16
  // SELU took 31 times its memory bound; bench roofline).
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    Kernels().selu(in.data() + begin * cols, (end - begin) * cols, y.data() + begin * cols);
  });
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, x, out] {
    if (!Needs(x)) return;
    // d selu / dv = scale for v > 0, scale alpha e^v = y + scale alpha otherwise: from the output, no exp.
    const Matrix& in2 = value(x);
    const Matrix& yv = value(out);
    const Matrix& g = nodes_[out].grad;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const Eigen::Index width = g.cols();
    ForEachRowBlock(g.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      const Eigen::Index first = begin * width;
      Kernels().selu_gradient(in2.data() + first, yv.data() + first, g.data() + first, (end - begin) * width,
                              gx.data() + first, fresh);
    });
  };
  return out;
}

Tape::Var Tape::Dot(Var x, const Matrix* weights) {
  Matrix v(1, 1);
  v(0, 0) = value(x).cwiseProduct(*weights).sum();
  Var out = Push(std::move(v), Needs(x));
  nodes_[out].backward = [this, x, weights, out] {
    if (Needs(x)) GradOf(x) += nodes_[out].grad(0, 0) * *weights;
  };
  return out;
}

Tape::Var Tape::MatMulConstant(Var x, const Matrix* m) {
  Var out = Push(value(x) * *m, Needs(x));
  nodes_[out].backward = [this, x, m, out] {
    if (Needs(x)) GradOf(x).noalias() += nodes_[out].grad * m->transpose();
  };
  return out;
}

}  // namespace ldpgraph
