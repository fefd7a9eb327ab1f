// The uploader as an app links it: ldpgraph::transport from the install.
#include <cstdio>

#include "ldpgraph/transport/uploader.h"

int main() {
  ldpgraph::transport::UploaderOptions options;
  options.server.host = "localhost";
  options.server.port = 8443;
  auto uploader = ldpgraph::transport::Uploader::Create(options);
  if (!uploader.ok()) {
    std::fprintf(stderr, "%s\n", uploader.status().message().c_str());
    return 1;
  }
  std::printf("uploader ready, %zu queued\n", (*uploader)->queued());
  return 0;
}
