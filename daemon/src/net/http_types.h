// The daemon's view of an HTTP exchange, free of any HTTP library: the
// network layer (https_server.cc, the only Beast user) fills an HttpRequest
// and sends back whatever HttpResponse the Api produced.
#ifndef LDPGRAPH_DAEMON_NET_HTTP_TYPES_H_
#define LDPGRAPH_DAEMON_NET_HTTP_TYPES_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ldpgraph {

// Request line and headers together; a longer head is refused.
constexpr std::size_t kMaxHttpHeaderBytes = 16 * 1024;

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query
  std::string authorization;
  std::string content_type;
  std::string accept;
  std::string cookie;  // the Cookie header (the console's session)
  std::string remote_address;
  // The common name of the client's certificate, verified against the
  // listener's client CA; empty where none is required.
  std::string peer_name;
  std::string body;
  // An upload's admission (HttpsServerOptions::admit_upload), held until
  // the request is dropped: the memory its body and its parsing lease.
  std::shared_ptr<void> admission;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string reason;  // a refusal's error code ("rate_limited", ...), for the refusal log
};

// Answers are asynchronous (a report is answered after its commit); the
// callback may run on any thread, exactly once.
using Respond = std::function<void(HttpResponse)>;

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_HTTP_TYPES_H_
