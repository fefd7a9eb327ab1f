// Runs an experiment's independent runs on `jobs` workers, with a progress
// line on stderr (a rewritten line on a terminal, one line per run
// otherwise). A run may say how far it is (e.g. its epoch): shown on a
// terminal as it changes, and otherwise every few minutes, so a log of runs
// that take half an hour still says what is going on. Each worker's engine
// gets cores / jobs threads: several small trainings side by side use the
// cores better than one at a time, while one large training already uses
// them all through its own kernels.
#ifndef LDPGRAPH_DAEMON_EXPERIMENTS_JOB_RUNNER_H_
#define LDPGRAPH_DAEMON_EXPERIMENTS_JOB_RUNNER_H_

#include <functional>
#include <string>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

// What a running job tells the runner about itself, e.g. "epoch 120/500".
using RunProgress = std::function<void(const std::string& where)>;

struct ExperimentJob {
  std::string label;  // what the progress line shows, e.g. "dprr eps=1 alpha=0 split=2"
  std::function<Status(const RunProgress&)> run;  // performs the run and records its row
  // Models the run trains (one per candidate of a grid it chooses from), so
  // that the command can say up front how much work it has taken on.
  int trainings = 1;
};

// Runs every job; the first failure stops the workers from taking new jobs
// and is returned (runs already recorded stay recorded). `skipped` is how
// many result rows were found present already. Says first how many runs
// (and trainings, when a run trains several models) it will do.
Status RunJobs(const std::string& experiment, std::vector<ExperimentJob> jobs, int workers, std::size_t skipped);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_EXPERIMENTS_JOB_RUNNER_H_
