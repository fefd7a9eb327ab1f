#include "assembly/graph_assembler.h"

#include <chrono>
#include <optional>
#include <string>

#include "ldpgraph/wire_format.h"
#include "privacy/feature_mechanisms.h"
#include "privacy/local_lap_server.h"

namespace ldpgraph {
namespace {

// Why user `user`'s stored report cannot be used.
Status Corrupt(std::uint32_t user, const std::string& why) {
  return Status::DataLoss("stored report of user " + std::to_string(user) + ": " + why);
}

// Checks what ingest already checked: a failure means the store was altered.
Status CheckBelongs(const Report& r, const GraphConfig& config, std::uint32_t stored_user) {
  if (r.graph_id != config.graph_id || r.num_users != config.num_users || r.user_id != stored_user) {
    return Corrupt(stored_user, "it names graph " + std::to_string(r.graph_id) + ", user " + std::to_string(r.user_id));
  }
  const auto& list = r.edges.neighbours;
  for (std::size_t k = 0; k < list.size(); ++k) {
    if (list[k] >= config.num_users || list[k] == stored_user || (k > 0 && list[k] <= list[k - 1])) {
      return Corrupt(stored_user, "its neighbour list is out of range, unsorted or lists the user");
    }
  }
  return Status::Ok();
}

}  // namespace

bool DenoisableMechanism(EdgeMechanism mechanism) {
  return mechanism == EdgeMechanism::kRr || mechanism == EdgeMechanism::kDprr || mechanism == EdgeMechanism::kRrDegree;
}

Status AssemblyCancelled() { return Status::FailedPrecondition("the assembly was cancelled"); }

Result<AssembledGraph> AssembleGraph(const GraphConfig& config, ReportStore* store, Symmetrisation rule,
                                     RandomSource& rng, LinkReports* link_reports, const std::atomic<bool>* cancel,
                                     std::uint32_t round) {
  auto cancelled = [cancel] { return cancel != nullptr && cancel->load(std::memory_order_relaxed); };
  const auto start = std::chrono::steady_clock::now();
  const std::uint32_t n = config.num_users;
  const bool local_lap = config.edges.mechanism == EdgeMechanism::kLocalLap;
  if (link_reports != nullptr && !DenoisableMechanism(config.edges.mechanism)) {
    return Status::FailedPrecondition(std::string("graph ") + std::to_string(config.graph_id) + "'s edges (" +
                                      EdgeMechanismName(config.edges.mechanism) +
                                      ") are not RR reports the link denoiser can use (rr, dprr or rr-degree)");
  }
  std::optional<LinkReportsBuilder> links;
  if (link_reports != nullptr) links.emplace(n);
  AssembledGraph out;
  out.graph_id = config.graph_id;
  out.labels.assign(n, -1);
  // Appends empty rows up to `until`, looking at `cancel` every 2^16 rows.
  auto empty_rows_until = [&](std::uint32_t* next, std::uint32_t until) {
    for (; *next < until; ++*next) {
      if ((*next & 0xffff) == 0 && cancelled()) return false;
      out.adjacency.AppendRow({});
    }
    return true;
  };

  // Features: every user's m reported dimensions as deviations from the
  // midpoints (a user who sent nothing: none, the midpoint being what knowing
  // nothing estimates), rows appended in user order.
  MultiBitRectifier rectifier;
  SparseMatrix reported;
  if (config.features.enabled) {
    Result<MultiBitRectifier> created = MultiBitRectifier::Create(config.features.params);
    if (!created.ok()) return created.status();
    rectifier = *created;
    reported.rows = n;
    reported.cols = config.features.params.dims;
    reported.offsets.reserve(static_cast<std::size_t>(n) + 1);
  }
  auto close_feature_rows = [&](std::uint32_t until) {  // ends the rows of users before `until`; false: cancelled
    while (reported.offsets.size() <= until) {
      if ((reported.offsets.size() & 0xffff) == 0 && cancelled()) return false;
      reported.offsets.push_back(reported.nnz());
    }
    return true;
  };

  std::vector<NoisyEdges> lap_reports(local_lap ? n : 0);  // LocalLap: every user's values at once
  std::uint32_t next_row = 0;  // rows before it are appended
  std::vector<double> rectified;
  Status failure;
  Status visit = store->ForEachReport(config.graph_id, round, [&](const ReportRecord& record) {
    if (!failure.ok()) return;
    if (cancelled()) {
      failure = AssemblyCancelled();
      return;
    }
    const std::uint32_t u = record.user_id;
    if (u >= n || u < next_row) {
      failure = Corrupt(u, "user id out of range or out of order");
      return;
    }
    Result<Report> report = DecodeReport(record.bytes.data(), record.bytes.size());
    if (!report.ok()) {
      failure = Corrupt(u, report.status().message());
      return;
    }
    if (Status s = CheckBelongs(*report, config, u); !s.ok()) {
      failure = s;
      return;
    }
    if (local_lap) {
      lap_reports[u] = std::move(report->edges);
    } else {
      if (!empty_rows_until(&next_row, u)) {
        failure = AssemblyCancelled();
        return;
      }
      out.adjacency.AppendRow(report->edges.neighbours);
      ++next_row;
    }
    out.reported_entries += report->edges.neighbours.size();
    if (links) {
      if (Status s = links->Add(u, report->edges); !s.ok()) {
        failure = Corrupt(u, s.message());
        return;
      }
    }
    if (config.features.enabled && report->has_features) {
      if (Status s = rectifier.RectifyDeviations(report->features.encoded, &rectified); !s.ok()) {
        failure = Corrupt(u, s.message());
        return;
      }
      if (!close_feature_rows(u)) {  // the rows of users before u
        failure = AssemblyCancelled();
        return;
      }
      for (std::size_t k = 0; k < rectified.size(); ++k) {
        reported.indices.push_back(static_cast<std::int32_t>(report->features.encoded[k].index));
        reported.values.push_back(static_cast<float>(rectified[k]));
      }
    }
    if (config.label.enabled && report->has_label) {
      if (report->label.value >= config.label.classes) {
        failure = Corrupt(u, "label out of range");
        return;
      }
      out.labels[u] = static_cast<int>(report->label.value);
    }
    ++out.reporters;
  });
  if (!visit.ok()) return visit;
  if (!failure.ok()) return failure;

  if (local_lap) {
    // Users who sent nothing count as non-private users with no friends:
    // isolated, and no pair involving them is an edge.
    for (NoisyEdges& r : lap_reports) {
      if (r.mechanism != EdgeMechanism::kLocalLap) r = NoisyEdges{};
    }
    Result<CsrGraph> assembled = AssembleLocalLap(Span<const NoisyEdges>(lap_reports.data(), n), rng);
    if (!assembled.ok()) return assembled.status();
    out.adjacency = std::move(assembled).value();  // already undirected
  } else {
    if (!empty_rows_until(&next_row, n)) return AssemblyCancelled();
    if (rule != Symmetrisation::kNone) out.adjacency = Symmetrise(out.adjacency, rule);
  }
  if (config.features.enabled) {
    if (!close_feature_rows(n)) return AssemblyCancelled();
    out.features = NodeFeatures::Factored(MultiBitEstimates(std::move(reported), rectifier));
  }
  if (links) *link_reports = links->Finish();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace ldpgraph
