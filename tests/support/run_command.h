// Runs a shell command from a test: its exit status and what it printed on
// standard output (append " 2>&1" to the command for standard error too).
#ifndef LDPGRAPH_TESTS_SUPPORT_RUN_COMMAND_H_
#define LDPGRAPH_TESTS_SUPPORT_RUN_COMMAND_H_

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <sys/wait.h>

namespace ldpgraph {
namespace testing {

struct CommandResult {
  int status = -1;  // the exit status; -1 when the command did not exit normally
  std::string output;
};

inline CommandResult RunCommand(const std::string& command) {
  CommandResult r;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) r.output.append(buffer, n);
  const int status = ::pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_RUN_COMMAND_H_
