/* The uploader's C ABI, from C: argument errors, a durable queue across
 * handles, and a bounded give-up when nothing listens. (Delivery to a real
 * daemon through this ABI is in tests/integration/daemon_test.cc.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ldpgraph/ldpgraph_transport.h"

static int failures = 0;
#define EXPECT(cond)                                                   \
  do {                                                                 \
    if (!(cond)) {                                                     \
      fprintf(stderr, "%s:%d: EXPECT(%s) failed: %s\n", __FILE__,     \
              __LINE__, #cond, ldpgraph_last_error());                 \
      ++failures;                                                      \
    }                                                                  \
  } while (0)

int main(void) {
  ldpgraph_uploader* u = NULL;
  ldpgraph_uploader_params p;
  memset(&p, 0, sizeof p);
  EXPECT(ldpgraph_uploader_new(NULL, &u) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(ldpgraph_uploader_new(&p, &u) == LDPGRAPH_INVALID_ARGUMENT); /* no host */
  p.host = "127.0.0.1";
  p.port = 1; /* nothing listens there */
  p.ca_file = "/nonexistent/ca.pem";
  EXPECT(ldpgraph_uploader_new(&p, &u) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(strstr(ldpgraph_last_error(), "/nonexistent/ca.pem") != NULL);

  char dir[] = "/tmp/ldpgraph_c_uploader_XXXXXX";
  EXPECT(mkdtemp(dir) != NULL);
  char queue[64];
  snprintf(queue, sizeof queue, "%s/q", dir);
  p.ca_file = NULL;
  p.queue_dir = queue;
  p.max_queued_reports = 2;
  p.max_retry_ms = 150;
  EXPECT(ldpgraph_uploader_new(&p, &u) == LDPGRAPH_OK);
  const uint8_t report[] = {0x4C, 0x47, 0x01, 0x00};
  EXPECT(ldpgraph_uploader_enqueue(u, "token-a", report, sizeof report) == LDPGRAPH_OK);
  EXPECT(ldpgraph_uploader_enqueue(u, "token-b", report, sizeof report) == LDPGRAPH_OK);
  EXPECT(ldpgraph_uploader_enqueue(u, "token-c", report, sizeof report) == LDPGRAPH_RESOURCE_EXHAUSTED);
  EXPECT(ldpgraph_uploader_enqueue(u, NULL, report, sizeof report) == LDPGRAPH_INVALID_ARGUMENT);
  EXPECT(ldpgraph_uploader_queued(u) == 2);
  int status = -1;
  EXPECT(ldpgraph_uploader_send(u, "token-a", report, sizeof report, &status) == LDPGRAPH_UNAVAILABLE);
  EXPECT(strstr(ldpgraph_last_error(), "gave up") != NULL);
  size_t delivered = 9, refused = 9, remaining = 9;
  EXPECT(ldpgraph_uploader_flush(u, &delivered, &refused, &remaining) == LDPGRAPH_OK);
  EXPECT(delivered == 0 && refused == 0 && remaining == 2);
  ldpgraph_uploader_free(u);

  /* A new handle (an app restart) finds both reports still queued. */
  u = NULL;
  EXPECT(ldpgraph_uploader_new(&p, &u) == LDPGRAPH_OK);
  EXPECT(ldpgraph_uploader_queued(u) == 2);
  ldpgraph_uploader_free(u);
  ldpgraph_uploader_free(NULL);
  EXPECT(ldpgraph_uploader_queued(NULL) == 0);

  char command[128];
  snprintf(command, sizeof command, "rm -rf '%s'", dir);
  if (system(command) != 0) ++failures;
  if (failures == 0) printf("transport C ABI: all checks passed\n");
  return failures == 0 ? 0 : 1;
}
