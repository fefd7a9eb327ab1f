#include "ldpgraph/wire_format.h"

#include <cmath>
#include <limits>
#include <string>

#include "base/byte_io.h"
#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/graph_summary.h"
#include "internal/validation.h"

namespace ldpgraph {
namespace {

using base::ByteReader;

Status Bad(const std::string& what) { return Status::InvalidArgument("report: " + what); }

bool IsPositiveFinite(double v) { return std::isfinite(v) && v > 0.0; }

bool IsProbability(double v, double lo) { return std::isfinite(v) && v >= lo && v <= 1.0; }

Status CheckNeighbourIds(const Report& r) {
  const auto& ids = r.edges.neighbours;
  if (ids.size() > static_cast<std::size_t>(r.num_users) - 1) {
    return Bad("more neighbours (" + std::to_string(ids.size()) + ") than other users");
  }
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] >= r.num_users) {
      return Bad("neighbour id " + std::to_string(ids[i]) + " is not below n = " +
                 std::to_string(r.num_users));
    }
    if (ids[i] == r.user_id) return Bad("the user is listed as her own neighbour");
    if (i > 0 && ids[i] <= ids[i - 1]) return Bad("neighbour ids are not strictly increasing");
  }
  return Status::Ok();
}

Status CheckSplit(const NoisyEdges& e) {
  if (!IsPositiveFinite(e.epsilon)) return Bad("edge epsilon must be finite and positive");
  if (e.allocation != BudgetAllocation::kPaper && e.allocation != BudgetAllocation::kFixed) {
    return Bad("unknown budget allocation " + std::to_string(static_cast<int>(e.allocation)));
  }
  if (!IsPositiveFinite(e.eps1) || !IsPositiveFinite(e.eps2)) {
    return Bad("eps1 and eps2 must be finite and positive");
  }
  if (std::fabs(e.eps1 + e.eps2 - e.epsilon) > 1e-9 * std::fmax(1.0, e.epsilon)) {
    return Bad("eps1 + eps2 does not equal the edge epsilon");
  }
  return Status::Ok();
}

Status CheckEdges(const Report& r) {
  const NoisyEdges& e = r.edges;
  switch (e.mechanism) {
    case EdgeMechanism::kNone:
      if (!(std::isinf(e.epsilon) && e.epsilon > 0)) {
        return Bad("a non-private report must have edge epsilon = +infinity");
      }
      return CheckNeighbourIds(r);
    case EdgeMechanism::kDprr:
      LDPGRAPH_RETURN_IF_ERROR(CheckSplit(e));
      if (!IsProbability(e.p, 0.5)) return Bad("DPRR p must be in [0.5, 1]");
      if (!IsProbability(e.q, 0.0)) return Bad("DPRR q must be in [0, 1]");
      return CheckNeighbourIds(r);
    case EdgeMechanism::kRr:
      if (!IsPositiveFinite(e.epsilon)) return Bad("edge epsilon must be finite and positive");
      if (!IsProbability(e.p, 0.5)) return Bad("RR p must be in [0.5, 1]");
      return CheckNeighbourIds(r);
    case EdgeMechanism::kRrDegree:
      LDPGRAPH_RETURN_IF_ERROR(CheckSplit(e));
      if (!IsProbability(e.p, 0.5)) return Bad("RR p must be in [0.5, 1]");
      return CheckNeighbourIds(r);
    case EdgeMechanism::kLocalLap:
      LDPGRAPH_RETURN_IF_ERROR(CheckSplit(e));
      if (e.resolution < 1 || e.resolution > wire::kMaxLocalLapResolution) {
        return Bad("LocalLap resolution must be in [1, 2^20]");
      }
      if (e.values.size() != static_cast<std::size_t>(r.num_users) - 1) {
        return Bad("LocalLap needs n - 1 = " + std::to_string(r.num_users - 1) +
                   " values, got " + std::to_string(e.values.size()));
      }
      return Status::Ok();
  }
  return Bad("unknown edge mechanism " + std::to_string(static_cast<int>(e.mechanism)));
}

// The pairs of one sampled row: m of them, indices strictly increasing and
// below dims, signs +-1.
Status CheckEncodedRow(const std::vector<EncodedFeature>& row, std::uint32_t m, std::uint32_t dims, const char* what) {
  if (row.size() != m) {
    return Bad(std::string("expected m = ") + std::to_string(m) + " encoded " + what + " for this epsilon and dims, got " +
               std::to_string(row.size()));
  }
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (row[i].index >= dims) return Bad(std::string("encoded ") + what + " index is not below dims");
    if (i > 0 && row[i].index <= row[i - 1].index) {
      return Bad(std::string("encoded ") + what + " indices are not strictly increasing");
    }
    if (row[i].sign != 1 && row[i].sign != -1) return Bad(std::string(what) + " sign must be +-1");
  }
  return Status::Ok();
}

Status CheckFeatures(const ReportFeatures& f) {
  if (!IsPositiveFinite(f.epsilon)) return Bad("feature epsilon must be finite and positive");
  if (f.dims == 0 || f.dims > wire::kMaxFeatureDims) return Bad("feature dims must be in [1, 2^24]");
  MultiBitParams params;
  params.dims = f.dims;
  params.epsilon = f.epsilon;
  return CheckEncodedRow(f.encoded, params.SampledDims(), f.dims, "features");
}

// What an embedding report (either encoder's) must not carry.
Status CheckOwnerReport(const Report& r) {
  if (r.user_id != 0) return Bad("an embedding report has no user: user id must be 0");
  if (r.has_features) return Bad("an embedding report carries no features");
  if (r.edges.mechanism != EdgeMechanism::kNone || !r.edges.neighbours.empty()) {
    return Bad("an embedding report carries no edges");
  }
  if (r.has_embedding && r.has_summary) return Bad("a report carries embedding rows or a summary, not both");
  if (r.round != 0) return Bad("an embedding report is sent once: its round must be 0");
  return Status::Ok();
}

Status CheckSummary(const Report& r) {
  const ReportSummary& s = r.summary;
  GraphSummaryParams grid;
  grid.dims = s.dims;
  grid.value_bins = s.value_bins;
  grid.size_bins = s.size_bins;
  grid.min_nodes = s.min_nodes;
  grid.max_nodes = s.max_nodes;
  grid.epsilon = s.epsilon;
  Status valid = grid.Validate();
  if (!valid.ok()) return Bad("summary: " + valid.message());
  if (s.cell >= grid.cells()) return Bad("summary cell is not below its grid's value_bins^dims x size_bins cells");
  return Status::Ok();
}

Status CheckEmbedding(const Report& r) {
  const ReportEmbedding& e = r.embedding;
  EmbeddingParams params;
  params.nodes = r.num_users;
  params.dims = e.dims;
  params.epsilon = e.epsilon;
  Status valid = params.Validate();
  if (!valid.ok()) return Bad(valid.message());
  if (e.rows.size() != r.num_users) {
    return Bad("expected n = " + std::to_string(r.num_users) + " embedding rows, got " + std::to_string(e.rows.size()));
  }
  const std::uint32_t m = params.RowParams().sampled_dims;
  for (std::size_t i = 0; i < e.rows.size(); ++i) {
    Status row = CheckEncodedRow(e.rows[i], m, e.dims, "embedding entries");
    if (!row.ok()) return Status(row.code(), "report: node " + std::to_string(i) + ": " + row.message().substr(8));
  }
  return Status::Ok();
}

Status CheckLabel(const ReportLabel& l) {
  if (!IsPositiveFinite(l.epsilon)) return Bad("label epsilon must be finite and positive");
  if (l.classes < 2 || l.classes > wire::kMaxClasses) return Bad("classes must be in [2, 65536]");
  if (l.value >= l.classes) return Bad("label is not below classes");
  return Status::Ok();
}

// The budget split of DPRR, LocalLap and RR with degree: allocation, eps1, eps2.
void PutSplit(std::vector<std::uint8_t>* out, const NoisyEdges& e) {
  base::PutU8(out, static_cast<std::uint8_t>(e.allocation));
  base::PutDouble(out, e.eps1);
  base::PutDouble(out, e.eps2);
}

void PutIds(std::vector<std::uint8_t>* out, const std::vector<std::uint32_t>& ids) {
  base::PutVarint(out, ids.size());
  std::uint64_t next = 0;  // smallest id the next one may take
  for (std::uint32_t id : ids) {
    base::PutVarint(out, id - next);
    next = static_cast<std::uint64_t>(id) + 1;
  }
}

void PutEncodedRow(std::vector<std::uint8_t>* out, const std::vector<EncodedFeature>& row) {
  std::uint64_t next = 0;
  for (const EncodedFeature& f : row) {
    base::PutVarint(out, ((f.index - next) << 1) | (f.sign < 0 ? 1u : 0u));
    next = static_cast<std::uint64_t>(f.index) + 1;
  }
}

// At least the bytes EncodeReport writes, so that it allocates once (growing
// by doubling leaves a microcontroller's arena with holes the size of the
// report): the neighbour ids counted exactly, every other field at its widest.
std::size_t EncodedSizeBound(const Report& r) {
  std::size_t bytes = 160;  // magic, flags, report id, graph, users, user, epsilons, split, p, q, degree, label
  std::uint64_t next = 0;
  for (std::uint32_t id : r.edges.neighbours) {
    bytes += base::VarintSize(id - next);
    next = static_cast<std::uint64_t>(id) + 1;
  }
  bytes += 10 * r.edges.values.size() + 5 * r.features.encoded.size();
  for (const auto& row : r.embedding.rows) bytes += 5 * row.size();
  return bytes;
}

// A user's report: her id, then her edges as her mechanism sends them.
void PutUserPart(const Report& r, std::vector<std::uint8_t>* out) {
  using base::PutDouble;
  using base::PutU8;
  using base::PutVarint;
  PutVarint(out, r.user_id);
  const NoisyEdges& e = r.edges;
  PutU8(out, static_cast<std::uint8_t>(e.mechanism));
  PutDouble(out, e.epsilon);
  switch (e.mechanism) {
    case EdgeMechanism::kNone:
      PutIds(out, e.neighbours);
      break;
    case EdgeMechanism::kRr:
      PutDouble(out, e.p);
      PutIds(out, e.neighbours);
      break;
    case EdgeMechanism::kDprr:
      PutSplit(out, e);
      PutDouble(out, e.p);
      PutDouble(out, e.q);
      PutIds(out, e.neighbours);
      break;
    case EdgeMechanism::kRrDegree:
      PutSplit(out, e);
      PutDouble(out, e.p);
      PutVarint(out, base::ZigZag(e.noisy_degree));
      PutIds(out, e.neighbours);
      break;
    case EdgeMechanism::kLocalLap:
      PutSplit(out, e);
      PutVarint(out, e.resolution);
      PutVarint(out, base::ZigZag(e.noisy_degree));
      PutVarint(out, e.values.size());
      for (std::int64_t v : e.values) PutVarint(out, base::ZigZag(v));
      break;
  }
}

}  // namespace

Status CheckReport(const Report& r) {
  if (r.num_users < 2) return Bad("n must be at least 2");
  if (r.user_id >= r.num_users) {
    return Bad("user id " + std::to_string(r.user_id) + " is not below n = " +
               std::to_string(r.num_users));
  }
  if (r.has_embedding || r.has_summary) {
    LDPGRAPH_RETURN_IF_ERROR(CheckOwnerReport(r));
    LDPGRAPH_RETURN_IF_ERROR(r.has_embedding ? CheckEmbedding(r) : CheckSummary(r));
  } else {
    LDPGRAPH_RETURN_IF_ERROR(CheckEdges(r));
  }
  if (r.has_features) LDPGRAPH_RETURN_IF_ERROR(CheckFeatures(r.features));
  if (r.has_label) LDPGRAPH_RETURN_IF_ERROR(CheckLabel(r.label));
  return Status::Ok();
}

Status EncodeReport(const Report& r, std::vector<std::uint8_t>* out) {
  LDPGRAPH_RETURN_IF_ERROR(CheckReport(r));
  using base::PutDouble;
  using base::PutU8;
  using base::PutVarint;
  const std::size_t start = out->size();
  // Into an empty vector, one allocation; a caller appending many reports
  // keeps the vector's own geometric growth (an exact reserve per report
  // would copy the whole vector every time).
  if (start == 0) out->reserve(EncodedSizeBound(r));
  PutU8(out, wire::kMagic0);
  PutU8(out, wire::kMagic1);
  PutU8(out, r.round == 0 ? wire::kVersion : wire::kRoundsVersion);
  PutU8(out, static_cast<std::uint8_t>((r.has_features ? wire::kFlagFeatures : 0) |
                                       (r.has_label ? wire::kFlagLabel : 0) |
                                       (r.has_embedding ? wire::kFlagEmbedding : 0) |
                                       (r.has_summary ? wire::kFlagSummary : 0)));
  out->insert(out->end(), r.report_id.begin(), r.report_id.end());
  PutVarint(out, r.graph_id);
  PutVarint(out, r.num_users);
  if (r.round != 0) PutVarint(out, r.round);

  if (r.has_embedding) {
    PutDouble(out, r.embedding.epsilon);
    PutVarint(out, r.embedding.dims);
    PutVarint(out, r.embedding.rows.empty() ? 0 : r.embedding.rows[0].size());
    for (const auto& row : r.embedding.rows) PutEncodedRow(out, row);
  } else if (r.has_summary) {
    PutDouble(out, r.summary.epsilon);
    PutVarint(out, r.summary.dims);
    PutVarint(out, r.summary.value_bins);
    PutVarint(out, r.summary.size_bins);
    PutVarint(out, r.summary.min_nodes);
    PutVarint(out, r.summary.max_nodes);
    PutVarint(out, r.summary.cell);
  } else {
    PutUserPart(r, out);
  }
  if (r.has_features) {
    PutDouble(out, r.features.epsilon);
    PutVarint(out, r.features.dims);
    PutVarint(out, r.features.encoded.size());
    PutEncodedRow(out, r.features.encoded);
  }
  if (r.has_label) {
    PutDouble(out, r.label.epsilon);
    PutVarint(out, r.label.classes);
    PutVarint(out, r.label.value);
  }
  if (out->size() - start > wire::kMaxReportBytes) {
    out->resize(start);
    return Bad("encoding exceeds the 64 MiB limit");
  }
  return Status::Ok();
}

Status EncodeBatch(const std::vector<std::vector<std::uint8_t>>& reports, std::vector<std::uint8_t>* out) {
  if (reports.empty() || reports.size() > wire::kMaxBatchReports) {
    return Status::InvalidArgument("a batch holds 1 to " + std::to_string(wire::kMaxBatchReports) +
                                   " reports, not " + std::to_string(reports.size()));
  }
  base::PutU8(out, wire::kMagic0);
  base::PutU8(out, wire::kBatchMagic1);
  base::PutU8(out, wire::kVersion);
  base::PutVarint(out, reports.size());
  for (const auto& r : reports) {
    base::PutVarint(out, r.size());
    out->insert(out->end(), r.begin(), r.end());
  }
  return Status::Ok();
}

bool IsBatch(const std::uint8_t* data, std::size_t size) {
  return size >= 2 && data[0] == wire::kMagic0 && data[1] == wire::kBatchMagic1;
}

Result<std::vector<ByteRange>> SplitBatch(const std::uint8_t* data, std::size_t size) {
  auto bad = [](std::size_t offset, const std::string& what) {
    return Status::InvalidArgument("batch: " + what + " at byte " + std::to_string(offset));
  };
  base::ByteReader in(data, size);
  std::uint8_t m0 = 0, m1 = 0, version = 0;
  if (!in.ReadU8(&m0) || !in.ReadU8(&m1) || m0 != wire::kMagic0 || m1 != wire::kBatchMagic1) {
    return bad(0, "bad magic");
  }
  if (!in.ReadU8(&version)) return bad(in.offset(), "truncated version");
  if (version != wire::kVersion) return bad(2, "unknown version " + std::to_string(version));
  std::uint64_t count = 0;
  const std::size_t count_at = in.offset();
  if (!in.ReadVarint(&count)) return bad(count_at, "malformed count");
  if (count == 0 || count > wire::kMaxBatchReports) {
    return bad(count_at, "count " + std::to_string(count) + " outside [1, " +
                             std::to_string(wire::kMaxBatchReports) + "]");
  }
  std::vector<ByteRange> ranges;
  ranges.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t length = 0;
    const std::size_t at = in.offset();
    if (!in.ReadVarint(&length)) return bad(at, "malformed length of report " + std::to_string(i));
    if (length > in.remaining()) return bad(at, "report " + std::to_string(i) + " runs past the end");
    ranges.push_back({in.offset(), static_cast<std::size_t>(length)});
    if (!in.Skip(static_cast<std::size_t>(length))) return bad(at, "truncated report");
  }
  if (in.remaining() != 0) return bad(in.offset(), "trailing bytes");
  return ranges;
}

}  // namespace ldpgraph
