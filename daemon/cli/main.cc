// ldpgraph: the admin, experiment and benchmark CLI of ldpgraph.
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cli/command_help.h"
#include "cli/commands.h"
#include "engine/allocator.h"


int main(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) {
    std::fputs(ldpgraph::OverviewText().c_str(), stderr);
    return 2;
  }
  // ldpgraph help [command...], ldpgraph --help, and --help or -h after any command.
  const bool help_command = words[0] == "help" || words[0] == "--help" || words[0] == "-h";
  bool asks_help = help_command;
  for (const std::string& w : words) asks_help = asks_help || w == "--help" || w == "-h";
  if (asks_help) {
    std::vector<std::string> about;
    for (std::size_t i = help_command ? 1 : 0; i < words.size(); ++i) {
      if (words[i] != "--help" && words[i] != "-h") about.push_back(words[i]);
    }
    if (help_command && about.empty() && words.size() > 1) about = {"help"};  // ldpgraph help --help
    if (about.empty()) {
      std::fputs(ldpgraph::OverviewText().c_str(), stdout);
      return 0;
    }
    const ldpgraph::CommandHelp* help = ldpgraph::FindCommandHelp(about);
    if (help == nullptr) {
      std::fprintf(stderr, "ldpgraph: unknown command '%s'\n\n%s", about[0].c_str(), ldpgraph::OverviewText().c_str());
      return 2;
    }
    std::fputs(ldpgraph::CommandHelpText(*help).c_str(), stdout);
    return 0;
  }
  const std::string command = argv[1];
  // Before anything is allocated: the allocator's settings shape the heap.
  // A command that trains or predicts keeps its freed memory for its whole
  // run (the process ends with it).
  // `bench ingest` and `bench admin` measure the daemon, whose memory is
  // idle between jobs.
  std::vector<std::string> args(argv + 2, argv + argc);
  const bool measures_daemon = command == "bench" && !args.empty() && (args[0] == "ingest" || args[0] == "admin");
  std::optional<ldpgraph::TrainingMemoryScope> memory;
  if ((command == "train" || command == "bench" || command == "predict" || command == "experiment") &&
      !measures_daemon) {
    memory.emplace();
  }
  if (command == "perturb") return ldpgraph::RunPerturbCommand(args);
  if (command == "bench") return ldpgraph::RunBenchCommand(args);
  if (command == "train") return ldpgraph::RunTrainCommand(args);
  if (command == "predict") return ldpgraph::RunPredictCommand(args);
  if (command == "generate") return ldpgraph::RunGenerateCommand(args);
  if (command == "experiment") return ldpgraph::RunExperimentCommand(args);
  if (command == "daemon") return ldpgraph::RunDaemonCommand(args);
  if (command == "federation") return ldpgraph::RunFederationCommand(args);
  if (command == "gw") return ldpgraph::RunGwCommand(args);
  if (command == "audit") return ldpgraph::RunAuditCommand(args);
  if (command == "version" || command == "--version") {
    std::printf("ldpgraph %s\n", LDPGRAPH_VERSION);
    return 0;
  }
  std::fprintf(stderr, "ldpgraph: unknown command '%s'\n\n%s", command.c_str(), ldpgraph::OverviewText().c_str());
  return 2;
}
