#include "cli/admin_client.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "util/https_url.h"

namespace ldpgraph {

using nlohmann::json;

Result<AdminConnection> ConnectToAdmin(const Flags& flags) {
  const std::optional<HttpsUrl> url = ParseHttpsUrl(flags.StringOr("daemon", ""));
  if (!url) return Status::InvalidArgument("--daemon https://HOST:PORT is required");
  transport::ServerEndpoint endpoint;
  endpoint.host = url->host;
  endpoint.port = url->port;
  endpoint.ca_file = flags.StringOr("ca", "");
  Result<std::uint64_t> timeout = flags.Unsigned("timeout", 300);
  if (!timeout.ok() || *timeout < 1 || *timeout > 86400) {
    return Status::InvalidArgument("--timeout must be a whole number of seconds in [1, 86400]");
  }
  endpoint.io_timeout_ms = static_cast<std::uint32_t>(*timeout * 1000);
  AdminConnection c;
  if (flags.Has("admin-token-file")) {
    bool ok = false;
    c.token = ReadText(flags.StringOr("admin-token-file", ""), &ok);
    if (!ok || c.token.empty()) {
      return Status::Unavailable("cannot read the admin token from " + flags.StringOr("admin-token-file", ""));
    }
  } else if (const char* env = std::getenv("LDPGRAPH_ADMIN_TOKEN")) {
    c.token = env;
  } else {
    return Status::InvalidArgument("the admin token: --admin-token-file FILE or $LDPGRAPH_ADMIN_TOKEN");
  }
  auto https = transport::HttpsClient::Create(endpoint);
  if (!https.ok()) return Status::Unavailable(https.status().ToString());
  c.https = std::move(*https);
  return c;
}

bool AdminClient::Call(const std::string& method, const std::string& path, const std::string& body, int expected,
                       json* out) {
  auto answer = client_->Request(method, path, body.empty() ? "" : "application/json", body, token_);
  if (!answer.ok()) {
    std::fprintf(stderr, "%s: %s\n", tool_.c_str(), answer.status().ToString().c_str());
    return false;
  }
  const json parsed = json::parse(answer->body, nullptr, false);
  if (answer->status != expected) {
    const std::string message = parsed.is_object() && parsed.contains("message")
                                    ? parsed["message"].get<std::string>()
                                    : answer->body;
    std::fprintf(stderr, "%s: %s %s: HTTP %d: %s\n", tool_.c_str(), method.c_str(), path.c_str(), answer->status,
                 message.c_str());
    return false;
  }
  *out = parsed;
  return true;
}

std::string ReadText(const std::string& path, bool* ok) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  *ok = static_cast<bool>(in) || in.eof();
  std::string s = text.str();
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

void PrintKeyValues(const json& j, const std::string& prefix) {
  for (const auto& [key, value] : j.items()) {
    std::cout << prefix << key << "=" << (value.is_string() ? value.get<std::string>() : value.dump()) << "\n";
  }
}

}  // namespace ldpgraph
