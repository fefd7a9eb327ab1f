#include "ldpgraph/transport/https_client.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace ldpgraph {
namespace transport {

struct HttpsClient::Tls {
  SSL_CTX* ctx = nullptr;
  SSL* ssl = nullptr;
  int fd = -1;
  std::string inbuf;  // bytes read past the previous answer

  ~Tls() {
    Close();
    if (ctx) SSL_CTX_free(ctx);
  }
  void Close() {
    if (ssl) SSL_free(ssl);
    ssl = nullptr;
    if (fd >= 0) ::close(fd);
    fd = -1;
    inbuf.clear();
  }
};

namespace {

std::string OpenSslError() {
  const unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (e == 0) return "connection closed";
  char buf[256];
  ERR_error_string_n(e, buf, sizeof(buf));
  return buf;
}

// A peer that closed makes write() raise SIGPIPE, which would kill the app,
// and an SDK may not change the app's signal dispositions. So OpenSSL writes
// through a socket BIO whose write is send(MSG_NOSIGNAL); the rest is the
// stock socket BIO.
int SendNoSignal(BIO* bio, const char* data, int length) {
  int fd = -1;
  BIO_get_fd(bio, &fd);
  errno = 0;
  const ssize_t n = ::send(fd, data, static_cast<std::size_t>(length), MSG_NOSIGNAL);
  BIO_clear_retry_flags(bio);
  if (n <= 0 && BIO_sock_should_retry(static_cast<int>(n))) BIO_set_retry_write(bio);
  return static_cast<int>(n);
}

const BIO_METHOD* NoSignalSocketMethod() {
  static BIO_METHOD* method = [] {
    const BIO_METHOD* base = BIO_s_socket();
    BIO_METHOD* m = BIO_meth_new(BIO_TYPE_SOCKET, "socket, MSG_NOSIGNAL");
    BIO_meth_set_write(m, SendNoSignal);
    BIO_meth_set_read(m, BIO_meth_get_read(base));
    BIO_meth_set_puts(m, BIO_meth_get_puts(base));
    BIO_meth_set_ctrl(m, BIO_meth_get_ctrl(base));
    BIO_meth_set_create(m, BIO_meth_get_create(base));
    BIO_meth_set_destroy(m, BIO_meth_get_destroy(base));
    return m;
  }();
  return method;
}

bool IsIpAddress(const std::string& host) {
  unsigned char buf[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

// TCP connect with a deadline. Returns the connected socket or -1 with `error` set.
int ConnectTcp(const ServerEndpoint& e, std::string* error) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* list = nullptr;
  const int rc = getaddrinfo(e.host.c_str(), std::to_string(e.port).c_str(), &hints, &list);
  if (rc != 0) {
    *error = "cannot resolve " + e.host + ": " + gai_strerror(rc);
    return -1;
  }
  int fd = -1;
  for (addrinfo* a = list; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, a->ai_protocol);
    if (fd < 0) continue;
    int r = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (r != 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      r = ::poll(&p, 1, static_cast<int>(e.connect_timeout_ms));
      int so_error = 0;
      socklen_t len = sizeof(so_error);
      if (r == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len) == 0 && so_error == 0) {
        r = 0;
      } else {
        *error = r == 0 ? "connect timed out" : std::string("connect failed: ") + std::strerror(so_error ? so_error : errno);
        r = -1;
      }
    } else if (r != 0) {
      *error = std::string("connect failed: ") + std::strerror(errno);
    }
    if (r != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  freeaddrinfo(list);
  if (fd < 0) return -1;
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  timeval tv{static_cast<time_t>(e.io_timeout_ms / 1000), static_cast<suseconds_t>((e.io_timeout_ms % 1000) * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
  return fd;
}

bool EqualsIgnoreCase(const std::string& a, const char* b) {
  if (a.size() != std::strlen(b)) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

const std::string* FindHeader(const std::vector<std::pair<std::string, std::string>>& headers, const char* name) {
  for (const auto& [n, value] : headers) {
    if (EqualsIgnoreCase(n, name)) return &value;
  }
  return nullptr;
}

HttpsClient::HttpsClient(const ServerEndpoint& endpoint) : endpoint_(endpoint), tls_(new Tls) {}
HttpsClient::~HttpsClient() = default;

Result<std::unique_ptr<HttpsClient>> HttpsClient::Create(const ServerEndpoint& endpoint) {
  if (endpoint.host.empty()) return Status::InvalidArgument("server host is empty");
  if (endpoint.port == 0) return Status::InvalidArgument("server port is 0");
  std::unique_ptr<HttpsClient> client(new HttpsClient(endpoint));
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (!ctx) return Status::Unavailable("TLS: " + OpenSslError());
  client->tls_->ctx = ctx;
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  const bool loaded = endpoint.ca_file.empty() ? SSL_CTX_set_default_verify_paths(ctx) == 1
                                               : SSL_CTX_load_verify_locations(ctx, endpoint.ca_file.c_str(), nullptr) == 1;
  if (!loaded) {
    return Status::InvalidArgument("cannot load CA " + (endpoint.ca_file.empty() ? "(system)" : endpoint.ca_file) +
                                   ": " + OpenSslError());
  }
  if (!endpoint.client_certificate_file.empty()) {
    if (SSL_CTX_use_certificate_chain_file(ctx, endpoint.client_certificate_file.c_str()) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, endpoint.client_key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
      return Status::InvalidArgument("cannot load client certificate " + endpoint.client_certificate_file + ": " +
                                     OpenSslError());
    }
  }
  // Read whole TLS records (and what follows) per recv(), not header then body.
  SSL_CTX_set_read_ahead(ctx, 1);
  // Resume sessions across reconnections: a cheaper handshake.
  SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT);
  return client;
}

void HttpsClient::Disconnect() { tls_->Close(); }

Status HttpsClient::Connect() {
  tls_->Close();
  std::string error;
  tls_->fd = ConnectTcp(endpoint_, &error);
  if (tls_->fd < 0) return Status::Unavailable(endpoint_.host + ":" + std::to_string(endpoint_.port) + ": " + error);
  SSL* ssl = SSL_new(tls_->ctx);
  tls_->ssl = ssl;
  BIO* bio = BIO_new(NoSignalSocketMethod());
  if (!bio) {
    tls_->Close();
    return Status::Unavailable("TLS: " + OpenSslError());
  }
  BIO_set_fd(bio, tls_->fd, BIO_NOCLOSE);
  SSL_set_bio(ssl, bio, bio);
  if (IsIpAddress(endpoint_.host)) {
    X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), endpoint_.host.c_str());
  } else {
    SSL_set_tlsext_host_name(ssl, endpoint_.host.c_str());
    SSL_set1_host(ssl, endpoint_.host.c_str());
  }
  if (SSL_connect(ssl) != 1) {
    const long verify = SSL_get_verify_result(ssl);
    const std::string detail = OpenSslError();
    tls_->Close();
    if (verify != X509_V_OK) {
      return Status::FailedPrecondition("the server certificate of " + endpoint_.host + " does not verify: " +
                                        X509_verify_cert_error_string(verify));
    }
    return Status::Unavailable("TLS handshake with " + endpoint_.host + " failed: " + detail);
  }
  ++handshakes_;
  return Status::Ok();
}

Result<HttpAnswer> HttpsClient::Request(const std::string& method, const std::string& path,
                                        const std::string& content_type, const std::string& body,
                                        const std::string& bearer, const std::string& accept) {
  std::vector<Result<HttpAnswer>> answers = Pipeline({{method, path, content_type, body, bearer, accept}});
  return std::move(answers.front());
}

std::string HttpsClient::Format(const HttpRequestSpec& r) const {
  std::string head = r.method + " " + r.path + " HTTP/1.1\r\nHost: " + endpoint_.host + ":" +
                     std::to_string(endpoint_.port) + "\r\nUser-Agent: ldpgraph-sdk\r\n";
  if (!r.bearer.empty()) head += "Authorization: Bearer " + r.bearer + "\r\n";
  if (!r.content_type.empty()) head += "Content-Type: " + r.content_type + "\r\n";
  if (!r.accept.empty()) head += "Accept: " + r.accept + "\r\n";
  head += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n";
  return head + r.body;
}

std::vector<Result<HttpAnswer>> HttpsClient::Pipeline(const std::vector<HttpRequestSpec>& requests) {
  std::vector<Result<HttpAnswer>> answers(requests.size(), Status::Unavailable("not sent"));
  std::size_t answered = 0;
  // A kept-alive connection the server has since closed fails on first use;
  // a fresh connection then gets what is still unanswered (every request
  // here is idempotent). Each round either gets an answer or ends here.
  bool fresh_tried = false;
  while (answered < requests.size()) {
    const bool reused = tls_->ssl != nullptr;
    if (!reused) {
      Status connected = Connect();
      if (!connected.ok()) {
        for (std::size_t i = answered; i < requests.size(); ++i) answers[i] = connected;
        break;
      }
    }
    // All at once: one write, and as few TLS records as the bytes allow.
    std::string message;
    for (std::size_t i = answered; i < requests.size(); ++i) message += Format(requests[i]);
    std::size_t sent = 0;
    while (sent < message.size()) {
      const int n = SSL_write(tls_->ssl, message.data() + sent, static_cast<int>(message.size() - sent));
      if (n <= 0) break;  // the server may have answered early (413) and closed: read on
      sent += static_cast<std::size_t>(n);
    }
    ERR_clear_error();
    const std::size_t before = answered;
    Status failure = Status::Ok();
    while (answered < requests.size()) {
      bool close_after = false;
      Result<HttpAnswer> answer = ReadAnswer(&close_after);
      if (!answer.ok()) {
        tls_->Close();
        // An answer too large is this request's own: the others go on.
        if (answer.status().code() == StatusCode::kFailedPrecondition) {
          answers[answered++] = std::move(answer);
        } else {
          failure = answer.status();
        }
        break;
      }
      answers[answered++] = std::move(answer);
      if (close_after) {
        tls_->Close();  // later requests went unanswered: the next round sends them again
        break;
      }
    }
    if (answered > before) continue;
    // No answer at all: once more on a fresh connection if this one was an
    // old one; a fresh one failing is the answer.
    if (!reused || fresh_tried) {
      for (std::size_t i = answered; i < requests.size(); ++i) answers[i] = failure;
      break;
    }
    fresh_tried = true;
  }
  return answers;
}

Result<HttpAnswer> HttpsClient::ReadAnswer(bool* close_after) {
  // The head up to the blank line, then Content-Length bytes.
  std::string& in = tls_->inbuf;
  std::size_t header_end = std::string::npos;
  char buf[16384];
  while ((header_end = in.find("\r\n\r\n")) == std::string::npos) {
    const int n = SSL_read(tls_->ssl, buf, sizeof(buf));
    if (n <= 0) return Status::Unavailable("request to " + endpoint_.host + " failed: " + OpenSslError());
    in.append(buf, static_cast<std::size_t>(n));
    if (in.size() > (1u << 20)) return Status::Unavailable("answer head too long");
  }
  HttpAnswer answer;
  std::size_t content_length = 0;
  {
    const std::string headers = in.substr(0, header_end);
    std::size_t pos = headers.find("\r\n");
    const std::string status_line = headers.substr(0, pos);
    if (status_line.size() < 12 || status_line.compare(0, 5, "HTTP/") != 0) {
      return Status::Unavailable("not an HTTP answer: " + status_line.substr(0, 64));
    }
    answer.status = std::atoi(status_line.c_str() + 9);
    while (pos != std::string::npos && pos < headers.size()) {
      const std::size_t start = pos + 2;
      pos = headers.find("\r\n", start);
      const std::string line = headers.substr(start, pos == std::string::npos ? std::string::npos : pos - start);
      const std::size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string name = line.substr(0, colon);
      std::string value = line.substr(colon + 1);
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      if (EqualsIgnoreCase(name, "content-length")) {
        content_length = std::strtoull(value.c_str(), nullptr, 10);
        continue;
      }
      if (EqualsIgnoreCase(name, "connection")) {
        if (EqualsIgnoreCase(value, "close")) *close_after = true;
        continue;
      }
      answer.headers.emplace_back(name, value);
      if (EqualsIgnoreCase(name, "retry-after")) {
        answer.retry_after_seconds = static_cast<unsigned>(std::strtoul(value.c_str(), nullptr, 10));
      }
    }
  }
  if (content_length > endpoint_.max_answer_bytes) {
    // Retrying would get the same answer.
    return Status::FailedPrecondition("answer body of " + std::to_string(content_length) + " bytes exceeds " +
                                      std::to_string(endpoint_.max_answer_bytes));
  }
  in.erase(0, header_end + 4);
  while (in.size() < content_length) {
    const int n = SSL_read(tls_->ssl, buf, sizeof(buf));
    if (n <= 0) return Status::Unavailable("answer from " + endpoint_.host + " cut short: " + OpenSslError());
    in.append(buf, static_cast<std::size_t>(n));
  }
  answer.body = in.substr(0, content_length);
  in.erase(0, content_length);
  answer.received = std::chrono::steady_clock::now();
  return answer;
}

}  // namespace transport
}  // namespace ldpgraph
