// Numbers in error messages: the shortest round trip where std::to_chars is
// linked, nine significant digits in the bare-metal build's compact form.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "internal/validation.h"

using ldpgraph::internal::FormatDouble;
using ldpgraph::internal::FormatDoubleCompact;

TEST_CASE("FormatDouble.TheCompactFormKeepsNineSignificantDigits") {
  CHECK(FormatDoubleCompact(0.1) == "0.1");
  CHECK(FormatDoubleCompact(1.0) == "1");
  CHECK(FormatDoubleCompact(-2.5) == "-2.5");
  CHECK(FormatDoubleCompact(1024) == "1024");
  CHECK(FormatDoubleCompact(123456789) == "123456789");
  CHECK(FormatDoubleCompact(1234567890) == "1.23456789e+09");
  CHECK(FormatDoubleCompact(2.25e12) == "2.25e+12");
  CHECK(FormatDoubleCompact(0.0001) == "0.0001");
  CHECK(FormatDoubleCompact(1.5e-7) == "1.5e-07");
  CHECK(FormatDoubleCompact(1e-300) == "1e-300");
  CHECK(FormatDoubleCompact(1.7976931348623157e308) == "1.79769313e+308");
  CHECK(FormatDoubleCompact(0.999999999999) == "1");
  CHECK(FormatDoubleCompact(0.0) == "0");
  CHECK(FormatDoubleCompact(-0.0) == "-0");
  CHECK(FormatDoubleCompact(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(FormatDoubleCompact(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(FormatDoubleCompact(std::nan("")) == "nan");
}

TEST_CASE("FormatDouble.TheFullFormIsTheShortestRoundTrip") {
  CHECK(FormatDouble(0.1) == "0.1");
  CHECK(FormatDouble(1.0 / 3.0) == "0.3333333333333333");
}
