// The tape itself: nodes, parameters, the backward pass, and softmax. Its
// operations are in one file per family: tape_dense.cc, tape_dropout.cc,
// tape_batch_norm.cc, tape_aggregation.cc, tape_losses.cc.
#include "engine/tape.h"

#include "engine/parallel.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ldpgraph {

namespace {

// Rows [begin, end) of Softmax, kCols > 0 fixing the width at compile time.
// In blocks of rows, the exps of a block first, then its sums and quotients:
// read in the same pass, a row's sum and its vector of quotients load the
// exps the scalar calls have only just stored, which the core cannot forward
// from four stores to one load (half the time at 10^6 rows of 4).
template <int kCols>
void SoftmaxRows(const Matrix& logits, Eigen::Index begin, Eigen::Index end, Matrix* p) {
  constexpr Eigen::Index kBlock = 64;
  const Eigen::Index cols = kCols > 0 ? kCols : logits.cols();
  for (Eigen::Index first = begin; first < end; first += kBlock) {
    const Eigen::Index last = std::min(end, first + kBlock);
    for (Eigen::Index r = first; r < last; ++r) {
      const float* z = logits.data() + r * cols;
      float* out = p->data() + r * cols;
      float top = z[0];
      for (Eigen::Index c = 1; c < cols; ++c) top = z[c] > top ? z[c] : top;
      for (Eigen::Index c = 0; c < cols; ++c) out[c] = std::exp(z[c] - top);
    }
    for (Eigen::Index r = first; r < last; ++r) {
      float* out = p->data() + r * cols;
      const float sum = Eigen::Map<const RowVector>(out, cols).sum();
      for (Eigen::Index c = 0; c < cols; ++c) out[c] /= sum;
    }
  }
}

}  // namespace

Matrix Softmax(const Matrix& logits) {
  // Each row shifted by its maximum. The scalar libm exp on purpose: Eigen's
  // vectorised one differs in the last bits, and every recorded GIN result
  // (docs/results.md) was trained through this softmax. Plain loops but for
  // the sum, which stays Eigen's (its order of adds depends on where a row
  // starts): the same floats (tests/unit/softmax_test.cc). Rows split over
  // the threads: each row's floats are the same either way. 10^6 rows of 4
  // on 2 threads of an AMD EPYC (Zen 3): a row at a time 19 ms, in blocks
  // 11.5 ms, the exps alone 7.7 ms.
  Matrix p(logits.rows(), logits.cols());
  ForEachRowBlock(p.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    switch (logits.cols()) {
      case 2: SoftmaxRows<2>(logits, begin, end, &p); break;
      case 4: SoftmaxRows<4>(logits, begin, end, &p); break;
      case 7: SoftmaxRows<7>(logits, begin, end, &p); break;
      default: SoftmaxRows<0>(logits, begin, end, &p);
    }
  });
  return p;
}

Tape::Tape(bool training, RandomSource* rng)
    : training_(training), rng_(rng), profile_(DefaultOpProfile()) {
  if (profile_ != nullptr) mark_ = ProfileClock::now();
}

void Tape::ChargeInput(std::int64_t width) {
  if (profile_ == nullptr) return;
  const auto now = ProfileClock::now();
  profile_->AddForward("Input", width, std::chrono::duration<double>(now - mark_).count());
  mark_ = now;
}

Tape::Var Tape::Push(Matrix value, bool needs_grad, const char* op) {
  Node n;
  if (profile_ != nullptr) {
    const auto now = ProfileClock::now();
    profile_->AddForward(op, value.cols(), std::chrono::duration<double>(now - mark_).count());
    mark_ = now;
    n.op = op;
  }
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

void Tape::AddGradient(Var v, const Matrix& g) {
  bool fresh = false;
  Matrix& slot = GradSlot(v, &fresh);
  ForEachRowBlock(g.rows(), [&](int, Eigen::Index begin, Eigen::Index end) {
    auto to = slot.middleRows(begin, end - begin);
    const auto from = g.middleRows(begin, end - begin);
    if (fresh) {
      to = from;
    } else {
      to += from;
    }
  });
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
    const auto start = profile_ != nullptr ? ProfileClock::now() : ProfileClock::time_point();
    if (n.backward) n.backward();
    if (n.param != nullptr) {
      if (n.param->grad.size() == 0) n.param->ZeroGrad();
      n.param->grad += nodes_[v].grad;
    }
    if (profile_ != nullptr) {
      profile_->AddBackward(n.op, value(v).cols(),
                            std::chrono::duration<double>(ProfileClock::now() - start).count());
    }
    // Every node that writes to v's gradient comes after v and has run, and
    // no one reads it again: its memory serves the gradients still to come,
    // so a backward pass holds a few gradients at a time, not one per node.
    n.grad = Matrix();
  }
}

}  // namespace ldpgraph
