#include "bench/roofline_kernels.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/allocator.h"
#include "engine/batch_norm_passes.h"
#include "engine/packed_rows.h"
#include "engine/parallel.h"
#include "engine/tape.h"
#include "ldpgraph/random_source.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kLine = 64;
// Flops charged per element for an exp (range reduction and a polynomial):
// SELU and softmax are memory-bound at any such count.
constexpr double kExpFlops = 12;

// A matrix of values in [-1, 1) (both signs, as SELU and dropout see).
Matrix Filled(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  Matrix m(rows, cols);
  for (Eigen::Index i = 0; i < m.size(); ++i) {
    m.data()[i] = static_cast<float>(rng.NextU64() >> 40) / static_cast<float>(1 << 23) - 1.0f;
  }
  return m;
}

double SecondsOf(const std::function<void()>& f) {
  const auto start = Clock::now();
  f();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The best time of `op` on a fresh tape (training or not) over repeats
// filling about `seconds`; `setup` places the operands on the tape first.
// With `paired`, that is timed just before each repeat too, its best into
// *paired_best.
double BestSeconds(double seconds, bool training, const std::function<void(Tape&)>& setup,
                   const std::function<void(Tape&)>& op, const std::function<void()>& paired = {},
                   double* paired_best = nullptr) {
  SeededRandomSource rng(7);
  double best = INFINITY, spent = 0;
  if (paired_best != nullptr) *paired_best = INFINITY;
  for (int repeat = 0; repeat < 3 || spent < seconds; ++repeat) {
    Tape tape(training, &rng);
    setup(tape);
    if (paired) *paired_best = std::min(*paired_best, SecondsOf(paired));
    const double took = SecondsOf([&] { op(tape); });
    best = std::min(best, took);
    spent += took;
  }
  return best;
}

// Every word of z read once, each thread reading a contiguous share of the
// pair rows, as the packed products do at both sizes the bench times (they
// split from 1 MB of words; ForEachRowBlock's default of 2,048 rows would
// keep a smaller operand's stream on one thread): the products' stream alone.
void ReadAllWords(const PackedRows& z) {
  const auto* words = reinterpret_cast<const std::uint32_t*>(z.data());
  const std::int64_t cols = z.padded_cols();
  std::vector<std::uint32_t> sums(static_cast<std::size_t>(EngineThreads()));
  ForEachRowBlock(z.pair_rows(), [&](int thread, Eigen::Index begin, Eigen::Index end) {
    std::uint32_t sum = 0;  // wrapping: a checksum only, kept so the reads are not dropped
    for (std::int64_t i = begin * cols; i < end * cols; ++i) sum += words[i];
    sums[static_cast<std::size_t>(thread)] = sum;
  }, 2);
  static volatile std::uint32_t sink;
  for (std::uint32_t s : sums) sink = sink + s;
}

std::string Shape(std::int64_t rows, std::int64_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

// A GIN batch's aggregation: block-diagonal, each block a random graph of
// `graph_nodes` users (both directions of each friendship) plus every
// user's own row, as GIN's (1 + eps) x + sum of neighbours reads them.
SparseMatrix GinBatch(std::int64_t rows, std::int64_t graph_nodes, double degree, std::uint64_t seed) {
  SeededRandomSource rng(seed);
  std::vector<std::vector<std::int32_t>> lists(static_cast<std::size_t>(rows));
  for (std::int64_t first = 0; first < rows; first += graph_nodes) {
    const std::int64_t n = std::min(graph_nodes, rows - first);
    const auto edges = static_cast<std::int64_t>(degree * static_cast<double>(n) / 2);
    for (std::int64_t e = 0; e < edges && n > 1; ++e) {
      const auto u = first + static_cast<std::int64_t>(rng.NextU64() % static_cast<std::uint64_t>(n));
      const auto v = first + static_cast<std::int64_t>(rng.NextU64() % static_cast<std::uint64_t>(n));
      lists[static_cast<std::size_t>(u)].push_back(static_cast<std::int32_t>(v));
      lists[static_cast<std::size_t>(v)].push_back(static_cast<std::int32_t>(u));
    }
  }
  SparseMatrix a;
  a.rows = a.cols = rows;
  for (std::int64_t r = 0; r < rows; ++r) {
    auto& list = lists[static_cast<std::size_t>(r)];
    list.push_back(static_cast<std::int32_t>(r));
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    a.indices.insert(a.indices.end(), list.begin(), list.end());
    a.offsets.push_back(static_cast<std::int64_t>(a.indices.size()));
  }
  return a;
}

KernelTiming NeighbourSum(const SparseMatrix& a, int width, double seconds) {
  const Matrix x = Filled(a.cols, width, 11);
  const bool bf16 = GathersBf16(DefaultGatherPrecision(), a.cols, width);
  const double element = bf16 ? 2 : 4;
  const auto n = static_cast<double>(a.rows), nnz = static_cast<double>(a.nnz());
  KernelTiming k;
  k.name = "neighbour_sum_w" + std::to_string(width);
  k.op = "AggregateBy/" + std::to_string(width);
  k.shape = Shape(a.rows, width) + ", " + std::to_string(a.nnz()) + " entries, " + (bf16 ? "bf16" : "float") + " rows";
  k.cost.flops = 2 * nnz * width;
  // A row's first line is a random one; the rest of a row wider than a
  // line follows it in memory, and streams.
  const double row_bytes = width * element;
  k.cost.read_bytes = 8 * n + (a.unit_weights() ? 0 : 4 * nnz) + (bf16 ? 4 * n * width : 0) +
                      nnz * std::max(0.0, row_bytes - kLine);
  k.cost.written_bytes = 4 * n * width + (bf16 ? 2 * n * width : 0);  // the bf16 copy, then the sums
  k.cost.random_lines = nnz;
  k.cost.footprint_bytes = static_cast<double>(a.cols) * width * element;
  Tape::Var xv = 0;
  k.seconds = BestSeconds(seconds, false, [&](Tape& t) { xv = t.ConstantView(&x); },
                          [&](Tape& t) { t.Aggregate(&a, &a, xv); });
  return k;
}

// An elementwise operation over rows x cols floats, reading `reads` and
// writing `writes` such matrices per element.
KernelTiming Elementwise(std::string name, std::string op, std::int64_t rows, std::int64_t cols, double flops_each,
                         double reads, double writes) {
  KernelTiming k;
  k.name = std::move(name);
  k.op = std::move(op) + "/" + std::to_string(cols);
  k.shape = Shape(rows, cols);
  const double elements = static_cast<double>(rows) * static_cast<double>(cols);
  k.cost.flops = flops_each * elements;
  k.cost.read_bytes = 4 * reads * elements;
  k.cost.written_bytes = 4 * writes * elements;
  return k;
}

KernelTiming LinearProduct(std::string name, std::int64_t rows, int in, int out, double seconds) {
  const Matrix x = Filled(rows, in, 13);
  Parameter w("w", in, out), b("b", 1, out);
  w.value = Filled(in, out, 17);
  KernelTiming k;
  k.name = std::move(name);
  k.op = "Linear/" + std::to_string(out);
  k.shape = Shape(rows, in) + " x " + Shape(in, out);
  const auto r = static_cast<double>(rows);
  k.cost.flops = 2 * r * in * out;
  k.cost.read_bytes = 4 * r * in + 4.0 * in * out;
  k.cost.written_bytes = 4 * r * out;
  Tape::Var xv = 0, wv = 0, bv = 0;
  k.seconds = BestSeconds(
      seconds, false, [&](Tape& t) { xv = t.ConstantView(&x), wv = t.Param(&w), bv = t.Param(&b); },
      [&](Tape& t) { t.Linear(xv, wv, bv); });
  return k;
}

// The LPGNN's first layer on packed KProp'd features of n users
// (engine/packed_rows.h): its product and its weight gradient.
std::vector<KernelTiming> PackedInputKernels(std::int64_t n, std::int64_t d, int hidden, double seconds) {
  PackedRows z(n, d);
  for (std::int64_t first = 0; first < d; first += 64) {
    z.SetColumns(Filled(n, std::min<std::int64_t>(64, z.padded_cols() - first), 61 + first), first);
  }
  Parameter w("w", static_cast<int>(d), hidden);
  w.value = Filled(d, hidden, 67);
  const Matrix g = Filled(n, hidden, 71);
  const auto rows = static_cast<double>(n), values = static_cast<double>(z.pair_rows() * 2 * z.padded_cols());
  std::vector<KernelTiming> kernels;
  KernelTiming k;
  k.name = "packed_input_product";
  k.op = "PackedProduct/" + std::to_string(hidden);
  k.shape = Shape(n, d) + " bf16 x " + Shape(d, hidden);
  k.cost.flops = 2.0 * values * hidden;
  k.cost.read_bytes = 2.0 * values + 4.0 * static_cast<double>(d) * hidden;
  k.cost.written_bytes = 4.0 * rows * hidden;
  Tape::Var wv = 0;
  const auto stream = [&] { ReadAllWords(z); };
  k.seconds = BestSeconds(seconds, false, [&](Tape& t) { wv = t.Param(&w); }, [&](Tape& t) { t.PackedProduct(&z, wv); },
                          stream, &k.paired_stream_seconds);
  kernels.push_back(k);
  k.name = "packed_input_gradient";
  k.shape = Shape(d, n) + " bf16 x " + Shape(n, hidden);
  k.cost.read_bytes = 2.0 * values + 4.0 * rows * hidden;
  k.cost.written_bytes = 4.0 * static_cast<double>(d) * hidden;
  Matrix gw;
  k.seconds = BestSeconds(seconds, false, [](Tape&) {}, [&](Tape&) { PackedWeightGradient(z, g, &gw, true); }, stream,
                          &k.paired_stream_seconds);
  kernels.push_back(std::move(k));
  return kernels;
}

constexpr double kMomentFlops = 3;     // a shifted value, its sum and its square
constexpr double kNormaliseFlops = 5;  // (x - mean) invstd gamma + beta, then the ReLU

double ProductFlops(std::int64_t rows, int width) { return 2.0 * static_cast<double>(rows) * width * width; }

// The GIN MLP's forward pass in its three steps, each timed alone, so that
// the bench shows where the whole falls short of its bound: the first
// product with its batch moments; the second, whose input is the first
// normalisation made a sub-block at a time; the last normalisation. `p`
// holds w, b, gamma, beta of both layers.
std::vector<KernelTiming> MlpParts(const Matrix& x, const std::vector<Parameter>& p, double seconds) {
  const std::int64_t rows = x.rows();
  const int width = static_cast<int>(x.cols());
  const auto elements = static_cast<double>(rows) * width;
  auto moments = [&](const Matrix& in, const Normalisation* norm, int layer, Matrix* pre, Normalisation* out) {
    BatchNormStats stats{RowVector::Zero(width), RowVector::Ones(width)};
    out->gamma = p[4 * layer + 2].value.row(0);
    out->beta = p[4 * layer + 3].value.row(0);
    ProductAndMoments(in, norm, p[4 * layer].value, p[4 * layer + 1].value.row(0), false, 0.1f, 1e-5f, &stats, pre,
                      out);
  };
  Matrix pre1, pre2, y;
  Normalisation norm1, norm2;
  moments(x, nullptr, 0, &pre1, &norm1);
  moments(pre1, &norm1, 1, &pre2, &norm2);
  std::vector<KernelTiming> parts;
  auto part = [&](std::string name, double flops, const std::function<void()>& run) {
    KernelTiming k = Elementwise("gin_mlp_part_" + std::move(name), "NormalisedMlp", rows, width, 0, 1, 1);
    k.op += " (part)";  // not an operation of its own: no share of an epoch
    k.cost.flops = flops;
    k.seconds = BestSeconds(seconds, false, [](Tape&) {}, [&](Tape&) { run(); });
    parts.push_back(std::move(k));
  };
  part("first_product", ProductFlops(rows, width) + kMomentFlops * elements,
       [&] { moments(x, nullptr, 0, &pre1, &norm1); });
  part("second_product", ProductFlops(rows, width) + (kNormaliseFlops + kMomentFlops) * elements,
       [&] { moments(pre1, &norm1, 1, &pre2, &norm2); });
  part("last_normalisation", kNormaliseFlops * elements,
       [&] { y = NormaliseAll(pre2, norm2.mean, norm2.invstd, norm2.gamma, norm2.beta, true); });
  return parts;
}

}  // namespace

double KernelCost::MemorySeconds(const MachineLimits& m) const {
  // The streamed bytes come from where a buffer of their size lives
  // (repeated runs of a small kernel find them in cache, as an epoch does).
  const double streamed = read_bytes + written_bytes;
  return read_bytes / m.ReadBytesPerSecond(streamed) + 2 * written_bytes / m.RmwBytesPerSecond(streamed) +
         random_lines * m.GatherNsPerLine(footprint_bytes) * 1e-9;
}

double KernelCost::BoundSeconds(const MachineLimits& m) const {
  return std::max(ComputeSeconds(m), MemorySeconds(m));
}

double KernelCost::Intensity() const {
  const double bytes = read_bytes + written_bytes + random_lines * kLine;
  return bytes > 0 ? flops / bytes : 0;
}

std::vector<KernelTiming> TimeKernels(const KernelShapes& s, double seconds) {
  // The allocator as a training has it: a kernel's output reuses freed
  // memory instead of faulting in fresh pages (10^6 x 4 floats: 16 MB).
  const TrainingMemoryScope memory;
  std::vector<KernelTiming> kernels;
  const SparseMatrix& a = s.graph->agg;
  const std::int64_t n = a.rows;
  for (int width : s.sum_widths) kernels.push_back(NeighbourSum(a, width, seconds));
  const SparseMatrix batch = GinBatch(s.gin_rows, s.gin_graph_nodes, s.gin_degree, 43);
  for (int width : s.gin_sum_widths) {
    kernels.push_back(NeighbourSum(batch, width, seconds));
    kernels.back().name = "gin_" + kernels.back().name;
  }

  {  // the first layer's product of sparse features: each row a few weight rows (cached)
    const SparseMatrix& f = *s.features;
    Parameter w("w", static_cast<int>(f.cols), s.hidden);
    w.value = Filled(f.cols, s.hidden, 19);
    KernelTiming k;
    k.name = "sparse_input_product";
    k.op = "InputProduct/" + std::to_string(s.hidden);
    k.shape = Shape(f.rows, f.cols) + " (" + std::to_string(f.nnz()) + " non-zeros) x " + Shape(f.cols, s.hidden);
    k.cost.flops = 2.0 * static_cast<double>(f.nnz()) * s.hidden;
    k.cost.read_bytes = 8.0 * static_cast<double>(f.rows) + (f.unit_weights() ? 4.0 : 8.0) * static_cast<double>(f.nnz());
    k.cost.written_bytes = 4.0 * static_cast<double>(f.rows) * s.hidden;
    Tape::InputVar xv = 0;
    Tape::Var wv = 0;
    k.seconds = BestSeconds(seconds, false, [&](Tape& t) { xv = t.Input(&f, 0.0f), wv = t.Param(&w); },
                            [&](Tape& t) { t.InputProduct(xv, wv); });
    kernels.push_back(std::move(k));
  }
  {  // its weight gradient, F^T G: each row of G scattered into the weight rows its features name,
     // with the input's dropout in training (half the entries 0, the rest 2)
    const SparseMatrix& f = *s.features;
    const Matrix g = Filled(f.rows, s.hidden, 53);
    std::vector<float> dropped(static_cast<std::size_t>(f.nnz()));
    SeededRandomSource coin(59);
    for (float& v : dropped) v = (coin.NextU64() & 1) != 0 ? 2.0f : 0.0f;
    KernelTiming k;
    k.name = "sparse_input_gradient";
    k.op = "InputProduct/" + std::to_string(s.hidden);
    k.shape = Shape(f.cols, f.rows) + " (" + std::to_string(f.nnz()) + " non-zeros) x " + Shape(f.rows, s.hidden);
    k.cost.flops = 2.0 * static_cast<double>(f.nnz()) * s.hidden;
    k.cost.read_bytes = 8.0 * static_cast<double>(f.rows) + 8.0 * static_cast<double>(f.nnz()) +
                        4.0 * static_cast<double>(f.rows) * s.hidden;
    Matrix out;
    k.seconds =
        BestSeconds(seconds, false, [](Tape&) {}, [&](Tape&) { SpMMTransposed(f, dropped.data(), g, &out); });
    kernels.push_back(std::move(k));
  }
  if (PackedProductsFast()) {  // the first layer on packed KProp'd features (engine/packed_rows.h)
    for (KernelTiming& k : PackedInputKernels(n, s.features->cols, s.hidden, seconds)) kernels.push_back(std::move(k));
    // The same on 4096 users, whose 4 MB stay in the last-level cache: how
    // near its bound the kernels' code comes when memory does not stop it.
    for (KernelTiming& k : PackedInputKernels(4096, s.features->cols, s.hidden, seconds)) {
      k.name += "_in_cache";
      k.op += " (in cache)";  // not what an epoch runs: no share of one
      kernels.push_back(std::move(k));
    }
  }
  {  // the sparse input's dropout in training: its stored entries' multipliers
    const SparseMatrix& f = *s.features;
    KernelTiming k;
    k.name = "sparse_input_dropout";
    k.op = "Input/" + std::to_string(f.cols);
    k.shape = Shape(f.rows, f.cols) + " (" + std::to_string(f.nnz()) + " non-zeros)";
    k.cost.flops = static_cast<double>(f.nnz());  // each survivor scaled
    k.cost.dropout_draws = static_cast<double>(f.nnz());
    k.cost.read_bytes = 8.0 * static_cast<double>(f.rows) + (f.unit_weights() ? 0.0 : 4.0) * static_cast<double>(f.nnz());
    k.cost.written_bytes = 4.0 * static_cast<double>(f.nnz());
    k.seconds = BestSeconds(seconds, true, [](Tape&) {}, [&](Tape& t) { t.Input(&f, 0.5f); });
    kernels.push_back(std::move(k));
  }
  kernels.push_back(LinearProduct("linear_last_layer", n, s.hidden, s.classes, seconds));
  kernels.push_back(LinearProduct("linear_gin", s.gin_rows, s.gin_width, s.gin_width, seconds));

  const Matrix h = Filled(n, s.hidden, 23);
  Parameter held("h", 1, 1);
  held.value = h;
  Parameter bias("b", 1, s.hidden);
  Tape::Var hv = 0, bv = 0;
  auto constant = [&](Tape& t) { hv = t.ConstantView(&h); };
  {
    KernelTiming k = Elementwise("selu", "Selu", n, s.hidden, kExpFlops + 2, 1, 1);
    k.seconds = BestSeconds(seconds, false, constant, [&](Tape& t) { t.Selu(hv); });
    kernels.push_back(std::move(k));
  }
  {  // on a variable that needs its gradient, as in training: the mask is kept
    KernelTiming k = Elementwise("dropout", "Dropout", n, s.hidden, 1, 1, 2);
    k.cost.dropout_draws = static_cast<double>(n) * s.hidden;  // a draw an element
    k.seconds = BestSeconds(seconds, true, [&](Tape& t) { hv = t.Param(&held); },
                            [&](Tape& t) { t.Dropout(hv, 0.5f); });
    kernels.push_back(std::move(k));
  }
  {  // a factored first layer's two parts
    const Matrix other = Filled(n, s.hidden, 27);
    Tape::Var ov = 0;
    KernelTiming k = Elementwise("add", "Add", n, s.hidden, 1, 2, 1);
    k.seconds = BestSeconds(seconds, false, [&](Tape& t) { hv = t.ConstantView(&h), ov = t.ConstantView(&other); },
                            [&](Tape& t) { t.Add(hv, ov); });
    kernels.push_back(std::move(k));
  }
  {
    KernelTiming k = Elementwise("add_bias", "AddBias", n, s.hidden, 1, 1, 1);
    k.seconds = BestSeconds(seconds, false, [&](Tape& t) { hv = t.ConstantView(&h), bv = t.Param(&bias); },
                            [&](Tape& t) { t.AddBias(hv, bv); });
    kernels.push_back(std::move(k));
  }
  {
    const Matrix logits = Filled(n, s.classes, 29);
    std::vector<int> labels(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) labels[static_cast<std::size_t>(i)] = static_cast<int>(i % s.classes);
    KernelTiming k = Elementwise("softmax_cross_entropy", "SoftmaxCrossEntropy", n, s.classes, kExpFlops + 4, 1, 1);
    k.op = "SoftmaxCrossEntropy/1";
    k.cost.flops = 4.0 * static_cast<double>(n) * s.classes;
    k.cost.libm_exps = static_cast<double>(n) * s.classes;
    k.cost.libm_logs = static_cast<double>(n);  // every row labelled here
    k.cost.read_bytes += 4.0 * static_cast<double>(n);  // the labels
    k.seconds = BestSeconds(seconds, false, [&](Tape& t) { hv = t.ConstantView(&logits); },
                            [&](Tape& t) { t.SoftmaxCrossEntropy(hv, &labels, nullptr); });
    kernels.push_back(std::move(k));
  }
  {  // GIN's MLP with its normalisations, in training: at least x read once and the output written
    const Matrix x = Filled(s.gin_rows, s.gin_width, 37);
    std::vector<Parameter> p;
    for (int layer = 0; layer < 2; ++layer) {
      p.emplace_back("w", s.gin_width, s.gin_width);
      p.back().value = Filled(s.gin_width, s.gin_width, 41 + layer);
      p.emplace_back("b", 1, s.gin_width);
      p.emplace_back("g", 1, s.gin_width);
      p.back().value.setOnes();
      p.emplace_back("beta", 1, s.gin_width);
    }
    std::vector<BatchNormStats> stats(2, BatchNormStats{RowVector::Zero(s.gin_width), RowVector::Ones(s.gin_width)});
    // Each normalisation needs its whole batch's statistics before it can
    // normalise a row, so both pre-activations reach memory and are read back.
    KernelTiming k = Elementwise("gin_mlp", "NormalisedMlp", s.gin_rows, s.gin_width, 0, 3, 3);
    k.shape += ", two 64x64 products with batch norms";
    k.cost.flops = 2 * ProductFlops(s.gin_rows, s.gin_width) + (2 * kMomentFlops + 2 * kNormaliseFlops) *
                                                                  static_cast<double>(s.gin_rows) * s.gin_width;
    Tape::NormalisedLinear first{}, second{};
    k.seconds = BestSeconds(
        seconds, true,
        [&](Tape& t) {
          hv = t.ConstantView(&x);
          first = {t.Param(&p[0]), t.Param(&p[1]), t.Param(&p[2]), t.Param(&p[3]), &stats[0]};
          second = {t.Param(&p[4]), t.Param(&p[5]), t.Param(&p[6]), t.Param(&p[7]), &stats[1]};
        },
        [&](Tape& t) { t.NormalisedMlp(hv, first, second); });
    kernels.push_back(std::move(k));
    for (KernelTiming& part : MlpParts(x, p, seconds)) kernels.push_back(std::move(part));
  }
  {  // GIN's readout: the mean of each graph's rows
    const Matrix x = Filled(s.gin_rows, s.gin_width, 47);
    std::vector<std::int64_t> offsets;
    for (std::int64_t r = 0; r < s.gin_rows; r += s.gin_graph_nodes) offsets.push_back(r);
    offsets.push_back(s.gin_rows);
    KernelTiming k = Elementwise("gin_readout", "Pool", s.gin_rows, s.gin_width, 1, 1, 0);
    k.shape += ", graphs of " + std::to_string(s.gin_graph_nodes);
    k.cost.written_bytes = 4.0 * static_cast<double>(offsets.size() - 1) * s.gin_width;
    k.seconds = BestSeconds(seconds, false, [&](Tape& t) { hv = t.ConstantView(&x); },
                            [&](Tape& t) { t.Pool(&offsets, hv, true); });
    kernels.push_back(std::move(k));
  }
  {  // GIN's batch norm in training: statistics, then normalised rows
    const Matrix x = Filled(s.gin_rows, s.gin_width, 31);
    Parameter gamma("g", 1, s.gin_width), beta("b", 1, s.gin_width);
    gamma.value.setOnes();
    BatchNormStats stats{RowVector::Zero(s.gin_width), RowVector::Ones(s.gin_width)};
    KernelTiming k = Elementwise("batch_norm_gin", "BatchNormImpl", s.gin_rows, s.gin_width, 4, 2, 1);
    Tape::Var gv = 0, betav = 0;
    k.seconds = BestSeconds(
        seconds, true, [&](Tape& t) { hv = t.ConstantView(&x), gv = t.Param(&gamma), betav = t.Param(&beta); },
        [&](Tape& t) { t.BatchNorm(hv, gv, betav, &stats); });
    kernels.push_back(std::move(k));
  }
  return kernels;
}

}  // namespace ldpgraph
