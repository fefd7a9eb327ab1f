// The transport's C ABI over transport::Uploader.
#include "ldpgraph/ldpgraph_transport.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "internal/c_error.h"
#include "ldpgraph/graph_config_codec.h"
#include "ldpgraph/transport/uploader.h"

struct ldpgraph_uploader {
  std::unique_ptr<ldpgraph::transport::Uploader> uploader;
};

namespace {

ldpgraph_status Fail(ldpgraph_status code, std::string message) {
  ldpgraph::internal::LastCError() = std::move(message);
  return code;
}

ldpgraph_status FromStatus(const ldpgraph::Status& s) {
  if (s.ok()) return LDPGRAPH_OK;
  return Fail(static_cast<ldpgraph_status>(s.code()), s.message());
}

}  // namespace

extern "C" {

ldpgraph_status ldpgraph_uploader_new(const ldpgraph_uploader_params* p, ldpgraph_uploader** out) {
  if (p == nullptr || out == nullptr) return Fail(LDPGRAPH_INVALID_ARGUMENT, "params and out must not be NULL");
  if (p->host == nullptr) return Fail(LDPGRAPH_INVALID_ARGUMENT, "host must not be NULL");
  ldpgraph::transport::UploaderOptions o;
  o.server.host = p->host;
  o.server.port = p->port;
  if (p->ca_file) o.server.ca_file = p->ca_file;
  if (p->queue_dir) o.queue_dir = p->queue_dir;
  if (p->max_queued_reports) o.max_queued_reports = p->max_queued_reports;
  if (p->max_queued_bytes) o.max_queued_bytes = p->max_queued_bytes;
  if (p->max_retry_ms) o.retry.max_total_ms = p->max_retry_ms;
  auto u = ldpgraph::transport::Uploader::Create(o);
  if (!u.ok()) return FromStatus(u.status());
  *out = new ldpgraph_uploader{std::move(*u)};
  return LDPGRAPH_OK;
}

void ldpgraph_uploader_free(ldpgraph_uploader* uploader) { delete uploader; }

ldpgraph_status ldpgraph_uploader_send(ldpgraph_uploader* u, const char* token, const uint8_t* report,
                                       size_t report_len, int* http_status) {
  if (u == nullptr || token == nullptr || report == nullptr) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "uploader, token and report must not be NULL");
  }
  auto sent = u->uploader->Send(token, std::vector<std::uint8_t>(report, report + report_len));
  if (!sent.ok()) return FromStatus(sent.status());
  if (http_status) *http_status = sent->http_status;
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_uploader_enqueue(ldpgraph_uploader* u, const char* token, const uint8_t* report,
                                          size_t report_len) {
  if (u == nullptr || token == nullptr || report == nullptr) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "uploader, token and report must not be NULL");
  }
  return FromStatus(u->uploader->Enqueue(token, std::vector<std::uint8_t>(report, report + report_len)));
}

ldpgraph_status ldpgraph_uploader_flush(ldpgraph_uploader* u, size_t* delivered, size_t* refused,
                                        size_t* remaining) {
  if (u == nullptr) return Fail(LDPGRAPH_INVALID_ARGUMENT, "uploader must not be NULL");
  auto summary = u->uploader->Flush();
  if (!summary.ok()) return FromStatus(summary.status());
  if (delivered) *delivered = summary->delivered;
  if (refused) *refused = summary->refused;
  if (remaining) *remaining = summary->remaining;
  return LDPGRAPH_OK;
}

size_t ldpgraph_uploader_queued(const ldpgraph_uploader* u) { return u ? u->uploader->queued() : 0; }

ldpgraph_status ldpgraph_uploader_fetch_config(ldpgraph_uploader* u, uint64_t graph_id, uint8_t* out,
                                               size_t capacity, size_t* len) {
  if (u == nullptr || len == nullptr) return Fail(LDPGRAPH_INVALID_ARGUMENT, "uploader and len must not be NULL");
  if (out == nullptr && capacity > 0) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "out must not be NULL when capacity is above 0");
  }
  auto config = u->uploader->FetchGraphConfig(graph_id);
  if (!config.ok()) return FromStatus(config.status());
  std::vector<std::uint8_t> bytes;
  if (ldpgraph::Status s = ldpgraph::EncodeGraphConfig(*config, &bytes); !s.ok()) return FromStatus(s);
  *len = bytes.size();
  if (capacity < bytes.size()) {
    return Fail(LDPGRAPH_BUFFER_TOO_SMALL, "the configuration takes " + std::to_string(bytes.size()) +
                                               " bytes; out holds " + std::to_string(capacity));
  }
  std::copy(bytes.begin(), bytes.end(), out);
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_uploader_fetch_open_round(ldpgraph_uploader* u, uint64_t graph_id, uint32_t* round) {
  if (u == nullptr || round == nullptr) return Fail(LDPGRAPH_INVALID_ARGUMENT, "uploader and round must not be NULL");
  auto open = u->uploader->FetchOpenRound(graph_id);
  if (!open.ok()) return FromStatus(open.status());
  *round = *open;
  return LDPGRAPH_OK;
}

ldpgraph_status ldpgraph_uploader_fetch_result(ldpgraph_uploader* u, uint64_t graph_id, const char* token,
                                               ldpgraph_device_result* result, double* probabilities,
                                               size_t capacity, size_t* classes) {
  if (u == nullptr || token == nullptr || result == nullptr || classes == nullptr) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "uploader, token, result and classes must not be NULL");
  }
  if (probabilities == nullptr && capacity > 0) {
    return Fail(LDPGRAPH_INVALID_ARGUMENT, "probabilities must not be NULL when capacity is above 0");
  }
  auto fetched = u->uploader->FetchResult(graph_id, token);
  if (!fetched.ok()) return FromStatus(fetched.status());
  *classes = fetched->probabilities.size();
  if (capacity < fetched->probabilities.size()) {
    return Fail(LDPGRAPH_RESOURCE_EXHAUSTED, "the result has " + std::to_string(*classes) +
                                                 " classes; probabilities holds " + std::to_string(capacity));
  }
  result->graph_id = fetched->graph_id;
  result->user_id = fetched->user_id;
  result->task = static_cast<int>(fetched->task);
  result->model_version = fetched->model_version;
  result->trained_at = fetched->trained_at;
  result->class_index = fetched->class_index;
  result->class_label = fetched->class_label;
  std::copy(fetched->probabilities.begin(), fetched->probabilities.end(), probabilities);
  return LDPGRAPH_OK;
}

}  // extern "C"
