#include "engine/tape.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "engine/batch_norm_passes.h"
#include "engine/kernels/kernel_table.h"
#include "engine/parallel.h"
#include "engine/row_gradient_norms.h"
#include "engine/tall_gemm.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {
constexpr float kSeluScale = 1.0507009873554805f;
constexpr float kSeluAlpha = 1.6732632423543772f;

// Dropout's quantised p: an element is dropped when its 16-bit draw is below this.
std::uint16_t DropoutThreshold(float p) { return static_cast<std::uint16_t>(std::min(p * 65536.0f, 65535.0f)); }
// What survivors are multiplied by: 1 / the quantised keep probability.
float DropoutKeepScale(float p) { return 65536.0f / static_cast<float>(65536u - DropoutThreshold(p)); }

}  // namespace

Matrix Softmax(const Matrix& logits) {
  // Each row shifted by its maximum. The scalar libm exp on purpose: Eigen's
  // vectorised one differs in the last bits, and every recorded GIN result
  // (docs/results.md) was trained through this softmax.
  Matrix p = logits;
  for (Eigen::Index r = 0; r < p.rows(); ++r) p.row(r).array() -= p.row(r).maxCoeff();
  for (Eigen::Index i = 0; i < p.size(); ++i) p.data()[i] = std::exp(p.data()[i]);
  for (Eigen::Index r = 0; r < p.rows(); ++r) p.row(r) /= p.row(r).sum();
  return p;
}

Tape::Var Tape::Push(Matrix value, bool needs_grad) {
  Node n;
  n.value = std::move(value);
  n.needs_grad = needs_grad;
  nodes_.push_back(std::move(n));
  return static_cast<Var>(nodes_.size() - 1);
}

Matrix& Tape::GradOf(Var v) {
  Node& n = nodes_[v];
  if (n.grad.size() == 0) n.grad.setZero(value(v).rows(), value(v).cols());
  return n.grad;
}

Matrix& Tape::GradSlot(Var v, bool* fresh) {
  Node& n = nodes_[v];
  *fresh = n.grad.size() == 0;
  if (*fresh) n.grad.resize(value(v).rows(), value(v).cols());
  return n.grad;
}

Tape::Var Tape::Constant(Matrix value) { return Push(std::move(value), false); }

Tape::Var Tape::ConstantView(const Matrix* value) {
  Var v = Push(Matrix(), false);
  nodes_[v].view = value;
  return v;
}

void Tape::NoteParameterRead(Var p) {
  if (row_norms_ == nullptr || nodes_[p].param == nullptr) return;
  const Parameter* param = nodes_[p].param;
  if (std::find(read_parameters_.begin(), read_parameters_.end(), param) != read_parameters_.end()) {
    rows_separable_ = false;
  }
  read_parameters_.push_back(param);
}

bool Tape::RowsSeparable() const {
  // Every parameter on the tape must have been read by a product that counts
  // its rows' norms; one read elsewhere (a sum, a scale) would escape them.
  return rows_separable_ && read_parameters_.size() == parameter_vars_;
}

Tape::Var Tape::Param(Parameter* p) {
  Var v = Push(p->value, true);
  nodes_[v].param = p;
  if (row_norms_ != nullptr) ++parameter_vars_;
  return v;
}

void Tape::Backward(Var loss) {
  GradOf(loss).setOnes();
  for (Var v = loss; v >= 0; --v) {
    Node& n = nodes_[v];
    if (!n.needs_grad || n.grad.size() == 0) continue;
    if (n.backward) n.backward();
    if (n.param != nullptr) {
      if (n.param->grad.size() == 0) n.param->ZeroGrad();
      n.param->grad += nodes_[v].grad;
    }
    // Every node that writes to v's gradient comes after v and has run, and
    // no one reads it again: its memory serves the gradients still to come,
    // so a backward pass holds a few gradients at a time, not one per node.
    n.grad = Matrix();
  }
}

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
  Matrix y = value(x);
  y.rowwise() += value(b).row(0);
  Var out = Push(std::move(y), Needs(x) || Needs(b));
  NoteParameterRead(b);
  nodes_[out].backward = [this, x, b, out] {
    const Matrix& g = nodes_[out].grad;
    if (Needs(x)) GradOf(x) += g;
    if (Needs(b)) GradOf(b) += g.colwise().sum();
    if (row_norms_ != nullptr && Needs(b)) AddRowGradientNorms(nullptr, g, row_norms_);
  };
  return out;
}

Tape::InputVar Tape::Input(const SparseMatrix* x, float dropout) {
  InputNode node;
  node.sparse = x;
  if (training_ && dropout > 0.0f) {
    auto values = std::make_shared<std::vector<float>>(static_cast<std::size_t>(x->nnz()));
    DropoutMask(dropout, values->data(), x->nnz());
    if (!x->unit_weights()) {
      for (std::size_t k = 0; k < values->size(); ++k) (*values)[k] *= x->values[k];
    }
    node.values = std::move(values);
  }
  inputs_.push_back(std::move(node));
  return static_cast<InputVar>(inputs_.size() - 1);
}

Tape::InputVar Tape::Input(const Matrix* x, float dropout) {
  InputNode node;
  node.dense = x;
  if (training_ && dropout > 0.0f) {
    auto mask = std::make_shared<DropoutBytes>();
    mask->scale = DropoutKeepScale(dropout);
    const std::int64_t size = x->size();
    mask->keep.reset(new std::uint8_t[static_cast<std::size_t>(size)]);
    // The draws Dropout would turn into its mask (see DropoutMask), as bytes.
    const std::uint16_t threshold = DropoutThreshold(dropout);
    std::uint16_t chunks[kDropoutBlock + 3];
    std::uint8_t* keep = mask->keep.get();
    for (std::int64_t i = 0; i < size; i += kDropoutBlock) {
      const std::int64_t count = std::min<std::int64_t>(kDropoutBlock, size - i);
      DropoutChunks(chunks, count);
      for (std::int64_t j = 0; j < count; ++j) keep[i + j] = chunks[j] >= threshold;
    }
    node.mask = std::move(mask);
  }
  inputs_.push_back(std::move(node));
  return static_cast<InputVar>(inputs_.size() - 1);
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

Tape::Var Tape::Add(Var a, Var b) {
  Var out = Push(value(a) + value(b), Needs(a) || Needs(b));
  nodes_[out].backward = [this, a, b, out] {
    if (Needs(a)) GradOf(a) += nodes_[out].grad;
    if (Needs(b)) GradOf(b) += nodes_[out].grad;
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
  ForEachRowBlock(in.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    const auto v = in.middleRows(begin, end - begin).array();
    auto out = y.middleRows(begin, end - begin).array();
    // exp of min(v, 0) on its own: Eigen 3.4 evaluates a select() one
    // coefficient at a time, so an exp inside one would be the scalar libm's.
    out = v.min(0.0f).exp();
    const float* vi = v.data();
    float* o = out.data();
    for (Eigen::Index i = 0, size = v.size(); i < size; ++i) {
      o[i] = vi[i] > 0.0f ? kSeluScale * vi[i] : kSeluScale * kSeluAlpha * (o[i] - 1.0f);
    }
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
    ForEachRowBlock(g.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
      const Eigen::Index len = end - begin;
      const auto slope = (in2.middleRows(begin, len).array() > 0.0f)
                             .select(kSeluScale, yv.middleRows(begin, len).array() + kSeluScale * kSeluAlpha);
      if (fresh) {
        gx.middleRows(begin, len).array() = g.middleRows(begin, len).array() * slope;
      } else {
        gx.middleRows(begin, len).array() += g.middleRows(begin, len).array() * slope;
      }
    });
  };
  return out;
}

void Tape::DropoutChunks(std::uint16_t* chunks, Eigen::Index count) {
  // Element j takes the 16-bit chunk j % 4 of word j / 4, lowest first: a
  // block of words read as 16-bit values (little-endian), which vectorises.
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "16-bit chunks are read in memory order");
  std::uint64_t words[kDropoutBlock / 4];
  for (Eigen::Index w = 0; w < (count + 3) / 4; ++w) words[w] = rng_->NextU64();
  std::memcpy(chunks, words, static_cast<std::size_t>((count + 3) / 4) * sizeof(std::uint64_t));
}

void Tape::DropoutMask(float p, float* mask, Eigen::Index size) {
  // One 64-bit draw decides four elements: p is quantised down to a multiple
  // of 2^-16 and the survivors are scaled by the quantised keep probability,
  // so E[output] = input exactly. (Training noise, not a privacy mechanism.)
  const std::uint16_t threshold = DropoutThreshold(p);
  const float keep_scale = DropoutKeepScale(p);
  std::uint16_t chunks[kDropoutBlock + 3];
  for (Eigen::Index i = 0; i < size; i += kDropoutBlock) {
    const Eigen::Index count = std::min(kDropoutBlock, size - i);
    DropoutChunks(chunks, count);
    for (Eigen::Index j = 0; j < count; ++j) mask[i + j] = chunks[j] < threshold ? 0.0f : keep_scale;
  }
}

Tape::Var Tape::Dropout(Var x, float p) {
  if (!training_ || p <= 0.0f) return x;
  if (!Needs(x)) {
    // A constant input (node features): nothing needs the mask afterwards,
    // so it is drawn a block at a time and never held whole (n x F floats).
    const Matrix& in = value(x);
    Matrix y(in.rows(), in.cols());
    constexpr Eigen::Index kBlock = 4096;
    float mask[kBlock];
    for (Eigen::Index i = 0; i < in.size(); i += kBlock) {
      const Eigen::Index count = std::min(kBlock, in.size() - i);
      DropoutMask(p, mask, count);
      for (Eigen::Index j = 0; j < count; ++j) y.data()[i + j] = in.data()[i + j] * mask[j];
    }
    return Push(std::move(y), false);
  }
  auto mask = std::make_shared<Matrix>(value(x).rows(), value(x).cols());
  DropoutMask(p, mask->data(), mask->size());
  Var out = Push(value(x).cwiseProduct(*mask), Needs(x));
  nodes_[out].backward = [this, x, out, mask] {
    if (Needs(x)) GradOf(x) += nodes_[out].grad.cwiseProduct(*mask);
  };
  return out;
}

Tape::Var Tape::BatchNorm(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps) {
  return BatchNormImpl(x, gamma, beta, stats, momentum, eps, false);
}

Tape::Var Tape::BatchNormRelu(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps) {
  return BatchNormImpl(x, gamma, beta, stats, momentum, eps, true);
}

Tape::Var Tape::BatchNormImpl(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps,
                              bool relu) {
  rows_separable_ = false;  // the statistics mix the rows
  // Fused row passes (node states are row-major): no N x F temporaries; the
  // backward pass recomputes the normalised input from x (kernel_table.h).
  const Matrix& in = value(x);
  const Eigen::Index n = in.rows(), f = in.cols();
  const KernelTable& kernels = Kernels();
  const RowVector g = value(gamma).row(0);
  const RowVector b = value(beta).row(0);
  auto invstd = std::make_shared<RowVector>(f);
  auto mean = std::make_shared<RowVector>();
  if (training_) {
    std::vector<RowVector> partial(static_cast<std::size_t>(EngineThreads()), RowVector::Zero(f));
    ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
      kernels.column_sums(in.data() + begin * f, end - begin, f, partial[t].data());
    });
    *mean = RowVector::Zero(f);
    for (const auto& p : partial) *mean += p;
    *mean /= static_cast<float>(n);
    ForEachRowBlock(n, [&](int t, Eigen::Index begin, Eigen::Index end) {
      float* acc = partial[t].data();
      const float* mu = mean->data();
      std::fill_n(acc, f, 0.0f);
      kernels.squared_deviations(in.data() + begin * f, end - begin, f, mu, acc);
    });
    RowVector var = RowVector::Zero(f);
    for (const auto& p : partial) var += p;
    var /= static_cast<float>(n);
    *invstd = (var.array() + eps).rsqrt();
    UpdateRunningStats(*mean, var, n, momentum, stats);
  } else {
    *mean = stats->mean;
    *invstd = (stats->var.array() + eps).rsqrt();
  }
  Var out = Push(NormaliseAll(in, *mean, *invstd, g, b, relu), Needs(x) || Needs(gamma) || Needs(beta));
  const bool training = training_;
  nodes_[out].backward = [this, x, gamma, beta, out, mean, invstd, training, relu] {
    // With the fused ReLU, the first pass also zeroes the gradient where the
    // output was clipped, in place, before summing it.
    Matrix& gy = nodes_[out].grad;
    const Matrix& xv = value(x);
    const Eigen::Index rows = gy.rows(), cols = gy.cols();
    RowVector sum_g, sum_gx;
    OutputGradientSums(&gy, value(out), xv, *mean, *invstd, relu, &sum_g, &sum_gx);
    if (Needs(gamma)) GradOf(gamma) += sum_gx;
    if (Needs(beta)) GradOf(beta) += sum_g;
    if (!Needs(x)) return;
    const RowVector gam = value(gamma).row(0);
    const RowVector k = invstd->cwiseProduct(gam);
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    if (!training) {
      if (fresh) gx.setZero();
      for (Eigen::Index r = 0; r < rows; ++r) gx.row(r) += gy.row(r).cwiseProduct(k);
      return;
    }
    // dx = gamma invstd (g - mean(g) - xhat mean(g xhat)), per column.
    const RowVector mean_g = sum_g / static_cast<float>(rows);
    const RowVector mean_gx = sum_gx / static_cast<float>(rows);
    ForEachRowBlock(rows, [&](int, Eigen::Index begin, Eigen::Index end) {
      Kernels().input_gradient_rows(gy.data() + begin * cols, xv.data() + begin * cols, mean->data(), invstd->data(),
                                    end - begin, cols, mean_g.data(), mean_gx.data(), k.data(),
                                    gx.data() + begin * cols, fresh);
    });
  };
  return out;
}

Tape::Var Tape::Aggregate(const SparseMatrix* a, const SparseMatrix* a_t, Var x) {
  const GatherPrecision p = gathers_;
  return AggregateBy([a, p](const Matrix& v, Matrix* y) { SpMM(*a, v, y, p); },
                     [a_t, p](const Matrix& g, Matrix* y) { SpMM(*a_t, g, y, p); }, x);
}

Tape::Var Tape::Aggregate(const BlockDiagonal* a, const BlockDiagonal* a_t, Var x) {
  // The views are copied into the closures: a batch's may not outlive the call.
  const GatherPrecision p = gathers_;
  return AggregateBy([a = *a, p](const Matrix& v, Matrix* y) { SpMM(a, v, y, p); },
                     [a_t = *a_t, p](const Matrix& g, Matrix* y) { SpMM(a_t, g, y, p); }, x);
}

Tape::Var Tape::AggregateBy(std::function<void(const Matrix&, Matrix*)> product,
                            std::function<void(const Matrix&, Matrix*)> transposed, Var x) {
  rows_separable_ = false;
  Matrix y;
  product(value(x), &y);
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, transposed = std::move(transposed), x, out] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& slot = GradSlot(x, &fresh);
    if (fresh) {
      transposed(nodes_[out].grad, &slot);
      return;
    }
    Matrix gx;
    transposed(nodes_[out].grad, &gx);
    slot += gx;
  };
  return out;
}

Tape::Var Tape::Pool(const std::vector<std::int64_t>* offsets, Var x, bool mean) {
  rows_separable_ = false;
  const Matrix& in = value(x);
  const auto groups = static_cast<Eigen::Index>(offsets->size() - 1);
  Matrix y = Matrix::Zero(groups, in.cols());
  const bool parallel = in.rows() >= 4096;
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
  for (Eigen::Index g = 0; g < groups; ++g) {
    const auto begin = (*offsets)[g], count = (*offsets)[g + 1] - begin;
    if (count == 0) continue;
    Kernels().column_sums(in.data() + begin * in.cols(), count, in.cols(), y.data() + g * in.cols());
    if (mean) y.row(g) /= static_cast<float>(count);
  }
  Var out = Push(std::move(y), Needs(x));
  nodes_[out].backward = [this, offsets, x, out, mean, groups] {
    if (!Needs(x)) return;
    bool fresh = false;
    Matrix& gx = GradSlot(x, &fresh);
    const Matrix& gy = nodes_[out].grad;
    const bool parallel_rows = gx.rows() >= 4096;
#pragma omp parallel for schedule(dynamic, 1) if (parallel_rows)
    for (Eigen::Index g = 0; g < groups; ++g) {
      const auto begin = (*offsets)[g], count = (*offsets)[g + 1] - begin;
      if (count == 0) continue;
      const RowVector row = mean ? RowVector(gy.row(g) / static_cast<float>(count)) : RowVector(gy.row(g));
      Kernels().broadcast_row(row.data(), count, gx.cols(), gx.data() + begin * gx.cols(), fresh);
    }
    // Rows outside every group (none when the offsets cover all rows) get no gradient.
    if (fresh && (*offsets)[groups] < gx.rows()) gx.bottomRows(gx.rows() - (*offsets)[groups]).setZero();
    if (fresh && (*offsets)[0] > 0) gx.topRows((*offsets)[0]).setZero();
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

namespace {

// The mean of -log q[i][labels[i]] over labelled rows (q clamped at 1e-30),
// as a 1x1 matrix; *scale = 1 / (labelled rows), 0 when there are none.
Matrix MeanNll(const Matrix& q, const std::vector<int>& labels, float* scale) {
  double loss = 0.0;
  int count = 0;
  for (Eigen::Index i = 0; i < q.rows(); ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    if (y < 0) continue;
    loss -= std::log(std::max(q(i, y), 1e-30f));
    ++count;
  }
  *scale = count > 0 ? 1.0f / static_cast<float>(count) : 0.0f;
  Matrix out(1, 1);
  out(0, 0) = static_cast<float>(loss) * *scale;
  return out;
}

}  // namespace

Tape::Var Tape::SoftmaxCrossEntropy(Var logits, const std::vector<int>* labels, const Matrix* transition) {
  const Matrix& z = value(logits);
  auto probs = std::make_shared<Matrix>(Softmax(z));
  auto corrected = std::make_shared<Matrix>();
  if (transition != nullptr) *corrected = *probs * *transition;
  const Matrix& q = transition != nullptr ? *corrected : *probs;
  float scale = 0.0f;
  Var out = Push(MeanNll(q, *labels, &scale), Needs(logits));
  nodes_[out].backward = [this, logits, labels, transition, probs, corrected, scale, out] {
    if (!Needs(logits)) return;
    const float upstream = nodes_[out].grad(0, 0) * scale;
    Matrix& gz = GradOf(logits);
    const Matrix& p = *probs;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      const int y = (*labels)[i];
      if (y < 0) continue;
      if (transition == nullptr) {
        gz.row(i) += upstream * p.row(i);
        gz(i, y) -= upstream;
        continue;
      }
      // dL/dp = -T[:, y] / q_y; through softmax: p * (dL/dp - <dL/dp, p>).
      const float qy = std::max((*corrected)(i, y), 1e-30f);
      const RowVector dp = -transition->col(y).transpose() / qy;
      const float dot = dp.dot(p.row(i));
      gz.row(i) += upstream * (p.row(i).array() * (dp.array() - dot)).matrix();
    }
  };
  return out;
}

Tape::Var Tape::SoftmaxRows(Var logits) {
  Var out = Push(Softmax(value(logits)), Needs(logits));
  nodes_[out].backward = [this, logits, out] {
    if (!Needs(logits)) return;
    // dz = p * (dp - <dp, p>) row by row.
    const Matrix& p = value(out);
    const Matrix& g = nodes_[out].grad;
    const Eigen::VectorXf dots = (g.array() * p.array()).rowwise().sum();
    GradOf(logits).array() += p.array() * (g.array().colwise() - dots.array());
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

Tape::Var Tape::ProbabilityNll(Var probs, const std::vector<int>* labels) {
  float scale = 0.0f;
  Var out = Push(MeanNll(value(probs), *labels, &scale), Needs(probs));
  nodes_[out].backward = [this, probs, labels, scale, out] {
    if (!Needs(probs)) return;
    const float upstream = nodes_[out].grad(0, 0) * scale;
    const Matrix& q = value(probs);
    Matrix& g = GradOf(probs);
    for (Eigen::Index i = 0; i < q.rows(); ++i) {
      const int y = (*labels)[i];
      if (y < 0 || q(i, y) < 1e-30f) continue;  // clamped: no gradient
      g(i, y) -= upstream / q(i, y);
    }
  };
  return out;
}

Tape::Var Tape::WeightedCrossEntropySum(Var logits, const std::vector<int>* labels,
                                        const std::vector<float>* weights) {
  auto probs = std::make_shared<Matrix>(Softmax(value(logits)));
  double loss = 0;
  for (Eigen::Index i = 0; i < probs->rows(); ++i) {
    const int y = (*labels)[i];
    if (y >= 0) loss -= (*weights)[i] * std::log(std::max((*probs)(i, y), 1e-30f));
  }
  Matrix total(1, 1);
  total(0, 0) = static_cast<float>(loss);
  Var out = Push(std::move(total), Needs(logits));
  nodes_[out].backward = [this, logits, labels, weights, probs, out] {
    if (!Needs(logits)) return;
    const float upstream = nodes_[out].grad(0, 0);
    Matrix& gz = GradOf(logits);
    for (Eigen::Index i = 0; i < probs->rows(); ++i) {
      const int y = (*labels)[i];
      if (y < 0) continue;
      const float scale = upstream * (*weights)[i];
      gz.row(i) += scale * probs->row(i);
      gz(i, y) -= scale;
    }
  };
  return out;
}

}  // namespace ldpgraph
