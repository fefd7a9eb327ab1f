#include "service/https_server.h"

#include <algorithm>
#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <pthread.h>
#include <sys/resource.h>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>

#include "service/api.h"
#include "service/beast_framing.h"
#include "service/json_response.h"
#include "service/refusal_log.h"
#include "service/report_ingest.h"
#include "service/token_authority.h"

namespace ldpgraph {
namespace {

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

Result<std::shared_ptr<ssl::context>> MakeTlsContext(const HttpsServerOptions& o) {
  auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
  boost::system::error_code ec;
  ctx->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                       ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use,
                   ec);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
  if (SSL_CTX_set_cipher_list(ctx->native_handle(), o.tls12_ciphers.c_str()) != 1) {
    return Status::InvalidArgument("tls ciphers '" + o.tls12_ciphers + "' select no cipher suite OpenSSL knows");
  }
  ctx->use_certificate_chain_file(o.certificate_file, ec);
  if (ec) return Status::InvalidArgument("tls certificate " + o.certificate_file + ": " + ec.message());
  ctx->use_private_key_file(o.private_key_file, ssl::context::pem, ec);
  if (ec) return Status::InvalidArgument("tls private key " + o.private_key_file + ": " + ec.message());
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1) {
    return Status::InvalidArgument("tls private key " + o.private_key_file + " does not match the certificate");
  }
  if (!o.client_ca_file.empty()) {
    ctx->load_verify_file(o.client_ca_file, ec);
    if (ec) return Status::InvalidArgument("tls client CA " + o.client_ca_file + ": " + ec.message());
    ctx->set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  }
  return ctx;
}

// The common name of the certificate the client presented (verified by
// the handshake when the listener requires one); empty if none.
std::string PeerCommonName(SSL* ssl) {
  X509* cert = SSL_get1_peer_certificate(ssl);
  if (cert == nullptr) return "";
  char name[256] = {};
  const int n = X509_NAME_get_text_by_NID(X509_get_subject_name(cert), NID_commonName, name, sizeof name);
  X509_free(cert);
  return n > 0 ? std::string(name, static_cast<std::size_t>(n)) : "";
}

class Server;

// An answer on the wire: HTTP/1.1 keeps the connection open unless it says close.
void AppendHttpResponse(const HttpResponse& response, bool close, std::string* out) {
  const auto status = static_cast<unsigned>(response.status);
  *out += "HTTP/1.1 ";
  *out += std::to_string(status);
  *out += ' ';
  *out += http::obsolete_reason(http::int_to_status(status));
  *out += "\r\nServer: ldpgraphd\r\nContent-Type: ";
  *out += response.content_type;
  for (const auto& [name, value] : response.headers) {
    // Names and values are the Api's own; a line break would split the answer.
    if (name.find_first_of("\r\n") != std::string::npos || value.find_first_of("\r\n") != std::string::npos) continue;
    *out += "\r\n";
    *out += name;
    *out += ": ";
    *out += value;
  }
  if (close) *out += "\r\nConnection: close";
  *out += "\r\nContent-Length: ";
  *out += std::to_string(response.body.size());
  *out += "\r\n\r\n";
  *out += response.body;
}

// One request read and not yet answered on the wire. A connection keeps them
// in arrival order: HTTP/1.1 answers pipelined requests in the order asked.
struct Exchange {
  std::uint64_t seq = 0;
  std::string method = "-", target = "-";  // for the refusal log
  Clock::time_point started;
  std::optional<HttpResponse> response;  // set when the Api answered
  bool keep_alive = false;
  bool report = false;   // POST /v1/reports: answered once its group commit is done
  bool counted = false;  // in the server's in-flight count (drain waits for it)
};

// One TLS connection: handshake, then requests and answers until the client
// or the server closes. Runs on its own strand. While earlier requests wait
// for their answers (a report waits for its commit), the next ones are read
// and dispatched, up to max_pipelined_requests: a client that pipelines gets
// its reports into the same group commit instead of one commit each.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(Socket socket, std::shared_ptr<ssl::context> tls, Server* server, std::string remote);
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
  Server* server_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
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

class Server final : public HttpsServer {
 public:
  Server(const HttpsServerOptions& options, ServiceContext* ctx, std::shared_ptr<ssl::context> tls)
      : options_(options), ctx_(ctx), ioc_(static_cast<int>(options.threads)), acceptor_(net::make_strand(ioc_)),
        accept_timer_(acceptor_.get_executor()), flush_timer_(net::make_strand(ioc_)), tls_(std::move(tls)),
        refusals_(ctx->logger, options.refusal_log_lines_per_second) {}

  ~Server() override { Drain(std::chrono::milliseconds(0)); }

  Status Listen() {
    boost::system::error_code ec;
    const auto address = net::ip::make_address(options_.address, ec);
    if (ec) return Status::InvalidArgument("listen address '" + options_.address + "': " + ec.message());
    const tcp::endpoint endpoint(address, options_.port);
    const auto give_up = std::chrono::steady_clock::now() + options_.bind_wait;
    for (bool warned = false;; warned = true) {
      ec = {};
      acceptor_.open(endpoint.protocol(), ec);
      if (!ec) acceptor_.set_option(net::socket_base::reuse_address(true), ec);
      if (!ec) acceptor_.bind(endpoint, ec);
      if (!ec) acceptor_.listen(net::socket_base::max_listen_connections, ec);
      if (ec != net::error::address_in_use || std::chrono::steady_clock::now() >= give_up) break;
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      if (!warned && ctx_->logger != nullptr) {
        ctx_->logger->Warning("listen_address_in_use", {{"address", options_.address},
                                                        {"port", std::to_string(options_.port)},
                                                        {"retrying_for_ms", std::to_string(options_.bind_wait.count())}});
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (ec) {
      return Status::Unavailable("cannot listen on " + options_.address + ":" + std::to_string(options_.port) +
                                 ": " + ec.message());
    }
    port_ = acceptor_.local_endpoint().port();
    CheckDescriptorLimit();
    Accept();
    FlushRefusalsEverySecond();
    for (unsigned i = 0; i < options_.threads; ++i) {
      threads_.emplace_back([this] {
        pthread_setname_np(pthread_self(), "ldpgraphd-io");  // for top, perf and gdb
        ioc_.run();
      });
    }
    return Status::Ok();
  }

  std::uint16_t port() const override { return port_; }

  Status ReloadCertificates() override {
    auto tls = MakeTlsContext(options_);
    if (!tls.ok()) return tls.status();
    std::lock_guard<std::mutex> lock(tls_mu_);
    tls_ = std::move(*tls);
    return Status::Ok();
  }

  void Drain(std::chrono::milliseconds timeout) override {
    std::lock_guard<std::mutex> lock(drain_mu_);
    if (threads_.empty()) return;
    ctx_->draining = true;
    net::post(acceptor_.get_executor(), [this] {
      boost::system::error_code ignored;
      acceptor_.close(ignored);
      accept_timer_.cancel();
    });
    const auto deadline = Clock::now() + timeout;
    while (in_flight_.load() > 0 && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ioc_.stop();
    for (std::thread& t : threads_) t.join();
    threads_.clear();
    refusals_.Flush();
  }

  const HttpsServerOptions& options() const { return options_; }
  ServiceContext& ctx() { return *ctx_; }
  std::atomic<std::int64_t>& in_flight() { return in_flight_; }
  RefusalLog& refusals() { return refusals_; }

  // A session ends: its address frees a slot, and an acceptor waiting for a
  // descriptor tries again at once.
  void ConnectionClosed(const std::string& address) {
    if (options_.max_connections_per_address > 0) {
      std::lock_guard<std::mutex> lock(per_address_mu_);
      auto it = per_address_.find(address);
      if (it != per_address_.end() && --it->second == 0) per_address_.erase(it);
    }
    if (accept_paused_.load()) net::post(acceptor_.get_executor(), [this] { accept_timer_.cancel(); });
  }

 private:
  // Every connection costs a descriptor, and the store, the model files and
  // the log need some more. Short of them, accept() fails (handled below);
  // better to raise the soft limit now, and say so when it cannot be.
  void CheckDescriptorLimit() {
    constexpr rlim_t kReserve = 64;
    const rlim_t wanted = static_cast<rlim_t>(options_.max_connections) + kReserve;
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= wanted) return;
    rlimit raised = limit;
    raised.rlim_cur = std::min(wanted, limit.rlim_max);
    if (raised.rlim_cur > limit.rlim_cur && setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
    if (limit.rlim_cur >= wanted) return;
    ctx_->logger->Warning("descriptor_limit_below_max_connections",
                          {{"descriptor_limit", std::to_string(limit.rlim_cur)},
                           {"max_connections", std::to_string(options_.max_connections)},
                           {"advice", "raise LimitNOFILE (systemd) or ulimit -n, or lower server.max_connections"}});
  }

  void Accept() {
    acceptor_.async_accept(net::make_strand(ioc_.get_executor()), [this](beast::error_code ec, Socket socket) {
      if (ec) {
        if (ec == net::error::operation_aborted || !acceptor_.is_open()) return;
        return AcceptFailed(ec);  // out of descriptors and the like
      }
      accept_backoff_ = std::chrono::milliseconds(0);
      boost::system::error_code address_ec;
      const auto endpoint = socket.remote_endpoint(address_ec);
      std::string address = address_ec ? "unknown" : endpoint.address().to_string();
      const char* refusal = nullptr;
      if (static_cast<std::size_t>(ctx_->metrics.open_connections.load()) >= options_.max_connections) {
        refusal = "max_connections";
      } else if (!TakeAddressSlot(address)) {
        refusal = "max_connections_per_address";
      }
      if (refusal) {
        ctx_->metrics.connections_refused.fetch_add(1);
        refusals_.ConnectionRefused(address, refusal);
        boost::system::error_code ignored;
        socket.close(ignored);
      } else {
        std::shared_ptr<ssl::context> tls;
        {
          std::lock_guard<std::mutex> lock(tls_mu_);
          tls = tls_;
        }
        std::make_shared<Session>(std::move(socket), std::move(tls), this, std::move(address))->Start();
      }
      if (acceptor_.is_open()) Accept();
    });
  }

  bool TakeAddressSlot(const std::string& address) {
    if (options_.max_connections_per_address == 0) return true;
    std::lock_guard<std::mutex> lock(per_address_mu_);
    std::size_t& held = per_address_[address];
    if (held >= options_.max_connections_per_address) return false;
    ++held;
    return true;
  }

  // accept() failing again at once would spin a core and fill the disk
  // with log lines: wait (10 ms, doubling to 1 s, or until a connection
  // closes and frees a descriptor), and log one line per 10 s with a count.
  void AcceptFailed(const beast::error_code& ec) {
    ctx_->metrics.accept_failures.fetch_add(1);
    ++accept_failures_unlogged_;
    const auto now = Clock::now();
    if (accept_failure_logged_ == Clock::time_point{} || now - accept_failure_logged_ >= std::chrono::seconds(10)) {
      ctx_->logger->Warning("accept_failed", {{"error", ec.message()},
                                              {"failures", std::to_string(accept_failures_unlogged_)},
                                              {"retry_ms", std::to_string(NextBackoff().count())}});
      accept_failure_logged_ = now;
      accept_failures_unlogged_ = 0;
    }
    accept_backoff_ = NextBackoff();
    accept_paused_ = true;
    accept_timer_.expires_after(accept_backoff_);
    accept_timer_.async_wait([this](beast::error_code) {
      accept_paused_ = false;
      if (acceptor_.is_open()) Accept();
    });
  }

  std::chrono::milliseconds NextBackoff() const {
    return std::clamp(accept_backoff_ * 2, std::chrono::milliseconds(10), std::chrono::milliseconds(1000));
  }

  void FlushRefusalsEverySecond() {
    flush_timer_.expires_after(std::chrono::seconds(1));
    flush_timer_.async_wait([this](beast::error_code ec) {
      if (ec) return;
      refusals_.Flush();
      FlushRefusalsEverySecond();
    });
  }

  HttpsServerOptions options_;
  ServiceContext* ctx_;
  // Before ioc_: sessions still queued in ioc_ touch it when ioc_ is destroyed.
  std::atomic<std::int64_t> in_flight_{0};
  net::io_context ioc_;
  tcp::acceptor acceptor_;
  // On the acceptor's strand, as every field below that the acceptor uses.
  net::steady_timer accept_timer_;
  std::chrono::milliseconds accept_backoff_{0};
  std::atomic<bool> accept_paused_{false};
  Clock::time_point accept_failure_logged_{};
  std::uint64_t accept_failures_unlogged_ = 0;
  net::steady_timer flush_timer_;
  std::mutex tls_mu_;
  std::shared_ptr<ssl::context> tls_;
  std::mutex per_address_mu_;
  std::unordered_map<std::string, std::size_t> per_address_;
  RefusalLog refusals_;
  std::vector<std::thread> threads_;
  std::mutex drain_mu_;
  std::uint16_t port_ = 0;
};

Session::Session(Socket socket, std::shared_ptr<ssl::context> tls, Server* server, std::string remote)
    : tls_(std::move(tls)), stream_(std::move(socket), *tls_), server_(server), remote_(std::move(remote)) {
  boost::system::error_code ec;
  // Answers are small and final: send them now, not after the client's delayed ACK.
  beast::get_lowest_layer(stream_).socket().set_option(tcp::no_delay(true), ec);
  server_->ctx().metrics.open_connections.fetch_add(1);
  server_->ctx().metrics.connections_total.fetch_add(1);
}

Session::~Session() {
  server_->ctx().metrics.open_connections.fetch_sub(1);
  for (const Exchange& e : exchanges_) {
    if (e.counted) server_->in_flight().fetch_sub(1);
  }
  server_->ConnectionClosed(remote_);
}

void Session::Start() {
  // Run on the session's strand from the first step on.
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    beast::get_lowest_layer(self->stream_).expires_after(self->server_->options().request_timeout);
    self->stream_.async_handshake(ssl::stream_base::server,
                                  [self](beast::error_code ec) { self->OnHandshake(ec); });
  });
}

void Session::OnHandshake(beast::error_code ec) {
  if (ec) {
    // Plain HTTP on the TLS port, a wrong client certificate, a timeout: no answer.
    server_->ctx().metrics.tls_handshake_failures.fetch_add(1);
    if (!server_->options().client_ca_file.empty()) server_->refusals().HandshakeFailed(remote_, ec.message());
    return;
  }
  if (!server_->options().client_ca_file.empty()) peer_name_ = PeerCommonName(stream_.native_handle());
  ReadHeader();
}

void Session::ReadHeader() {
  reading_ = true;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(kMaxHttpHeaderBytes));
  // The header is read under the larger of the two limits (Beast refuses a
  // Content-Length over the limit as the header completes); OnHeader then
  // applies the one this request has.
  body_limit_ = std::max(server_->options().max_body_bytes, server_->options().max_upload_bytes);
  parser_->body_limit(body_limit_);
  // Waiting for the next request on a kept-alive connection may take the
  // idle timeout; once it starts, the request has the request timeout. A
  // request read ahead has started. (With a write outstanding, this sets
  // the read's timer only.)
  beast::get_lowest_layer(stream_).expires_after(exchanges_.empty() ? server_->options().idle_timeout
                                                                    : server_->options().request_timeout);
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = shared_from_this()](beast::error_code ec, std::size_t) { self->OnHeader(ec); });
}

void Session::OnHeader(beast::error_code ec) {
  reading_ = false;
  if (ec == http::error::end_of_stream) {
    reads_done_ = true;
    if (exchanges_.empty()) Close();  // else after the last answer
    return;
  }
  Exchange& exchange = exchanges_.emplace_back();
  exchange.seq = next_seq_++;
  exchange.started = Clock::now();
  if (ReadFailed(ec)) return;
  beast::get_lowest_layer(stream_).expires_after(server_->options().request_timeout);
  exchange.method = std::string(parser_->get().method_string());
  exchange.target = std::string(parser_->get().target());
  std::string transfer_encoding;
  if (auto refusal = CheckRequestFraming(FramingOf(parser_->get().base(), &transfer_encoding))) {
    request_unread_ = true;  // its body's end is unknown: refuse, close, never read it as a request
    return Refuse(std::move(*refusal));
  }
  // A whole graph is larger than any report: its upload, by the admin only,
  // gets its own limit (an unauthenticated body still stops at the small one).
  const auto& header = parser_->get();
  static constexpr std::string_view kUploads = "/v1/admin/held-graphs/";
  const bool upload = header.method() == http::verb::put && header.target().substr(0, kUploads.size()) == kUploads &&
                      !server_->ctx().admin_token.empty() &&
                      SecretsEqual(BearerToken(std::string(header[http::field::authorization])),
                                   server_->ctx().admin_token);
  body_limit_ = upload ? server_->options().max_upload_bytes : server_->options().max_body_bytes;
  parser_->body_limit(body_limit_);  // a chunked body is counted against it as it arrives
  if (parser_->content_length() && *parser_->content_length() > body_limit_) {
    ReadFailed(http::error::body_limit);
    return;
  }
  reading_ = true;
  http::async_read(stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec2, std::size_t) { self->OnBody(ec2); });
}

void Session::OnBody(beast::error_code ec) {
  reading_ = false;
  if (!ReadFailed(ec)) Dispatch();
}

// A read error ends the reading: 413 for a body over the limit (known from
// Content-Length before a byte of it is read, or a chunked body that grew
// past it), 400 for a malformed request, silence for a client that is slow or
// gone. Answers to earlier requests are still written. Returns false when
// there was no error.
bool Session::ReadFailed(beast::error_code ec) {
  if (!ec) return false;
  request_unread_ = true;
  reads_done_ = true;
  if (ec == http::error::body_limit) {
    server_->ctx().metrics.Reject(RejectReason::kTooLarge);
    Refuse(ErrorResponse(413, "too_large", "the body exceeds " + std::to_string(body_limit_) + " bytes"));
  } else if (ec != beast::error::timeout && ec != net::error::eof && ec != ssl::error::stream_truncated &&
             ec != net::error::operation_aborted) {
    Refuse(ErrorResponse(400, "malformed", "bad HTTP request: " + ec.message()));
  } else {
    exchanges_.pop_back();  // nothing to answer
  }
  return true;
}

void Session::Dispatch() {
  auto& req = parser_->get();
  HttpRequest request;
  request.method = std::string(req.method_string());
  request.target = std::string(req.target());
  request.authorization = std::string(req[http::field::authorization]);
  request.content_type = std::string(req[http::field::content_type]);
  request.accept = std::string(req[http::field::accept]);
  request.remote_address = remote_;
  request.peer_name = peer_name_;
  request.body = std::move(req.body());
  Exchange& exchange = exchanges_.back();
  exchange.keep_alive = req.keep_alive();
  exchange.report = req.method() == http::verb::post && req.target() == "/v1/reports";
  exchange.counted = true;
  server_->in_flight().fetch_add(1);
  if (!exchange.keep_alive) reads_done_ = true;
  // The Api may answer from a store thread: the answer comes back to this strand to be written.
  Respond respond = [self = shared_from_this(), seq = exchange.seq](HttpResponse response) {
    self->Deliver(seq, std::move(response));
  };
  if (server_->options().handler) {
    server_->options().handler(request, std::move(respond));
  } else {
    HandleRequest(server_->ctx(), std::move(request), std::move(respond));
  }
  ReadMoreOrClose();
}

// Answers the request just read, and ends the connection after that answer.
void Session::Refuse(HttpResponse response) {
  reads_done_ = true;
  exchanges_.back().keep_alive = false;
  Answer(exchanges_.back().seq, std::move(response));
}

// From any thread. A group commit answers a connection's pipelined reports
// one after another: they gather here while the strand gets round to them,
// and leave in one write instead of one each (one send, one wake-up of the
// client).
void Session::Deliver(std::uint64_t seq, HttpResponse response) {
  bool first;
  {
    std::lock_guard<std::mutex> lock(inbox_mu_);
    first = inbox_.empty();
    inbox_.emplace_back(seq, std::move(response));
  }
  if (first) net::post(stream_.get_executor(), [self = shared_from_this()] { self->TakeDelivered(); });
}

void Session::TakeDelivered() {
  std::vector<std::pair<std::uint64_t, HttpResponse>> delivered;
  {
    std::lock_guard<std::mutex> lock(inbox_mu_);
    delivered.swap(inbox_);
  }
  for (auto& [seq, response] : delivered) Keep(seq, std::move(response));
  WriteNext();
}

void Session::Answer(std::uint64_t seq, HttpResponse response) {
  Keep(seq, std::move(response));
  WriteNext();
}

void Session::Keep(std::uint64_t seq, HttpResponse response) {
  if (broken_ || exchanges_.empty() || seq < exchanges_.front().seq) return;
  exchanges_[seq - exchanges_.front().seq].response = std::move(response);
}

// Writes the answers that are there, oldest first and in one write. A later
// answer that came first waits for the ones before it.
void Session::WriteNext() {
  if (writing_ || broken_) return;  // broken: closing, or the connection failed
  out_.clear();
  bool close = false;
  std::size_t n = 0;
  for (; n < exchanges_.size() && exchanges_[n].response && !close; ++n) {
    const Exchange& exchange = exchanges_[n];
    const HttpResponse& response = *exchange.response;
    // While draining, the last answer asks the client to reconnect elsewhere.
    close = !exchange.keep_alive || (server_->ctx().draining.load() && n + 1 == exchanges_.size());
    // A batch with some items refused answers 207: its first refusal is logged.
    if (RefusalLog::Audited(response.status) || (response.status == 207 && !response.reason.empty())) {
      server_->refusals().Refused(response.status, remote_, exchange.method, exchange.target, response.reason);
    }
    AppendHttpResponse(response, close, &out_);
  }
  // Answers wait while the next request is a report whose commit is under way
  // (a bounded wait: each commit takes about a millisecond): a pipelining
  // client gets its window's answers in one piece, not one send each.
  if (n == 0 || (n < exchanges_.size() && exchanges_[n].report && !close)) return;
  writing_ = true;
  beast::get_lowest_layer(stream_).expires_after(server_->options().request_timeout);
  net::async_write(stream_, net::buffer(out_),
                   [self = shared_from_this(), n, close](beast::error_code ec, std::size_t) {
                     self->OnWrite(ec, n, close);
                   });
}

void Session::OnWrite(beast::error_code ec, std::size_t answers, bool close) {
  writing_ = false;
  Metrics& metrics = server_->ctx().metrics;
  const auto now = Clock::now();
  for (std::size_t i = 0; i < answers; ++i) {
    const Exchange& done = exchanges_.front();
    metrics.requests_total.fetch_add(1);
    metrics.request_seconds.Observe(std::chrono::duration<double>(now - done.started).count());
    if (done.counted) server_->in_flight().fetch_sub(1);
    exchanges_.pop_front();
  }
  if (ec) {
    broken_ = true;
    return;
  }
  if (close) {
    broken_ = true;  // requests read after this one stay unanswered: the client retries them
    return request_unread_ ? Linger() : Close();
  }
  WriteNext();
  ReadMoreOrClose();
}

// Reads the next request when none waits for its answer, or, up to
// max_pipelined_requests waiting, when the client has already sent more.
// Reading ahead only what has arrived keeps a read's timeout meaningful: a
// read outstanding beside answers that are still due never has to wait out
// the idle timeout. Closes once reading has ended and every answer is written.
void Session::ReadMoreOrClose() {
  if (reads_done_) {
    if (exchanges_.empty() && !writing_) Close();
    return;
  }
  if (reading_) return;
  if (exchanges_.empty()) return ReadHeader();
  if (exchanges_.size() >= server_->options().max_pipelined_requests) return;
  if (ClientSentMore()) ReadHeader();
}

// Whether bytes of a next request have arrived: read but not yet parsed,
// decrypted but not yet read (Beast reads a TLS record in pieces), received
// but not yet decrypted, or still in the socket.
bool Session::ClientSentMore() {
  SSL* ssl = stream_.native_handle();
  boost::system::error_code ec;
  return buffer_.size() > 0 || SSL_has_pending(ssl) == 1 || BIO_ctrl_pending(SSL_get_rbio(ssl)) > 0 ||
         beast::get_lowest_layer(stream_).socket().available(ec) > 0;
}

// After refusing a request whose body is still coming (413, 400), closing at
// once would make the kernel answer the unread bytes with a reset, which can
// destroy our answer in the client's receive buffer before it reads it. So:
// FIN after the answer, then read and drop what still arrives, for at most
// 2 s or 8 MiB (Apache's "lingering close").
void Session::Linger() {
  boost::system::error_code ignored;
  beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_send, ignored);
  beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(2));
  drain_.reset(new char[16384]);
  Drain();
}

void Session::Drain() {
  constexpr std::size_t kMaxDrained = 8u << 20;
  beast::get_lowest_layer(stream_).async_read_some(
      net::buffer(drain_.get(), 16384), [self = shared_from_this()](beast::error_code ec, std::size_t n) {
        self->drained_ += n;
        if (!ec && self->drained_ < kMaxDrained) self->Drain();
      });
}

void Session::Close() {
  if (reading_) {
    // A request is being read ahead: a TLS shutdown would read beside it.
    // The client was told Connection: close; end the connection outright.
    boost::system::error_code ignored;
    beast::get_lowest_layer(stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
    return;
  }
  beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(1));
  stream_.async_shutdown([self = shared_from_this()](beast::error_code) {
    boost::system::error_code ignored;
    beast::get_lowest_layer(self->stream_).socket().shutdown(tcp::socket::shutdown_both, ignored);
  });
}

}  // namespace

Result<std::unique_ptr<HttpsServer>> HttpsServer::Start(const HttpsServerOptions& options, ServiceContext* ctx) {
  if (options.threads == 0) return Status::InvalidArgument("the server needs at least one thread");
  auto tls = MakeTlsContext(options);
  if (!tls.ok()) return tls.status();
  auto server = std::make_unique<Server>(options, ctx, std::move(*tls));
  LDPGRAPH_RETURN_IF_ERROR(server->Listen());
  return std::unique_ptr<HttpsServer>(std::move(server));
}

}  // namespace ldpgraph
