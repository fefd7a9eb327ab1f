// RawTls: a TLS client that sends whatever bytes a test gives it and returns
// whatever comes back, for probing the daemon's HTTP parser and TLS setup
// where the product's client (which only speaks well-formed HTTP) cannot go.
// OpenSSL directly; the server's certificate is not verified (loopback tests).
#ifndef LDPGRAPH_TESTS_SUPPORT_RAW_TLS_H_
#define LDPGRAPH_TESTS_SUPPORT_RAW_TLS_H_

#include <cstdint>
#include <memory>
#include <string>

namespace ldpgraph {
namespace testing {

struct RawTlsOptions {
  bool tls12_only = false;
  std::string tls12_ciphers;  // OpenSSL cipher list; empty: OpenSSL's default
};

// A plain TCP connection to 127.0.0.1:port with a 10 s receive timeout;
// -1 when the connection fails.
int ConnectLoopback(std::uint16_t port);

class RawTls {
 public:
  // Connects to 127.0.0.1:port and completes the handshake. nullptr on
  // failure, with the reason in *error.
  static std::unique_ptr<RawTls> Connect(std::uint16_t port, const RawTlsOptions& options, std::string* error);
  ~RawTls();

  bool Send(const std::string& bytes);
  // Everything received until the server closes or `seconds` pass.
  std::string ReadUntilClosed(double seconds);
  // True when the server closed the connection (a read returned its end).
  bool closed() const { return closed_; }
  std::string cipher() const;
  std::string version() const;

 private:
  RawTls() = default;
  int fd_ = -1;
  void* ctx_ = nullptr;  // SSL_CTX
  void* ssl_ = nullptr;  // SSL
  bool closed_ = false;
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_RAW_TLS_H_
