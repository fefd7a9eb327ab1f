// HttpsServer: HTTP/1.1 over TLS (1.2 minimum, 1.3 preferred) on Boost.Beast,
// feeding a handler (the daemon's Api, or the federation's party service).
// Beast stays inside net/ (this server, its sessions in https_session.h,
// the framing in beast_framing.h and http_parse.cc). The server knows
// nothing of what it serves: requests go out as HttpRequest, and it shares
// only ServerShared.
// Every network step has a deadline, so a slow or silent client is cut off;
// I/O is asynchronous, so no client ever holds a thread.
#ifndef LDPGRAPH_DAEMON_NET_HTTPS_SERVER_H_
#define LDPGRAPH_DAEMON_NET_HTTPS_SERVER_H_

#include <chrono>
#include <cstdint>
#include <memory>

#include "ldpgraph/status.h"
#include "net/https_server_options.h"

namespace ldpgraph {

class HttpsServer {
 public:
  // Loads the certificates, binds, and starts serving on `threads` threads.
  // Warns (and raises the soft limit where the hard one allows) when the
  // process may open fewer descriptors than max_connections needs.
  // Errors: kInvalidArgument for unusable certificate files, a cipher list
  // that selects no suite or no handler, kUnavailable
  // when the address cannot be bound.
  static Result<std::unique_ptr<HttpsServer>> Start(const HttpsServerOptions& options, ServerShared shared);
  virtual ~HttpsServer() = default;

  virtual std::uint16_t port() const = 0;
  // Re-reads the certificate, key and client CA; new connections use them,
  // open ones keep theirs. On error the old ones stay in use.
  virtual Status ReloadCertificates() = 0;
  // Stops accepting, lets requests in flight finish (their connections close
  // after the answer) for at most `timeout`, then stops every thread.
  virtual void Drain(std::chrono::milliseconds timeout) = 0;
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_HTTPS_SERVER_H_
