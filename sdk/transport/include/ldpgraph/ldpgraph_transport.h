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

/* The binary configuration of graph `graph_id` as the daemon serves it,
 * validated, into `out` (capacity `capacity`); *len gets its size.
 * LDPGRAPH_BUFFER_TOO_SMALL when `capacity` is too small (*len says how much
 * is needed); LDPGRAPH_FAILED_PRECONDITION for an unknown graph. Then
 * ldpgraph_graph_from_config makes the graph to build reports with. */
ldpgraph_status ldpgraph_uploader_fetch_config(ldpgraph_uploader* uploader, uint64_t graph_id, uint8_t* out,
                                               size_t capacity, size_t* len);

/* The round graph `graph_id` takes reports of now, into *round: the round
 * to pass ldpgraph_ledger_report_round (0 for a graph collected once, whose
 * users report once with ldpgraph_ledger_report). It changes when the daemon
 * closes a round: fetch it before each report. LDPGRAPH_FAILED_PRECONDITION
 * for an unknown graph. */
ldpgraph_status ldpgraph_uploader_fetch_open_round(ldpgraph_uploader* uploader, uint64_t graph_id, uint32_t* round);

/* A device's own result: what the latest model covering graph `graph_id`
 * says about the user `token` belongs to (Uploader::FetchResult). */
typedef struct ldpgraph_device_result {
  uint64_t graph_id;
  uint32_t user_id;
  int task;               /* 1: her own class (node model); 2: her graph's (graph model) */
  uint64_t model_version;
  int64_t trained_at;     /* seconds since 1970, UTC */
  uint32_t class_index;   /* the most probable class, an index into the probabilities */
  int64_t class_label;    /* its label */
} ldpgraph_device_result;

/* Fills *result and up to `capacity` class probabilities; *classes gets
 * their number. LDPGRAPH_RESOURCE_EXHAUSTED when `capacity` is too small
 * (*classes says how many are needed, nothing else is written);
 * LDPGRAPH_FAILED_PRECONDITION while no model covers her yet, or for a token
 * the daemon refuses; LDPGRAPH_UNAVAILABLE when retries ran out.
 * `probabilities` may be NULL when `capacity` is 0. */
ldpgraph_status ldpgraph_uploader_fetch_result(ldpgraph_uploader* uploader, uint64_t graph_id, const char* token,
                                               ldpgraph_device_result* result, double* probabilities,
                                               size_t capacity, size_t* classes);

#ifdef __cplusplus
}
#endif

#endif /* LDPGRAPH_LDPGRAPH_TRANSPORT_H_ */
