// HttpsClient: one keep-alive HTTP/1.1 connection over TLS (OpenSSL only,
// no other dependency, for devices). Verifies the server's certificate
// chain and host name against the system CAs or a pinned CA file.
// Not thread-safe: one client per thread.
#ifndef LDPGRAPH_TRANSPORT_HTTPS_CLIENT_H_
#define LDPGRAPH_TRANSPORT_HTTPS_CLIENT_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {
namespace transport {

struct ServerEndpoint {
  std::string host;  // name or address; the certificate must match it
  std::uint16_t port = 443;
  std::string ca_file;  // PEM; empty: the system's CAs
  // Optional client certificate, for daemons that require one.
  std::string client_certificate_file;
  std::string client_key_file;
  std::uint32_t connect_timeout_ms = 5000;
  std::uint32_t io_timeout_ms = 10000;  // each read or write
  // The largest answer body accepted (a longer one is an error, the
  // connection closed): a device's answers are small; a federation party's
  // partial sums are not.
  std::uint64_t max_answer_bytes = std::uint64_t{64} << 20;
};

struct HttpAnswer {
  int status = 0;
  std::string body;
  unsigned retry_after_seconds = 0;  // from Retry-After (delta-seconds), 0 when absent
  // Every header but the framing ones (Content-Length, Connection), as
  // received: (name, value) in their order.
  std::vector<std::pair<std::string, std::string>> headers;
  // When the answer was read whole: in a pipeline each answer has its own.
  std::chrono::steady_clock::time_point received;
};

// The value of header `name` (any case) in `headers`, or null.
const std::string* FindHeader(const std::vector<std::pair<std::string, std::string>>& headers, const char* name);

// One request of a pipeline; `bearer`, `content_type` and `accept` may be empty.
struct HttpRequestSpec {
  std::string method;
  std::string path;
  std::string content_type;
  std::string body;
  std::string bearer;
  std::string accept;
};

class HttpsClient {
 public:
  // Errors: kInvalidArgument for an unreadable CA or client certificate.
  static Result<std::unique_ptr<HttpsClient>> Create(const ServerEndpoint& endpoint);
  ~HttpsClient();
  HttpsClient(const HttpsClient&) = delete;
  HttpsClient& operator=(const HttpsClient&) = delete;

  // Sends one request, (re)connecting when needed, and reads the answer.
  // `bearer` and `accept` may be empty. Errors: kUnavailable for connection failures and
  // timeouts (worth retrying); kFailedPrecondition when the server's
  // certificate does not verify or the answer's body exceeds
  // max_answer_bytes (retrying will not help).
  Result<HttpAnswer> Request(const std::string& method, const std::string& path, const std::string& content_type,
                             const std::string& body, const std::string& bearer, const std::string& accept = "");

  // Sends the requests back to back in one write (HTTP/1.1 pipelining) and
  // reads their answers in order: one round trip for all of them. A request
  // left unanswered because the connection closed is sent again on a fresh
  // one (every request must be idempotent). answers[i] is request i's answer
  // or error, as Request() gives them.
  std::vector<Result<HttpAnswer>> Pipeline(const std::vector<HttpRequestSpec>& requests);

  // Completed TLS handshakes so far (reconnections included).
  std::uint64_t handshakes() const { return handshakes_; }
  void Disconnect();

 private:
  struct Tls;
  explicit HttpsClient(const ServerEndpoint& endpoint);
  Status Connect();
  std::string Format(const HttpRequestSpec& request) const;
  // Reads one answer from the open connection; `close_after` when the server
  // closes after it. The caller closes the connection on an error.
  Result<HttpAnswer> ReadAnswer(bool* close_after);

  ServerEndpoint endpoint_;
  std::unique_ptr<Tls> tls_;
  std::uint64_t handshakes_ = 0;
};

}  // namespace transport
}  // namespace ldpgraph

#endif  // LDPGRAPH_TRANSPORT_HTTPS_CLIENT_H_
