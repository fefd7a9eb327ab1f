#include "ldpgraph/graph_config_codec.h"

#include <string>

#include "base/byte_io.h"

namespace ldpgraph {
namespace {

// 'L' 'C', version 1, flags (1: features, 2: label, 4: embedding, 8: the
// embedding by the summary encoder, with its grid), then the fields below.
constexpr std::uint8_t kMagic0 = 0x4C;
constexpr std::uint8_t kMagic1 = 0x43;
constexpr std::uint8_t kVersion = 1;
constexpr std::uint8_t kFeatures = 0x01;
constexpr std::uint8_t kLabel = 0x02;
constexpr std::uint8_t kEmbedding = 0x04;
constexpr std::uint8_t kSummary = 0x08;
constexpr std::uint64_t kMaxRanges = 1u << 24;

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : in_(data, size) {}

  Status Fail(const char* field) const {
    return Status::InvalidArgument(std::string("graph config: bad or missing ") + field + " at byte " +
                                   std::to_string(in_.offset()));
  }
  Status U8(const char* field, std::uint8_t* v) { return in_.ReadU8(v) ? Status::Ok() : Fail(field); }
  Status F64(const char* field, double* v) { return in_.ReadDouble(v) ? Status::Ok() : Fail(field); }
  Status U64(const char* field, std::uint64_t* v) { return in_.ReadVarint(v) ? Status::Ok() : Fail(field); }
  Status U32(const char* field, std::uint32_t* v) {
    std::uint64_t w = 0;
    if (!in_.ReadVarint(&w) || w > 0xFFFFFFFFull) return Fail(field);
    *v = static_cast<std::uint32_t>(w);
    return Status::Ok();
  }
  std::size_t remaining() const { return in_.remaining(); }

 private:
  base::ByteReader in_;
};

}  // namespace

Status EncodeGraphConfig(const GraphConfig& c, std::vector<std::uint8_t>* out) {
  LDPGRAPH_RETURN_IF_ERROR(c.Validate());
  const bool summary = c.embedding.enabled && c.embedding.encoding == EmbeddingEncoding::kSummary;
  using base::PutDouble;
  using base::PutU8;
  using base::PutVarint;
  PutU8(out, kMagic0);
  PutU8(out, kMagic1);
  PutU8(out, kVersion);
  PutU8(out, static_cast<std::uint8_t>((c.features.enabled ? kFeatures : 0) | (c.label.enabled ? kLabel : 0) |
                                      (c.embedding.enabled ? kEmbedding : 0) | (summary ? kSummary : 0)));
  PutVarint(out, c.graph_id);
  PutVarint(out, c.num_users);
  PutU8(out, static_cast<std::uint8_t>(c.edges.mechanism));
  PutDouble(out, c.edges.epsilon);
  PutU8(out, static_cast<std::uint8_t>(c.edges.allocation));
  PutVarint(out, c.edges.n_max);
  PutVarint(out, c.edges.locallap_resolution);
  if (c.features.enabled) {
    PutVarint(out, c.features.params.dims);
    PutDouble(out, c.features.params.epsilon);
    PutVarint(out, c.features.params.ranges.size());
    for (const FeatureRange& r : c.features.params.ranges) {
      PutDouble(out, r.lo);
      PutDouble(out, r.hi);
    }
  }
  if (c.embedding.enabled) {
    PutVarint(out, c.embedding.dims);
    PutDouble(out, c.embedding.epsilon);
    if (summary) {
      PutVarint(out, c.embedding.value_bins);
      PutVarint(out, c.embedding.size_bins);
      PutVarint(out, c.embedding.min_nodes);
      PutVarint(out, c.embedding.max_nodes);
    }
  }
  if (c.label.enabled) {
    PutVarint(out, c.label.classes);
    PutDouble(out, c.label.epsilon);
  }
  return Status::Ok();
}

Result<GraphConfig> DecodeGraphConfig(const std::uint8_t* data, std::size_t size) {
  if (data == nullptr && size != 0) return Status::InvalidArgument("graph config: null data");
  Reader in(data, size);
  std::uint8_t m0 = 0, m1 = 0, version = 0, flags = 0, mechanism = 0, allocation = 0;
  LDPGRAPH_RETURN_IF_ERROR(in.U8("magic", &m0));
  LDPGRAPH_RETURN_IF_ERROR(in.U8("magic", &m1));
  if (m0 != kMagic0 || m1 != kMagic1) return Status::InvalidArgument("graph config: bad magic");
  LDPGRAPH_RETURN_IF_ERROR(in.U8("version", &version));
  if (version != kVersion) return Status::InvalidArgument("graph config: unknown version " + std::to_string(version));
  LDPGRAPH_RETURN_IF_ERROR(in.U8("flags", &flags));
  if (flags & ~(kFeatures | kLabel | kEmbedding | kSummary)) return Status::InvalidArgument("graph config: unknown flags");
  if ((flags & kSummary) && !(flags & kEmbedding)) {
    return Status::InvalidArgument("graph config: the summary flag without an embedding");
  }
  GraphConfig c;
  LDPGRAPH_RETURN_IF_ERROR(in.U64("graph id", &c.graph_id));
  LDPGRAPH_RETURN_IF_ERROR(in.U32("n", &c.num_users));
  LDPGRAPH_RETURN_IF_ERROR(in.U8("edge mechanism", &mechanism));
  if (mechanism > static_cast<std::uint8_t>(EdgeMechanism::kRrDegree)) return in.Fail("edge mechanism");
  c.edges.mechanism = static_cast<EdgeMechanism>(mechanism);
  LDPGRAPH_RETURN_IF_ERROR(in.F64("edge epsilon", &c.edges.epsilon));
  LDPGRAPH_RETURN_IF_ERROR(in.U8("allocation", &allocation));
  if (allocation > static_cast<std::uint8_t>(BudgetAllocation::kFixed)) return in.Fail("allocation");
  c.edges.allocation = static_cast<BudgetAllocation>(allocation);
  LDPGRAPH_RETURN_IF_ERROR(in.U32("n_max", &c.edges.n_max));
  LDPGRAPH_RETURN_IF_ERROR(in.U32("locallap resolution", &c.edges.locallap_resolution));
  if (flags & kFeatures) {
    c.features.enabled = true;
    std::uint64_t ranges = 0;
    LDPGRAPH_RETURN_IF_ERROR(in.U32("feature dims", &c.features.params.dims));
    LDPGRAPH_RETURN_IF_ERROR(in.F64("feature epsilon", &c.features.params.epsilon));
    LDPGRAPH_RETURN_IF_ERROR(in.U64("range count", &ranges));
    // Each range takes 16 bytes: bound the count by what is left before allocating.
    if (ranges > kMaxRanges || ranges > in.remaining() / 16) return in.Fail("range count");
    c.features.params.ranges.resize(ranges);
    for (FeatureRange& r : c.features.params.ranges) {
      LDPGRAPH_RETURN_IF_ERROR(in.F64("range low end", &r.lo));
      LDPGRAPH_RETURN_IF_ERROR(in.F64("range high end", &r.hi));
    }
  }
  if (flags & kEmbedding) {
    c.embedding.enabled = true;
    LDPGRAPH_RETURN_IF_ERROR(in.U32("embedding dims", &c.embedding.dims));
    LDPGRAPH_RETURN_IF_ERROR(in.F64("embedding epsilon", &c.embedding.epsilon));
    if (flags & kSummary) {
      c.embedding.encoding = EmbeddingEncoding::kSummary;
      LDPGRAPH_RETURN_IF_ERROR(in.U32("summary value bins", &c.embedding.value_bins));
      LDPGRAPH_RETURN_IF_ERROR(in.U32("summary size bins", &c.embedding.size_bins));
      LDPGRAPH_RETURN_IF_ERROR(in.U32("summary min nodes", &c.embedding.min_nodes));
      LDPGRAPH_RETURN_IF_ERROR(in.U32("summary max nodes", &c.embedding.max_nodes));
    }
  }
  if (flags & kLabel) {
    c.label.enabled = true;
    LDPGRAPH_RETURN_IF_ERROR(in.U32("label classes", &c.label.classes));
    LDPGRAPH_RETURN_IF_ERROR(in.F64("label epsilon", &c.label.epsilon));
  }
  if (in.remaining() != 0) return Status::InvalidArgument("graph config: trailing bytes");
  Status valid = c.Validate();
  if (!valid.ok()) return Status::InvalidArgument("graph config: " + valid.message());
  return c;
}

}  // namespace ldpgraph
