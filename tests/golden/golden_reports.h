// Golden report vectors: fixed graphs, users and seeds whose encoded reports
// must be byte-identical on every ISA the SDK runs on (x86-64, aarch64,
// armhf, Cortex-M4F). One vector file, reports.txt beside this header, is
// compiled into every test that checks it (golden_reports_vectors.h), so a
// bare-metal image needs no file system.
//
// Each case goes the way a device goes: the graph's configuration is encoded
// as the daemon serves it, decoded, a ReportBuilder made from it, the report
// built with SeededRandomSource(seed) and encoded. A case that is not a
// report (the GW summary's cell) encodes its output as 4 little-endian bytes.
#ifndef LDPGRAPH_TESTS_GOLDEN_GOLDEN_REPORTS_H_
#define LDPGRAPH_TESTS_GOLDEN_GOLDEN_REPORTS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <memory>

#include "ldpgraph/graph_config.h"
#include "ldpgraph/report_builder.h"
#include "ldpgraph/status.h"

namespace ldpgraph::golden {

// The number of cases and the name of case i (a vector file line's first word).
std::size_t CaseCount();
const char* CaseName(std::size_t i);

// The bytes case i produces on this machine.
Result<std::vector<std::uint8_t>> CaseBytes(std::size_t i);

// The way a device gets its builder: `config` encoded as the daemon serves
// it, decoded, and a ReportBuilder made from what was decoded.
Result<std::unique_ptr<ReportBuilder>> BuilderThroughTheWire(const GraphConfig& config);

// Lower-case hex.
std::string Hex(const std::vector<std::uint8_t>& bytes);

// The expected hex of `name` in a vector file's text ("name hex" lines, '#'
// comments), or "" when the file has no such line.
std::string ExpectedHex(const char* vectors, const char* name);

}  // namespace ldpgraph::golden

#endif  // LDPGRAPH_TESTS_GOLDEN_GOLDEN_REPORTS_H_
