// FlagReader: each flag lands in its option, checked against its range; an
// absent flag keeps the default; the first bad flag is the error, and the
// options after it are left alone.
#include <doctest/doctest.h>

#include <cmath>

#include "util/flag_reader.h"

namespace {

ldpgraph::Flags Parse(const std::vector<std::string>& args) {
  auto flags = ldpgraph::Flags::Parse(args, {"epochs", "seed", "rate", "dropout", "model", "colour", "list", "eps",
                                             "out", "users", "steps", "sizes"});
  REQUIRE_MESSAGE(flags.ok(), flags.status().message());
  return *flags;
}

}  // namespace

TEST_CASE("FlagReader.ReadsEachFlagIntoItsOption") {
  const ldpgraph::Flags flags =
      Parse({"--epochs", "1e3", "--seed", "18446744073709551615", "--rate", "0.25", "--dropout", "0.5", "--model",
             "gcn", "--colour", "off", "--list", "a,b", "--eps", "1,inf", "--out", "/tmp/x", "--users", "7", "--steps", "0,16", "--sizes", "1e3"});
  int epochs = 1;
  std::uint64_t seed = 0;
  std::uint32_t users = 0;
  double rate = 0;
  float dropout = 0;
  std::string model = "sage", out;
  bool colour = true;
  std::vector<std::string> list;
  std::vector<double> eps;
  std::vector<int> steps;
  std::vector<std::uint32_t> sizes;
  ldpgraph::FlagReader read(flags);
  read.Int("epochs", &epochs, 1, 100000)
      .Unsigned("seed", &seed, 0, UINT64_MAX)
      .Unsigned("users", &users, 1, 10)
      .Double("rate", &rate, 0, 1)
      .Fraction("dropout", &dropout)
      .Choice("model", &model, {"sage", "gcn"})
      .Switch("colour", &colour, "on", "off")
      .Strings("list", &list)
      .Doubles("eps", &eps)
      .Required("out", &out)
      .Ints("steps", &steps, 0, 64)
      .Ints("sizes", &sizes, 1, 100000000);
  REQUIRE_MESSAGE(read.ok(), read.status().message());
  CHECK(epochs == 1000);
  CHECK(seed == UINT64_MAX);
  CHECK(users == 7);
  CHECK(rate == 0.25);
  CHECK(dropout == 0.5f);
  CHECK(model == "gcn");
  CHECK_FALSE(colour);
  CHECK(list == std::vector<std::string>{"a", "b"});
  CHECK(eps.size() == 2);
  CHECK(std::isinf(eps[1]));
  CHECK(out == "/tmp/x");
  CHECK(steps == std::vector<int>{0, 16});
  CHECK(sizes == std::vector<std::uint32_t>{1000});
}

TEST_CASE("FlagReader.AnAbsentFlagKeepsTheDefault") {
  const ldpgraph::Flags flags = Parse({});
  int epochs = 200;
  std::string model = "sage";
  std::vector<double> eps = {1, 4};
  ldpgraph::FlagReader read(flags);
  read.Int("epochs", &epochs, 1, 100000).Choice("model", &model, {"sage", "gcn"}).Doubles("eps", &eps);
  CHECK(read.ok());
  CHECK(epochs == 200);
  CHECK(model == "sage");
  CHECK(eps == std::vector<double>{1, 4});
  std::string out;
  CHECK(read.Required("out", &out).status().message() == "--out is required");
}

TEST_CASE("FlagReader.TheFirstBadFlagIsTheErrorAndNothingAfterItIsRead") {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {{"--epochs", "0"}, "--epochs takes a whole number from 1 to 100000, got '0'"},
           {{"--epochs", "1.5"}, "--epochs takes a whole number from 1 to 100000, got '1.5'"},
           {{"--epochs", "many"}, "--epochs takes a whole number from 1 to 100000, got 'many'"},
           {{"--users", "11"}, "--users takes a whole number from 1 to 10, got '11'"},
           {{"--seed", "-1"}, "--seed takes a whole number from 0 to 5, got '-1'"},
           {{"--seed", "6"}, "--seed takes a whole number from 0 to 5, got '6'"},
           {{"--seed", "18446744073709551616"}, "--seed takes a whole number from 0 to 5, got '18446744073709551616'"},
           {{"--rate", "nan"}, "--rate takes a number from 0 to 1, got 'nan'"},
           {{"--rate", "2"}, "--rate takes a number from 0 to 1, got '2'"},
           {{"--dropout", "1"}, "--dropout takes a number in [0, 1), got '1'"},
           {{"--model", "gin"}, "--model takes one of sage, gcn, got 'gin'"},
           {{"--colour", "maybe"}, "--colour takes one of on, off, got 'maybe'"},
           {{"--list", "a,,b"}, "--list has an empty item in 'a,,b'"},
           {{"--eps", "1,x"}, "--eps expects numbers, got 'x'"},
           {{"--steps", "0,2.5"}, "--steps takes whole numbers from 0 to 64, got '0,2.5'"},
           {{"--sizes", "10,0"}, "--sizes takes whole numbers from 1 to 100000000, got '10,0'"},
           {{"--epochs", "0", "--model", "gin"}, "--epochs takes a whole number from 1 to 100000, got '0'"},
       }) {
    const ldpgraph::Flags flags = Parse(c.args);
    int epochs = 200;
    std::uint32_t users = 1;
    std::uint64_t seed = 3;
    double rate = 0.5;
    float dropout = 0.1f;
    std::string model = "sage";
    bool colour = true;
    std::vector<std::string> list = {"z"};
    std::vector<double> eps = {1};
    std::vector<int> steps = {4};
    std::vector<std::uint32_t> sizes = {9};
    ldpgraph::FlagReader read(flags);
    read.Int("epochs", &epochs, 1, 100000)
        .Unsigned("users", &users, 1, 10)
        .Unsigned("seed", &seed, 0, 5)
        .Double("rate", &rate, 0, 1)
        .Fraction("dropout", &dropout)
        .Choice("model", &model, {"sage", "gcn"})
        .Switch("colour", &colour, "on", "off")
        .Strings("list", &list)
        .Doubles("eps", &eps)
        .Ints("steps", &steps, 0, 64)
        .Ints("sizes", &sizes, 1, 100000000);
    INFO(c.args[0] << " " << c.args[1]);
    CHECK(read.status().code() == ldpgraph::StatusCode::kInvalidArgument);
    CHECK(read.status().message() == c.message);
    // Nothing changed: a bad value is never stored, and the flags after it are not read.
    CHECK(epochs == 200);
    CHECK(users == 1);
    CHECK(seed == 3);
    CHECK(rate == 0.5);
    CHECK(dropout == 0.1f);
    CHECK(model == "sage");
    CHECK(colour);
    CHECK(list == std::vector<std::string>{"z"});
    CHECK(eps == std::vector<double>{1});
    CHECK(steps == std::vector<int>{4});
    CHECK(sizes == std::vector<std::uint32_t>{9});
  }
}
