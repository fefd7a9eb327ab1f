#include "net/https_server.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <pthread.h>
#include <sys/resource.h>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <openssl/ssl.h>

#include "net/https_session.h"
#include "net/json_response.h"
#include "net/refusal_log.h"

namespace ldpgraph {
namespace {

using namespace https_internal;  // NOLINT: the server's own inside

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

class Server final : public HttpsServer, public SessionHost {
 public:
  Server(const HttpsServerOptions& options, ServerShared shared, std::shared_ptr<ssl::context> tls)
      : options_(options), shared_(shared), ioc_(static_cast<int>(options.threads)), acceptor_(net::make_strand(ioc_)),
        accept_timer_(acceptor_.get_executor()), flush_timer_(net::make_strand(ioc_)), tls_(std::move(tls)),
        refusals_(shared.logger, options.refusal_log_lines_per_second) {}

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
      if (!warned && shared_.logger != nullptr) {
        shared_.logger->Warning("listen_address_in_use", {{"address", options_.address},
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
    shared_.draining = true;
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

  const HttpsServerOptions& options() const override { return options_; }
  ServerShared& shared() override { return shared_; }
  std::atomic<std::int64_t>& in_flight() override { return in_flight_; }
  RefusalLog& refusals() override { return refusals_; }

  // A session ends: its address frees a slot, and an acceptor waiting for a
  // descriptor tries again at once.
  void ConnectionClosed(const std::string& address) override {
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
    shared_.logger->Warning("descriptor_limit_below_max_connections",
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
      if (static_cast<std::size_t>(shared_.metrics.open_connections.load()) >= options_.max_connections) {
        refusal = "max_connections";
      } else if (!TakeAddressSlot(address)) {
        refusal = "max_connections_per_address";
      }
      if (refusal) {
        shared_.metrics.connections_refused.fetch_add(1);
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
    shared_.metrics.accept_failures.fetch_add(1);
    ++accept_failures_unlogged_;
    const auto now = Clock::now();
    if (accept_failure_logged_ == Clock::time_point{} || now - accept_failure_logged_ >= std::chrono::seconds(10)) {
      shared_.logger->Warning("accept_failed", {{"error", ec.message()},
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
  ServerShared shared_;
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

}  // namespace

Result<std::unique_ptr<HttpsServer>> HttpsServer::Start(const HttpsServerOptions& options, ServerShared shared) {
  if (options.threads == 0) return Status::InvalidArgument("the server needs at least one thread");
  if (!options.handler) return Status::InvalidArgument("the server needs a handler");
  auto tls = MakeTlsContext(options);
  if (!tls.ok()) return tls.status();
  auto server = std::make_unique<Server>(options, shared, std::move(*tls));
  LDPGRAPH_RETURN_IF_ERROR(server->Listen());
  return std::unique_ptr<HttpsServer>(std::move(server));
}


}  // namespace ldpgraph
