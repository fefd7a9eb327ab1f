// DecodeReport (wire_format.h): reads a report back from its wire format,
// refusing what the format does not allow at the byte that breaks it, then
// checks it as EncodeReport does (CheckReport).
#include <cmath>
#include <limits>
#include <string>

#include "base/byte_io.h"
#include "ldpgraph/embedding_encoder.h"
#include "ldpgraph/graph_summary.h"
#include "ldpgraph/wire_format.h"
#include "internal/validation.h"

namespace ldpgraph {
namespace {

using base::ByteReader;

Status Bad(const std::string& what) { return Status::InvalidArgument("report: " + what); }


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
    *degree = base::UnZigZag(z);
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
        v = base::UnZigZag(z);
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

Result<Report> DecodeReport(const std::uint8_t* data, std::size_t size) {
  if (data == nullptr && size != 0) return Bad("null data");
  return Decoder(data, size).Run();
}

}  // namespace ldpgraph
