// The ldpgraph CLI's help: one entry per command and subcommand, with its
// options (defaults in parentheses) and an example. `ldpgraph help` lists
// them all; `ldpgraph <command> [<subcommand>] --help` (or -h) prints one.
#ifndef LDPGRAPH_DAEMON_CLI_COMMAND_HELP_H_
#define LDPGRAPH_DAEMON_CLI_COMMAND_HELP_H_

#include <string>
#include <vector>

namespace ldpgraph {

struct CommandHelp {
  std::string words;    // "experiment lpgnn"
  std::string summary;  // one line
  std::string options;  // lines, each indented by two spaces
  std::string example;  // one command line
};

// Every entry, in the order `ldpgraph help` lists them.
const std::vector<CommandHelp>& AllCommandHelp();

// The entry for the longest prefix of `words` that names one ("bench gin"
// for {"bench", "gin", "--dataset", ...}; "daemon" for {"daemon", "graphs"}),
// or null when the first word names no command.
const CommandHelp* FindCommandHelp(const std::vector<std::string>& words);

// What `ldpgraph <words> --help` prints.
std::string CommandHelpText(const CommandHelp& help);

// What `ldpgraph help` prints: every entry's words and summary.
std::string OverviewText();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CLI_COMMAND_HELP_H_
