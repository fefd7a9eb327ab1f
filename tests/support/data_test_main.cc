// main() for tests that need ../shared/data: without it they skip (exit 77,
// which ctest reports as skipped) with a message, as on a user's fresh clone.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <sys/stat.h>

#include "support/shared_data.h"

int main(int argc, char** argv) {
  struct stat st;
  if (::stat(ldpgraph::testing::SharedDataDir().c_str(), &st) != 0) {
    std::printf("SKIP: %s not found; this test needs the shared datasets (../shared/data)\n",
                ldpgraph::testing::SharedDataDir().c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
