#include "support/daemon_process.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace ldpgraph {
namespace testing {

DaemonProcess::DaemonProcess(std::string binary, std::string dir, DaemonSettings settings)
    : binary_(std::move(binary)), dir_(std::move(dir)), settings_(std::move(settings)) {
  auto pki = WriteTestPki(dir_);
  if (pki.ok()) pki_ = *pki;
  std::ofstream(dir_ + "/secret") << kSecret;
  std::ofstream(dir_ + "/admin-token") << kAdminToken;
}

DaemonProcess::~DaemonProcess() {
  if (running()) Kill();
}

void DaemonProcess::WriteConfig() {
  std::ofstream out(dir_ + "/ldpgraphd.toml");
  out << "[server]\nlisten_address = \"" << settings_.listen_address << "\"\nlisten_port = " << port_ << "\nthreads = 2\n"
      << settings_.extra_server << "\n[tls]\ncertificate = \"server.crt\"\nprivate_key = \"server.key\"\n";
  if (!settings_.client_ca.empty()) out << "client_ca = \"" << settings_.client_ca << "\"\n";
  out << settings_.extra_tls;
  out << "\n[store]\n" << settings_.store << settings_.extra_store
      << "\n[auth]\nsecret_file = \"secret\"\nadmin_token_file = \"admin-token\"\n"
      << "\n[limits]\n" << settings_.limits << "\n[log]\nformat = \"json\"\n" << settings_.extra_log << "\n" << settings_.extra_sections;
}

std::string DaemonProcess::log() const {
  std::ifstream in(dir_ + "/daemon.log");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string DaemonProcess::run_log() const {
  const std::string all = log();
  return all.size() >= log_offset_ ? all.substr(log_offset_) : all;
}

bool DaemonProcess::Start() {
  WriteConfig();
  log_offset_ = log().size();
  const std::string config = dir_ + "/ldpgraphd.toml";
  const std::string log_path = dir_ + "/daemon.log";
  pid_ = ::fork();
  if (pid_ == 0) {
    const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    ::dup2(fd, STDERR_FILENO);
    ::dup2(fd, STDOUT_FILENO);
    for (const auto& [name, value] : settings_.env) ::setenv(name.c_str(), value.c_str(), 1);
    if (settings_.descriptor_limit > 0) {
      const rlimit limit{settings_.descriptor_limit, settings_.descriptor_limit};
      ::setrlimit(RLIMIT_NOFILE, &limit);
    }
    ::execl(binary_.c_str(), binary_.c_str(), "--config", config.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = log().substr(log_offset_);
    const std::size_t at = text.find("\"event\":\"listening\"");
    // Only a whole line: a read may race the daemon's write of it (a line
    // across a page boundary can show its first part alone).
    const std::size_t end = at == std::string::npos ? at : text.find('\n', at);
    if (end != std::string::npos) {
      const std::size_t p = text.find("\"port\":\"", at);
      if (p == std::string::npos || p > end) {
        std::fprintf(stderr, "DaemonProcess: a listening line without a port: %s\n", text.substr(at, end - at).c_str());
        return false;
      }
      port_ = static_cast<std::uint16_t>(std::stoi(text.substr(p + 8)));
      return true;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      std::fprintf(stderr, "DaemonProcess: ldpgraphd exited (status %d) before listening; its log since the start:\n%s\n",
                   status, log().substr(log_offset_).c_str());
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::fprintf(stderr, "DaemonProcess: ldpgraphd did not listen within 20 s; its log since the start:\n%s\n",
               log().substr(log_offset_).c_str());
  return false;
}

int DaemonProcess::Stop() {
  if (!running()) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

transport::ServerEndpoint DaemonProcess::endpoint() const {
  transport::ServerEndpoint e;
  e.host = "127.0.0.1";
  e.port = port_;
  e.ca_file = pki_.ca_certificate;
  return e;
}

void DaemonProcess::Signal(int signal) {
  if (running()) ::kill(pid_, signal);
}

void DaemonProcess::Kill() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

}  // namespace testing
}  // namespace ldpgraph
