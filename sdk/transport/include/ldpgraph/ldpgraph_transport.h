/* ldpgraph transport C ABI: the TLS uploader for JNI, Swift and C apps.
 * Same conventions as ldpgraph.h (status codes, ldpgraph_last_error()).
 * An uploader handle may not be shared between threads. */
#ifndef LDPGRAPH_LDPGRAPH_TRANSPORT_H_
#define LDPGRAPH_LDPGRAPH_TRANSPORT_H_

#include <stddef.h>
#include <stdint.h>

#include "ldpgraph/ldpgraph.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ldpgraph_uploader_params {
  const char* host;       /* the daemon's name or address; its certificate must match */
  uint16_t port;
  const char* ca_file;    /* PEM to pin; NULL: the system CAs */
  const char* queue_dir;  /* NULL: no on-disk queue (send only) */
  size_t max_queued_reports;  /* 0: 1024 */
  size_t max_queued_bytes;    /* 0: 16 MiB */
  uint32_t max_retry_ms;      /* total retry time per report; 0: 120000 */
} ldpgraph_uploader_params;

typedef struct ldpgraph_uploader ldpgraph_uploader;

ldpgraph_status ldpgraph_uploader_new(const ldpgraph_uploader_params* params, ldpgraph_uploader** out);
void ldpgraph_uploader_free(ldpgraph_uploader* uploader);

/* Sends now, with retries. *http_status gets the final answer's status;
 * 200 means delivered (stored now or earlier). A permanent refusal is
 * LDPGRAPH_OK with its 4xx status; LDPGRAPH_UNAVAILABLE means the retry time
 * ran out; LDPGRAPH_FAILED_PRECONDITION that the certificate did not verify. */
ldpgraph_status ldpgraph_uploader_send(ldpgraph_uploader* uploader, const char* token, const uint8_t* report,
                                       size_t report_len, int* http_status);

/* Durably queues a report (LDPGRAPH_RESOURCE_EXHAUSTED when the queue is full). */
ldpgraph_status ldpgraph_uploader_enqueue(ldpgraph_uploader* uploader, const char* token, const uint8_t* report,
                                          size_t report_len);

/* Sends the queue, oldest first. Counts may be NULL. */
ldpgraph_status ldpgraph_uploader_flush(ldpgraph_uploader* uploader, size_t* delivered, size_t* refused,
                                        size_t* remaining);

size_t ldpgraph_uploader_queued(const ldpgraph_uploader* uploader);

#ifdef __cplusplus
}
#endif

#endif /* LDPGRAPH_LDPGRAPH_TRANSPORT_H_ */
