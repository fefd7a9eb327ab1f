// A loopback port nothing listens on now (the kernel's pick for a socket
// closed at once), for servers a test or a benchmark starts: federation
// parties, a scratch database. 0 when no socket could be bound.
#ifndef LDPGRAPH_DAEMON_NET_LOOPBACK_PORT_H_
#define LDPGRAPH_DAEMON_NET_LOOPBACK_PORT_H_

#include <cstdint>

namespace ldpgraph {

std::uint16_t FreeLoopbackPort();

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_LOOPBACK_PORT_H_
