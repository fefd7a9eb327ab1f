// ScratchPostgres: a throwaway PostgreSQL server, for the tests and the
// benchmarks of the shared store. A fresh cluster is made by initdb in a
// temporary directory (password login, SCRAM), started on a free loopback
// port as an unprivileged user (the `postgres` account under root: the
// server refuses root), and stopped and removed at the end. Each test or
// run takes its own database from it. Never for production data.
#ifndef LDPGRAPH_DAEMON_TESTBED_SCRATCH_POSTGRES_H_
#define LDPGRAPH_DAEMON_TESTBED_SCRATCH_POSTGRES_H_

#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

#include "ldpgraph/status.h"

namespace ldpgraph {

class ScratchPostgres {
 public:
  // Errors: kUnavailable when no server binaries are installed (a test
  // then skips, saying so: CI installs Debian's postgresql) or the server
  // does not come up within 60 s (its log is in the message).
  // `tls`: the server also speaks TLS, with a throwaway CA (testbed/test_pki.h)
  // whose certificate names localhost and 127.0.0.1 (ca_file()).
  static Result<std::unique_ptr<ScratchPostgres>> Start(bool tls = false);
  ~ScratchPostgres();
  ScratchPostgres(const ScratchPostgres&) = delete;
  ScratchPostgres& operator=(const ScratchPostgres&) = delete;

  // Creates database `name` and returns the connection string for it (the
  // password apart). Errors: the server's.
  Result<std::string> CreateDatabase(const std::string& name);
  // The connection string of an existing database.
  std::string Conninfo(const std::string& database) const;
  const std::string& password() const { return password_; }
  std::uint16_t port() const { return port_; }
  const std::string& ca_file() const { return ca_file_; }  // tls: the CA that signed the server's certificate
  // Runs SQL as the superuser in `database` (setup and inspection).
  Status Exec(const std::string& database, const std::string& sql);
  // A query's single value as text (e.g. SELECT count(*) ...).
  Result<std::string> Scalar(const std::string& database, const std::string& sql);
  // The faults a store must live through: a fast restart (pg_ctl restart
  // -m fast: sessions are ended, the server shuts down cleanly and comes
  // back), or a crash (SIGKILL to the postmaster, then a start that
  // recovers from the WAL). Each returns once the server accepts logins
  // again on the same port. Errors: kUnavailable (with its log).
  Status Restart();
  Status CrashAndRestart();
  // An outage: Stop() shuts the server down (fast), StartAgain() brings it back.
  void Stop();
  Status StartAgain();

 private:
  ScratchPostgres() = default;
  // Starts the server on dir_ and port_ and waits for it to accept logins.
  Status Launch();
  // Sends the server `signal` and waits for it to exit (no server: nothing).
  void Signal(int signal);
  std::string dir_;
  std::string ca_file_;
  std::string password_ = "test-pg-password-7f3a9c";
  std::uint16_t port_ = 0;
  pid_t pid_ = -1;
  std::vector<std::string> argv_;  // how the server is started
};

}  // namespace ldpgraph

#endif  // LDPGRAPH_DAEMON_TESTBED_SCRATCH_POSTGRES_H_
