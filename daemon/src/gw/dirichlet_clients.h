// How the GW-LDP paper spreads graphs over federated clients (after Wang et
// al. 2020, "Federated learning with matched averaging"): for every class,
// its graphs are shuffled and cut among the clients in proportions drawn
// from Dirichlet(alpha, ..., alpha). Small alpha gives each client few
// classes (non-i.i.d.); large alpha tends to an even split.
#ifndef LDPGRAPH_DAEMON_GW_DIRICHLET_CLIENTS_H_
#define LDPGRAPH_DAEMON_GW_DIRICHLET_CLIENTS_H_

#include <cstdint>
#include <vector>

#include "ldpgraph/random_source.h"

namespace ldpgraph {

// Gamma(shape, 1) by Marsaglia and Tsang's method (shape < 1 boosted by
// U^(1/shape)). Requires shape > 0.
double SampleGamma(RandomSource& rng, double shape);

// Proportions summing to 1 (`parts` of them). Requires parts >= 1, alpha > 0.
std::vector<double> SampleDirichlet(RandomSource& rng, int parts, double alpha);

// The graphs `ids` (labels[id] is each one's class) cut among `clients`
// clients; every id lands in exactly one client, a client may be empty.
// Requires clients >= 1, alpha > 0.
std::vector<std::vector<std::uint32_t>> DirichletClients(const std::vector<std::uint32_t>& ids,
                                                         const std::vector<std::uint32_t>& labels, int clients,
                                                         double alpha, std::uint64_t seed);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_GW_DIRICHLET_CLIENTS_H_
