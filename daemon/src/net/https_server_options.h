// What HttpsServer is told (HttpsServerOptions) and what it shares with the
// daemon around it (ServerShared). Its own header so that the sessions
// (https_session.h) read them without including the server itself.
#ifndef LDPGRAPH_DAEMON_NET_HTTPS_SERVER_OPTIONS_H_
#define LDPGRAPH_DAEMON_NET_HTTPS_SERVER_OPTIONS_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "net/http_types.h"
#include "net/logger.h"
#include "net/metrics.h"
#include "net/tls_ciphers.h"

namespace ldpgraph {

struct HttpsServerOptions {
  std::string address = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (see HttpsServer::port())
  unsigned threads = 2;
  std::size_t max_body_bytes = 1 << 20;
  // The body limit of an upload: a PUT under `upload_path_prefix` whose
  // bearer token is `upload_bearer` (the daemon: a held graph's, by the
  // admin), checked from the header before the body. Empty: none.
  std::size_t max_upload_bytes = std::size_t{256} << 20;
  std::string upload_path_prefix;
  std::string upload_bearer;
  std::chrono::milliseconds request_timeout{10000};
  std::chrono::milliseconds idle_timeout{30000};
  std::size_t max_connections = 10000;
  // How long to keep trying to bind an address in use: a restart right after
  // a SIGKILL can come while the old process is still exiting (releasing
  // GBs of memory takes time) and holds its listening socket.
  std::chrono::milliseconds bind_wait{10000};
  // Requests of one connection read and dispatched before the first of them
  // is answered (HTTP/1.1 pipelining; answers keep the requests' order).
  std::size_t max_pipelined_requests = 16;
  // Connections one client address may hold at once (0: no cap), so that
  // one address cannot take every slot. Mobile carriers put many devices
  // behind one address: keep it well above one device's needs.
  std::size_t max_connections_per_address = 1000;
  // TLS 1.2 cipher suites (OpenSSL list syntax).
  std::string tls12_ciphers = kDefaultTls12Ciphers;
  // The audit trail of refused requests and connections (see RefusalLog).
  std::uint32_t refusal_log_lines_per_second = 20;
  std::string certificate_file;  // PEM chain
  std::string private_key_file;  // PEM
  std::string client_ca_file;    // optional: require client certificates it signed
  // A POST to this path is answered once its group commit is done, so the
  // answers to a pipelining client's run of them wait and leave in one send
  // (the daemon: its report path, api/routes.h). Empty: none.
  std::string coalesced_post_path;
  // Who answers the requests (required): the daemon's Api (api/api.h), or
  // on the federation's listener its party service.
  std::function<void(HttpRequest, Respond)> handler;
  // Decides an upload from its header, before a byte of its body is read
  // (issue 66: eight 100 MB uploads took 781 MB before each was refused):
  // given the Content-Length, what to hold while the request lives
  // (HttpRequest::admission), or the answer that refuses it. Unset: none.
  // An upload without a Content-Length is then refused (411).
  struct UploadAdmission {
    std::shared_ptr<void> hold;
    std::optional<HttpResponse> refusal;
  };
  std::function<UploadAdmission(std::uint64_t content_length)> admit_upload;
};

// What the server shares with the daemon around it.
struct ServerShared {
  Metrics& metrics;
  Logger* logger;               // may be null
  std::atomic<bool>& draining;  // raised by Drain(); handlers answer by it
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_HTTPS_SERVER_OPTIONS_H_
