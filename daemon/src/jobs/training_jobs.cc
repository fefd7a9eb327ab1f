#include "jobs/training_jobs.h"

#include <chrono>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "assembly/graph_assembler.h"
#include "engine/kernels/kernel_table.h"
#include "net/storage_failure.h"
#include "train/gin_pipeline.h"
#include "util/unix_clock.h"

namespace ldpgraph {

const char* JobStateName(JobState state) {
  switch (state) {
    case JobState::kQueued: return "queued";
    case JobState::kAssembling: return "assembling";
    case JobState::kTraining: return "training";
    case JobState::kSucceeded: return "succeeded";
    case JobState::kFailed: return "failed";
    case JobState::kCancelled: return "cancelled";
  }
  return "unknown";
}

namespace {

std::optional<JobState> ParseJobState(const std::string& name) {
  for (JobState s : {JobState::kQueued, JobState::kAssembling, JobState::kTraining, JobState::kSucceeded,
                     JobState::kFailed, JobState::kCancelled}) {
    if (name == JobStateName(s)) return s;
  }
  return std::nullopt;
}

bool Over(JobState s) { return s == JobState::kSucceeded || s == JobState::kFailed || s == JobState::kCancelled; }

const char* TaskName(JobTask task) {
  switch (task) {
    case JobTask::kGraph: return "graph";
    case JobTask::kNode: return "node";
    case JobTask::kGap: return "gap";
  }
  return "graph";
}

}  // namespace

std::string JobStatusJson(const JobStatus& s) {
  nlohmann::json j = {{"job_id", s.id},
                      {"task", s.task},
                      {"state", JobStateName(s.state)},
                      {"graphs", s.graphs},
                      {"graphs_assembled", s.graphs_assembled},
                      {"epoch", s.epoch},
                      {"max_epochs", s.max_epochs},
                      {"val_accuracy", s.val_accuracy},
                      {"seconds", s.seconds}};
  if (s.state == JobState::kSucceeded) {
    j["test_accuracy"] = s.test_accuracy;
    if (s.test_auc) j["test_auc"] = *s.test_auc;
    j["model_version"] = s.model_version;
  }
  if (!s.error.empty()) j["error"] = s.error;
  return j.dump();
}

Result<JobStatus> JobStatusFromJson(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  JobStatus s;
  try {
    if (!j.is_object()) throw std::invalid_argument("not an object");
    s.id = j.at("job_id").get<std::uint64_t>();
    s.task = j.value("task", "graph");
    const std::optional<JobState> state = ParseJobState(j.at("state").get<std::string>());
    if (!state) throw std::invalid_argument("unknown state");
    s.state = *state;
    s.graphs = j.at("graphs").get<std::size_t>();
    s.graphs_assembled = j.at("graphs_assembled").get<std::size_t>();
    s.epoch = j.at("epoch").get<int>();
    s.max_epochs = j.at("max_epochs").get<int>();
    s.val_accuracy = j.at("val_accuracy").get<double>();
    s.seconds = j.at("seconds").get<double>();
    s.test_accuracy = j.value("test_accuracy", 0.0);
    if (j.contains("test_auc")) s.test_auc = j["test_auc"].get<double>();
    s.model_version = j.value("model_version", std::uint64_t{0});
    s.error = j.value("error", "");
  } catch (const std::exception& e) {
    return Status::DataLoss(std::string("stored job status does not parse: ") + e.what());
  }
  return s;
}

void CountAssembly(Metrics& metrics, const DatasetAssemblyStats& stats) {
  metrics.graphs_assembled.fetch_add(stats.graphs);
  metrics.assembled_users.fetch_add(stats.users);
  metrics.assembled_reporters.fetch_add(stats.reporters);
  metrics.assembled_edges.fetch_add(stats.edges);
}

TrainingJobs::TrainingJobs(ReportStore* store, ModelRegistry* models, Metrics* metrics, Logger* logger,
                           MemoryBudget* memory, JobRequestCodec codec)
    : store_(store),
      shared_(store->Shared()),
      codec_(std::move(codec)),
      models_(models),
      memory_(memory),
      metrics_(metrics),
      logger_(logger) {
  if (shared_) {
    worker_ = std::thread([this] { SharedWorkerLoop(); });
    lease_watch_ = std::thread([this] { LeaseWatchLoop(); });
    return;
  }
  RecoverInterrupted();
  metrics_->training_leader.store(1);  // its own store: nobody else runs its jobs
  worker_ = std::thread([this] { WorkerLoop(); });
}

Result<std::optional<JobStatus>> TrainingJobs::StoredStatus(std::uint64_t id) const {
  Result<std::optional<StoredJob>> stored = store_->GetJob(id);
  if (!stored.ok()) return stored.status();
  if (!*stored) return std::optional<JobStatus>();
  Result<JobStatus> status = JobStatusFromJson((*stored)->status_json);
  JobStatus s = status.ok() ? *status : JobStatus{};
  s.id = id;
  return std::optional<JobStatus>(s);
}

void TrainingJobs::RecoverInterrupted() {
  Result<std::vector<StoredJob>> stored = store_->ListJobs();
  if (!stored.ok()) {
    logger_->Error("jobs_not_read", {{"error", stored.status().message()}});
    return;
  }
  for (const StoredJob& row : *stored) {
    Result<JobStatus> status = JobStatusFromJson(row.status_json);
    auto job = std::make_unique<Job>();
    if (status.ok()) {
      job->status = *status;
    } else {
      job->status.state = JobState::kFailed;
      job->status.error = status.status().message();
    }
    job->status.id = row.job_id;
    if (!Over(job->status.state)) {
      const std::string was = JobStateName(job->status.state);
      job->status.state = JobState::kFailed;
      job->status.error = "interrupted: the daemon stopped while the job was " + was +
                          (was == "queued" ? "" : " (at epoch " + std::to_string(job->status.epoch) + ")") +
                          "; no model was stored: submit it again";
      Status written = store_->UpdateJob(row.job_id, JobStatusJson(job->status));
      logger_->Warning("job_interrupted", {{"job_id", std::to_string(row.job_id)},
                                           {"was", was},
                                           {"persisted", written.ok() ? "true" : written.message()}});
      metrics_->jobs_failed.fetch_add(1);
    }
    jobs_[row.job_id] = std::move(job);
  }
}

TrainingJobs::~TrainingJobs() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
    for (auto& [id, job] : jobs_) job->cancel = true;
    cv_.notify_all();
  }
  worker_.join();
  if (lease_watch_.joinable()) lease_watch_.join();
}

Result<std::uint64_t> TrainingJobs::Start(GraphJobRequest request) {
  if (request.task == JobTask::kGap) {
    if (!request.held_graph) return Status::InvalidArgument("a GAP job needs a held graph");
    const GapOptions resolved = ResolveGapOptions(request.gap, 1);
    request.max_epochs =
        request.progap ? ProGapEpochs(request.gap) : resolved.encoder_epochs + resolved.classifier_epochs;
  } else {
    if (request.task == JobTask::kNode) {
      if (request.graphs.size() != 1) return Status::InvalidArgument("a node job trains on exactly one graph");
      const GraphConfig& g = request.graphs[0];
      if (!g.features.enabled || !g.label.enabled) {
        return Status::InvalidArgument("graph " + std::to_string(g.graph_id) +
                                       " collects no features or no labels: node classification needs both");
      }
      if (request.denoise && !DenoisableMechanism(g.edges.mechanism)) {
        return Status::InvalidArgument("graph " + std::to_string(g.graph_id) +
                                       "'s edges are not RR reports the link denoiser can use");
      }
      request.labels.assign(1, 0);
    } else if (request.graphs.size() < 2 || request.labels.size() != request.graphs.size()) {
      return Status::InvalidArgument("a training job needs at least 2 graphs, each with a label");
    }
    if (request.task == JobTask::kGraph &&
        std::set<std::int64_t>(request.labels.begin(), request.labels.end()).size() < 2) {
      return Status::InvalidArgument("the graphs' labels must hold at least 2 classes");
    }
    if (request.rules.size() != request.graphs.size()) {
      return Status::InvalidArgument("one symmetrisation rule per graph is needed");
    }
    if (request.max_epochs < 1 || request.hidden < 0 || request.layers < 2) {
      return Status::InvalidArgument("need epochs >= 1, hidden >= 1 (or 0: the model's default) and layers >= 2");
    }
  }
  auto job = std::make_unique<Job>();
  job->status.task = TaskName(request.task);
  job->status.graphs = request.task == JobTask::kGap ? 1 : request.graphs.size();
  job->status.max_epochs = request.max_epochs;
  if (shared_) {  // into the store's queue: the leader runs it, whichever daemon that is
    if (!codec_.encode) return Status::Internal("no codec for a shared store's jobs");
    Result<std::uint64_t> id = store_->AddSharedJob(JobStatusJson(job->status), codec_.encode(request));
    if (!id.ok()) return Status::Unavailable("the store cannot record the job: " + id.status().message());
    logger_->Info("job_queued", {{"job_id", std::to_string(*id)}, {"task", job->status.task}});
    std::lock_guard<std::mutex> lock(mu_);
    wake_ = true;
    cv_.notify_all();
    return *id;
  }
  // In the store before anyone can see it: an id is never handed out twice,
  // and a job acknowledged with 202 survives a crash (as failed, interrupted).
  Result<std::uint64_t> id = store_->AddJob(JobStatusJson(job->status));
  if (!id.ok()) return Status::Unavailable("the store cannot record the job: " + id.status().message());
  job->status.id = *id;
  job->request = std::move(request);
  logger_->Info("job_queued", {{"job_id", std::to_string(*id)}, {"task", job->status.task}});
  std::lock_guard<std::mutex> lock(mu_);
  queue_.push_back(job.get());
  jobs_[*id] = std::move(job);
  cv_.notify_all();
  return *id;
}

Result<std::optional<JobStatus>> TrainingJobs::Get(std::uint64_t id) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it != jobs_.end()) return std::optional<JobStatus>(it->second->status);  // run here: the freshest
  }
  if (!shared_) return std::optional<JobStatus>();
  return StoredStatus(id);
}

Result<std::vector<JobStatus>> TrainingJobs::All() const {
  std::vector<JobStatus> all;
  if (shared_) {
    Result<std::vector<StoredJob>> stored = store_->ListJobs();
    if (!stored.ok()) return stored.status();
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const StoredJob& row : *stored) {
        auto local = jobs_.find(row.job_id);
        if (local != jobs_.end()) {
          all.push_back(local->second->status);
          continue;
        }
        Result<JobStatus> status = JobStatusFromJson(row.status_json);
        JobStatus s = status.ok() ? *status : JobStatus{};
        s.id = row.job_id;
        all.push_back(s);
      }
    }
    return all;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [id, job] : jobs_) all.push_back(job->status);
  return all;
}

bool TrainingJobs::Cancel(std::uint64_t id) {
  if (shared_) {
    JobStatus cancelled;
    bool here = false;  // running here: stopping it is the cancel, however soon it ends
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = jobs_.find(id);
      if (it != jobs_.end() && !Over(it->second->status.state)) {
        it->second->cancel = true;
        cancelled = it->second->status;
        here = true;
      }
    }
    if (!here) {
      Result<std::optional<JobStatus>> found = Get(id);
      if (!found.ok() || !*found || Over((*found)->state)) return false;
      cancelled = **found;
    }
    cancelled.state = JobState::kCancelled;
    // A job nobody claimed ends now, in the store; one a leader runs ends
    // when its run reads the request (a successor's too).
    Result<bool> ended = store_->RequestJobCancel(id, JobStatusJson(cancelled));
    if (!ended.ok()) return here;
    if (*ended) {
      metrics_->jobs_cancelled.fetch_add(1);
      logger_->Info("job_finished", {{"job_id", std::to_string(id)}, {"state", "cancelled"}, {"error", ""}});
    }
    return true;
  }
  Job* queued = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return false;
    JobStatus& s = it->second->status;
    if (Over(s.state)) return false;
    it->second->cancel = true;
    if (s.state == JobState::kQueued) {  // the worker skips it
      s.state = JobState::kCancelled;
      queued = it->second.get();
    }
  }
  if (queued != nullptr) {
    (void)Persist(queued);
    metrics_->jobs_cancelled.fetch_add(1);
    logger_->Info("job_finished", {{"job_id", std::to_string(id)}, {"state", "cancelled"}, {"error", ""}});
  }
  return true;
}

void TrainingJobs::Update(Job* job, const std::function<void(JobStatus&)>& change) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    change(job->status);
  }
  if (shared_ && !Over(job->status.state)) Sync(job);
}

void TrainingJobs::UpdateDurably(Job* job, const std::function<void(JobStatus&)>& change) {
  Update(job, change);
  (void)Persist(job);
}

Status TrainingJobs::Persist(Job* job) {
  // The status as it is when the write starts: of two writes in a row, the
  // last stores the latest state, whichever change came first.
  std::lock_guard<std::mutex> persisting(persist_mu_);
  std::string text;
  bool over = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    text = JobStatusJson(job->status);
    over = Over(job->status.state);
  }
  if (shared_ && job->deposed) return Status::FailedPrecondition("this daemon no longer leads training");
  Status written = shared_ ? store_->UpdateLedJob(job->status.id, text, job->epoch, over)
                           : store_->UpdateJob(job->status.id, text);
  if (shared_ && written.code() == StatusCode::kFailedPrecondition) {
    job->deposed = true;  // another daemon leads, or ended the job: stop, write nothing more
    job->cancel = true;
  }
  if (!written.ok()) {
    logger_->Warning("job_not_persisted", {{"job_id", std::to_string(job->status.id)}, {"error", written.message()}});
  }
  return written;
}

bool TrainingJobs::Finish(Job* job, std::chrono::steady_clock::time_point start, JobState state,
                          const std::string& error) {
  Update(job, [&](JobStatus& s) {
    s.state = state;
    s.error = error;
    s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  });
  Status written = Persist(job);
  // A shared store's end is what counts: one that was refused or missed
  // leaves the job to the next leader, who reports it interrupted.
  for (int retry = 0; shared_ && written.code() == StatusCode::kUnavailable && retry < 5; ++retry) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    written = Persist(job);
  }
  if (shared_ && !written.ok()) {
    logger_->Warning("job_abandoned", {{"job_id", std::to_string(job->status.id)},
                                       {"state", JobStateName(state)},
                                       {"error", written.message()}});
    return false;
  }
  (state == JobState::kSucceeded ? metrics_->jobs_succeeded
   : state == JobState::kFailed  ? metrics_->jobs_failed
                                 : metrics_->jobs_cancelled)
      .fetch_add(1);
  logger_->Info("job_finished",
                {{"job_id", std::to_string(job->status.id)}, {"state", JobStateName(state)}, {"error", error}});
  return true;
}

void TrainingJobs::WorkerLoop() {
  for (;;) {
    Job* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      job = queue_.front();
      queue_.pop_front();
      if (job->status.state == JobState::kCancelled) continue;
      job->status.state = JobState::kAssembling;  // with the pop: a cancel now stops it between epochs
    }
    (void)Persist(job);
    metrics_->jobs_running.fetch_add(1);
    Run(job);
    metrics_->jobs_running.fetch_sub(1);
  }
}

Status TrainingJobs::LeaseMemory(Job* job, MemoryBudget::Lease* lease) {
  if (memory_ == nullptr || job->request.memory_bytes == 0) return Status::Ok();
  const char* what = job->request.task == JobTask::kGap ? "this GAP job" : "this training job";
  Result<MemoryBudget::Lease> leased = memory_->Reserve(job->request.memory_bytes, what);
  if (!leased.ok()) return leased.status();
  *lease = std::move(leased).value();
  return Status::Ok();
}

void TrainingJobs::Run(Job* job) {
  if (job->request.task == JobTask::kNode) return RunNodeJob(job);
  if (job->request.task == JobTask::kGap) return RunGapJob(job);
  const auto start = std::chrono::steady_clock::now();
  const GraphJobRequest& r = job->request;
  const std::string id = std::to_string(job->status.id);
  logger_->Info("job_started", {{"job_id", id}, {"graphs", std::to_string(r.graphs.size())}});
  auto finish = [&](JobState state, const std::string& error) { Finish(job, start, state, error); };

  MemoryBudget::Lease lease;
  if (Status leased = LeaseMemory(job, &lease); !leased.ok()) return finish(JobState::kFailed, leased.message());
  DatasetAssemblyStats stats;
  Result<GraphDataset> dataset = AssembleGraphDataset(
      r.graphs, r.labels, store_, r.rules, r.seed, &stats,
      [&](std::size_t done, std::size_t) { Update(job, [&](JobStatus& s) { s.graphs_assembled = done; }); },
      &job->cancel);
  if (job->cancel) return finish(JobState::kCancelled, "");
  if (!dataset.ok()) return finish(JobState::kFailed, dataset.status().ToString());
  CountAssembly(*metrics_, stats);
  UpdateDurably(job, [](JobStatus& s) { s.state = JobState::kTraining; });

  GinRunOptions o;
  if (r.hidden > 0) o.model.hidden = r.hidden;
  o.model.layers = r.layers;
  if (Status s = SetGinNodeInput(r.node_input, &o.model); !s.ok()) return finish(JobState::kFailed, s.ToString());
  o.train.max_epochs = r.max_epochs;
  o.train.bf16_products = r.bf16_products;
  o.train.cancel = &job->cancel;
  o.seed = r.seed;
  o.on_epoch = [&](const EpochReport& e) {
    Update(job, [&](JobStatus& s) {
      s.epoch = e.epoch;
      s.val_accuracy = e.val_accuracy;
    });
  };
  Result<GinRun> run = TrainGinOnDataset(*dataset, o);
  if (!run.ok()) return finish(JobState::kFailed, run.status().ToString());
  if (run->result.cancelled) return finish(JobState::kCancelled, "");

  nlohmann::json about = {{"job_id", job->status.id},
                          {"task", "graph"},
                          {"model", "gin"},
                          {"symmetrise", r.rule_name},
                          {"node_input", r.node_input},
                          {"products", r.bf16_products && Bf16Kernels() != nullptr ? "bf16" : "float"},
                          {"seed", r.seed},
                          {"epochs", run->result.epochs},
                          {"best_epoch", run->result.best_epoch},
                          {"test_accuracy", run->result.test.accuracy},
                          {"test_auc", run->result.test.auc},
                          {"users", stats.users},
                          {"reporters", stats.reporters},
                          {"edges", stats.edges}};
  nlohmann::json graph_ids = nlohmann::json::array(), classes = nlohmann::json::array();
  for (const GraphConfig& g : r.graphs) graph_ids.push_back(g.graph_id);
  for (std::int64_t c : std::set<std::int64_t>(r.labels.begin(), r.labels.end())) classes.push_back(c);
  about["graphs"] = graph_ids;
  about["classes"] = classes;  // class k of the model is classes[k]
  AnyModel model;
  model.kind = ModelKind::kGin;
  model.gin = std::move(run->model);
  Publish(job, start, model, about.dump(), job->status.val_accuracy, run->result.test.accuracy, run->result.test.auc);
}

void TrainingJobs::RunNodeJob(Job* job) {
  const auto start = std::chrono::steady_clock::now();
  const GraphJobRequest& r = job->request;
  const GraphConfig& config = r.graphs[0];
  const std::string id = std::to_string(job->status.id);
  logger_->Info("job_started", {{"job_id", id}, {"task", "node"}, {"graph_id", std::to_string(config.graph_id)}});
  auto finish = [&](JobState state, const std::string& error) { Finish(job, start, state, error); };

  MemoryBudget::Lease lease;
  if (Status leased = LeaseMemory(job, &lease); !leased.ok()) return finish(JobState::kFailed, leased.message());
  SeededRandomSource rng(r.seed);
  LinkReports links;
  Result<AssembledGraph> graph =
      AssembleGraph(config, store_, r.rules[0], rng, r.denoise ? &links : nullptr, &job->cancel, r.round);
  if (job->cancel) return finish(JobState::kCancelled, "");
  if (!graph.ok()) return finish(JobState::kFailed, graph.status().ToString());
  DatasetAssemblyStats stats;
  stats.Add(*graph);
  CountAssembly(*metrics_, stats);
  UpdateDurably(job, [](JobStatus& s) {
    s.graphs_assembled = 1;
    s.state = JobState::kTraining;
  });
  if (job->cancel) return finish(JobState::kCancelled, "");

  const NodeFeatures features = std::move(graph->features);  // rectified: factored
  LpgnnInputs in;
  in.graph = &graph->adjacency;
  in.features = &features;
  in.labels = &graph->labels;
  in.classes = static_cast<int>(config.label.classes);
  in.label_epsilon = config.label.epsilon;
  in.split = StratifiedSplit(graph->labels, 0.50, 0.25, r.seed);
  if (in.split.train.empty() || in.split.val.empty() || in.split.test.empty()) {
    return finish(JobState::kFailed, "too few users with a label to split them 50/25/25");
  }
  LpgnnOptions o;
  o.kind = r.node_model;
  o.label_method = r.label_method;
  if (r.hidden > 0) o.hidden = r.hidden;
  o.train.max_epochs = r.max_epochs;
  o.seed = r.seed;
  AnyModel model;
  model.kind = r.node_model == NodeGnnKind::kGcn ? ModelKind::kGcn : ModelKind::kSage;
  std::string trained_on = "reported";
  std::uint64_t edges = stats.edges;
  auto train_denoised = [&]() -> Result<LpgnnRun> {
    graph->adjacency = CsrGraph();  // the denoised graph replaces the reported rows
    DenoisedTrainingOptions d;
    d.denoising = *r.denoise;
    d.seed = r.seed;  // rectified features: no feature similarity (noise pair by pair)
    Result<DenoisedRun> denoised = TrainOnLinkReports(links, in, o, d);
    if (!denoised.ok()) return denoised.status();
    trained_on = denoised->graph;
    edges = denoised->chosen_graph.graph.num_entries() / 2;
    model.node_probabilities = std::move(denoised->chosen.probabilities);
    return std::move(denoised->chosen.run);
  };
  Result<LpgnnRun> run = r.denoise ? train_denoised() : TrainLpgnn(in, o);
  if (!run.ok()) return finish(JobState::kFailed, run.status().ToString());
  if (job->cancel) return finish(JobState::kCancelled, "");

  nlohmann::json classes = nlohmann::json::array();
  for (std::uint32_t c = 0; c < config.label.classes; ++c) classes.push_back(c);
  nlohmann::json about = {{"job_id", job->status.id},
                                {"task", "node"},
                                {"model", ModelKindName(model.kind)},
                                {"label_method", LabelMethodName(r.label_method)},
                                {"graphs", nlohmann::json::array({config.graph_id})},
                                {"classes", classes},
                                {"symmetrise", SymmetrisationName(r.rules[0])},
                                {"denoise", r.denoise ? LinkDenoisingName(*r.denoise) : "none"},
                                // "reported" rows, or which denoised graph won on validation.
                                {"graph_used", trained_on},
                                {"seed", r.seed},
                                {"kx", run->kx},
                                {"standardised", in.rectified_features},
                                {"ky", run->ky},
                                {"val_accuracy", run->val_accuracy},
                                // Against the labels the server has: randomized ones under label privacy.
                                {"test_accuracy", run->test_accuracy},
                                {"users", stats.users},
                                {"reporters", stats.reporters},
                                {"edges", edges}};
  if (r.round != kNewestRound) about["round"] = r.round;  // a graph collected in rounds
  model.node = std::move(run->model);
  Publish(job, start, model, about.dump(), run->val_accuracy, run->test_accuracy);
}

void TrainingJobs::Publish(Job* job, std::chrono::steady_clock::time_point start, const AnyModel& model,
                           const std::string& about_json, double val_accuracy, double test_accuracy,
                           std::optional<double> test_auc) {
  // A leader stores a version only while its lead holds: one it lost since
  // it confirmed the lead last stores nothing (its job ends through the next leader).
  if (shared_) {
    Result<std::optional<std::uint64_t>> lead = store_->HoldLead();
    if (!lead.ok() || *lead != job->epoch) job->deposed = true;
    if (job->deposed) {
      (void)Finish(job, start, JobState::kFailed, "the training lead passed to another daemon before the model was stored");
      return;
    }
  }
  // When it was trained, for devices reading their result.
  nlohmann::json about = nlohmann::json::parse(about_json, nullptr, false);
  if (about.is_object()) {
    about["trained_at"] = UnixSeconds();
  }
  Result<std::uint64_t> version = models_->Add(model, about.is_object() ? about.dump() : about_json);
  if (version.status().code() == StatusCode::kUnavailable) {
    (void)Finish(job, start, JobState::kFailed, ReportStorageFailure(logger_, "the model", version.status()));
    return;
  }
  if (!version.ok()) {
    (void)Finish(job, start, JobState::kFailed, version.status().message());
    return;
  }
  Update(job, [&](JobStatus& s) {
    s.val_accuracy = val_accuracy;
    s.test_accuracy = test_accuracy;
    s.test_auc = test_auc;
    s.model_version = *version;
  });
  if (Finish(job, start, JobState::kSucceeded, "")) return;
  // Deposed between the check above and the end: the version is withdrawn,
  // so that no model outlives a job reported interrupted.
  Status withdrawn = models_->Withdraw(*version);
  logger_->Warning("model_withdrawn", {{"job_id", std::to_string(job->status.id)},
                                       {"version", std::to_string(*version)},
                                       {"withdrawn", withdrawn.ok() ? "true" : withdrawn.message()}});
}

}  // namespace ldpgraph
