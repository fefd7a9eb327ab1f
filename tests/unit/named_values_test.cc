// NamedValue tables: a name and its parse agree both ways, and a name the
// table lacks is refused with every name listed.
#include <doctest/doctest.h>

#include "graph/symmetrise.h"
#include "train/lpgnn_pipeline.h"
#include "util/named_values.h"

namespace {

enum class Colour { kRed, kGreen, kBlue };
constexpr ldpgraph::NamedValue<Colour> kColours[] = {{Colour::kRed, "red"}, {Colour::kGreen, "green"}};

}  // namespace

TEST_CASE("NamedValues.NamesAndParsesAgree") {
  CHECK(std::string(ldpgraph::NameIn(kColours, Colour::kGreen)) == "green");
  CHECK(*ldpgraph::ParseIn(kColours, "red", "colour") == Colour::kRed);
  CHECK(std::string(ldpgraph::NameIn(kColours, Colour::kBlue)) == "?");  // not in the table
  const auto refused = ldpgraph::ParseIn(kColours, "blue", "colour");
  CHECK(refused.status().code() == ldpgraph::StatusCode::kInvalidArgument);
  CHECK(refused.status().message() == "unknown colour 'blue' (one of red, green)");
  CHECK_FALSE(ldpgraph::ParseIn(kColours, "Red", "colour").ok());  // names are exact
}

TEST_CASE("NamedValues.EveryOptionRoundTrips") {
  using ldpgraph::Symmetrisation;
  for (Symmetrisation rule : {Symmetrisation::kNone, Symmetrisation::kOr, Symmetrisation::kAnd}) {
    CHECK(*ldpgraph::ParseSymmetrisation(ldpgraph::SymmetrisationName(rule)) == rule);
  }
  using ldpgraph::LabelMethod;
  for (LabelMethod m : {LabelMethod::kCrossEntropy, LabelMethod::kForwardCorrection, LabelMethod::kDrop}) {
    CHECK(*ldpgraph::ParseLabelMethod(ldpgraph::LabelMethodName(m)) == m);
  }
  CHECK(ldpgraph::ParseLabelMethod("rr").status().message() == "unknown label method 'rr' (one of ce, fc, drop)");
  CHECK(ldpgraph::ParseSymmetrisation("both").status().message() ==
        "unknown symmetrisation 'both' (one of none, or, and)");
}
