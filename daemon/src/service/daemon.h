// RunDaemon: ldpgraphd's life. Opens the store, loads the graphs, serves
// HTTPS, tells systemd READY=1 (and WATCHDOG=1 when asked), reloads the
// certificates on SIGHUP, and on SIGTERM or SIGINT says STOPPING=1, stops
// accepting, drains the requests in flight, commits, and returns 0.
#ifndef LDPGRAPH_DAEMON_SERVICE_DAEMON_H_
#define LDPGRAPH_DAEMON_SERVICE_DAEMON_H_

#include "service/daemon_config.h"

namespace ldpgraph {

// The process exit code: 0 after a clean stop, 1 when it could not start.
int RunDaemon(const DaemonConfig& config);

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_SERVICE_DAEMON_H_
