// ldpgraph audit mechanisms: every shipped mechanism attacked on its
// worst-case neighbouring inputs (audit/mechanism_audits.h), each claim
// checked against an empirical lower bound on epsilon (audit/epsilon_audit.h)
// at a confidence that holds for the whole run; then the broken test
// doubles, which must be caught.
// Exit 0 when every claim holds and every double is caught, 1 otherwise.
// ldpgraph audit model: an attack on a saved model (link stealing from its
// posteriors, LinkTeller's influence, membership inference).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "audit/link_stealing.h"
#include "audit/link_teller.h"
#include "audit/longitudinal_game.h"
#include "audit/membership_inference.h"
#include "audit/mechanism_audits.h"
#include "cli/commands.h"
#include "dataset/graph_dataset.h"
#include "experiments/audit_experiment.h"
#include "prediction/dataset_prediction.h"
#include "store/model_file.h"
#include "train/node_pipeline.h"
#include "train/task_data.h"
#include "util/flags.h"

namespace ldpgraph {
namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "ldpgraph audit: %s\n", message.c_str());
  return 2;
}

}  // namespace

// ldpgraph audit model: an attack on a saved model over the graph it was
// trained on (or the graph whose links it should hide).
namespace {

int RunLinkTeller(const AnyModel& model, const GraphDataset& ds, std::uint64_t pairs, std::uint64_t seed) {
  if (model.kind == ModelKind::kGap || model.node_probabilities.size() > 0) {
    return Usage("LinkTeller queries a model with changed features; this model holds its predictions for its graph "
                 "(GAP, or trained on a denoised graph) and answers no such query");
  }
  Result<NodeTaskData> data = MakeNodeTaskData(ds, AggregationFor(model.node->config().kind));
  if (!data.ok()) return Usage(data.status().ToString());
  Result<InfluenceProbe> probe = InfluenceProbe::Create(model.node.get(), std::move(data).value(), 0.05);
  if (!probe.ok()) return Usage(probe.status().message());
  Result<LinkAttackResult> r = LinkTellerAuc(*probe, ds.graphs[0], pairs, seed);
  if (!r.ok()) return Usage(r.status().message());
  std::cout << "attack=linkteller\nmodel=" << ModelKindName(model.kind) << "\nscore=influence\nedges=" << r->edges
            << "\nnon_edges=" << r->non_edges << "\nauc=" << r->auc << "\n";
  return 0;
}

int RunMembershipInference(const AnyModel& model, const GraphDataset& ds, const DatasetPrediction& prediction,
                           std::uint64_t split_seed) {
  const std::vector<int> labels(ds.node_labels.begin(), ds.node_labels.end());
  // The split `ldpgraph train` made with this seed: its training users are
  // the members, its test users the non-members.
  const Split split = DefaultNodeSplit(labels, split_seed);
  Result<MembershipAttackResult> r = MembershipInferenceAuc(prediction.probabilities, labels, split.train, split.test);
  if (!r.ok()) return Usage(r.status().message());
  std::cout << "attack=mia\nmodel=" << ModelKindName(model.kind) << "\nscore=class_calibrated_log_probability"
            << "\nsplit_seed=" << split_seed << "\nmembers=" << r->members << "\nnon_members=" << r->non_members
            << "\nauc=" << r->auc << "\nuncalibrated_auc=" << r->uncalibrated_auc << "\n";
  return 0;
}

}  // namespace

int RunModelAudit(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"model", "dataset", "attack", "pairs", "seed", "split-seed"});
  if (!flags.ok()) return Usage(flags.status().message());
  const std::string attack = flags->StringOr("attack", "lsa");
  if (attack != "lsa" && attack != "linkteller" && attack != "mia") {
    return Usage("--attack must be lsa, linkteller or mia, got " + attack);
  }
  Result<std::string> model_path = flags->String("model");
  Result<std::string> dataset_path = flags->String("dataset");
  Result<std::uint64_t> pairs = flags->Unsigned("pairs", attack == "linkteller" ? 1000 : 100000);
  Result<std::uint64_t> seed = flags->Unsigned("seed", 0);
  Result<std::uint64_t> split_seed = flags->Unsigned("split-seed", 0);
  for (const Status* s : {&model_path.status(), &dataset_path.status(), &pairs.status(), &seed.status(),
                          &split_seed.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*pairs < 1) return Usage("--pairs must be positive");
  Result<AnyModel> model = LoadModel(*model_path);
  if (!model.ok()) return Usage(model.status().ToString());
  if (model->kind == ModelKind::kGin) return Usage("these attacks are on node models; this is a GIN model");
  Result<GraphDataset> ds = ReadDataset(*dataset_path);
  if (!ds.ok()) return Usage(ds.status().ToString());
  if (ds->graphs.size() != 1) return Usage("a node model's dataset is one graph");
  if (attack == "linkteller") return RunLinkTeller(*model, *ds, *pairs, *seed);
  Result<DatasetPrediction> prediction = PredictDataset(*model, *ds);
  if (!prediction.ok()) return Usage(prediction.status().message());
  if (attack == "mia") return RunMembershipInference(*model, *ds, *prediction, *split_seed);
  Result<LinkAttackResult> r = LinkStealingAuc(prediction->probabilities, ds->graphs[0], *pairs, *seed);
  if (!r.ok()) return Usage(r.status().message());
  std::cout << "attack=lsa\nmodel=" << ModelKindName(model->kind) << "\nscore=posterior_correlation\nedges="
            << r->edges << "\nnon_edges=" << r->non_edges << "\nauc=" << r->auc << "\n";
  return 0;
}

// ldpgraph experiment audit: the study (experiments/audit_experiment.h).
// Exit 1 when any attack's AUC is above its bound beyond its interval.
int RunAuditExperimentCommand(const std::vector<std::string>& args) {
  const auto usage = [](const std::string& message) {
    std::fprintf(stderr, "ldpgraph experiment audit: %s\n", message.c_str());
    return 2;
  };
  Result<Flags> flags =
      Flags::Parse(args, {"dataset", "out", "systems", "epsilons", "splits", "targets", "epochs", "jobs"});
  if (!flags.ok()) return usage(flags.status().message());
  Result<std::string> path = flags->String("dataset");
  Result<std::string> out = flags->String("out");
  AuditExperimentOptions o;
  Result<std::vector<std::string>> systems = flags->StringList("systems", o.systems);
  Result<std::vector<double>> epsilons = flags->DoubleList("epsilons", o.epsilons);
  Result<std::uint64_t> splits = flags->Unsigned("splits", static_cast<std::uint64_t>(o.splits));
  Result<std::uint64_t> targets = flags->Unsigned("targets", o.targets);
  Result<std::uint64_t> epochs = flags->Unsigned("epochs", static_cast<std::uint64_t>(o.epochs));
  Result<std::uint64_t> jobs = flags->Unsigned("jobs", 2);
  for (const Status* s : {&path.status(), &out.status(), &systems.status(), &epsilons.status(), &splits.status(),
                          &targets.status(), &epochs.status(), &jobs.status()}) {
    if (!s->ok()) return usage(s->message());
  }
  if (*splits < 1 || *splits > 1000 || *targets < 2 || *targets > 100000000 || *epochs < 1 || *epochs > 100000 ||
      *jobs < 1 || *jobs > 256) {
    return usage("need 1 <= --splits <= 1000, 2 <= --targets <= 10^8, 1 <= --epochs <= 10^5, 1 <= --jobs <= 256");
  }
  o.systems = *systems;
  o.epsilons = *epsilons;
  o.splits = static_cast<int>(*splits);
  o.targets = static_cast<std::uint32_t>(*targets);
  o.epochs = static_cast<int>(*epochs);
  o.jobs = static_cast<int>(*jobs);
  o.out_dir = *out;
  Result<GraphDataset> ds = ReadDataset(*path);
  if (!ds.ok()) return usage(ds.status().ToString());
  Result<AuditVerdict> verdict = RunAuditExperiment(*ds, o);
  if (!verdict.ok()) {
    if (verdict.status().code() == StatusCode::kInvalidArgument) return usage(verdict.status().message());
    std::fprintf(stderr, "ldpgraph experiment audit: %s\n", verdict.status().ToString().c_str());
    return 1;
  }
  for (const std::string& r : verdict->refuted) std::printf("refuted=%s\n", r.c_str());
  std::printf("rows=%zu\nrefuted_rows=%zu\nresults=%s/results.csv\nsummary=%s/summary.csv\n", verdict->rows,
              verdict->refuted.size(), out->c_str(), out->c_str());
  return verdict->refuted.empty() ? 0 : 1;
}

// ldpgraph audit rounds: the longitudinal edge game (audit/longitudinal_game.h),
// memoised and, as the control that must lose, with fresh noise every round.
// Exit 0 when both verdicts hold.
int RunRoundsAudit(const std::vector<std::string>& args) {
  Result<Flags> flags = Flags::Parse(args, {"mechanism", "epsilon", "trials", "seed"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<double> epsilon = flags->Double("epsilon", 1.0);
  Result<std::uint64_t> trials = flags->Unsigned("trials", 2000);
  Result<std::uint64_t> seed = flags->Unsigned("seed", 1);
  for (const Status* s : {&epsilon.status(), &trials.status(), &seed.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  Result<EdgeMechanism> mechanism = ParseEdgeMechanism(flags->StringOr("mechanism", "rr"));
  if (!mechanism.ok()) return Usage(mechanism.status().message());
  if (*trials < 100 || *trials > 1000000) return Usage("--trials must be in [100, 10^6]");
  int failures = 0;
  for (bool memoised : {true, false}) {
    LongitudinalOptions o;
    o.mechanism = *mechanism;
    o.epsilon = *epsilon;
    o.trials = static_cast<std::uint32_t>(*trials);
    o.seed = *seed;
    o.memoised = memoised;
    Result<std::vector<LongitudinalRound>> rounds = PlayLongitudinalGames(o);
    if (!rounds.ok()) return Usage(rounds.status().message());
    const char* noise = memoised ? "memoised" : "fresh";
    for (const LongitudinalRound& r : *rounds) {
      std::cout << "noise=" << noise << " game=" << r.game << " rounds=" << r.rounds << " auc=" << r.auc
                << " low=" << r.interval.low << " high=" << r.interval.high;
      if (r.bound) std::cout << " bound=" << *r.bound;
      if (r.exact) std::cout << " exact=" << *r.exact;
      std::cout << "\n";
    }
    std::string why;
    const bool held = LongitudinalVerdict(*rounds, memoised, &why);
    failures += !held;
    std::cout << "noise=" << noise << " verdict=" << (held ? "holds" : "FAILS") << " why=\"" << why << "\"\n";
  }
  std::cout << "mechanism=" << EdgeMechanismName(*mechanism) << "\nepsilon=" << *epsilon << "\ntrials=" << *trials
            << "\nfailures=" << failures << "\n";
  return failures == 0 ? 0 : 1;
}

int RunAuditCommand(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "model") return RunModelAudit({args.begin() + 1, args.end()});
  if (!args.empty() && args[0] == "rounds") return RunRoundsAudit({args.begin() + 1, args.end()});
  if (args.empty() || args[0] != "mechanisms") return Usage("say what to audit: mechanisms, rounds or model");
  Result<Flags> flags = Flags::Parse({args.begin() + 1, args.end()},
                                     {"trials", "confidence", "epsilon", "only", "seed", "broken"});
  if (!flags.ok()) return Usage(flags.status().message());
  Result<std::uint64_t> trials = flags->Unsigned("trials", 1000000);
  Result<double> confidence = flags->Double("confidence", 0.95);
  Result<double> epsilon = flags->Double("epsilon", 1.0);
  for (const Status* s : {&trials.status(), &confidence.status(), &epsilon.status()}) {
    if (!s->ok()) return Usage(s->message());
  }
  if (*trials < 1000 || *trials > 1000000000) return Usage("--trials must be in [1000, 10^9]");
  if (!(*confidence > 0.5 && *confidence < 1)) return Usage("--confidence must be in (0.5, 1)");
  if (!(*epsilon > 0) || !std::isfinite(*epsilon)) return Usage("--epsilon must be a positive number");
  const std::string broken = flags->StringOr("broken", "on");
  if (broken != "on" && broken != "off") return Usage("--broken must be on or off");
  Result<std::vector<MechanismAudit>> shipped = ShippedMechanismAudits(*epsilon);
  if (!shipped.ok()) return Usage(shipped.status().message());
  std::vector<MechanismAudit> audits = std::move(shipped).value();
  if (broken == "on") {
    Result<std::vector<MechanismAudit>> doubles = BrokenMechanismAudits(*epsilon);
    if (!doubles.ok()) return Usage(doubles.status().message());
    for (MechanismAudit& d : *doubles) audits.push_back(std::move(d));
  }
  const std::string only = flags->StringOr("only", "");
  if (!only.empty()) {
    std::vector<MechanismAudit> kept;
    for (MechanismAudit& a : audits) {
      if (a.name == only) kept.push_back(std::move(a));
    }
    if (kept.empty()) return Usage("--only names no mechanism: " + only);
    audits = std::move(kept);
  }
  EpsilonAuditOptions o;
  o.trials = *trials;
  // The confidence holds for the run as a whole: Bonferroni over its audits.
  o.confidence = 1.0 - (1.0 - *confidence) / static_cast<double>(audits.size());
  if (flags->Has("seed")) {
    o.seeded = true;
    o.seed = flags->Unsigned("seed", 0).value();
  }
  std::cout << "trials=" << o.trials << "\nconfidence=" << *confidence << "\nconfidence_per_audit=" << o.confidence
            << "\nrandom=" << (o.seeded ? "seeded" : "os") << "\n";
  int failures = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const MechanismAudit& a : audits) {
    const auto began = std::chrono::steady_clock::now();
    EpsilonAuditOptions mine = o;
    mine.delta = a.delta;
    Result<EpsilonAuditResult> r = AuditEpsilon(a.a, a.b, mine);
    if (!r.ok()) {
      std::fprintf(stderr, "ldpgraph audit: %s: %s\n", a.name.c_str(), r.status().ToString().c_str());
      return 1;
    }
    const bool above = r->lower_bound > a.claimed;
    const bool failed = a.broken ? !above : above;
    failures += failed;
    std::cout << "mechanism=" << a.name << " kind=" << (a.broken ? "broken-double" : "shipped")
              << " claimed_epsilon=" << a.claimed << " delta=" << a.delta << " lower_bound=" << r->lower_bound
              << " ratio=" << r->lower_bound / a.claimed << " estimate=" << r->estimate
              << " outputs=" << r->outputs << " verdict="
              << (a.broken ? (above ? "caught" : "MISSED") : (above ? "REFUTED" : "holds")) << " seconds="
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count() << "\n";
  }
  std::cout << "audits=" << audits.size() << "\nfailures=" << failures << "\nseconds="
            << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << "\n";
  return failures == 0 ? 0 : 1;
}

}  // namespace ldpgraph
