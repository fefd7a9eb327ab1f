/* A Linux IoT board's ldpgraph client in plain C (built for armhf: see
 * docs/sdk.md). Two commands, as a device runs them days apart:
 *
 *   iot_device report --daemon HOST:PORT --ca CA.pem --graph ID --user U --token-file F
 *                     --friends FILE [--features FILE] [--label K] --ledger FILE
 *       fetches the graph's configuration, randomizes the user's friend list
 *       (and features and label, when the graph collects them) through the
 *       budget ledger, and uploads the report over TLS. Run again, it sends
 *       the same bytes: the ledger never randomizes the same data twice.
 *
 *   iot_device result --daemon HOST:PORT --ca CA.pem --graph ID --token-file F
 *       what the latest model says about this user: her class and its
 *       probabilities.
 *
 * FILE holds numbers separated by white space. Prints key=value lines;
 * exits 1 with the reason on standard error. */
#include <ldpgraph/ldpgraph.h>
#include <ldpgraph/ldpgraph_transport.h>

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char* command;
  char host[256];
  uint16_t port;
  const char* ca;
  uint64_t graph;
  uint32_t user;
  const char* token_file;
  const char* friends;
  const char* features;
  long label; /* -1: none */
  const char* ledger;
} Options;

static int Fail(const char* what) {
  fprintf(stderr, "iot_device: %s\n", what);
  return 1;
}

static int FailSdk(const char* step) {
  fprintf(stderr, "iot_device: %s: %s\n", step, ldpgraph_last_error());
  return 1;
}

/* Reads the numbers of `path` into a growing array; NULL on error. */
static double* ReadNumbers(const char* path, size_t* count) {
  FILE* f = fopen(path, "r");
  if (f == NULL) return NULL;
  size_t capacity = 64;
  double* values = malloc(capacity * sizeof *values);
  *count = 0;
  double v;
  while (values != NULL && fscanf(f, "%lf", &v) == 1) {
    if (*count == capacity) {
      double* grown = realloc(values, 2 * capacity * sizeof *values);
      if (grown == NULL) break;
      values = grown;
      capacity *= 2;
    }
    values[(*count)++] = v;
  }
  const int clean_end = feof(f);
  fclose(f);
  if (!clean_end) { /* a word that is not a number, or out of memory */
    free(values);
    return NULL;
  }
  return values;
}

static int ReadToken(const char* path, char* token, size_t capacity) {
  FILE* f = fopen(path, "r");
  if (f == NULL || fgets(token, (int)capacity, f) == NULL) {
    if (f) fclose(f);
    return 0;
  }
  fclose(f);
  token[strcspn(token, "\r\n")] = '\0';
  return token[0] != '\0';
}

static int ParseOptions(int argc, char** argv, Options* o) {
  static const struct option kOptions[] = {
      {"daemon", required_argument, 0, 'd'},   {"ca", required_argument, 0, 'c'},
      {"graph", required_argument, 0, 'g'},    {"user", required_argument, 0, 'u'},
      {"token-file", required_argument, 0, 't'}, {"friends", required_argument, 0, 'f'},
      {"features", required_argument, 0, 'x'}, {"label", required_argument, 0, 'l'},
      {"ledger", required_argument, 0, 'L'},   {0, 0, 0, 0}};
  memset(o, 0, sizeof *o);
  o->label = -1;
  if (argc < 2) return 0;
  o->command = argv[1];
  optind = 2;
  int c;
  while ((c = getopt_long(argc, argv, "", kOptions, NULL)) != -1) {
    char* end = NULL;
    switch (c) {
      case 'd': {
        const char* colon = strrchr(optarg, ':');
        unsigned long port = colon ? strtoul(colon + 1, &end, 10) : 0;
        if (colon == NULL || colon == optarg || (size_t)(colon - optarg) >= sizeof o->host || *end != '\0' ||
            port == 0 || port > 65535) {
          return 0;
        }
        memcpy(o->host, optarg, (size_t)(colon - optarg));
        o->port = (uint16_t)port;
        break;
      }
      case 'c': o->ca = optarg; break;
      case 'g': o->graph = strtoull(optarg, &end, 10); if (*end != '\0') return 0; break;
      case 'u': {
        unsigned long u = strtoul(optarg, &end, 10);
        if (*end != '\0' || u > UINT32_MAX) return 0;
        o->user = (uint32_t)u;
        break;
      }
      case 't': o->token_file = optarg; break;
      case 'f': o->friends = optarg; break;
      case 'x': o->features = optarg; break;
      case 'l': o->label = strtol(optarg, &end, 10); if (*end != '\0' || o->label < 0) return 0; break;
      case 'L': o->ledger = optarg; break;
      default: return 0;
    }
  }
  const int common = o->host[0] != '\0' && o->ca != NULL && o->token_file != NULL;
  if (strcmp(o->command, "report") == 0) return common && o->friends != NULL && o->ledger != NULL;
  return strcmp(o->command, "result") == 0 && common;
}

static int Report(const Options* o, ldpgraph_uploader* uploader, const char* token) {
  uint8_t config[4096];
  size_t config_len = 0;
  if (ldpgraph_uploader_fetch_config(uploader, o->graph, config, sizeof config, &config_len) != LDPGRAPH_OK) {
    return FailSdk("fetching the graph's configuration");
  }
  ldpgraph_graph* graph = NULL;
  if (ldpgraph_graph_from_config(config, config_len, &graph) != LDPGRAPH_OK) return FailSdk("the configuration");

  size_t friend_count = 0, feature_count = 0;
  double* friends = ReadNumbers(o->friends, &friend_count);
  double* features = o->features ? ReadNumbers(o->features, &feature_count) : NULL;
  uint32_t* ids = malloc((friend_count + 1) * sizeof *ids);
  int status = 1;
  if (friends == NULL || ids == NULL || (o->features != NULL && features == NULL)) {
    Fail("cannot read the friends or features file (numbers separated by white space)");
    goto done;
  }
  for (size_t i = 0; i < friend_count; ++i) {
    if (friends[i] < 0 || friends[i] > UINT32_MAX || friends[i] != floor(friends[i])) {
      Fail("a friend id is not an unsigned 32-bit integer");
      goto done;
    }
    ids[i] = (uint32_t)friends[i];
  }

  ldpgraph_rng* rng = NULL;
  ldpgraph_ledger* ledger = NULL;
  if (ldpgraph_rng_new_os(&rng) != LDPGRAPH_OK || ldpgraph_ledger_open_file(o->ledger, INFINITY, &ledger) != LDPGRAPH_OK) {
    FailSdk("the random source or the ledger");
    ldpgraph_rng_free(rng);
    goto done;
  }
  ldpgraph_user_data me = {o->user, ids, friend_count, features, feature_count, o->label >= 0,
                           o->label >= 0 ? (uint32_t)o->label : 0};
  /* Most reports are a few hundred bytes; the ledger keeps a larger one and
   * says how much room it needs. */
  size_t capacity = 4096, len = 0;
  uint8_t* bytes = malloc(capacity);
  ldpgraph_status s = bytes ? ldpgraph_ledger_report(ledger, graph, rng, &me, bytes, capacity, &len) : LDPGRAPH_INTERNAL;
  if (s == LDPGRAPH_BUFFER_TOO_SMALL) {
    free(bytes);
    capacity = len;
    bytes = malloc(capacity);
    s = bytes ? ldpgraph_ledger_report(ledger, graph, rng, &me, bytes, capacity, &len) : LDPGRAPH_INTERNAL;
  }
  if (s != LDPGRAPH_OK) {
    FailSdk("building the report");
  } else {
    int http = 0;
    if (ldpgraph_uploader_send(uploader, token, bytes, len, &http) != LDPGRAPH_OK) {
      FailSdk("uploading");
    } else if (http != 200) {
      fprintf(stderr, "iot_device: the daemon refused the report: HTTP %d\n", http);
    } else {
      printf("uploaded=1\nhttp_status=%d\nreport_bytes=%zu\nepsilon_spent=%g\n", http, len, ldpgraph_ledger_spent(ledger));
      status = 0;
    }
  }
  free(bytes);
  ldpgraph_ledger_free(ledger);
  ldpgraph_rng_free(rng);
done:
  free(ids);
  free(friends);
  free(features);
  ldpgraph_graph_free(graph);
  return status;
}

static int Result(const Options* o, ldpgraph_uploader* uploader, const char* token) {
  ldpgraph_device_result r;
  double probabilities[16];
  size_t classes = 0;
  if (ldpgraph_uploader_fetch_result(uploader, o->graph, token, &r, probabilities, 16, &classes) != LDPGRAPH_OK) {
    return FailSdk("fetching the result");
  }
  printf("user_id=%u\nmodel_version=%llu\nclass_index=%u\nclass_label=%lld\nprobabilities=", (unsigned)r.user_id,
         (unsigned long long)r.model_version, (unsigned)r.class_index, (long long)r.class_label);
  for (size_t k = 0; k < classes; ++k) printf("%s%.9g", k ? "," : "", probabilities[k]);
  printf("\n");
  return 0;
}

int main(int argc, char** argv) {
  Options o;
  if (!ParseOptions(argc, argv, &o)) {
    fprintf(stderr,
            "usage: iot_device report --daemon HOST:PORT --ca CA.pem --graph ID --user U --token-file F\n"
            "                         --friends FILE [--features FILE] [--label K] --ledger FILE\n"
            "       iot_device result --daemon HOST:PORT --ca CA.pem --graph ID --token-file F\n");
    return 2;
  }
  char token[512];
  if (!ReadToken(o.token_file, token, sizeof token)) return Fail("cannot read the token file");
  ldpgraph_uploader_params params;
  memset(&params, 0, sizeof params);
  params.host = o.host;
  params.port = o.port;
  params.ca_file = o.ca;
  params.max_retry_ms = 30000;
  ldpgraph_uploader* uploader = NULL;
  if (ldpgraph_uploader_new(&params, &uploader) != LDPGRAPH_OK) return FailSdk("the uploader");
  const int status = strcmp(o.command, "report") == 0 ? Report(&o, uploader, token) : Result(&o, uploader, token);
  ldpgraph_uploader_free(uploader);
  return status;
}
