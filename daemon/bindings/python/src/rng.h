// ldpgraph.device.Rng: the random source a mechanism draws from. Without a
// seed it reads the OS CSPRNG, as devices do; a seed repeats the draws (for
// tests and experiments only: anyone with the seed can undo the noise).
#ifndef LDPGRAPH_DAEMON_BINDINGS_PYTHON_RNG_H_
#define LDPGRAPH_DAEMON_BINDINGS_PYTHON_RNG_H_

#include <memory>

#include "ldpgraph/random_source.h"

namespace ldpgraph_python {

struct Rng {
  std::unique_ptr<ldpgraph::RandomSource> source;
  bool seeded = false;
};

}  // namespace ldpgraph_python

#endif  // LDPGRAPH_DAEMON_BINDINGS_PYTHON_RNG_H_
