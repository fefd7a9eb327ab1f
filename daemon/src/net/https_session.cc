#include "net/https_session.h"

#include <algorithm>

#include <boost/asio/post.hpp>
#include <openssl/ssl.h>

#include "net/beast_framing.h"
#include "net/json_response.h"
#include "net/token_authority.h"

namespace ldpgraph {
namespace https_internal {
namespace {

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

}  // namespace

Session::Session(Socket socket, std::shared_ptr<ssl::context> tls, SessionHost* server, std::string remote)
    : tls_(std::move(tls)), stream_(std::move(socket), *tls_), server_(server), remote_(std::move(remote)) {
  boost::system::error_code ec;
  // Answers are small and final: send them now, not after the client's delayed ACK.
  beast::get_lowest_layer(stream_).socket().set_option(tcp::no_delay(true), ec);
  server_->shared().metrics.open_connections.fetch_add(1);
  server_->shared().metrics.connections_total.fetch_add(1);
}

Session::~Session() {
  server_->shared().metrics.open_connections.fetch_sub(1);
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
    server_->shared().metrics.tls_handshake_failures.fetch_add(1);
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
  const HttpsServerOptions& o = server_->options();
  const bool upload = header.method() == http::verb::put && !o.upload_path_prefix.empty() &&
                      header.target().substr(0, o.upload_path_prefix.size()) == o.upload_path_prefix &&
                      !o.upload_bearer.empty() &&
                      SecretsEqual(BearerToken(std::string(header[http::field::authorization])), o.upload_bearer);
  body_limit_ = upload ? server_->options().max_upload_bytes : server_->options().max_body_bytes;
  parser_->body_limit(body_limit_);  // a chunked body is counted against it as it arrives
  if (parser_->content_length() && *parser_->content_length() > body_limit_) {
    ReadFailed(http::error::body_limit);
    return;
  }
  if (upload && o.admit_upload) {
    if (!parser_->content_length()) {
      request_unread_ = true;
      return Refuse(ErrorResponse(411, "length_required", "an upload must declare its Content-Length"));
    }
    HttpsServerOptions::UploadAdmission admitted = o.admit_upload(*parser_->content_length());
    if (admitted.refusal) {
      request_unread_ = true;  // never read: the answer comes first, then the connection closes
      return Refuse(std::move(*admitted.refusal));
    }
    admission_ = std::move(admitted.hold);
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
    server_->shared().metrics.Reject(RejectReason::kTooLarge);
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
  request.cookie = std::string(req[http::field::cookie]);
  request.remote_address = remote_;
  request.peer_name = peer_name_;
  request.body = std::move(req.body());
  request.admission = std::move(admission_);
  Exchange& exchange = exchanges_.back();
  exchange.keep_alive = req.keep_alive();
  const std::string& coalesced = server_->options().coalesced_post_path;
  exchange.report = !coalesced.empty() && req.method() == http::verb::post && req.target() == coalesced;
  exchange.counted = true;
  server_->in_flight().fetch_add(1);
  if (!exchange.keep_alive) reads_done_ = true;
  // The Api may answer from a store thread: the answer comes back to this strand to be written.
  Respond respond = [self = shared_from_this(), seq = exchange.seq](HttpResponse response) {
    self->Deliver(seq, std::move(response));
  };
  server_->options().handler(std::move(request), std::move(respond));
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
    close = !exchange.keep_alive || (server_->shared().draining.load() && n + 1 == exchanges_.size());
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
  Metrics& metrics = server_->shared().metrics;
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

}  // namespace https_internal
}  // namespace ldpgraph
