// The ldpgraph CLI's subcommands. Each takes the arguments after its name
// and returns the process exit code (0 ok, 1 runtime failure, 2 bad usage).
#ifndef LDPGRAPH_DAEMON_CLI_COMMANDS_H_
#define LDPGRAPH_DAEMON_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "engine/sparse_matrix.h"
#include "util/flags.h"

namespace ldpgraph {

// --products float|bf16 (default float): whether GIN's Linear products take
// bfloat16 inputs where the CPU has AMX (GraphTrainOptions::bf16_products).
Result<bool> Bf16ProductsFlag(const Flags& flags);
// --colour-classes on|off (default on): whether GIN runs its layers per
// colour class of a batch or per node (GinModel::ShareColourClasses).
Result<bool> ColourClassesFlag(const Flags& flags);

// --gathers auto|float|bf16 (default auto): how neighbour sums read their
// rows (GatherPrecision); sets the process's default for every training.
Result<GatherPrecision> GathersFlag(const Flags& flags);

int RunPerturbCommand(const std::vector<std::string>& args);
int RunBenchCommand(const std::vector<std::string>& args);
int RunTrainCommand(const std::vector<std::string>& args);
int RunPredictCommand(const std::vector<std::string>& args);
int RunGenerateCommand(const std::vector<std::string>& args);
int RunExperimentCommand(const std::vector<std::string>& args);
int RunDaemonCommand(const std::vector<std::string>& args);
int RunFederationCommand(const std::vector<std::string>& args);
int RunGwCommand(const std::vector<std::string>& args);
int RunAuditCommand(const std::vector<std::string>& args);
// The usage texts of the commands that have actions or many flags (for
// their --help, command_help.cc).
const char* DaemonUsage();
const char* FederationUsage();
const char* GwUsage();
// ldpgraph experiment gw (gw_command.cc, beside the command it studies).
int RunGwExperimentCommand(const std::vector<std::string>& args);
// ldpgraph experiment audit (audit_command.cc, likewise).
int RunAuditExperimentCommand(const std::vector<std::string>& args);
// ldpgraph experiment rounds (rounds_experiment_command.cc).
int RunRoundsExperimentCommand(const std::vector<std::string>& args);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_CLI_COMMANDS_H_
