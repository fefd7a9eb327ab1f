#include "bench/admin_load_bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <iomanip>
#include <mutex>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/memory_window.h"
#include "bench/percentile.h"
#include "bench/ring_neighbours.h"
#include "engine/allocator.h"
#include "gap/held_graph_json.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/samplers.h"
#include "ldpgraph/transport/uploader.h"
#include "ldpgraph/wire_format.h"
#include "service/daemon.h"
#include "testbed/test_pki.h"

namespace ldpgraph {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

constexpr const char* kAdminToken = "bench-admin-token-0123456789";
constexpr std::uint64_t kNodeGraph = 1, kGwGraphA = 2, kGwGraphB = 3, kDenseGraph = 4;
constexpr std::uint64_t kGapHeld = 1, kUploadedHeld = 2;
constexpr std::uint32_t kClasses = 4;

double Seconds(Clock::time_point since) { return std::chrono::duration<double>(Clock::now() - since).count(); }

// One keep-alive admin connection; answers of 503 busy are retried after
// their Retry-After, and counted.
class AdminClient {
 public:
  static Result<AdminClient> Connect(const transport::ServerEndpoint& server) {
    auto client = transport::HttpsClient::Create(server);
    if (!client.ok()) return client.status();
    AdminClient c;
    c.client_ = std::shared_ptr<transport::HttpsClient>(std::move(*client));
    return c;
  }
  Result<transport::HttpAnswer> Call(const std::string& method, const std::string& path, const std::string& body,
                                     std::atomic<std::uint64_t>* busy_retries = nullptr) {
    for (;;) {
      auto answer = client_->Request(method, path, body.empty() ? "" : "application/json", body, kAdminToken);
      if (!answer.ok() || answer->status != 503 || answer->retry_after_seconds == 0) return answer;
      if (busy_retries != nullptr) ++*busy_retries;
      std::this_thread::sleep_for(std::chrono::seconds(answer->retry_after_seconds));
    }
  }
  // The answer when it has `status`; otherwise an error quoting it.
  Result<json> Expect(int status, const std::string& method, const std::string& path, const std::string& body = "") {
    auto answer = Call(method, path, body);
    if (!answer.ok()) return answer.status();
    if (answer->status != status) {
      return Status::Internal(method + " " + path + ": " + std::to_string(answer->status) + " " + answer->body);
    }
    return json::parse(answer->body, nullptr, false);
  }

 private:
  std::shared_ptr<transport::HttpsClient> client_;
};

// Community of user u (labels, features and the held graphs' labels).
std::uint32_t Community(std::uint64_t u) { return static_cast<std::uint32_t>(u % kClasses); }

// Every user's report on the node graph, sent by 2 pipelining uploaders.
Status ReportNodeGraph(const GraphConfig& config, const TokenAuthority& tokens,
                       const transport::UploaderOptions& uo) {
  auto builder = ReportBuilder::Create(config);
  if (!builder.ok()) return builder.status();
  const std::uint32_t n = config.num_users;
  constexpr unsigned kSenders = 2;
  std::vector<std::thread> threads;
  std::atomic<bool> failed{false};
  for (unsigned w = 0; w < kSenders; ++w) {
    threads.emplace_back([&, w] {
      auto uploader = transport::Uploader::Create(uo);
      if (!uploader.ok()) {
        failed = true;
        return;
      }
      SeededRandomSource rng(100 + w);
      std::vector<std::uint32_t> friends;
      std::vector<double> x(config.features.params.dims);
      std::vector<transport::OutgoingReport> batch;
      for (std::uint32_t u = w; u < n && !failed; u += kSenders) {
        RingNeighbours(u, n, 10, &friends);
        for (std::size_t j = 0; j < x.size(); ++j) x[j] = j % kClasses == Community(u) ? 0.8 : 0.2;
        UserData data;
        data.user_id = u;
        data.neighbours = Span<const std::uint32_t>(friends.data(), friends.size());
        data.features = Span<const double>(x.data(), x.size());
        data.has_label = true;
        data.label = Community(u);
        auto report = (*builder)->Build(data, rng);
        batch.emplace_back();
        if (!report.ok() || !EncodeReport(*report, &batch.back().report).ok()) failed = true;
        batch.back().token = tokens.Issue(config.graph_id, u);
        if (batch.size() == 256 || u + kSenders >= n) {
          for (const auto& sent : (*uploader)->SendMany(batch, 16)) {
            if (!sent.ok() || !sent->delivered) failed = true;
          }
          batch.clear();
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  return failed ? Status::Internal("reporting the node graph failed") : Status::Ok();
}

// A held graph of n nodes: a ring with 5 chords a node, 5 feature entries a
// node leaning to its community, labels by community.
std::string HeldGraphBody(std::uint64_t id, std::uint32_t n) {
  HeldGraphParts p;
  p.id = id;
  p.num_nodes = n;
  p.classes = kClasses;
  p.feature_dims = 64;
  std::vector<std::uint32_t> friends;
  for (std::uint32_t u = 0; u < n; ++u) {
    RingNeighbours(u, n, 10, &friends);
    for (std::uint32_t v : friends) {
      if (u < v) p.edges.emplace_back(u, v);
    }
    for (std::uint64_t j = 0; j < 5; ++j) p.features.push_back({u, Community(u) * 16 + (u + j * 3) % 16, 1.0});
    p.labels.push_back(Community(u));
  }
  return HeldGraphUploadJson(p);
}

// An embedding graph's one report: its owner's n x 2 embeddings.
Status ReportEmbeddingGraph(const GraphConfig& config, const TokenAuthority& tokens,
                            const transport::UploaderOptions& uo, std::uint64_t seed) {
  auto builder = ReportBuilder::Create(config);
  if (!builder.ok()) return builder.status();
  SeededRandomSource rng(seed);
  std::vector<double> h(static_cast<std::size_t>(config.num_users) * config.embedding.dims);
  for (double& v : h) v = UniformUnit(rng);
  auto report = (*builder)->BuildEmbedding(Span<const double>(h.data(), h.size()), false, 0, rng);
  if (!report.ok()) return report.status();
  transport::OutgoingReport out;
  LDPGRAPH_RETURN_IF_ERROR(EncodeReport(*report, &out.report));
  out.token = tokens.Issue(config.graph_id, 0);
  auto uploader = transport::Uploader::Create(uo);
  if (!uploader.ok()) return uploader.status();
  auto sent = (*uploader)->SendMany({out}, 1);
  if (!sent[0].ok()) return sent[0].status();
  return sent[0]->delivered ? Status::Ok() : Status::Internal("the embedding report was refused");
}

// Waits for a job to end; its last status.
JobStatus AwaitJob(TrainingJobs& jobs, std::uint64_t id) {
  for (;;) {
    const Result<std::optional<JobStatus>> found = jobs.Get(id);
    const std::optional<JobStatus> s = found.ok() ? *found : std::nullopt;
    if (!s || s->state == JobState::kSucceeded || s->state == JobState::kFailed || s->state == JobState::kCancelled) {
      return s.value_or(JobStatus{});
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// The four heavy requests, each a callable giving the HTTP status it ended
// with (a GAP job: 200 once it has succeeded).
struct HeavyWork {
  std::string name;
  std::function<Result<int>(AdminClient&, std::atomic<std::uint64_t>*)> run;
};

std::vector<HeavyWork> Heavy(Daemon& daemon, const std::string& upload_body, std::uint32_t users, int gap_epochs,
                             std::function<void(std::uint64_t)> on_gap_started, std::size_t* answer_bytes) {
  std::string nodes = "{\"nodes\":[";
  for (std::uint32_t u = 0; u < users; ++u) nodes += (u ? "," : "") + std::to_string(u);
  nodes += "]}";
  std::vector<HeavyWork> work;
  work.push_back({"upload", [&upload_body](AdminClient& c, std::atomic<std::uint64_t>* busy) -> Result<int> {
                    auto a = c.Call("PUT", "/v1/admin/held-graphs/" + std::to_string(kUploadedHeld), upload_body, busy);
                    if (!a.ok()) return a.status();
                    // Gone again, for the next round.
                    LDPGRAPH_RETURN_IF_ERROR(c.Call("DELETE", "/v1/admin/held-graphs/2", "").status());
                    return a->status;
                  }});
  work.push_back({"gap", [&daemon, gap_epochs, on_gap_started](AdminClient& c, std::atomic<std::uint64_t>* busy)
                             -> Result<int> {
                    const json job = {{"task", "gap"}, {"held_graph", kGapHeld}, {"epsilon", 8},
                                      {"epochs", gap_epochs}, {"classifier_epochs", gap_epochs}};
                    auto a = c.Call("POST", "/v1/admin/jobs", job.dump(), busy);
                    if (!a.ok()) return a.status();
                    if (a->status != 202) return a->status;
                    const std::uint64_t id = json::parse(a->body)["job_id"];
                    if (on_gap_started) on_gap_started(id);
                    const JobStatus done = AwaitJob(*daemon.context().jobs, id);
                    return done.state == JobState::kSucceeded || done.state == JobState::kCancelled ? 200 : 500;
                  }});
  work.push_back({"gw", [](AdminClient& c, std::atomic<std::uint64_t>* busy) -> Result<int> {
                    auto a = c.Call("POST", "/v1/admin/gw", json{{"a", kGwGraphA}, {"b", kGwGraphB}}.dump(), busy);
                    if (!a.ok()) return a.status();
                    return a->status;
                  }});
  work.push_back({"predict", [nodes, answer_bytes](AdminClient& c, std::atomic<std::uint64_t>* busy) -> Result<int> {
                    auto a = c.Call("POST", "/v1/admin/models/1/predict", nodes, busy);
                    if (!a.ok()) return a.status();
                    *answer_bytes = a->body.size();
                    return a->status;
                  }});
  return work;
}

// One piece of work alone: its status, time, the most it leased from the
// memory budget (sampled every millisecond) and the process's peak over
// its start.
struct Measured {
  Result<int> status = Status::Internal("not run");
  double seconds = 0, estimate_mb = 0, peak_mb = 0;
};

Measured Measure(Daemon& d, const std::function<Result<int>()>& work) {
  // A job's lease outlives its "succeeded" by a moment: the next piece of
  // work starts once no job runs, and counts leases above what is held
  // then (the result cache's).
  for (int waited = 0; d.metrics().jobs_running.load() > 0 && waited < 5000; ++waited) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const std::uint64_t held = d.metrics().memory_leased_bytes.load();
  std::atomic<bool> over{false};
  std::uint64_t leased = held;
  std::thread sampler([&] {
    while (!over) {
      leased = std::max(leased, d.metrics().memory_leased_bytes.load());
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  const MemoryWindow window;
  const auto start = Clock::now();
  Measured m;
  m.status = work();
  m.seconds = Seconds(start);
  m.peak_mb = window.PeakMb();
  over = true;
  sampler.join();
  m.estimate_mb = static_cast<double>(leased - held) / (1 << 20);
  return m;
}

Status Print(const std::string& name, const Measured& m, std::ostream& out) {
  if (!m.status.ok()) return m.status.status();
  out << name << "_status=" << *m.status << "\n"
      << name << "_seconds=" << std::setprecision(2) << m.seconds << "\n"
      << name << "_estimate_mb=" << std::setprecision(1) << m.estimate_mb << "\n"
      << name << "_peak_mb=" << m.peak_mb << "\n";
  return Status::Ok();
}

// Issue 66: a graph whose every user reports RR at a low epsilon is mostly
// edges (about n/2 noisy neighbours a user). Training a node model on it,
// a device's first result and the admin's prediction for every user, each
// with its estimate against the measured peak.
Status MeasureDenseGraph(Daemon& d, AdminClient& admin, const transport::UploaderOptions& uo,
                         const transport::ServerEndpoint& server, std::uint32_t users, std::ostream& out) {
  const json dense = {{"graph_id", kDenseGraph},
                      {"num_users", users},
                      {"edges", {{"mechanism", "rr"}, {"epsilon", 0.1}}},
                      {"features", {{"dims", 16}, {"epsilon", 2.0}}},
                      {"label", {{"classes", kClasses}, {"epsilon", 2.0}}}};
  LDPGRAPH_RETURN_IF_ERROR(admin.Expect(201, "POST", "/v1/admin/graphs", dense.dump()).status());
  const TokenAuthority& tokens = d.context().tokens;
  LDPGRAPH_RETURN_IF_ERROR(ReportNodeGraph(d.context().graphs.Find(kDenseGraph)->config, tokens, uo));
  Result<std::uint64_t> report_bytes = d.context().store->ReportBytes(kDenseGraph);
  if (!report_bytes.ok()) return report_bytes.status();
  const std::uint64_t edges_before = d.metrics().assembled_edges.load();
  std::uint64_t version = 0;
  const Measured train = Measure(d, [&]() -> Result<int> {
    auto queued = admin.Expect(202, "POST", "/v1/admin/jobs",
                               json{{"task", "node"}, {"graph", kDenseGraph}, {"epochs", 5}}.dump());
    if (!queued.ok()) return queued.status();
    const JobStatus done = AwaitJob(*d.context().jobs, (*queued)["job_id"]);
    version = done.model_version;
    return done.state == JobState::kSucceeded ? 200 : 500;
  });
  out << "dense_users=" << users << "\ndense_report_mb=" << std::setprecision(1)
      << static_cast<double>(*report_bytes) / (1 << 20)
      << "\ndense_assembled_edges=" << d.metrics().assembled_edges.load() - edges_before << "\n";
  LDPGRAPH_RETURN_IF_ERROR(Print("dense_train", train, out));
  const Measured result = Measure(d, [&]() -> Result<int> {
    auto client = transport::HttpsClient::Create(server);
    if (!client.ok()) return client.status();
    auto a = (*client)->Request("GET", "/v1/graphs/" + std::to_string(kDenseGraph) + "/result", "", "",
                                tokens.Issue(kDenseGraph, 1));
    if (!a.ok()) return a.status();
    return a->status;
  });
  LDPGRAPH_RETURN_IF_ERROR(Print("dense_result", result, out));
  std::string nodes = "{\"nodes\":[";
  for (std::uint32_t u = 0; u < users; ++u) nodes += (u ? "," : "") + std::to_string(u);
  nodes += "]}";
  const Measured predict = Measure(d, [&]() -> Result<int> {
    auto a = admin.Call("POST", "/v1/admin/models/" + std::to_string(version) + "/predict", nodes);
    if (!a.ok()) return a.status();
    return a->status;
  });
  return Print("dense_predict", predict, out);
}

}  // namespace

Status RunAdminLoadBench(const AdminLoadBenchOptions& o, std::ostream& out) {
  if (o.users < 100 || o.held_nodes < 100 || o.gap_nodes < 100 || o.gw_nodes < 10 || o.probe_ms == 0) {
    return Status::InvalidArgument("need --users, --held-nodes, --gap-nodes >= 100, --gw-nodes >= 10, --probe-ms >= 1");
  }
  std::string dir = o.dir;
  const bool own_dir = dir.empty();
  if (own_dir) {
    char pattern[] = "/tmp/ldpgraph_bench_admin_XXXXXX";
    if (!::mkdtemp(pattern)) return Status::Unavailable("cannot create a temporary directory");
    dir = pattern;
  }
  auto pki = WriteTestPki(dir);
  if (!pki.ok()) return pki.status();
  DaemonConfig config;
  config.listen_port = 0;
  config.certificate_file = pki->server_certificate;
  config.private_key_file = pki->server_key;
  config.store_path = dir + "/store.db";
  config.secret = "bench-secret-0123456789abcdef0123456789";
  config.admin_token = kAdminToken;
  config.per_address = {0, 0};
  config.per_token = {0, 0};
  Logger logger("text", "warning");
  auto daemon = Daemon::Start(config, &logger);
  if (!daemon.ok()) return daemon.status();
  Daemon& d = **daemon;
  // Heavy answers take long: the client waits for them.
  const transport::ServerEndpoint server = {"127.0.0.1", d.port(), pki->ca_certificate, "", "", 5000, 600000};
  transport::UploaderOptions uo;
  uo.server = server;
  auto admin = AdminClient::Connect(server);
  if (!admin.ok()) return admin.status();

  // Set-up, through the API as an operator and devices would.
  const auto setup_start = Clock::now();
  const json node_graph = {{"graph_id", kNodeGraph},
                           {"num_users", o.users},
                           {"edges", {{"mechanism", "dprr"}, {"epsilon", 2.0}}},
                           {"features", {{"dims", 16}, {"epsilon", 2.0}}},
                           {"label", {{"classes", kClasses}, {"epsilon", 2.0}}}};
  LDPGRAPH_RETURN_IF_ERROR(admin->Expect(201, "POST", "/v1/admin/graphs", node_graph.dump()).status());
  const TokenAuthority& tokens = d.context().tokens;
  LDPGRAPH_RETURN_IF_ERROR(ReportNodeGraph(d.context().graphs.Find(kNodeGraph)->config, tokens, uo));
  auto trained = admin->Expect(202, "POST", "/v1/admin/jobs",
                               json{{"task", "node"}, {"graph", kNodeGraph}, {"epochs", 10}}.dump());
  if (!trained.ok()) return trained.status();
  if (AwaitJob(*d.context().jobs, (*trained)["job_id"]).state != JobState::kSucceeded) {
    return Status::Internal("the node model did not train");
  }
  for (std::uint64_t id : {kGwGraphA, kGwGraphB}) {
    const json g = {{"graph_id", id}, {"num_users", o.gw_nodes}, {"embedding", {{"dims", 2}, {"epsilon", 4}}}};
    LDPGRAPH_RETURN_IF_ERROR(admin->Expect(201, "POST", "/v1/admin/graphs", g.dump()).status());
    LDPGRAPH_RETURN_IF_ERROR(ReportEmbeddingGraph(d.context().graphs.Find(id)->config, tokens, uo, id));
  }
  LDPGRAPH_RETURN_IF_ERROR(
      admin->Expect(201, "PUT", "/v1/admin/held-graphs/1", HeldGraphBody(kGapHeld, o.gap_nodes)).status());
  const std::string upload_body = HeldGraphBody(kUploadedHeld, o.held_nodes);
  out << std::fixed << std::setprecision(1) << "setup_seconds=" << Seconds(setup_start)
      << "\nusers=" << o.users << "\nheld_nodes=" << o.held_nodes << "\nupload_body_mb="
      << static_cast<double>(upload_body.size()) / (1 << 20) << "\ngap_nodes=" << o.gap_nodes
      << "\ngw_nodes=" << o.gw_nodes << "\nmemory_budget_mb="
      << static_cast<double>(d.metrics().memory_budget_bytes.load()) / (1 << 20) << "\n";

  // 1. Each alone: time, lease (sampled from the budget's gauge), peak.
  std::atomic<std::uint64_t> busy_retries{0};
  std::size_t answer_bytes = 0;
  for (const HeavyWork& w : Heavy(d, upload_body, o.users, 20, nullptr, &answer_bytes)) {
    LDPGRAPH_RETURN_IF_ERROR(Print(w.name, Measure(d, [&] { return w.run(*admin, &busy_retries); }), out));
  }
  out << "predict_answer_mb=" << static_cast<double>(answer_bytes) / (1 << 20) << "\n";

  // 2. All four at once, /healthz probed throughout on its own connection.
  auto probe_client = transport::HttpsClient::Create(server);
  if (!probe_client.ok()) return probe_client.status();
  std::vector<double> idle, loaded;
  std::atomic<int> phase{0};  // 0 idle, 1 loaded, 2 over
  std::atomic<std::uint64_t> probe_failures{0};
  std::thread prober([&] {
    while (phase != 2) {
      const auto start = Clock::now();
      auto answer = (*probe_client)->Request("GET", "/healthz", "", "", "");
      const double ms = Seconds(start) * 1e3;
      if (!answer.ok() || answer->status != 200) ++probe_failures;
      (phase == 0 ? idle : loaded).push_back(ms);
      std::this_thread::sleep_for(std::chrono::milliseconds(o.probe_ms));
    }
  });
  std::this_thread::sleep_for(std::chrono::seconds(2));
  // The GAP job runs for long and is cancelled once the other three are answered.
  std::atomic<std::uint64_t> gap_job{0};
  std::vector<HeavyWork> work =
      Heavy(d, upload_body, o.users, 100000, [&](std::uint64_t id) { gap_job = id; }, &answer_bytes);
  std::vector<Result<int>> statuses(work.size(), Status::Internal("not run"));
  const MemoryWindow loaded_window;
  phase = 1;
  const auto loaded_start = Clock::now();
  std::vector<std::thread> clients;
  for (std::size_t i = 0; i < work.size(); ++i) {
    clients.emplace_back([&, i] {
      auto c = AdminClient::Connect(server);
      statuses[i] = c.ok() ? work[i].run(*c, &busy_retries) : Result<int>(c.status());
    });
  }
  for (std::size_t i = 0; i < work.size(); ++i) {
    if (work[i].name == "gap") continue;
    clients[i].join();
  }
  const double loaded_seconds = Seconds(loaded_start), loaded_peak = loaded_window.PeakMb();
  phase = 2;
  prober.join();
  while (gap_job == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const Result<std::optional<JobStatus>> gap = d.context().jobs->Get(gap_job);
  const bool gap_trained_throughout = gap.ok() && *gap && (*gap)->state == JobState::kTraining;
  d.context().jobs->Cancel(gap_job);
  for (std::size_t i = 0; i < work.size(); ++i) {
    if (work[i].name == "gap") clients[i].join();
  }
  for (std::size_t i = 0; i < work.size(); ++i) {
    if (!statuses[i].ok()) return statuses[i].status();
    out << "loaded_" << work[i].name << "_status=" << *statuses[i] << "\n";
  }
  out << "gap_trained_throughout=" << gap_trained_throughout << "\nloaded_seconds=" << std::setprecision(1)
      << loaded_seconds << "\nhealthz_idle_probes=" << idle.size() << std::setprecision(2)
      << "\nhealthz_idle_p50_ms=" << Percentile(idle, 0.5) << "\nhealthz_idle_p99_ms=" << Percentile(idle, 0.99)
      << "\nhealthz_probes=" << loaded.size() << "\nhealthz_p50_ms=" << Percentile(loaded, 0.5)
      << "\nhealthz_p99_ms=" << Percentile(loaded, 0.99)
      << "\nhealthz_max_ms=" << (loaded.empty() ? 0 : *std::max_element(loaded.begin(), loaded.end()))
      << "\nhealthz_failures=" << probe_failures.load() << "\nbusy_retries=" << busy_retries.load()
      << "\nmalloc=" << MallocName() << std::setprecision(0) << "\nloaded_peak_mb=" << loaded_peak << "\n";

  // 3. A dense RR graph's estimates.
  if (o.dense_users > 0) LDPGRAPH_RETURN_IF_ERROR(MeasureDenseGraph(d, *admin, uo, server, o.dense_users, out));
  d.Stop();
  daemon->reset();
  if (own_dir) std::system(("rm -rf '" + dir + "'").c_str());
  return Status::Ok();
}

}  // namespace ldpgraph
