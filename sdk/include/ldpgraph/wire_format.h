// The report's wire encoding, versions 1 and 2. docs/wire-format.md is the
// specification, with golden byte vectors that tests/unit/wire_format_test.cc
// checks. The constants below are shared by the encoder and the decoder.
#ifndef LDPGRAPH_WIRE_FORMAT_H_
#define LDPGRAPH_WIRE_FORMAT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ldpgraph/report.h"
#include "ldpgraph/status.h"

namespace ldpgraph {
namespace wire {

constexpr std::uint8_t kMagic0 = 0x4C;  // 'L'
constexpr std::uint8_t kMagic1 = 0x47;  // 'G'
constexpr std::uint8_t kVersion = 1;
// Version 2 is version 1 with the report's round (a graph collected in
// rounds, docs/rounds.md) after n. A round-0 report is always version 1, so
// a one-shot report's bytes are what they always were.
constexpr std::uint8_t kRoundsVersion = 2;
constexpr std::uint8_t kFlagFeatures = 0x01;
constexpr std::uint8_t kFlagLabel = 0x02;
constexpr std::uint8_t kFlagEmbedding = 0x04;  // GW-LDP: the whole graph's embedding matrix
constexpr std::uint8_t kFlagSummary = 0x08;    // GW-LDP: one cell of the summary grid
constexpr std::uint8_t kKnownFlags = kFlagFeatures | kFlagLabel | kFlagEmbedding | kFlagSummary;
constexpr std::size_t kHeaderBytes = 20;  // magic, version, flags, report id

// Hard limits on untrusted input, checked before anything is allocated.
constexpr std::size_t kMaxReportBytes = 64u << 20;
constexpr std::uint32_t kMaxFeatureDims = 1u << 24;
constexpr std::uint32_t kMaxClasses = 65536;
constexpr std::uint32_t kMaxLocalLapResolution = 1u << 20;

// A batch: 'L' 'B', version 1, varint count, then count x (varint length, report).
constexpr std::uint8_t kBatchMagic1 = 0x42;  // 'B'
constexpr std::size_t kMaxBatchReports = 256;

}  // namespace wire

// Appends the encoding of `report` to `out`. The report is checked with the
// decoder's rules first, so whatever encodes also decodes. Errors:
// kInvalidArgument naming the offending field.
Status EncodeReport(const Report& report, std::vector<std::uint8_t>* out);

// Decodes one report from untrusted bytes: every field is range-checked,
// counts are bounded by the bytes left before allocating, varints must be
// minimal and no byte may trail. Errors: kInvalidArgument naming the field and byte
// offset of the first problem. Never crashes, whatever the input.
Result<Report> DecodeReport(const std::uint8_t* data, std::size_t size);

// A byte range of a larger buffer.
struct ByteRange {
  std::size_t offset = 0;
  std::size_t size = 0;
};

// Appends a batch holding the already-encoded `reports` (1 to
// kMaxBatchReports). Errors: kInvalidArgument for a count outside that range.
Status EncodeBatch(const std::vector<std::vector<std::uint8_t>>& reports, std::vector<std::uint8_t>* out);

// true when the bytes start with the batch magic (and so are no single report).
bool IsBatch(const std::uint8_t* data, std::size_t size);

// Splits untrusted batch bytes into the ranges of its reports, without
// decoding them. Errors: kInvalidArgument naming the byte offset.
Result<std::vector<ByteRange>> SplitBatch(const std::uint8_t* data, std::size_t size);

// The same semantic checks EncodeReport applies (shared with the daemon).
Status CheckReport(const Report& report);

}  // namespace ldpgraph

#endif  // LDPGRAPH_WIRE_FORMAT_H_
