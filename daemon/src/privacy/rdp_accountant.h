// Renyi differential privacy (Mironov 2017) of Gaussian mechanisms, alone or
// on a Poisson sample of the data (DP-SGD's steps), composed over many
// releases and converted to (epsilon, delta); and the noise a target
// epsilon needs. GAP's releases (its K noisy aggregations, and for node-level
// privacy its DP-SGD training) are accounted here.
//
// RDP at order a > 1 of one release with noise multiplier s (the noise's
// standard deviation over the L2 sensitivity):
//   Gaussian:                        a / (2 s^2)
//   on a Poisson sample of rate q:   log(A_a) / (a - 1), with (Mironov, Talwar
//     and Zhang 2019, "Renyi DP of the Sampled Gaussian Mechanism")
//     integer a:     A_a = sum_{k=0..a} C(a,k) (1-q)^(a-k) q^k exp((k^2 - k) / (2 s^2))
//     fractional a:  the sum of the two series of that paper's section 3.3
// Releases compose by adding their RDP order by order. To (epsilon, delta):
//   classic: eps = min_a RDP(a) + log(1/delta) / (a - 1)            (Mironov 2017, Prop. 3)
//   tight:   eps = min_a RDP(a) + log((a-1)/a) - (log delta + log a) / (a - 1)
//            (Balle et al. 2020, Thm. 21): never larger; what GAP reports.
#ifndef LDPGRAPH_DAEMON_PRIVACY_RDP_ACCOUNTANT_H_
#define LDPGRAPH_DAEMON_PRIVACY_RDP_ACCOUNTANT_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

// `count` releases of a Gaussian mechanism, each on a Poisson sample of rate
// `sampling_rate` (1: on the whole data).
struct GaussianRelease {
  double noise_multiplier = 1.0;
  double sampling_rate = 1.0;
  std::int64_t count = 1;
};

enum class RdpConversion { kClassic, kTight };

// The RDP of one release at `order` (> 1); +infinity where it is unbounded.
double GaussianRdp(double noise_multiplier, double order);
double SubsampledGaussianRdp(double noise_multiplier, double sampling_rate, double order);

class RdpAccountant {
 public:
  // 1.1 to 10.9 by 0.1, 11 to 64, then 80, 96, 128, 192, 256, 512, 1024: dense
  // where the optimum lies for the epsilons in use (0.1 to 20).
  static const std::vector<double>& Orders();

  RdpAccountant();
  // Errors: kInvalidArgument for a noise multiplier that is not positive and
  // finite, a sampling rate outside (0, 1], a negative count.
  Status Add(const GaussianRelease& release);
  // The smallest epsilon over the orders; `order` (may be null) gets the
  // order that gave it. Errors: kInvalidArgument for delta outside (0, 1).
  Result<double> Epsilon(double delta, RdpConversion conversion = RdpConversion::kTight,
                         double* order = nullptr) const;

 private:
  std::vector<double> rdp_;  // per order
};

// The smallest noise multiplier s (to a relative 1e-6) for which the
// releases `releases(s)` together are (epsilon, delta)-DP (tight
// conversion); the epsilon they give is then within 0.1% below the target.
// Errors: kInvalidArgument for epsilon not positive and finite, delta
// outside (0, 1), or releases that are invalid; kOutOfRange when no
// multiplier up to 10^6 reaches the target.
Result<double> CalibrateNoiseMultiplier(const std::function<std::vector<GaussianRelease>(double)>& releases,
                                        double epsilon, double delta);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_PRIVACY_RDP_ACCOUNTANT_H_
