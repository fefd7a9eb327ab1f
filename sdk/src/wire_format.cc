#include "ldpgraph/wire_format.h"

#include <cmath>
#include <limits>
#include <string>

#include "internal/byte_io.h"
#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/graph_summary.h"
#include "internal/validation.h"

namespace ldpgraph {
namespace {

using internal::ByteReader;

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
  internal::PutU8(out, static_cast<std::uint8_t>(e.allocation));
  internal::PutDouble(out, e.eps1);
  internal::PutDouble(out, e.eps2);
}

void PutIds(std::vector<std::uint8_t>* out, const std::vector<std::uint32_t>& ids) {
  internal::PutVarint(out, ids.size());
  std::uint64_t next = 0;  // smallest id the next one may take
  for (std::uint32_t id : ids) {
    internal::PutVarint(out, id - next);
    next = static_cast<std::uint64_t>(id) + 1;
  }
}

void PutEncodedRow(std::vector<std::uint8_t>* out, const std::vector<EncodedFeature>& row) {
  std::uint64_t next = 0;
  for (const EncodedFeature& f : row) {
    internal::PutVarint(out, ((f.index - next) << 1) | (f.sign < 0 ? 1u : 0u));
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
    bytes += internal::VarintSize(id - next);
    next = static_cast<std::uint64_t>(id) + 1;
  }
  bytes += 10 * r.edges.values.size() + 5 * r.features.encoded.size();
  for (const auto& row : r.embedding.rows) bytes += 5 * row.size();
  return bytes;
}

// A user's report: her id, then her edges as her mechanism sends them.
void PutUserPart(const Report& r, std::vector<std::uint8_t>* out) {
  using internal::PutDouble;
  using internal::PutU8;
  using internal::PutVarint;
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
      PutVarint(out, internal::ZigZag(e.noisy_degree));
      PutIds(out, e.neighbours);
      break;
    case EdgeMechanism::kLocalLap:
      PutSplit(out, e);
      PutVarint(out, e.resolution);
      PutVarint(out, internal::ZigZag(e.noisy_degree));
      PutVarint(out, e.values.size());
      for (std::int64_t v : e.values) PutVarint(out, internal::ZigZag(v));
      break;
  }
}

// Decoding ---------------------------------------------------------------

class Decoder {
 public:
  Decoder(const std::uint8_t* data, std::size_t size) : in_(data, size) {}

  Result<Report> Run();

 private:
  Status Fail(const std::string& what) const {
    return Bad(what + " at byte " + std::to_string(in_.offset()));
  }
  Status U8(std::uint8_t* v, const char* field) {
    return in_.ReadU8(v) ? Status::Ok() : Fail(std::string("truncated ") + field);
  }
  Status Double(double* v, const char* field) {
    return in_.ReadDouble(v) ? Status::Ok() : Fail(std::string("truncated ") + field);
  }
  Status Varint(std::uint64_t* v, const char* field) {
    return in_.ReadVarint(v) ? Status::Ok()
                             : Fail(std::string("truncated or non-minimal varint ") + field);
  }
  Status U32(std::uint32_t* v, const char* field) {
    std::uint64_t x = 0;
    LDPGRAPH_RETURN_IF_ERROR(Varint(&x, field));
    if (x > std::numeric_limits<std::uint32_t>::max()) {
      return Fail(std::string(field) + " does not fit 32 bits");
    }
    *v = static_cast<std::uint32_t>(x);
    return Status::Ok();
  }
  // A count of items that take at least one byte each: bounded by the input.
  Status Count(std::uint64_t* v, const char* field) {
    LDPGRAPH_RETURN_IF_ERROR(Varint(v, field));
    if (*v > in_.remaining()) return Fail(std::string(field) + " exceeds the bytes left");
    return Status::Ok();
  }
  // The budget split of DPRR, LocalLap and RR with degree: allocation, eps1, eps2.
  Status Split(NoisyEdges* e) {
    std::uint8_t allocation = 0;
    LDPGRAPH_RETURN_IF_ERROR(U8(&allocation, "allocation"));
    e->allocation = static_cast<BudgetAllocation>(allocation);
    LDPGRAPH_RETURN_IF_ERROR(Double(&e->eps1, "eps1"));
    return Double(&e->eps2, "eps2");
  }
  Status NoisyDegree(std::int64_t* degree) {
    std::uint64_t z = 0;
    LDPGRAPH_RETURN_IF_ERROR(Varint(&z, "noisy degree"));
    *degree = internal::UnZigZag(z);
    return Status::Ok();
  }
  Status Ids(std::vector<std::uint32_t>* ids);
  Status Edges(Report* r);
  Status Features(ReportFeatures* f);
  Status Embedding(Report* r);
  Status EncodedRow(std::uint64_t m, std::vector<EncodedFeature>* row, const char* what);

  ByteReader in_;
};

Status Decoder::Ids(std::vector<std::uint32_t>* ids) {
  std::uint64_t count = 0;
  LDPGRAPH_RETURN_IF_ERROR(Count(&count, "neighbour count"));
  ids->clear();
  ids->reserve(count);
  std::uint64_t next = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    std::uint64_t gap = 0;
    LDPGRAPH_RETURN_IF_ERROR(Varint(&gap, "neighbour gap"));
    const std::uint64_t id = next + gap;
    if (gap > std::numeric_limits<std::uint32_t>::max() ||
        id > std::numeric_limits<std::uint32_t>::max()) {
      return Fail("neighbour id does not fit 32 bits");
    }
    ids->push_back(static_cast<std::uint32_t>(id));
    next = id + 1;
  }
  return Status::Ok();
}

Status Decoder::Edges(Report* r) {
  NoisyEdges& e = r->edges;
  std::uint8_t mechanism = 0;
  LDPGRAPH_RETURN_IF_ERROR(U8(&mechanism, "mechanism"));
  if (mechanism > static_cast<std::uint8_t>(EdgeMechanism::kRrDegree)) {
    return Fail("unknown edge mechanism " + std::to_string(mechanism));
  }
  e.mechanism = static_cast<EdgeMechanism>(mechanism);
  LDPGRAPH_RETURN_IF_ERROR(Double(&e.epsilon, "edge epsilon"));
  switch (e.mechanism) {
    case EdgeMechanism::kNone:
      return Ids(&e.neighbours);
    case EdgeMechanism::kRr:
      e.eps2 = e.epsilon;
      LDPGRAPH_RETURN_IF_ERROR(Double(&e.p, "p"));
      return Ids(&e.neighbours);
    case EdgeMechanism::kDprr:
      LDPGRAPH_RETURN_IF_ERROR(Split(&e));
      LDPGRAPH_RETURN_IF_ERROR(Double(&e.p, "p"));
      LDPGRAPH_RETURN_IF_ERROR(Double(&e.q, "q"));
      return Ids(&e.neighbours);
    case EdgeMechanism::kRrDegree:
      LDPGRAPH_RETURN_IF_ERROR(Split(&e));
      LDPGRAPH_RETURN_IF_ERROR(Double(&e.p, "p"));
      LDPGRAPH_RETURN_IF_ERROR(NoisyDegree(&e.noisy_degree));
      return Ids(&e.neighbours);
    case EdgeMechanism::kLocalLap: {
      LDPGRAPH_RETURN_IF_ERROR(Split(&e));
      LDPGRAPH_RETURN_IF_ERROR(U32(&e.resolution, "resolution"));
      LDPGRAPH_RETURN_IF_ERROR(NoisyDegree(&e.noisy_degree));
      std::uint64_t count = 0;
      LDPGRAPH_RETURN_IF_ERROR(Count(&count, "value count"));
      e.values.resize(count);
      for (auto& v : e.values) {
        std::uint64_t z = 0;
        LDPGRAPH_RETURN_IF_ERROR(Varint(&z, "LocalLap value"));
        v = internal::UnZigZag(z);
      }
      return Status::Ok();
    }
  }
  return Fail("unknown edge mechanism");
}

// m pairs, each varint((index gap << 1) | sign bit), gaps as for ids.
Status Decoder::EncodedRow(std::uint64_t m, std::vector<EncodedFeature>* row, const char* what) {
  row->resize(m);
  std::uint64_t next = 0;
  for (auto& enc : *row) {
    std::uint64_t v = 0;
    LDPGRAPH_RETURN_IF_ERROR(Varint(&v, what));
    const std::uint64_t index = next + (v >> 1);
    if ((v >> 1) > std::numeric_limits<std::uint32_t>::max() ||
        index > std::numeric_limits<std::uint32_t>::max()) {
      return Fail(std::string(what) + " index does not fit 32 bits");
    }
    enc.index = static_cast<std::uint32_t>(index);
    enc.sign = (v & 1) ? -1 : 1;
    next = index + 1;
  }
  return Status::Ok();
}

Status Decoder::Features(ReportFeatures* f) {
  LDPGRAPH_RETURN_IF_ERROR(Double(&f->epsilon, "feature epsilon"));
  LDPGRAPH_RETURN_IF_ERROR(U32(&f->dims, "feature dims"));
  std::uint64_t m = 0;
  LDPGRAPH_RETURN_IF_ERROR(Count(&m, "encoded feature count"));
  return EncodedRow(m, &f->encoded, "encoded feature");
}

Status Decoder::Embedding(Report* r) {
  ReportEmbedding& e = r->embedding;
  LDPGRAPH_RETURN_IF_ERROR(Double(&e.epsilon, "embedding epsilon"));
  LDPGRAPH_RETURN_IF_ERROR(U32(&e.dims, "embedding dims"));
  std::uint64_t m = 0;
  LDPGRAPH_RETURN_IF_ERROR(Varint(&m, "entries per node"));
  // n rows of m pairs of a byte each at least: bounded by the input before
  // anything is allocated.
  if (m == 0 || m > in_.remaining() || static_cast<std::uint64_t>(r->num_users) * m > in_.remaining()) {
    return Fail("n x m embedding entries exceed the bytes left");
  }
  e.rows.resize(r->num_users);
  for (auto& row : e.rows) LDPGRAPH_RETURN_IF_ERROR(EncodedRow(m, &row, "embedding entry"));
  return Status::Ok();
}

Result<Report> Decoder::Run() {
  if (in_.remaining() > wire::kMaxReportBytes) return Bad("larger than the 64 MiB limit");
  std::uint8_t magic0 = 0, magic1 = 0, version = 0, flags = 0;
  if (!in_.ReadU8(&magic0) || !in_.ReadU8(&magic1) || magic0 != wire::kMagic0 ||
      magic1 != wire::kMagic1) {
    return Bad("missing magic bytes 'LG'");
  }
  LDPGRAPH_RETURN_IF_ERROR(U8(&version, "version"));
  if (version != wire::kVersion && version != wire::kRoundsVersion) {
    return Bad("unsupported version " + std::to_string(version));
  }
  LDPGRAPH_RETURN_IF_ERROR(U8(&flags, "flags"));
  if (flags & ~wire::kKnownFlags) return Fail("unknown flag bits");

  Report r;
  if (!in_.ReadBytes(r.report_id.data(), r.report_id.size())) return Fail("truncated report id");
  LDPGRAPH_RETURN_IF_ERROR(Varint(&r.graph_id, "graph id"));
  LDPGRAPH_RETURN_IF_ERROR(U32(&r.num_users, "n"));
  if (version == wire::kRoundsVersion) {
    LDPGRAPH_RETURN_IF_ERROR(U32(&r.round, "round"));
    if (r.round == 0) return Fail("a version-2 report's round must be at least 1 (round 0 is version 1)");
  }
  if (flags & (wire::kFlagEmbedding | wire::kFlagSummary)) {
    // The owner's report of a whole graph: no user, edges or features.
    if (flags & wire::kFlagFeatures) return Fail("an embedding report carries no features");
    if ((flags & wire::kFlagEmbedding) && (flags & wire::kFlagSummary)) {
      return Fail("a report carries embedding rows or a summary, not both");
    }
    r.edges.epsilon = std::numeric_limits<double>::infinity();
    if (flags & wire::kFlagEmbedding) {
      r.has_embedding = true;
      LDPGRAPH_RETURN_IF_ERROR(Embedding(&r));
    } else {
      r.has_summary = true;
      LDPGRAPH_RETURN_IF_ERROR(Double(&r.summary.epsilon, "summary epsilon"));
      LDPGRAPH_RETURN_IF_ERROR(U32(&r.summary.dims, "summary dims"));
      LDPGRAPH_RETURN_IF_ERROR(U32(&r.summary.value_bins, "summary value bins"));
      LDPGRAPH_RETURN_IF_ERROR(U32(&r.summary.size_bins, "summary size bins"));
      LDPGRAPH_RETURN_IF_ERROR(U32(&r.summary.min_nodes, "summary min nodes"));
      LDPGRAPH_RETURN_IF_ERROR(U32(&r.summary.max_nodes, "summary max nodes"));
      LDPGRAPH_RETURN_IF_ERROR(U32(&r.summary.cell, "summary cell"));
    }
  } else {
    LDPGRAPH_RETURN_IF_ERROR(U32(&r.user_id, "user id"));
    LDPGRAPH_RETURN_IF_ERROR(Edges(&r));
  }
  if (flags & wire::kFlagFeatures) {
    r.has_features = true;
    LDPGRAPH_RETURN_IF_ERROR(Features(&r.features));
  }
  if (flags & wire::kFlagLabel) {
    r.has_label = true;
    LDPGRAPH_RETURN_IF_ERROR(Double(&r.label.epsilon, "label epsilon"));
    LDPGRAPH_RETURN_IF_ERROR(U32(&r.label.classes, "classes"));
    LDPGRAPH_RETURN_IF_ERROR(U32(&r.label.value, "label"));
  }
  if (in_.remaining() != 0) return Fail(std::to_string(in_.remaining()) + " trailing bytes");
  LDPGRAPH_RETURN_IF_ERROR(CheckReport(r));
  return r;
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
  using internal::PutDouble;
  using internal::PutU8;
  using internal::PutVarint;
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

Result<Report> DecodeReport(const std::uint8_t* data, std::size_t size) {
  if (data == nullptr && size != 0) return Bad("null data");
  return Decoder(data, size).Run();
}

Status EncodeBatch(const std::vector<std::vector<std::uint8_t>>& reports, std::vector<std::uint8_t>* out) {
  if (reports.empty() || reports.size() > wire::kMaxBatchReports) {
    return Status::InvalidArgument("a batch holds 1 to " + std::to_string(wire::kMaxBatchReports) +
                                   " reports, not " + std::to_string(reports.size()));
  }
  internal::PutU8(out, wire::kMagic0);
  internal::PutU8(out, wire::kBatchMagic1);
  internal::PutU8(out, wire::kVersion);
  internal::PutVarint(out, reports.size());
  for (const auto& r : reports) {
    internal::PutVarint(out, r.size());
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
  internal::ByteReader in(data, size);
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
