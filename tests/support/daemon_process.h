// DaemonProcess: a real ldpgraphd for integration tests. Writes a config,
// secrets and a throwaway PKI into a directory, starts the binary, reads the
// port it bound from its JSON log, and stops it with SIGTERM or SIGKILL.
// Restarts keep the port and the store.
#ifndef LDPGRAPH_TESTS_SUPPORT_DAEMON_PROCESS_H_
#define LDPGRAPH_TESTS_SUPPORT_DAEMON_PROCESS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include <sys/types.h>

#include "ldpgraph/transport/https_client.h"
#include "testbed/test_pki.h"

namespace ldpgraph {
namespace testing {

struct DaemonSettings {
  std::string listen_address = "127.0.0.1";
  std::string extra_server;  // extra TOML lines for [server]
  std::string limits = "per_token_rate = 1000\nper_token_burst = 1000\nper_address_rate = 0\n";
  std::string store = "path = \"store.db\"\n";  // the [store] section's lines (default: SQLite)
  std::string extra_store;   // extra TOML lines for [store]
  std::string client_ca;     // [tls] client_ca
  std::string extra_tls;     // extra TOML lines for [tls]
  std::string extra_log;     // extra TOML lines for [log]
  std::string extra_sections;  // whole TOML sections after the others (e.g. [federation])
  unsigned descriptor_limit = 0;  // RLIMIT_NOFILE (soft and hard) of the daemon; 0: inherited
  std::vector<std::pair<std::string, std::string>> env;  // e.g. NOTIFY_SOCKET for sd_notify
};

class DaemonProcess {
 public:
  static constexpr const char* kAdminToken = "test-admin-token-0123456789";
  static constexpr const char* kSecret = "test-secret-0123456789abcdef0123456789abcdef";

  // `binary`: path of ldpgraphd; `dir`: an existing empty directory.
  DaemonProcess(std::string binary, std::string dir, DaemonSettings settings = {});
  ~DaemonProcess();

  // Starts and waits until it logs a whole "listening" line (up to 20 s).
  // false on failure, after saying why on stderr (see also log()).
  bool Start();
  // SIGTERM and wait; returns the exit status (-1 if killed by a signal).
  int Stop();
  // SIGKILL and wait.
  void Kill();
  // Sends `signal` (e.g. SIGHUP) without waiting.
  void Signal(int signal);
  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }

  std::uint16_t port() const { return port_; }
  // 127.0.0.1, the port, and the throwaway CA pinned.
  transport::ServerEndpoint endpoint() const;
  const PkiFiles& pki() const { return pki_; }
  std::string store_path() const { return dir_ + "/store.db"; }
  std::string log() const;  // everything the daemon wrote to stderr
  std::string run_log() const;  // what this run (since the last Start) wrote
  // What the next Start() writes into the config (a restart with other limits).
  DaemonSettings& settings() { return settings_; }

 private:
  void WriteConfig();

  std::string binary_, dir_;
  DaemonSettings settings_;
  PkiFiles pki_;
  pid_t pid_ = -1;
  std::uint16_t port_ = 0;
  std::size_t log_offset_ = 0;  // where this run's log starts
};

}  // namespace testing
}  // namespace ldpgraph

#endif  // LDPGRAPH_TESTS_SUPPORT_DAEMON_PROCESS_H_
