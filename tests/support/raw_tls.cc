#include "support/raw_tls.h"

#include <arpa/inet.h>
#include <chrono>
#include <csignal>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

namespace ldpgraph {
namespace testing {
namespace {

SSL* Ssl(void* p) { return static_cast<SSL*>(p); }

std::string OpenSslError() {
  const unsigned long code = ERR_get_error();
  if (code == 0) return "no OpenSSL error queued";
  char buf[256];
  ERR_error_string_n(code, buf, sizeof buf);
  return buf;
}

}  // namespace

int ConnectLoopback(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{10, 0};  // no test waits forever on a silent server
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
  return fd;
}

std::unique_ptr<RawTls> RawTls::Connect(std::uint16_t port, const RawTlsOptions& options, std::string* error) {
  // A write to a connection the server closed must fail, not kill the test.
  std::signal(SIGPIPE, SIG_IGN);
  std::unique_ptr<RawTls> c(new RawTls());
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  c->ctx_ = ctx;
  if (options.tls12_only) SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION);
  if (!options.tls12_ciphers.empty() && SSL_CTX_set_cipher_list(ctx, options.tls12_ciphers.c_str()) != 1) {
    *error = "cipher list refused by OpenSSL: " + OpenSslError();
    return nullptr;
  }
  c->fd_ = ConnectLoopback(port);
  if (c->fd_ < 0) {
    *error = "connect failed";
    return nullptr;
  }
  SSL* ssl = SSL_new(ctx);
  c->ssl_ = ssl;
  SSL_set_fd(ssl, c->fd_);
  SSL_set_tlsext_host_name(ssl, "localhost");
  if (SSL_connect(ssl) != 1) {
    *error = "handshake failed: " + OpenSslError();
    return nullptr;
  }
  return c;
}

RawTls::~RawTls() {
  if (ssl_) SSL_free(Ssl(ssl_));
  if (ctx_) SSL_CTX_free(static_cast<SSL_CTX*>(ctx_));
  if (fd_ >= 0) ::close(fd_);
}

bool RawTls::Send(const std::string& bytes) {
  return bytes.empty() || SSL_write(Ssl(ssl_), bytes.data(), static_cast<int>(bytes.size())) ==
                              static_cast<int>(bytes.size());
}

std::string RawTls::ReadUntilClosed(double seconds) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::string got;
  char buf[4096];
  while (!closed_) {
    if (SSL_pending(Ssl(ssl_)) == 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) break;
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left)) <= 0) break;
    }
    const int n = SSL_read(Ssl(ssl_), buf, sizeof buf);
    if (n > 0) {
      got.append(buf, static_cast<std::size_t>(n));
    } else {
      const int e = SSL_get_error(Ssl(ssl_), n);
      if (e == SSL_ERROR_WANT_READ) continue;
      closed_ = true;  // close_notify, a TCP end or a reset
    }
  }
  return got;
}

std::string RawTls::cipher() const { return SSL_get_cipher_name(Ssl(ssl_)); }
std::string RawTls::version() const { return SSL_get_version(Ssl(ssl_)); }

}  // namespace testing
}  // namespace ldpgraph
