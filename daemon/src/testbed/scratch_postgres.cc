#include "testbed/scratch_postgres.h"

#include <fcntl.h>
#include <glob.h>
#include <pwd.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>
#include <vector>

#include "base/durable_file.h"
#include "net/loopback_port.h"
#include "store/pg_db.h"
#include "testbed/test_pki.h"

namespace ldpgraph {
namespace {

// The newest installed server's bin directory ("" when none).
std::string ServerBin() {
  glob_t g{};
  std::string best;
  if (::glob("/usr/lib/postgresql/*/bin/initdb", 0, nullptr, &g) == 0) {
    for (std::size_t i = 0; i < g.gl_pathc; ++i) {
      const std::string p = g.gl_pathv[i];
      if (best.empty() || p > best) best = p;
    }
  }
  ::globfree(&g);
  return best.empty() ? "" : best.substr(0, best.size() - std::string("/initdb").size());
}

// Who the server runs as: the postgres account under root, else ourselves.
struct Account {
  uid_t uid;
  gid_t gid;
};

Account ServerAccount() {
  if (::geteuid() != 0) return {::geteuid(), ::getegid()};
  const passwd* pw = ::getpwnam("postgres");
  if (pw == nullptr) return {65534, 65534};  // nobody
  return {pw->pw_uid, pw->pw_gid};
}

// Starts `argv` as `account` with stdout and stderr to `log`.
pid_t Spawn(const std::vector<std::string>& argv, const Account& account, const std::string& log) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd >= 0) {
    ::dup2(fd, 1);
    ::dup2(fd, 2);
  }
  if (::geteuid() == 0 && (::setgid(account.gid) != 0 || ::setuid(account.uid) != 0)) ::_exit(126);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  ::execv(args[0], args.data());
  ::_exit(127);
}

int Wait(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string ReadAll(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  bool exists = false;
  (void)base::ReadWholeFile(path, &bytes, &exists);
  return std::string(bytes.begin(), bytes.end());
}

}  // namespace

Result<std::unique_ptr<ScratchPostgres>> ScratchPostgres::Start(bool tls) {
  const std::string bin = ServerBin();
  if (bin.empty()) {
    return Status::Unavailable(
        "no PostgreSQL server installed (/usr/lib/postgresql/*/bin; apt-get install postgresql)");
  }
  std::unique_ptr<ScratchPostgres> s(new ScratchPostgres());
  char pattern[] = "/tmp/ldpgraph_pg_XXXXXX";
  if (::mkdtemp(pattern) == nullptr) return Status::Unavailable("mkdtemp failed");
  s->dir_ = pattern;
  const Account account = ServerAccount();
  if (::chown(s->dir_.c_str(), account.uid, account.gid) != 0) return Status::Unavailable("chown " + s->dir_);
  const std::string pwfile = s->dir_ + "/password";
  std::ofstream(pwfile) << s->password_ << "\n";
  if (::chown(pwfile.c_str(), account.uid, account.gid) != 0) return Status::Unavailable("chown " + pwfile);
  ::chmod(pwfile.c_str(), 0600);
  const std::string log = s->dir_ + "/server.log";
  if (Wait(Spawn({bin + "/initdb", "-D", s->dir_ + "/data", "-U", "ldpgraph", "--auth=scram-sha-256",
                  "--pwfile=" + pwfile, "-E", "UTF8", "--locale=C", "--no-sync"},
                 account, log)) != 0) {
    return Status::Unavailable("initdb failed: " + ReadAll(log));
  }
  s->port_ = FreeLoopbackPort();
  std::vector<std::string> argv = {bin + "/postgres", "-D", s->dir_ + "/data", "-p", std::to_string(s->port_),
                                   "-k", s->dir_, "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200",
                                   "-c", "shared_buffers=128MB"};
  if (tls) {
    Result<PkiFiles> pki = WriteTestPki(s->dir_ + "/data");
    if (!pki.ok()) return pki.status();
    for (const std::string& f : {pki->server_certificate, pki->server_key, pki->ca_certificate}) {
      if (::chown(f.c_str(), account.uid, account.gid) != 0) return Status::Unavailable("chown " + f);
    }
    ::chmod(pki->server_key.c_str(), 0600);  // the server refuses a key others can read
    s->ca_file_ = pki->ca_certificate;
    for (const std::string& c : {std::string("ssl=on"), "ssl_cert_file=" + pki->server_certificate,
                                 "ssl_key_file=" + pki->server_key}) {
      argv.push_back("-c");
      argv.push_back(c);
    }
  }
  s->argv_ = std::move(argv);
  LDPGRAPH_RETURN_IF_ERROR(s->Launch());
  return s;
}

Status ScratchPostgres::Launch() {
  const std::string log = dir_ + "/server.log";
  // After a crash the old server's backends may take a moment to notice
  // and leave; until they have, a new postmaster refuses to start.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  pid_ = Spawn(argv_, ServerAccount(), log);
  for (;;) {
    if (pg::Connection::Open(Conninfo("postgres"), password_).ok()) return Status::Ok();
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      if (std::chrono::steady_clock::now() > deadline) {
        pid_ = -1;
        return Status::Unavailable("the PostgreSQL server exited: " + ReadAll(log));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      pid_ = Spawn(argv_, ServerAccount(), log);
      continue;
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Unavailable("the PostgreSQL server did not come up in 60 s: " + ReadAll(log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void ScratchPostgres::Signal(int signal) {
  if (pid_ <= 0) return;
  ::kill(pid_, signal);
  Wait(pid_);
  pid_ = -1;
}

void ScratchPostgres::Stop() { Signal(SIGINT); }  // fast shutdown, as pg_ctl stop -m fast

Status ScratchPostgres::StartAgain() { return pid_ > 0 ? Status::Ok() : Launch(); }

Status ScratchPostgres::Restart() {
  Stop();
  return Launch();
}

Status ScratchPostgres::CrashAndRestart() {
  Signal(SIGKILL);
  return Launch();
}

ScratchPostgres::~ScratchPostgres() {
  Stop();  // fast shutdown: active sessions end, no wait for clients
  if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
}

std::string ScratchPostgres::Conninfo(const std::string& database) const {
  return "host=127.0.0.1 port=" + std::to_string(port_) + " dbname=" + database + " user=ldpgraph connect_timeout=10";
}

Status ScratchPostgres::Exec(const std::string& database, const std::string& sql) {
  Result<pg::Connection> c = pg::Connection::Open(Conninfo(database), password_);
  if (!c.ok()) return c.status();
  return c->Exec(sql);
}

Result<std::string> ScratchPostgres::Scalar(const std::string& database, const std::string& sql) {
  Result<pg::Connection> c = pg::Connection::Open(Conninfo(database), password_);
  if (!c.ok()) return c.status();
  Result<pg::QueryResult> r = c->Query(sql, pg::Params(), pg::Format::kText);
  if (!r.ok()) return r.status();
  if (r->rows() != 1) return Status::Internal("expected one row, got " + std::to_string(r->rows()));
  return r->Text(0, 0);
}

Result<std::string> ScratchPostgres::CreateDatabase(const std::string& name) {
  LDPGRAPH_RETURN_IF_ERROR(Exec("postgres", "CREATE DATABASE " + name));
  return Conninfo(name);
}

}  // namespace ldpgraph
