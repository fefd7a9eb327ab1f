#include "gw/gromov_wasserstein.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <Eigen/SparseCore>

#include "gw/transport_simplex.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

// A cap on the passes of the local moves (each pass strictly improves).
constexpr int kMaxPasses = 1000;

Status CheckFinite(const Eigen::MatrixXd& a, const char* name) {
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      if (!std::isfinite(a(i, j))) {
        return Status::InvalidArgument(std::string(name) + "(" + std::to_string(i) + ", " + std::to_string(j) +
                                       ") is not finite");
      }
    }
  }
  return Status::Ok();
}

// A copy of a structure matrix with few non-zeros (an adjacency matrix:
// PROTEINS' have about 4 a row), empty otherwise: products with it then
// cost its non-zeros instead of n^2 a column.
Eigen::SparseMatrix<double> SparseWhenSparse(const Eigen::MatrixXd& a) {
  if (a.rows() < 32 || (a.array() != 0).count() * 5 > a.size()) return {};
  return a.sparseView();
}

// The pieces of the objective that do not change with T.
struct Problem {
  const Eigen::MatrixXd& c;
  const Eigen::MatrixXd& d;
  const Eigen::MatrixXd* m;  // null: plain GW
  double alpha;
  double constant;  // sum_ik C_ik^2 p_i p_k + sum_jl D_jl^2 q_j q_l
  Eigen::SparseMatrix<double> c_sparse = SparseWhenSparse(c), d_sparse = SparseWhenSparse(d);

  // C X and X D, through the sparse copies where there are.
  Eigen::MatrixXd LeftC(const Eigen::MatrixXd& x) const {
    if (c_sparse.rows() != 0) return c_sparse * x;
    return c * x;
  }
  Eigen::MatrixXd RightD(const Eigen::MatrixXd& x) const {
    if (d_sparse.rows() != 0) return x * d_sparse;
    return x * d;
  }

  // The size of the objective's terms: what rounding errors are relative to.
  double Scale() const {
    double s = alpha * (constant + 2.0 * c.cwiseAbs().maxCoeff() * d.cwiseAbs().maxCoeff());
    if (m != nullptr) s += (1.0 - alpha) * m->cwiseAbs().maxCoeff();
    return std::max(s, 1e-300);
  }

  // (F)GW at T, and C T D (kept for the gradient and the line search).
  double Value(const Eigen::MatrixXd& t, Eigen::MatrixXd* ctd) const {
    *ctd = RightD(LeftC(t));
    return ValueAt(t, *ctd);
  }
  double ValueAt(const Eigen::MatrixXd& t, const Eigen::MatrixXd& ctd) const {
    double v = alpha * (constant - 2.0 * (ctd.array() * t.array()).sum());
    if (m != nullptr) v += (1.0 - alpha) * (m->array() * t.array()).sum();
    return v;
  }
};

// A point of the transport polytope that the descent's iterate is a convex
// combination of: a vertex the LP returned (at most n + m - 1 cells), or
// the start. Kept sparse: each cell's index in Eigen's column-major
// storage (i + j n) and its mass.
struct Atom {
  std::vector<Eigen::Index> cells;
  std::vector<double> mass;
  double weight = 0;

  double Dot(const Eigen::MatrixXd& g) const {
    double sum = 0;
    for (std::size_t k = 0; k < cells.size(); ++k) sum += mass[k] * g.data()[cells[k]];
    return sum;
  }
  bool operator==(const Atom& o) const { return cells == o.cells && mass == o.mass; }
};

// The non-zero cells of a coupling (column-major, as Eigen stores it).
Atom AsAtom(const Eigen::MatrixXd& t) {
  Atom a;
  for (Eigen::Index k = 0; k < t.size(); ++k) {
    if (t.data()[k] != 0) {
      a.cells.push_back(k);
      a.mass.push_back(t.data()[k]);
    }
  }
  return a;
}

// The step direction V - W between two atoms, as a list of cells.
Atom Difference(const Atom& v, const Atom& w) {
  Atom d;
  std::size_t x = 0, y = 0;
  while (x < v.cells.size() || y < w.cells.size()) {
    if (y == w.cells.size() || (x < v.cells.size() && v.cells[x] < w.cells[y])) {
      d.cells.push_back(v.cells[x]);
      d.mass.push_back(v.mass[x++]);
    } else if (x == v.cells.size() || w.cells[y] < v.cells[x]) {
      d.cells.push_back(w.cells[y]);
      d.mass.push_back(-w.mass[y++]);
    } else {
      d.cells.push_back(v.cells[x]);
      d.mass.push_back(v.mass[x++] - w.mass[y++]);
    }
  }
  return d;
}

// C delta D for a direction given by its cells. Between two vertices it
// has at most 2 (n + m) cells: delta D is then built row by row from D's
// columns (D is symmetric), O(cells m), or O(cells x D's non-zeros a
// column) when D is sparse, and only C (delta D) is a product, half the
// arithmetic of two. The first step (from the dense start) takes both.
void CurvatureProduct(const Problem& pr, const Atom& delta, Eigen::MatrixXd* out) {
  const Eigen::Index n = pr.c.rows(), m = pr.d.rows();
  if (delta.cells.size() * 8 > static_cast<std::size_t>(n * m)) {
    Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, m);
    for (std::size_t k = 0; k < delta.cells.size(); ++k) dense.data()[delta.cells[k]] = delta.mass[k];
    *out = pr.RightD(pr.LeftC(dense));
    return;
  }
  if (pr.d_sparse.rows() != 0) {
    Eigen::MatrixXd delta_d = Eigen::MatrixXd::Zero(n, m);
    for (std::size_t k = 0; k < delta.cells.size(); ++k) {
      const Eigen::Index i = delta.cells[k] % n, j = delta.cells[k] / n;
      for (Eigen::SparseMatrix<double>::InnerIterator e(pr.d_sparse, j); e; ++e) {
        delta_d(i, e.row()) += delta.mass[k] * e.value();
      }
    }
    *out = pr.LeftC(delta_d);
    return;
  }
  Eigen::MatrixXd delta_d_t = Eigen::MatrixXd::Zero(m, n);  // (delta D)^T: rows of delta D as columns
  for (std::size_t k = 0; k < delta.cells.size(); ++k) {
    const Eigen::Index i = delta.cells[k] % n, j = delta.cells[k] / n;
    delta_d_t.col(i) += delta.mass[k] * pr.d.col(j);
  }
  if (pr.c_sparse.rows() != 0) {
    *out = pr.c_sparse * delta_d_t.transpose();
  } else {
    out->noalias() = pr.c * delta_d_t.transpose();
  }
}

// Pairwise conditional gradient (Lacoste-Julien and Jaggi 2015): the
// iterate is kept as weights on the LP vertices it came from, and each
// step moves weight from the worst of them (the "away" atom, the largest
// <gradient, V>) to the LP's vertex, with an exact line search capped by
// that atom's weight. Classic conditional gradient only ever moves towards
// the LP's vertex: when GW's local minimum lies inside a face, as it often
// does between graphs of unequal size, it zig-zags for hundreds of
// iterations; pairwise steps converge linearly there (PROTEINS: mean LP
// solves per pair 63 -> 27). C T D is carried along (C (T + tau delta) D =
// C T D + tau C delta D), so a step costs one curvature product. Stops when
// the pair gives no descent, or when a step that drops no atom gains less
// than the tolerance.
GwResult Descend(const Problem& pr, Eigen::MatrixXd t, const GwOptions& o) {
  Eigen::MatrixXd ctd;
  double value = pr.Value(t, &ctd);
  std::vector<Atom> atoms = {AsAtom(t)};
  atoms[0].weight = 1;
  UniformTransportSimplex lp(static_cast<int>(t.rows()), static_cast<int>(t.cols()));  // warm from step to step
  Eigen::MatrixXd gradient, cdd;
  int it = 0;
  for (; it < o.max_iterations; ++it) {
    const double slack = o.tolerance * std::max(1.0, std::fabs(value));
    // The gradient of the quadratic part is -4 C T D (+ constant rows and
    // columns, which every coupling pays alike and the LP can drop).
    gradient = -4.0 * pr.alpha * ctd;
    if (pr.m != nullptr) gradient += (1.0 - pr.alpha) * *pr.m;
    Atom vertex = AsAtom(lp.Solve(gradient));
    std::size_t away = 0;
    double worst = -INFINITY;
    for (std::size_t k = 0; k < atoms.size(); ++k) {
      const double v = atoms[k].Dot(gradient);
      if (v > worst) worst = v, away = k;
    }
    const Atom delta = Difference(vertex, atoms[away]);
    // Exact line search on f(T + tau delta) = a tau^2 + b tau + const over
    // [0, weight of the away atom].
    const double cap = atoms[away].weight;
    CurvatureProduct(pr, delta, &cdd);
    const double a = -2.0 * pr.alpha * delta.Dot(cdd);
    const double b = delta.Dot(gradient);
    double tau;
    if (a > 0) {
      tau = std::clamp(-b / (2.0 * a), 0.0, cap);
    } else {
      tau = a * cap * cap + b * cap < 0 ? cap : 0.0;
    }
    if (tau <= 0) break;  // no descent along the pair: a stationary point
    Eigen::MatrixXd next = t;
    for (std::size_t k = 0; k < delta.cells.size(); ++k) next.data()[delta.cells[k]] += tau * delta.mass[k];
    Eigen::MatrixXd next_ctd = ctd + tau * cdd;
    const double next_value = pr.ValueAt(next, next_ctd);
    const double gain = value - next_value;
    if (gain < 0) break;  // rounding: keep the better point
    t = std::move(next);
    ctd = std::move(next_ctd);
    value = next_value;
    // Move the weight: the away atom leaves when it has none left (a "drop"
    // step, which may gain little without the search having ended); the
    // LP's vertex joins, or adds to its weight if it is already in.
    const bool dropped = tau >= cap;
    if (dropped) {
      atoms[away] = std::move(atoms.back());
      atoms.pop_back();
    } else {
      atoms[away].weight -= tau;
    }
    auto same = std::find(atoms.begin(), atoms.end(), vertex);
    if (same != atoms.end()) {
      same->weight += tau;
    } else {
      vertex.weight = tau;
      atoms.push_back(std::move(vertex));
    }
    if (!dropped && gain <= slack) {
      ++it;
      break;
    }
  }
  return {value, std::move(t), it};
}

// A coupling of two equal-sized graphs that is a permutation (each row one
// entry of 1/n): the permutation; empty otherwise.
std::vector<int> AsPermutation(const Eigen::MatrixXd& t) {
  const Eigen::Index n = t.rows();
  std::vector<int> sigma(static_cast<std::size_t>(n));
  for (Eigen::Index i = 0; i < n; ++i) {
    Eigen::Index j = 0;
    if (t.row(i).maxCoeff(&j) < (1.0 - 1e-9) / static_cast<double>(n)) return {};
    sigma[static_cast<std::size_t>(i)] = static_cast<int>(j);
  }
  return sigma;
}

// Swaps of two nodes' partners while one improves the objective (the
// classic 2-exchange of the quadratic assignment problem, which GW between
// equal-sized graphs is at a permutation): the change of
// S = sum_ik C_ik D_s(i)s(k) by swapping r and s is
//   2 sum_{k != r,s} (C_rk - C_sk)(D_s(s)s(k) - D_s(r)s(k)) + (C_rr - C_ss)(D_s(s)s(s) - D_s(r)s(r)),
// O(n) per swap. Returns whether it improved anything.
bool ImproveBySwaps(const Problem& pr, std::vector<int>* sigma) {
  const int n = static_cast<int>(sigma->size());
  const double quad = -2.0 * pr.alpha / (static_cast<double>(n) * n);  // d objective / d S
  const double lin = (1.0 - pr.alpha) / n;
  std::vector<int>& s = *sigma;
  // "Improves" means by more than rounding could fake: relative to the
  // problem's scale (LDP-encoded embeddings have distances in the
  // hundreds), so that no swap and its undoing both look like gains.
  const double noise = 1e-12 * pr.Scale();
  bool improved = false;
  // Each pass strictly lowers the objective, so passes are finite; the cap
  // only bounds the work on a very flat landscape.
  for (int pass = 0, again = 1; again && pass < kMaxPasses; ++pass) {
    again = 0;
    for (int r = 0; r < n; ++r) {
      for (int q = r + 1; q < n; ++q) {
        const int sr = s[static_cast<std::size_t>(r)], sq = s[static_cast<std::size_t>(q)];
        double ds = (pr.c(r, r) - pr.c(q, q)) * (pr.d(sq, sq) - pr.d(sr, sr));
        for (int k = 0; k < n; ++k) {
          if (k == r || k == q) continue;
          const int sk = s[static_cast<std::size_t>(k)];
          ds += 2.0 * (pr.c(r, k) - pr.c(q, k)) * (pr.d(sq, sk) - pr.d(sr, sk));
        }
        double change = quad * ds;
        if (pr.m != nullptr) change += lin * ((*pr.m)(r, sq) + (*pr.m)(q, sr) - (*pr.m)(r, sr) - (*pr.m)(q, sq));
        if (change < -noise) {
          std::swap(s[static_cast<std::size_t>(r)], s[static_cast<std::size_t>(q)]);
          again = 1;
          improved = true;
        }
      }
    }
  }
  return improved;
}

// The objective at a permutation, O(n^2).
double PermutationValue(const Problem& pr, const std::vector<int>& s) {
  const int n = static_cast<int>(s.size());
  double sum = 0, lin = 0;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < n; ++k) sum += pr.c(i, k) * pr.d(s[static_cast<std::size_t>(i)], s[static_cast<std::size_t>(k)]);
    if (pr.m != nullptr) lin += (*pr.m)(i, s[static_cast<std::size_t>(i)]);
  }
  return pr.alpha * (pr.constant - 2.0 * sum / (static_cast<double>(n) * n)) + (1.0 - pr.alpha) * lin / n;
}

// Small graphs (n <= 12) can afford a wider neighbourhood: rotating the
// partners of three nodes, which no single swap reaches. O(n^5) a pass.
bool ImproveByRotations(const Problem& pr, std::vector<int>* sigma) {
  const int n = static_cast<int>(sigma->size());
  if (n < 3 || n > 12) return false;
  std::vector<int>& s = *sigma;
  double value = PermutationValue(pr, s);
  const double noise = 1e-12 * pr.Scale();
  bool improved = false;
  for (int pass = 0, again = 1; again && pass < kMaxPasses; ++pass) {
    again = 0;
    for (int a = 0; a < n; ++a) {
      for (int b = a + 1; b < n; ++b) {
        for (int c = b + 1; c < n; ++c) {
          for (int turn = 0; turn < 2; ++turn) {
            std::vector<int> t = s;
            if (turn == 0) {
              t[static_cast<std::size_t>(a)] = s[static_cast<std::size_t>(b)];
              t[static_cast<std::size_t>(b)] = s[static_cast<std::size_t>(c)];
              t[static_cast<std::size_t>(c)] = s[static_cast<std::size_t>(a)];
            } else {
              t[static_cast<std::size_t>(a)] = s[static_cast<std::size_t>(c)];
              t[static_cast<std::size_t>(b)] = s[static_cast<std::size_t>(a)];
              t[static_cast<std::size_t>(c)] = s[static_cast<std::size_t>(b)];
            }
            const double v = PermutationValue(pr, t);
            if (v < value - noise) {
              s = std::move(t);
              value = v;
              again = 1;
              improved = true;
            }
          }
        }
      }
    }
  }
  return improved;
}

Eigen::MatrixXd PermutationCoupling(const std::vector<int>& sigma) {
  const Eigen::Index n = static_cast<Eigen::Index>(sigma.size());
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(n, n);
  for (Eigen::Index i = 0; i < n; ++i) t(i, sigma[static_cast<std::size_t>(i)]) = 1.0 / static_cast<double>(n);
  return t;
}

// Conditional gradient, then, while the result is a permutation that a
// swap improves, swaps and conditional gradient again.
GwResult Search(const Problem& pr, const Eigen::MatrixXd& start, const GwOptions& o) {
  GwResult r = Descend(pr, start, o);
  for (int round = 0; round < 100 && r.coupling.rows() == r.coupling.cols(); ++round) {
    std::vector<int> sigma = AsPermutation(r.coupling);
    if (sigma.empty()) break;
    const bool swapped = ImproveBySwaps(pr, &sigma);
    const bool rotated = ImproveByRotations(pr, &sigma);
    if (!swapped && !rotated) break;
    GwResult next = Descend(pr, PermutationCoupling(sigma), o);
    next.iterations += r.iterations;
    if (next.value >= r.value) break;
    r = std::move(next);
  }
  return r;
}

// Nodes in order of their mean distance to the others (a graph's
// "centrality" profile), for the sorted start.
std::vector<int> ByMeanDistance(const Eigen::MatrixXd& a) {
  std::vector<int> order(static_cast<std::size_t>(a.rows()));
  std::iota(order.begin(), order.end(), 0);
  const Eigen::VectorXd mean = a.rowwise().mean();
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return mean[x] < mean[y]; });
  return order;
}

}  // namespace

Eigen::MatrixXd SortedCoupling(const std::vector<int>& rows, const std::vector<int>& cols) {
  const std::size_t n = rows.size(), m = cols.size();
  Eigen::MatrixXd t = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(n), static_cast<Eigen::Index>(m));
  std::size_t i = 0, j = 0;
  double left_i = 1.0 / static_cast<double>(n), left_j = 1.0 / static_cast<double>(m);
  while (i < n && j < m) {
    const double mass = std::min(left_i, left_j);
    t(rows[i], cols[j]) += mass;
    left_i -= mass;
    left_j -= mass;
    if (left_i <= 1e-15) {
      ++i;
      left_i = 1.0 / static_cast<double>(n);
    }
    if (left_j <= 1e-15) {
      ++j;
      left_j = 1.0 / static_cast<double>(m);
    }
  }
  return t;
}

Result<GwResult> GromovWasserstein(const Eigen::MatrixXd& c, const Eigen::MatrixXd& d, const Eigen::MatrixXd& features,
                                   double alpha, const GwOptions& options) {
  if (c.size() == 0 || d.size() == 0) return Status::InvalidArgument("an empty graph has no GW discrepancy");
  if (c.rows() != c.cols() || d.rows() != d.cols()) {
    return Status::InvalidArgument("intra-distance matrices must be square, got " + std::to_string(c.rows()) + " x " +
                                   std::to_string(c.cols()) + " and " + std::to_string(d.rows()) + " x " +
                                   std::to_string(d.cols()));
  }
  LDPGRAPH_RETURN_IF_ERROR(CheckFinite(c, "C"));
  LDPGRAPH_RETURN_IF_ERROR(CheckFinite(d, "D"));
  const bool fused = features.size() != 0;
  if (fused) {
    if (features.rows() != c.rows() || features.cols() != d.rows()) {
      return Status::InvalidArgument("the feature cost must be " + std::to_string(c.rows()) + " x " +
                                     std::to_string(d.rows()) + ", got " + std::to_string(features.rows()) + " x " +
                                     std::to_string(features.cols()));
    }
    LDPGRAPH_RETURN_IF_ERROR(CheckFinite(features, "M"));
  }
  if (!(alpha >= 0 && alpha <= 1)) return Status::InvalidArgument("alpha must be in [0, 1]");
  const double n = static_cast<double>(c.rows()), m = static_cast<double>(d.rows());
  const Problem pr{c, d, fused ? &features : nullptr, alpha,
                   c.array().square().sum() / (n * n) + d.array().square().sum() / (m * m)};
  std::vector<Eigen::MatrixXd> starts = {Eigen::MatrixXd::Constant(c.rows(), d.rows(), 1.0 / (n * m))};
  if (options.extra_starts >= 1) starts.push_back(SortedCoupling(ByMeanDistance(c), ByMeanDistance(d)));
  if (options.extra_starts >= 2) {
    std::vector<int> reversed = ByMeanDistance(d);
    std::reverse(reversed.begin(), reversed.end());
    starts.push_back(SortedCoupling(ByMeanDistance(c), reversed));
  }
  // Random starts: random orders of both graphs' nodes, matched in proportion.
  SeededRandomSource rng(options.seed);
  const int random_starts =
      options.random_starts >= 0 ? options.random_starts
                                 : static_cast<int>(std::clamp(4096.0 / (n * m), 4.0, 64.0));
  for (int k = 0; k < random_starts; ++k) {
    std::vector<int> rows(static_cast<std::size_t>(c.rows())), cols(static_cast<std::size_t>(d.rows()));
    std::iota(rows.begin(), rows.end(), 0);
    std::iota(cols.begin(), cols.end(), 0);
    for (std::size_t i = cols.size(); i > 1; --i) std::swap(cols[i - 1], cols[UniformBelow(rng, i)]);
    starts.push_back(SortedCoupling(rows, cols));
  }
  GwResult best;
  best.value = INFINITY;
  for (const Eigen::MatrixXd& start : starts) {
    GwResult r = Search(pr, start, options);
    if (r.value < best.value) best = std::move(r);
  }
  // A sum of squares (plus a non-negative feature cost): below 0 only by rounding.
  if (!fused || features.minCoeff() >= 0) best.value = std::max(best.value, 0.0);
  return best;
}

}  // namespace ldpgraph
