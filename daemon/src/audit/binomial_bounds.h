// Exact one-sided confidence bounds on a binomial proportion (Clopper and
// Pearson, 1934): after k successes in n trials, the true p is at least
// BinomialLowerBound(k, n, alpha) and at most BinomialUpperBound(k, n,
// alpha), each wrong with probability at most alpha, whatever p is. They
// are quantiles of Beta distributions:
//   lower = Beta^-1(alpha; k, n - k + 1)   (0 when k = 0)
//   upper = Beta^-1(1 - alpha; k + 1, n - k)   (1 when k = n)
// The audit turns two such bounds into a lower bound on epsilon.
#ifndef LDPGRAPH_DAEMON_AUDIT_BINOMIAL_BOUNDS_H_
#define LDPGRAPH_DAEMON_AUDIT_BINOMIAL_BOUNDS_H_

#include <cstdint>

namespace ldpgraph {

// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and x
// in [0, 1] (its continued fraction, evaluated by Lentz's method).
double RegularizedIncompleteBeta(double a, double b, double x);

// Requires k <= n, n >= 1, alpha in (0, 1).
double BinomialLowerBound(std::uint64_t k, std::uint64_t n, double alpha);
double BinomialUpperBound(std::uint64_t k, std::uint64_t n, double alpha);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_AUDIT_BINOMIAL_BOUNDS_H_
