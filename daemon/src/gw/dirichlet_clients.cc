#include "gw/dirichlet_clients.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "ldpgraph/samplers.h"

namespace ldpgraph {
namespace {

double StandardNormal(RandomSource& rng) {
  // Box-Muller; 1 - U keeps the logarithm's argument in (0, 1].
  const double u = 1.0 - UniformUnit(rng), v = UniformUnit(rng);
  return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
}

}  // namespace

double SampleGamma(RandomSource& rng, double shape) {
  if (shape < 1.0) {
    // Gamma(a) = Gamma(a + 1) U^(1/a).
    const double u = 1.0 - UniformUnit(rng);
    return SampleGamma(rng, shape + 1.0) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = StandardNormal(rng);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - UniformUnit(rng);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

std::vector<double> SampleDirichlet(RandomSource& rng, int parts, double alpha) {
  std::vector<double> p(static_cast<std::size_t>(parts));
  double sum = 0;
  for (double& x : p) sum += (x = SampleGamma(rng, alpha));
  // Tiny alpha can underflow every draw to 0: fall back to one part.
  if (!(sum > 0)) {
    std::fill(p.begin(), p.end(), 0.0);
    p[UniformBelow(rng, p.size())] = 1.0;
    return p;
  }
  for (double& x : p) x /= sum;
  return p;
}

std::vector<std::vector<std::uint32_t>> DirichletClients(const std::vector<std::uint32_t>& ids,
                                                         const std::vector<std::uint32_t>& labels, int clients,
                                                         double alpha, std::uint64_t seed) {
  SeededRandomSource rng(seed ^ 0xd1c1e7ULL);
  std::map<std::uint32_t, std::vector<std::uint32_t>> by_class;
  for (std::uint32_t id : ids) by_class[labels[id]].push_back(id);
  std::vector<std::vector<std::uint32_t>> out(static_cast<std::size_t>(clients));
  for (auto& [label, members] : by_class) {
    for (std::size_t i = members.size(); i > 1; --i) std::swap(members[i - 1], members[UniformBelow(rng, i)]);
    const std::vector<double> p = SampleDirichlet(rng, clients, alpha);
    // Cut points at the cumulative proportions, rounded.
    double cumulative = 0;
    std::size_t begin = 0;
    for (int c = 0; c < clients; ++c) {
      cumulative += p[static_cast<std::size_t>(c)];
      const std::size_t end = c + 1 == clients ? members.size()
                                               : std::min(members.size(), static_cast<std::size_t>(std::llround(
                                                                              cumulative * static_cast<double>(members.size()))));
      for (std::size_t i = begin; i < end; ++i) out[static_cast<std::size_t>(c)].push_back(members[i]);
      begin = std::max(begin, end);
    }
  }
  for (auto& c : out) std::sort(c.begin(), c.end());
  return out;
}

}  // namespace ldpgraph
