// The mechanisms' output distributions on the Cortex-M4F, against their
// formulas: thousands of reports through the device's own path (the
// configuration decoded, a ReportBuilder, ChaCha20 as the random source),
// each rate within 5.5 standard deviations of its formula (a false alarm
// about once in 2.6 x 10^7 per check). The full statistical tier runs on
// x86-64, aarch64 and armhf; here a few thousand reports show that the
// board's float arithmetic and libm give the same distributions.
#include <cmath>
#include <string>
#include <vector>

#include "board.h"
#include "golden/golden_reports.h"
#include "ldpgraph/embedded_arena.h"
#include "ldpgraph/random_source.h"
#include "ldpgraph/report_builder.h"

using namespace ldpgraph;

namespace {
alignas(8) unsigned char arena[64 * 1024] __attribute__((section(".arena")));

constexpr int kReports = 4000;
constexpr double kMaxZ = 5.5;
constexpr std::uint32_t kUsers = 64;
int failures = 0;

// "-1.234" with three decimals, without the C library's float formatting
// (newlib-nano leaves it out).
std::string Fixed3(double v) {
  const bool negative = v < 0;
  const auto thousandths = static_cast<long long>(std::fabs(v) * 1000.0 + 0.5);
  std::string frac = std::to_string(thousandths % 1000);
  return (negative ? "-" : "") + std::to_string(thousandths / 1000) + "." + std::string(3 - frac.size(), '0') + frac;
}

// A count against its expectation: z = (observed - mean) / sqrt(variance).
void Check(const std::string& name, double observed, double mean, double variance) {
  const double z = (observed - mean) / std::sqrt(variance);
  const bool ok = std::fabs(z) <= kMaxZ;
  failures += ok ? 0 : 1;
  board_print(("flip_" + name + "_observed=" + Fixed3(observed) + " expected=" + Fixed3(mean) + " z=" + Fixed3(z) +
               (ok ? "" : "  OUTSIDE THE BOUND") + "\n").c_str());
}

std::unique_ptr<ReportBuilder> Builder(const GraphConfig& config) {
  Result<std::unique_ptr<ReportBuilder>> builder = golden::BuilderThroughTheWire(config);
  if (!builder.ok()) board_exit(1);
  return std::move(builder).value();
}

// Edges of user 0, who has friends 1..8, under `mechanism` at epsilon 1: the
// kept friends and the reported strangers, each report's expectation from p
// and (DPRR) its own q, which the report carries.
void EdgeRates(EdgeMechanism mechanism, const char* name, RandomSource& rng) {
  GraphConfig config;
  config.graph_id = 1;
  config.num_users = kUsers;
  config.edges.mechanism = mechanism;
  config.edges.epsilon = 1.0;
  auto builder = Builder(config);
  const std::vector<std::uint32_t> friends = {1, 2, 3, 4, 5, 6, 7, 8};
  UserData user;
  user.user_id = 0;
  user.neighbours = friends;
  const double p = std::exp(1.0) / (1.0 + std::exp(1.0));  // RR's keep probability at the bits' epsilon
  double kept = 0, kept_mean = 0, kept_var = 0, strangers = 0, strangers_mean = 0, strangers_var = 0;
  for (int r = 0; r < kReports; ++r) {
    Result<Report> report = builder->Build(user, rng);
    if (!report.ok()) board_exit(1);
    const NoisyEdges& e = report->edges;
    // DPRR spends eps2 < epsilon on the bits and samples with q; RR spends it all, q = 1.
    const double keep = mechanism == EdgeMechanism::kDprr ? e.p : p;
    const double sample = mechanism == EdgeMechanism::kDprr ? e.q : 1.0;
    if (mechanism == EdgeMechanism::kDprr && std::fabs(e.p - std::exp(e.eps2) / (1 + std::exp(e.eps2))) > 1e-12) {
      ++failures;
      board_print("p is not e^eps2 / (1 + e^eps2)\n");
    }
    for (std::uint32_t v : e.neighbours) (v >= 1 && v <= 8 ? kept : strangers) += 1;
    const double pk = keep * sample, ps = (1 - keep) * sample;
    kept_mean += 8 * pk;
    kept_var += 8 * pk * (1 - pk);
    strangers_mean += (kUsers - 9) * ps;
    strangers_var += (kUsers - 9) * ps * (1 - ps);
  }
  Check(std::string(name) + "_friends_kept", kept, kept_mean, kept_var);
  Check(std::string(name) + "_strangers_reported", strangers, strangers_mean, strangers_var);
}

// A label of 4 classes by RR at epsilon 1: kept with e^eps / (e^eps + 3).
// Multi-bit features of 4 dimensions at epsilon 1 (m = 1): each dimension
// sampled with 1/4, its sign +1 with 1/(e+1) + x (e-1)/(e+1) for x in [0, 1].
void LabelAndFeatureRates(RandomSource& rng) {
  GraphConfig config;
  config.graph_id = 2;
  config.num_users = kUsers;
  config.edges.mechanism = EdgeMechanism::kNone;
  config.features.enabled = true;
  config.features.params.dims = 4;
  config.features.params.epsilon = 1.0;
  config.label.enabled = true;
  config.label.classes = 4;
  config.label.epsilon = 1.0;
  auto builder = Builder(config);
  const std::vector<double> x = {0.0, 0.25, 0.75, 1.0};
  const std::vector<std::uint32_t> friends = {1};
  UserData user;
  user.user_id = 0;
  user.neighbours = friends;
  user.features = x;
  user.has_label = true;
  user.label = 2;
  double label_kept = 0, sampled[4] = {}, plus[4] = {};
  for (int r = 0; r < kReports; ++r) {
    Result<Report> report = builder->Build(user, rng);
    if (!report.ok()) board_exit(1);
    label_kept += report->label.value == 2;
    for (const EncodedFeature& f : report->features.encoded) {
      sampled[f.index] += 1;
      plus[f.index] += f.sign > 0;
    }
  }
  const double e = std::exp(1.0);
  const double keep = e / (e + 3);
  Check("label_kept", label_kept, kReports * keep, kReports * keep * (1 - keep));
  for (int i = 0; i < 4; ++i) {
    Check("feature_" + std::to_string(i) + "_sampled", sampled[i], kReports / 4.0, kReports * 0.25 * 0.75);
    const double q = 1 / (e + 1) + x[i] * (e - 1) / (e + 1);
    Check("feature_" + std::to_string(i) + "_plus", plus[i], sampled[i] * q, sampled[i] * q * (1 - q));
  }
}
}  // namespace

int main() {
  if (ldpgraph_arena_install(arena, sizeof arena) != 0) return 1;
  // The board has no TRNG: a fixed key stands in for the one a device draws at boot.
  const std::uint8_t key[32] = {0x6c, 0x64, 0x70, 0x67, 0x72, 0x61, 0x70, 0x68};
  ChaCha20RandomSource rng(key, 1);
  EdgeRates(EdgeMechanism::kRr, "rr", rng);
  EdgeRates(EdgeMechanism::kDprr, "dprr", rng);
  LabelAndFeatureRates(rng);
  board_print(("device_flip_rate_reports=" + std::to_string(4 * kReports) + "\ndevice_flip_rate_failures=" +
               std::to_string(failures) + "\n").c_str());
  return failures == 0 ? 0 : 1;
}
