#include "testbed/loopback_federation.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "federation/federation_config.h"
#include "gap/held_graph_json.h"

namespace ldpgraph {
namespace {

using nlohmann::json;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

std::string LoopbackFederationToml(const std::vector<std::string>& names, const std::vector<std::uint16_t>& ports,
                                   std::size_t self, const FederationPkiFiles& pki, std::uint32_t party_timeout_ms) {
  std::string peers;
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (j == self) continue;
    peers += std::string(peers.empty() ? "" : ",\n") + "  { name = \"" + names[j] + "\", url = \"https://127.0.0.1:" +
             std::to_string(ports[j]) + "\" }";
  }
  return "[federation]\nparty = \"" + names[self] + "\"\nlisten_port = " + std::to_string(ports[self]) +
         "\nca = \"" + pki.ca_certificate + "\"\ncertificate = \"" + pki.certificates[self] + "\"\nprivate_key = \"" +
         pki.keys[self] + "\"\nparty_timeout_ms = " + std::to_string(party_timeout_ms) + "\npeers = [\n" + peers +
         "\n]\n";
}

Result<std::unique_ptr<LoopbackFederation>> LoopbackFederation::Start(const std::string& ldpgraphd,
                                                                      const std::string& dir, int parties) {
  std::unique_ptr<LoopbackFederation> f(new LoopbackFederation());
  f->token_ = "loopback-admin-token-0123456789";
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return Status::Unavailable("cannot make " + dir + ": " + error.message());
  for (int i = 0; i < parties; ++i) f->names_.push_back("p" + std::to_string(i));
  Result<FederationPkiFiles> pki = WriteTestFederationPki(dir, f->names_);
  if (!pki.ok()) return pki.status();
  std::vector<std::uint16_t> ports;
  for (int i = 0; i < parties; ++i) ports.push_back(FreeLoopbackPort());
  for (int i = 0; i < parties; ++i) {
    const std::string home = dir + "/" + f->names_[static_cast<std::size_t>(i)];
    std::filesystem::create_directories(home, error);
    Result<PkiFiles> server = WriteTestPki(home, "ldpgraph loopback admin CA");
    if (!server.ok()) return server.status();
    std::ofstream(home + "/secret") << "loopback-secret-0123456789abcdef0123456789";
    std::ofstream(home + "/admin-token") << f->token_;
    std::ofstream(home + "/ldpgraphd.toml")
        << "[server]\nlisten_address = \"127.0.0.1\"\nlisten_port = 0\nthreads = 1\n"
        << "[tls]\ncertificate = \"server.crt\"\nprivate_key = \"server.key\"\n"
        << "[store]\npath = \"store.db\"\n[auth]\nsecret_file = \"secret\"\nadmin_token_file = \"admin-token\"\n"
        << "[log]\nformat = \"json\"\n"
        << LoopbackFederationToml(f->names_, ports, static_cast<std::size_t>(i), *pki, FederationConfig{}.party_timeout_ms);
    const std::string log = home + "/daemon.log";
    const pid_t pid = ::fork();
    if (pid == 0) {
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
      ::dup2(fd, STDERR_FILENO);
      ::dup2(fd, STDOUT_FILENO);
      const std::string config = home + "/ldpgraphd.toml";
      ::execl(ldpgraphd.c_str(), ldpgraphd.c_str(), "--config", config.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    if (pid < 0) return Status::Unavailable("cannot start " + ldpgraphd);
    f->pids_.push_back(pid);
    // The admin port it bound, from its "listening" line.
    std::uint16_t port = 0;
    for (int wait = 0; wait < 2000 && port == 0; ++wait) {
      const std::string text = ReadAll(log);
      const std::size_t at = text.find("\"event\":\"listening\"");
      const std::size_t end = at == std::string::npos ? at : text.find('\n', at);
      if (end != std::string::npos) {
        const std::size_t p = text.find("\"port\":\"", at);
        if (p != std::string::npos && p < end) port = static_cast<std::uint16_t>(std::stoi(text.substr(p + 8)));
        break;
      }
      int status = 0;
      if (::waitpid(pid, &status, WNOHANG) == pid) {
        f->pids_.back() = -1;
        return Status::Unavailable("ldpgraphd " + f->names_[static_cast<std::size_t>(i)] + " exited; see " + log);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (port == 0) return Status::Unavailable("ldpgraphd did not listen within 20 s; see " + log);
    transport::ServerEndpoint e;
    e.host = "127.0.0.1";
    e.port = port;
    e.ca_file = server->ca_certificate;
    e.io_timeout_ms = 60000;
    Result<std::unique_ptr<transport::HttpsClient>> client = transport::HttpsClient::Create(e);
    if (!client.ok()) return client.status();
    f->admins_.push_back(std::move(client).value());
  }
  return f;
}

LoopbackFederation::~LoopbackFederation() {
  for (pid_t pid : pids_) {
    if (pid > 0) ::kill(pid, SIGTERM);
  }
  for (pid_t pid : pids_) {
    int status = 0;
    if (pid > 0) ::waitpid(pid, &status, 0);
  }
}

Result<transport::HttpAnswer> LoopbackFederation::Admin(std::size_t party, const std::string& method,
                                                        const std::string& path, const std::string& body) {
  return admins_[party]->Request(method, path, body.empty() ? "" : "application/json", body, token_);
}

Status LoopbackFederation::Upload(std::size_t party, std::uint64_t id, const HeldGraphParts& share) {
  Result<transport::HttpAnswer> a =
      Admin(party, "PUT", "/v1/admin/held-graphs/" + std::to_string(id), HeldGraphUploadJson(share));
  if (!a.ok()) return a.status();
  if (a->status != 201) return Status::FailedPrecondition("party " + names_[party] + ": upload: " + a->body);
  return Status::Ok();
}

Result<std::string> LoopbackFederation::Run(const std::string& request) {
  Result<transport::HttpAnswer> a = Admin(0, "POST", "/v1/admin/federation/runs", request);
  if (!a.ok()) return a.status();
  if (a->status != 202) return Status::FailedPrecondition("starting a run: " + a->body);
  const std::string path = "/v1/admin/federation/runs/" + json::parse(a->body)["run"].dump();
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    Result<transport::HttpAnswer> s = Admin(0, "GET", path, "");
    if (!s.ok()) return s.status();
    const json status = json::parse(s->body, nullptr, false);
    if (!status.is_object()) return Status::FailedPrecondition("run status: " + s->body);
    if (status.value("state", "") != "running") return s->body;
  }
}

}  // namespace ldpgraph
