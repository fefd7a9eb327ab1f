#include "audit/mechanism_audits.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "gap/aggregation.h"
#include "ldpgraph/dprr.h"
#include "models/mlp.h"
#include "privacy/discrete_gaussian.h"
#include "train/dp_sgd.h"
#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/label_rr.h"
#include "ldpgraph/local_lap.h"
#include "ldpgraph/multibit.h"
#include "ldpgraph/randomized_response.h"
#include "ldpgraph/rr_with_degree.h"
#include "ldpgraph/samplers.h"
#include "privacy/rdp_accountant.h"

namespace ldpgraph {
namespace {

// Five users: user 0's lists {1, 2} and {1, 2, 3} differ in one friend.
constexpr std::uint32_t kUsers = 5;
const std::vector<std::uint32_t>& ListA() {
  static const std::vector<std::uint32_t> a = {1, 2};
  return a;
}
const std::vector<std::uint32_t>& ListB() {
  static const std::vector<std::uint32_t> b = {1, 2, 3};
  return b;
}

std::string Ids(const std::vector<std::uint32_t>& ids) {
  std::string key;
  for (std::uint32_t v : ids) key += std::to_string(v) + ",";
  return key;
}

std::string Clipped(std::int64_t v, std::int64_t low, std::int64_t high) {
  return std::to_string(std::max(low, std::min(high, v)));
}

// What the server sees of an edge report, made countable by post-processing:
// DPRR's q (which reveals the clamped noisy degree) and the list; RR with
// degree's noisy degree (clipped) and the list; LocalLap's noisy degree and
// the value of the one bit that differs (clipped; the others do not move).
std::string EdgeKey(const NoisyEdges& e) {
  switch (e.mechanism) {
    case EdgeMechanism::kDprr: {
      char q[32];
      std::snprintf(q, sizeof q, "%.17g", e.q);
      return std::string("q=") + q + " " + Ids(e.neighbours);
    }
    case EdgeMechanism::kRrDegree:
      return "d=" + Clipped(e.noisy_degree, -3, 7) + " " + Ids(e.neighbours);
    case EdgeMechanism::kLocalLap: {
      const std::int64_t r = e.resolution;
      // values[j - 1] is bit j (user 0's values skip herself).
      return "d=" + Clipped(e.noisy_degree, -3, 7) + " v3=" + Clipped(e.values[2], -2 * r, 3 * r);
    }
    default:
      return Ids(e.neighbours);
  }
}

MechanismAudit Audit(std::string name, double claimed, std::string inputs, AuditSampler a, AuditSampler b) {
  MechanismAudit audit;
  audit.name = std::move(name);
  audit.claimed = claimed;
  audit.inputs = std::move(inputs);
  audit.a = std::move(a);
  audit.b = std::move(b);
  return audit;
}

// An edge randomizer on ListA / ListB (held by the samplers).
MechanismAudit EdgeAudit(std::string name, double claimed, std::shared_ptr<const EdgeRandomizer> m) {
  auto run = [m](const std::vector<std::uint32_t>& list) {
    return [m, &list](RandomSource& rng) {
      NoisyEdges out;
      const Status s = m->Perturb(0, Span<const std::uint32_t>(list.data(), list.size()), rng, &out);
      return s.ok() ? EdgeKey(out) : "error: " + s.message();
    };
  };
  return Audit(std::move(name), claimed, "user 0 of 5 with friends {1,2} against {1,2,3}", run(ListA()), run(ListB()));
}

template <typename M>
Result<std::shared_ptr<const EdgeRandomizer>> Shared(Result<M> m) {
  if (!m.ok()) return m.status();
  return std::shared_ptr<const EdgeRandomizer>(std::make_shared<M>(std::move(m).value()));
}

std::string Pairs(const std::vector<EncodedFeature>& pairs) {
  std::string key;
  for (const EncodedFeature& f : pairs) key += std::to_string(f.index) + (f.sign > 0 ? "+" : "-");
  return key;
}

MechanismAudit MultiBitAudit(double epsilon, std::shared_ptr<const MultiBitEncoder> enc) {
  auto run = [enc](double x) {
    return [enc, x](RandomSource& rng) {
      const std::vector<double> v(2, x);
      std::vector<EncodedFeature> out;
      const Status s = enc->Encode(Span<const double>(v.data(), v.size()), rng, &out);
      return s.ok() ? Pairs(out) : "error: " + s.message();
    };
  };
  return Audit("multibit", epsilon, "features (0, 0) against (1, 1), 2 dimensions in [0, 1]", run(0.0), run(1.0));
}

MechanismAudit EmbeddingAudit(double epsilon, std::shared_ptr<const EmbeddingEncoder> enc) {
  auto run = [enc](double x) {
    return [enc, x](RandomSource& rng) {
      const std::vector<double> h(4, x);
      std::vector<std::vector<EncodedFeature>> out;
      const Status s = enc->Encode(Span<const double>(h.data(), h.size()), rng, &out);
      if (!s.ok()) return "error: " + s.message();
      std::string key;
      for (const auto& row : out) key += Pairs(row) + "|";
      return key;
    };
  };
  return Audit("gw-embedding", epsilon,
               "a 2 x 2 embedding of zeros against one of ones (the whole matrix is one client's)", run(0.0),
               run(1.0));
}

MechanismAudit LabelAudit(double epsilon, std::shared_ptr<const LabelRandomizer> rr) {
  auto run = [rr](std::uint32_t y) {
    return [rr, y](RandomSource& rng) {
      Result<std::uint32_t> out = rr->Perturb(y, rng);
      return out.ok() ? std::to_string(*out) : "error";
    };
  };
  return Audit("label-rr", epsilon, "label 0 against label 1 of 3 classes", run(0), run(1));
}

// A degree d or d + 1 through `noise` (outputs clipped: post-processing).
MechanismAudit DegreeAudit(std::string name, double claimed, std::shared_ptr<const DiscreteLaplace> noise) {
  auto run = [noise](std::int64_t d) {
    return [noise, d](RandomSource& rng) { return Clipped(d + noise->Sample(rng), -6, 11); };
  };
  return Audit(std::move(name), claimed, "degree 2 against 3, plus discrete Laplace noise", run(2), run(3));
}

// The broken DPRR: RR on every bit, then each 1 kept with q from the TRUE
// degree, which the report's q then gives away. With 50 users q is below 1
// (with 5 it clamps to 1 for both lists and nothing would leak). The key is
// q alone, a post-processing of the report (its ids are too many to count),
// so the double needs to draw nothing else.
constexpr std::uint32_t kBrokenDprrUsers = 50;

MechanismAudit DprrWithoutDegreeNoise(double epsilon, std::shared_ptr<const Dprr> dprr) {
  auto run = [dprr](const std::vector<std::uint32_t>& list) {
    return [dprr, &list](RandomSource&) {
      char key[40];
      std::snprintf(key, sizeof key, "q=%.17g", dprr->SamplingProbability(static_cast<std::int64_t>(list.size())));
      return std::string(key);
    };
  };
  MechanismAudit audit = Audit("dprr-without-degree-noise", epsilon,
                               "user 0 of 50 with friends {1,2} against {1,2,3}; the key is q", run(ListA()),
                               run(ListB()));
  audit.broken = true;
  return audit;
}

// Laplace(1 / epsilon) drawn the textbook way in doubles: -ln(U) / epsilon
// with a random sign, U from 53 random bits.
double FloatingPointLaplace(double epsilon, RandomSource& rng) {
  const double u = static_cast<double>((rng.NextU64() >> 11) + 1) * 0x1.0p-53;  // (0, 1]
  const double magnitude = -std::log(u) / epsilon;
  return (rng.NextU64() & 1) ? magnitude : -magnitude;
}

// Whether y can come out of FloatingPointLaplace(epsilon) itself (input 0):
// the U that would give it, recomputed and checked, among its neighbours.
bool ReachableFromZero(double y, double epsilon) {
  const double magnitude = std::fabs(y);
  const double u = std::exp(-magnitude * epsilon);
  const double k = std::round(u * 0x1.0p53);
  for (double step = -2; step <= 2; ++step) {
    const double candidate = (k + step) * 0x1.0p-53;
    if (candidate > 0 && candidate <= 1 && -std::log(candidate) / epsilon == magnitude) return true;
  }
  return false;
}

MechanismAudit FloatingPointLaplaceAudit(double epsilon) {
  // The key: which unit interval the output is in, and whether input 0 could
  // have made it (a function of the output alone: post-processing).
  auto run = [epsilon](double x) {
    return [epsilon, x](RandomSource& rng) {
      const double y = x + FloatingPointLaplace(epsilon, rng);
      const double bucket = std::max(-4.0, std::min(5.0, std::floor(y)));
      return std::to_string(static_cast<int>(bucket)) + (ReachableFromZero(y, epsilon) ? " reachable" : " not");
    };
  };
  MechanismAudit audit =
      Audit("floating-point-laplace", epsilon, "0 against 1, plus Laplace(1 / epsilon) in doubles", run(0.0), run(1.0));
  audit.broken = true;
  return audit;
}

// GAP's aggregation through its own code (PrivateMultiHopAggregation), one
// hop: node 1 lists node 0 or not (one directed edge, sensitivity 1), unit
// rows (1, 0) at node 1 and (0, 1) elsewhere. The key is the angle of node
// 0's released row in 48 sectors (post-processing). The noise is what GAP
// calibrates for (epsilon, delta) with one release.
// `noise_scale` < 1: the broken double that draws that fraction of the noise.
Result<MechanismAudit> GapAggregationAudit(double epsilon, double delta, double noise_scale = 1.0) {
  Result<double> multiplier = CalibrateNoiseMultiplier(
      [](double s) { return std::vector<GaussianRelease>{{s, 1.0, 1}}; }, epsilon, delta);
  if (!multiplier.ok()) return multiplier.status();
  const double stddev = *multiplier * noise_scale;  // sensitivity 1
  auto run = [stddev](bool edge) {
    auto graph = std::make_shared<const CsrGraph>(CsrGraph::FromRows({{}, edge ? std::vector<std::uint32_t>{0}
                                                                               : std::vector<std::uint32_t>{}, {}}));
    return [graph, stddev](RandomSource& rng) {
      Matrix x0(3, 2);
      x0 << 0, 1, 1, 0, 0, 1;
      Result<std::vector<Matrix>> out = PrivateMultiHopAggregation(*graph, x0, 1, stddev, rng);
      if (!out.ok()) return "error: " + out.status().message();
      const Matrix& x1 = (*out)[1];
      const double angle = std::atan2(x1(0, 1), x1(0, 0));
      constexpr double kPi = 3.14159265358979323846;
      return std::to_string(static_cast<int>(std::floor((angle + kPi) / (2 * kPi) * 48)));
    };
  };
  MechanismAudit audit = Audit(noise_scale < 1 ? "gap-aggregation-quarter-noise" : "gap-aggregation", epsilon,
                               "one hop over 3 nodes with and without the edge 1 -> 0, noise stddev " +
                                   std::to_string(stddev),
                               run(true), run(false));
  audit.broken = noise_scale < 1;
  audit.delta = delta;
  return audit;
}

// One DP-SGD step (GAP-NDP's encoder and classifier train so) on a full
// batch of a 2-feature, 2-class linear model: the batch {0, 1} against
// {0, 1, 2}, example 2 far out so that its gradient is clipped to C. The
// clipped sums come from the step's own ClippedGradientSum, the noise from
// its own AddDiscreteGaussianNoise at the multiplier calibrated for
// (epsilon, delta); the key is the released vector projected on the
// direction example 2 moves it, in bins of a 16th of the noise.
Result<MechanismAudit> DpSgdStepAudit(double epsilon, double delta) {
  Result<double> multiplier = CalibrateNoiseMultiplier(
      [](double s) { return std::vector<GaussianRelease>{{s, 1.0, 1}}; }, epsilon, delta);
  if (!multiplier.ok()) return multiplier.status();
  const NodeFeatures features =
      NodeFeatures::Dense((Matrix(3, 2) << 0.5f, -0.2f, -0.3f, 0.4f, 40.0f, 25.0f).finished());
  const std::vector<int> labels = {0, 1, 1};
  SeededRandomSource init(1);
  Result<Mlp> mlp = Mlp::Create({2, 2, 1, 2, 0.0f, false}, "linear", init);
  if (!mlp.ok()) return mlp.status();
  mlp->Parameters()[0]->value << 1.0f, -1.0f, 1.0f, -1.0f;  // example 2 far from its class: a large gradient
  const RowModel model{mlp->Parameters(), [&](Tape& t, const std::vector<std::uint32_t>& rows) {
                         return mlp->Forward(t, *t.Own(features.Rows(rows)));
                       }};
  constexpr double kClip = 1.0;
  auto sum_of = [&](const std::vector<std::uint32_t>& batch) -> Result<std::shared_ptr<const std::vector<Matrix>>> {
    if (Status s = ClippedGradientSum(model, labels, batch, kClip, 0); !s.ok()) return s;
    auto sums = std::make_shared<std::vector<Matrix>>();
    for (const Parameter* p : model.parameters) sums->push_back(p->grad);
    return std::shared_ptr<const std::vector<Matrix>>(std::move(sums));
  };
  Result<std::shared_ptr<const std::vector<Matrix>>> with = sum_of({0, 1, 2});
  Result<std::shared_ptr<const std::vector<Matrix>>> without = sum_of({0, 1});
  if (!with.ok()) return with.status();
  if (!without.ok()) return without.status();
  const double stddev = DpSgdNoiseStddev(model.parameters, *multiplier, kClip);
  // The direction example 2 moves the sum, as one flat vector over the parameters.
  auto direction = std::make_shared<std::vector<Matrix>>();
  double norm = 0;
  for (std::size_t k = 0; k < (*with)->size(); ++k) {
    direction->push_back((**with)[k] - (**without)[k]);
    norm += direction->back().squaredNorm();
  }
  for (Matrix& d : *direction) d /= static_cast<float>(std::sqrt(norm));
  auto run = [stddev, direction](std::shared_ptr<const std::vector<Matrix>> sums) {
    return [stddev, direction, sums](RandomSource& rng) {
      double projection = 0;
      for (std::size_t k = 0; k < sums->size(); ++k) {
        Matrix released = (*sums)[k];
        if (Status s = AddDiscreteGaussianNoise(&released, stddev, rng); !s.ok()) return "error: " + s.message();
        projection += released.cwiseProduct((*direction)[k]).sum();
      }
      return std::to_string(static_cast<long>(std::floor(std::max(-64.0, std::min(64.0, projection / (stddev / 16))))));
    };
  };
  MechanismAudit audit = Audit("dp-sgd-step", epsilon,
                               "one full-batch step with and without an example clipped to C = 1", run(*with),
                               run(*without));
  audit.delta = delta;
  return audit;
}

}  // namespace

Result<std::vector<MechanismAudit>> ShippedMechanismAudits(double epsilon) {
  std::vector<MechanismAudit> audits;
  // The paper's allocation needs a deployment's n_max: 1000 users leaves eps1 = 0.1 epsilon for epsilon >= 1.
  Result<std::shared_ptr<const EdgeRandomizer>> paper =
      Shared(Dprr::Create(kUsers, epsilon, BudgetAllocation::kPaper, 1000));
  Result<std::shared_ptr<const EdgeRandomizer>> fixed = Shared(Dprr::Create(kUsers, epsilon, BudgetAllocation::kFixed));
  Result<std::shared_ptr<const EdgeRandomizer>> rr = Shared(RandomizedResponse::Create(kUsers, epsilon));
  Result<std::shared_ptr<const EdgeRandomizer>> degree =
      Shared(RrWithDegree::Create(kUsers, epsilon, BudgetAllocation::kPaper, 1000));
  Result<std::shared_ptr<const EdgeRandomizer>> local_lap =
      Shared(LocalLapClient::Create(kUsers, epsilon, BudgetAllocation::kFixed, 0, 4));
  for (const auto* m : {&paper, &fixed, &rr, &degree, &local_lap}) {
    if (!m->ok()) return m->status();
  }
  audits.push_back(EdgeAudit("dprr-paper", epsilon, *paper));
  audits.push_back(EdgeAudit("dprr-fixed", epsilon, *fixed));
  audits.push_back(EdgeAudit("rr", epsilon, *rr));
  audits.push_back(EdgeAudit("rr-degree", epsilon, *degree));
  audits.push_back(EdgeAudit("locallap", epsilon, *local_lap));

  MultiBitParams features;
  features.dims = 2;
  features.epsilon = epsilon;
  Result<MultiBitEncoder> multibit = MultiBitEncoder::Create(features);
  if (!multibit.ok()) return multibit.status();
  audits.push_back(MultiBitAudit(epsilon, std::make_shared<MultiBitEncoder>(std::move(multibit).value())));

  Result<LabelRandomizer> label = LabelRandomizer::Create(3, epsilon);
  if (!label.ok()) return label.status();
  audits.push_back(LabelAudit(epsilon, std::make_shared<LabelRandomizer>(std::move(label).value())));

  EmbeddingParams embedding;
  embedding.nodes = 2;
  embedding.dims = 2;
  embedding.epsilon = epsilon;
  Result<EmbeddingEncoder> encoder = EmbeddingEncoder::Create(embedding);
  if (!encoder.ok()) return encoder.status();
  audits.push_back(EmbeddingAudit(epsilon, std::make_shared<EmbeddingEncoder>(std::move(encoder).value())));

  Result<DiscreteLaplace> laplace = DiscreteLaplace::Create(epsilon);
  if (!laplace.ok()) return laplace.status();
  audits.push_back(
      DegreeAudit("discrete-laplace", epsilon, std::make_shared<DiscreteLaplace>(std::move(laplace).value())));

  Result<MechanismAudit> gap = GapAggregationAudit(epsilon, 1e-5);
  if (!gap.ok()) return gap.status();
  audits.push_back(std::move(gap).value());
  Result<MechanismAudit> step = DpSgdStepAudit(epsilon, 1e-5);
  if (!step.ok()) return step.status();
  audits.push_back(std::move(step).value());
  return audits;
}

Result<std::vector<MechanismAudit>> BrokenMechanismAudits(double epsilon) {
  std::vector<MechanismAudit> audits;
  Result<Dprr> dprr = Dprr::Create(kBrokenDprrUsers, epsilon, BudgetAllocation::kFixed);
  if (!dprr.ok()) return dprr.status();
  audits.push_back(DprrWithoutDegreeNoise(epsilon, std::make_shared<Dprr>(std::move(dprr).value())));
  Result<DiscreteLaplace> quarter = DiscreteLaplace::Create(4 * epsilon);  // a quarter of the scale
  if (!quarter.ok()) return quarter.status();
  MechanismAudit q = DegreeAudit("laplace-quarter-noise", epsilon,
                                 std::make_shared<DiscreteLaplace>(std::move(quarter).value()));
  q.broken = true;
  audits.push_back(std::move(q));
  audits.push_back(FloatingPointLaplaceAudit(epsilon));
  Result<MechanismAudit> gap = GapAggregationAudit(epsilon, 1e-5, 0.25);
  if (!gap.ok()) return gap.status();
  audits.push_back(std::move(gap).value());
  return audits;
}

}  // namespace ldpgraph
