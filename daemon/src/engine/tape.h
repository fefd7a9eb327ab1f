// Tape: reverse-mode automatic differentiation for the GNN engine.
//
// A forward pass records one node per operation (its value and a closure
// that pushes its output gradient to its inputs); Backward() replays the
// closures in reverse. A new tape is built for every batch. Parameters enter
// as leaves and receive their gradients in Parameter::grad.
// Thread-safety: a tape belongs to one thread; the kernels inside use OpenMP.
#ifndef LDPGRAPH_DAEMON_ENGINE_TAPE_H_
#define LDPGRAPH_DAEMON_ENGINE_TAPE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/masked_product.h"
#include "engine/matrix.h"
#include "engine/op_profile.h"
#include "engine/parameter.h"
#include "engine/sparse_matrix.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {

class DropoutDraws;  // engine/dropout_draws.h
class PackedRows;    // engine/packed_rows.h

// Running statistics of a BatchNorm layer (used in eval mode).
struct BatchNormStats {
  RowVector mean;
  RowVector var;
};

// Row-wise softmax, shifted by each row's maximum for stability.
Matrix Softmax(const Matrix& logits);

class Tape {
 public:
  using Var = int;

  // `rng` drives dropout; it may be null when `training` is false.
  // A tape records into DefaultOpProfile() when one is set (op_profile.h).
  Tape(bool training, RandomSource* rng);
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  // A Var that stands for "no operand" (Linear without a bias).
  static constexpr Var kNone = -1;
  // A handle on a constant input read only by products (see Input).
  using InputVar = int;

  bool training() const { return training_; }
  // Linear's three products (forward, input and weight gradients) with
  // bfloat16 inputs and float sums where the CPU has bfloat16 tiles
  // (GemmOperands::bf16). Every other operation stays in float.
  void UseBf16Products(bool on) { bf16_products_ = on; }
  // How Aggregate's products read their inputs, forward and backward
  // (GatherPrecision); DefaultGatherPrecision() until set.
  void UseGathers(GatherPrecision p) { gathers_ = p; }
  Var Constant(Matrix value);
  // A constant read in place, not copied: `value` must outlive the tape. The
  // inputs of full-batch node models, which would otherwise be copied every
  // epoch (n x F floats).
  Var ConstantView(const Matrix* value);
  Var Param(Parameter* p);
  // Keeps `value` alive as long as the tape, for inputs read in place that
  // a forward pass makes itself (a batch's rows of features).
  template <typename T>
  const T* Own(T value) {
    auto held = std::make_shared<const T>(std::move(value));
    owned_.push_back(held);
    return held.get();
  }
  const Matrix& value(Var v) const { return nodes_[v].view != nullptr ? *nodes_[v].view : nodes_[v].value; }

  // Seeds d(loss)/d(loss) = 1 for a 1x1 `loss` and back-propagates into
  // every parameter's grad (accumulating: zero them first).
  void Backward(Var loss);

  // DP-SGD's per-example gradient norms. Called before the forward pass:
  // Backward then adds to (*squared_norms)[i] (one entry per row of the
  // products) the squared norm of row i's share of every parameter gradient
  // that Linear, InputProduct and AddBias form (row_gradient_norms.h). Their
  // sum is example i's squared gradient norm only when rows never mix and no
  // parameter is read twice or by another operation: RowsSeparable() says
  // whether the tape kept to that (Aggregate, Pool and BatchNorm mix rows).
  void TrackRowGradientNorms(std::vector<double>* squared_norms) { row_norms_ = squared_norms; }
  // The user each row of a node model's matrices stands for (`ids` must
  // outlive the tape; null: row r is user r). Dropout draws each user's
  // masks from her id (engine/dropout_draws.h), on any matrix with that many
  // rows, so that a model trained on renumbered users (graph/node_order.h)
  // draws what it would in their first order.
  void SetRowIds(const std::vector<std::uint32_t>* ids) { row_ids_ = ids; }
  bool RowsSeparable() const;

  // ---- operations ---------------------------------------------------------
  Var Linear(Var x, Var w, Var b);  // x W + b (b is 1 x out, or kNone: x W)
  Var AddBias(Var x, Var b);        // x + b on every row (b is 1 x cols)
  // A constant input (n x F, must outlive the tape) with dropout in
  // training mode, read only by InputProduct; no gradient flows into it.
  // Sparse: dropout on the stored entries (the zeros stay zero, so this is
  // dropout on the whole matrix at the cost of its non-zeros). Dense: the
  // mask kept as bytes, the same mask Dropout would draw.
  InputVar Input(const SparseMatrix* x, float dropout);
  InputVar Input(MatrixView x, float dropout);
  InputVar Input(const Matrix* x, float dropout) { return Input(ViewOf(*x), dropout); }
  // x W: sparse at nnz(x) * out a pass each way; dense without ever making
  // the dropped x whole (see masked_product.h).
  Var InputProduct(InputVar x, Var w);
  // z W for packed rows (engine/packed_rows.h; z must outlive the tape),
  // its weight gradient z^T G; no gradient flows into z. When `known` holds
  // a matrix, it is taken (moved) as z W instead of making it, as
  // AggregateSteps takes one.
  Var PackedProduct(const PackedRows* z, Var w, Matrix* known = nullptr);
  Var Add(Var a, Var b);
  // [x_1 | x_2 | ...]: the columns of equally tall matrices side by side.
  Var ConcatColumns(const std::vector<Var>& parts);
  Var Scale(Var x, float s);
  // Every row divided by its L2 norm (a zero row stays zero): ProGAP's
  // stages join their embeddings on the unit sphere before the head.
  Var NormaliseRows(Var x);
  Var Relu(Var x);
  Var Selu(Var x);
  Var Dropout(Var x, float p);      // identity in eval mode
  // Per-column batch normalisation over the rows; in training mode updates
  // `stats` with `momentum` (PyTorch convention, unbiased running variance).
  Var BatchNorm(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum = 0.1f,
                float eps = 1e-5f);
  // ReLU(BatchNorm(x)) in one pass each way (GIN's normalisations outside training).
  Var BatchNormRelu(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum = 0.1f,
                    float eps = 1e-5f);
  // BatchNorm (ReLU'd when `relu`) over rows that each stand for weights[r]
  // equal rows (GIN on colour classes, graph/colour_classes.h): in training
  // the statistics count row r weights[r] times, and its gradient is the
  // sum of its copies'. In evaluation it is BatchNorm. `weights` (one per
  // row) must outlive the tape.
  Var WeightedBatchNorm(Var x, Var gamma, Var beta, BatchNormStats* stats, const std::vector<float>* weights,
                        bool relu, float momentum = 0.1f, float eps = 1e-5f);
  // BatchNorm(x W + b), ReLU'd when `relu`: the two operations in one, the
  // same values up to the order of sums, with fewer passes over memory in
  // training (linear_batch_norm.cc); evaluation and DP-SGD's per-row norms
  // take the two apart.
  Var LinearBatchNorm(Var x, Var w, Var b, Var gamma, Var beta, BatchNormStats* stats, bool relu,
                      float momentum = 0.1f, float eps = 1e-5f);
  // A Linear layer and the BatchNorm after it, as NormalisedMlp takes them.
  struct NormalisedLinear {
    Var w, b, gamma, beta;
    BatchNormStats* stats;
  };
  // ReLU(BN2(ReLU(BN1(x W1 + b1)) W2 + b2)): two LinearBatchNorms with ReLU,
  // the same floats, without ever storing the hidden activation in training
  // (normalised_mlp.cc). GIN's MLP with its layer's normalisation.
  Var NormalisedMlp(Var x, const NormalisedLinear& first, const NormalisedLinear& second, float momentum = 0.1f,
                    float eps = 1e-5f);
  // a * x (a may be rectangular, a.cols = x's rows); `a_t` must be a's
  // transpose (used for the gradient). Both must outlive the tape.
  Var Aggregate(const SparseMatrix* a, const SparseMatrix* a_t, Var x);
  // a^steps x as one node: the values and gradient of `steps` Aggregate
  // calls. When `known` holds a matrix, it is taken (moved) as that result
  // instead of making it: a caller that kept a^steps x from an earlier pass
  // with the same x (engine/propagated_product_cache.h).
  Var AggregateSteps(const SparseMatrix* a, const SparseMatrix* a_t, Var x, int steps, Matrix* known = nullptr);
  // The same for a batch of graphs; the views are copied, their blocks must
  // outlive the tape.
  Var Aggregate(const BlockDiagonal* a, const BlockDiagonal* a_t, Var x);
  // Row segments [offsets[g], offsets[g+1]) summed (or averaged) into row g.
  Var Pool(const std::vector<std::int64_t>* offsets, Var x, bool mean);
  // The scalar sum of x * weights (elementwise); `weights` must outlive the tape.
  Var Dot(Var x, const Matrix* weights);
  // Mean softmax cross-entropy over rows with labels[i] >= 0 (others are
  // ignored). With `transition` (c x c, rows sum to 1) the loss is taken on
  // softmax(z) T: forward correction for labels noised by T.
  Var SoftmaxCrossEntropy(Var logits, const std::vector<int>* labels,
                          const Matrix* transition = nullptr);
  // The pieces of a loss taken after further transformations of the class
  // probabilities (LPGNN's Drop: forward correction, then KProp):
  Var SoftmaxRows(Var logits);                  // row-wise softmax
  Var MatMulConstant(Var x, const Matrix* m);   // x m; `m` must outlive the tape
  // Mean of -log(p[i][labels[i]]) over rows with labels[i] >= 0 (p clamped
  // at 1e-30): the negative log-likelihood of probabilities.
  Var ProbabilityNll(Var probs, const std::vector<int>* labels);
  // The sum (not the mean) of weights[i] x the softmax cross-entropy of row
  // i, over rows with labels[i] >= 0: DP-SGD's loss, whose gradient is the
  // sum of the examples' gradients scaled by their clipping factors. Both
  // vectors must outlive the tape.
  Var WeightedCrossEntropySum(Var logits, const std::vector<int>* labels, const std::vector<float>* weights);

 private:
  struct Node {
    Matrix value;
    const Matrix* view = nullptr;  // ConstantView: the value, held elsewhere
    Matrix grad;
    Parameter* param = nullptr;
    bool needs_grad = false;
    std::function<void()> backward;
    const char* op = nullptr;  // the operation that made it, when profiled
  };
  struct InputNode {
    const SparseMatrix* sparse = nullptr;  // one of the two
    std::optional<MatrixView> dense;
    std::shared_ptr<const std::vector<float>> values;  // sparse after dropout; null: x's own
    std::shared_ptr<const DropoutBytes> mask;           // dense dropout; null: none
  };
  // An input's dropout, which pushes no node, charged to the profile as
  // "Input" of the input's width (not to the next operation).
  void ChargeInput(std::int64_t width);
  // `op` names the operation for the profile: the calling member function.
  Var Push(Matrix value, bool needs_grad, const char* op = __builtin_FUNCTION());
  // The next dropout call's draws over rows x cols (its key from rng_; the
  // row ids when they name these rows).
  DropoutDraws NextDropout(float p, Eigen::Index rows, Eigen::Index cols);
  // y = product(x); backward, x's gradient from `transposed` of y's: both
  // Aggregate forms, over one matrix or a batch's blocks.
  Var AggregateBy(std::function<void(const Matrix&, Matrix*)> product,
                  std::function<void(const Matrix&, Matrix*)> transposed, Var x);
  Matrix& GradOf(Var v);  // zero-initialised on first use
  // The gradient buffer of v, allocated but NOT zeroed when it is new
  // (*fresh = true): the caller assigns instead of accumulating, saving a
  // memset and a read pass per operation.
  Matrix& GradSlot(Var v, bool* fresh);
  // v's gradient += g (assigned when it is new), rows over the threads.
  void AddGradient(Var v, const Matrix& g);
  Var BatchNormImpl(Var x, Var gamma, Var beta, BatchNormStats* stats, float momentum, float eps, bool relu);
  bool Needs(Var v) const { return nodes_[v].needs_grad; }
  // Under TrackRowGradientNorms: a parameter read a second time makes the
  // per-row norms inexact.
  void NoteParameterRead(Var p);

  std::vector<double>* row_norms_ = nullptr;
  bool rows_separable_ = true;
  std::vector<const Parameter*> read_parameters_;
  std::size_t parameter_vars_ = 0;  // Param() calls while tracking

  bool training_;
  bool bf16_products_ = false;
  GatherPrecision gathers_ = DefaultGatherPrecision();
  RandomSource* rng_;
  const std::vector<std::uint32_t>* row_ids_ = nullptr;
  std::vector<Node> nodes_;
  std::vector<InputNode> inputs_;
  std::vector<std::shared_ptr<const void>> owned_;
  using ProfileClock = std::chrono::steady_clock;
  OpProfile* profile_;
  ProfileClock::time_point mark_;  // when the last operation ended
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_ENGINE_TAPE_H_
