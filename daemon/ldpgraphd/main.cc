// ldpgraphd: the ldpgraph server. See docs/ldpgraphd.example.toml and the
// README's "Run the daemon as a service".
#include <cstdio>
#include <cstring>
#include <string>

#include "service/daemon.h"

namespace {
void Usage(std::FILE* out) {
  std::fprintf(out,
               "usage: ldpgraphd --config FILE\n"
               "       ldpgraphd --check-config FILE   (parse and check, then exit)\n"
               "       ldpgraphd --version\n");
}
}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("ldpgraphd %s\n", LDPGRAPH_VERSION);
    return 0;
  }
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    Usage(stdout);
    return 0;
  }
  if (argc != 3 || (std::strcmp(argv[1], "--config") != 0 && std::strcmp(argv[1], "--check-config") != 0)) {
    Usage(stderr);
    return 2;
  }
  auto config = ldpgraph::LoadDaemonConfig(argv[2]);
  if (!config.ok()) {
    std::fprintf(stderr, "ldpgraphd: %s\n", config.status().message().c_str());
    return 2;
  }
  if (std::strcmp(argv[1], "--check-config") == 0) {
    std::printf("config ok: listening on %s:%u, store %s\n", config->listen_address.c_str(),
                static_cast<unsigned>(config->listen_port), config->store_path.c_str());
    return 0;
  }
  return ldpgraph::RunDaemon(*config);
}
