// The ldpgraph CLI run as a real process by the integration tests (the
// target defines LDPGRAPH_CLI, the binary's path).
#ifndef LDPGRAPH_TESTS_SUPPORT_CLI_PROCESS_H_
#define LDPGRAPH_TESTS_SUPPORT_CLI_PROCESS_H_

#include <cstddef>
#include <fstream>
#include <string>

#include "support/run_command.h"

namespace ldpgraph {
namespace testing {

struct Run {
  int exit_code;
  std::string output;  // stdout and stderr
};

inline Run Ldpgraph(const std::string& args) {
  const ldpgraph::testing::CommandResult r = ldpgraph::testing::RunCommand(std::string(LDPGRAPH_CLI) + " " + args + " 2>&1");
  return {r.status, r.output};
}

inline constexpr char kTinyDataset[] = "3\n4 0\n0 2 1 3\n0 1 0\n0 1 3\n0 2 0 2\n3 1\n0 1 1\n0 1 0\n0 0\n2 1\n0 1 1\n0 1 0\n";

inline std::size_t Lines(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_CLI_PROCESS_H_
