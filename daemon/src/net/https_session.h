// The inside of HttpsServer (https_server.cc, https_session.cc; nothing
// else includes it): Beast's types as the server uses them, and Session, one
// TLS connection. A session knows the server only as its SessionHost.
#ifndef LDPGRAPH_DAEMON_NET_HTTPS_SESSION_H_
#define LDPGRAPH_DAEMON_NET_HTTPS_SESSION_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "net/http_types.h"
#include "net/https_server_options.h"
#include "net/refusal_log.h"

namespace ldpgraph {
namespace https_internal {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;
// Concrete executor types: no type-erased any_io_executor on the hot path.
using Strand = net::strand<net::io_context::executor_type>;
using Socket = net::basic_stream_socket<tcp, Strand>;
using TcpStream = beast::basic_stream<tcp, Strand, beast::unlimited_rate_policy>;

// What a session needs of the server it belongs to.
class SessionHost {
 public:
  virtual const HttpsServerOptions& options() const = 0;
  virtual ServerShared& shared() = 0;
  // Requests read and not yet answered, over every session (drain waits for 0).
  virtual std::atomic<std::int64_t>& in_flight() = 0;
  virtual RefusalLog& refusals() = 0;
  // The session from `address` has ended.
  virtual void ConnectionClosed(const std::string& address) = 0;

 protected:
  ~SessionHost() = default;
};

// One request read and not yet answered on the wire. A connection keeps them
// in arrival order: HTTP/1.1 answers pipelined requests in the order asked.
struct Exchange {
  std::uint64_t seq = 0;
  std::string method = "-", target = "-";  // for the refusal log
  Clock::time_point started;
  std::optional<HttpResponse> response;  // set when the Api answered
  bool keep_alive = false;
  bool report = false;   // a POST to coalesced_post_path: answered once its group commit is done
  bool counted = false;  // in the server's in-flight count (drain waits for it)
};

// One TLS connection: handshake, then requests and answers until the client
// or the server closes. Runs on its own strand. While earlier requests wait
// for their answers (a report waits for its commit), the next ones are read
// and dispatched, up to max_pipelined_requests: a client that pipelines gets
// its reports into the same group commit instead of one commit each.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Socket socket, std::shared_ptr<ssl::context> tls, SessionHost* server, std::string remote);
  ~Session();
  void Start();

 private:
  void OnHandshake(beast::error_code ec);
  void ReadHeader();
  void OnHeader(beast::error_code ec);
  void OnBody(beast::error_code ec);
  bool ReadFailed(beast::error_code ec);
  void Dispatch();
  void Refuse(HttpResponse response);
  void Deliver(std::uint64_t seq, HttpResponse response);
  void TakeDelivered();
  void Answer(std::uint64_t seq, HttpResponse response);
  void Keep(std::uint64_t seq, HttpResponse response);
  void WriteNext();
  void OnWrite(beast::error_code ec, std::size_t answers, bool close);
  void ReadMoreOrClose();
  bool ClientSentMore();
  void Close();
  void Linger();
  void Drain();

  std::shared_ptr<ssl::context> tls_;  // keeps a reloaded-away context alive
  beast::ssl_stream<TcpStream> stream_;
  SessionHost* server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<void> admission_;  // the upload being read: what its admission holds
  std::string out_;  // the answers being written
  std::string remote_;
  std::string peer_name_;  // the verified client certificate's common name
  std::deque<Exchange> exchanges_;
  std::mutex inbox_mu_;  // answers delivered from other threads, not yet taken by the strand
  std::vector<std::pair<std::uint64_t, HttpResponse>> inbox_;
  std::uint64_t next_seq_ = 0;
  bool reading_ = false;     // a read of the next request is outstanding
  bool reads_done_ = false;  // no request will be read any more: close after the last answer
  bool writing_ = false;
  bool broken_ = false;      // a write failed: answers still arriving are dropped
  bool request_unread_ = false;  // refused before its body was read: linger on close
  std::size_t body_limit_ = 0;   // of the request being read
  std::unique_ptr<char[]> drain_;
  std::size_t drained_ = 0;
};

}  // namespace https_internal
}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_NET_HTTPS_SESSION_H_
