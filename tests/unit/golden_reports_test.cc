// The golden report vectors on this build's ISA (tests/golden): every case's
// bytes equal the vector file's. With LDPGRAPH_GOLDEN_WRITE=FILE the test
// also writes what this machine produces there, to add a new case's line.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "golden/golden_reports.h"
#include "golden/golden_reports_vectors.h"

using namespace ldpgraph::golden;

TEST_CASE("GoldenReports.EveryCaseIsByteIdenticalToTheVectorFile") {
  const char* write_to = std::getenv("LDPGRAPH_GOLDEN_WRITE");
  std::ofstream written;
  if (write_to != nullptr) written.open(write_to);
  for (std::size_t i = 0; i < CaseCount(); ++i) {
    CAPTURE(CaseName(i));
    auto bytes = CaseBytes(i);
    REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
    const std::string hex = Hex(*bytes);
    if (written.is_open()) written << CaseName(i) << ' ' << hex << '\n';
    const std::string expected = ExpectedHex(kVectors, CaseName(i));
    CHECK_MESSAGE(!expected.empty(), "the vector file has no line for this case");
    CHECK(hex == expected);
  }
}

TEST_CASE("GoldenReports.ACaseIsFoundByItsWholeName") {
  const char vectors[] = "# dprr-paper 00\ndprr-paper-features 11\ndprr-paper 22\nrr 33";
  CHECK(ExpectedHex(vectors, "dprr-paper") == "22");
  CHECK(ExpectedHex(vectors, "rr") == "33");
  CHECK(ExpectedHex(vectors, "dprr") == "");
}
