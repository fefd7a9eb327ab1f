"""The daemon's API over HTTPS, from the standard library alone.

    c = ldpgraph.client.Client("https://127.0.0.1:8443", ca_file="ca.pem",
                               admin_token_file="/etc/ldpgraph/admin.token")
    c.create_graph({"graph_id": 7, "num_users": 1000, ...})
    job = c.wait_for_job(c.train({"task": "node", "graph": 7})["job_id"])

The server's certificate is checked against `ca_file` only (the CA is
pinned; the system's CAs are not trusted), and its name against the URL's
host. Every refusal raises ApiError carrying the daemon's error code
("invalid_json", "over_memory_budget", ...), its HTTP status and message;
429 and 503 carry the Retry-After seconds.
"""

import http.client
import json
import os
import ssl
import time
import urllib.parse
import warnings


def held_graph(adjacency, features, labels, classes=None):
    """The body of PUT /v1/admin/held-graphs/{id} from a scipy adjacency, features (scipy sparse
    or dense) and labels (-1: unknown): each undirected edge once, the non-zero features."""
    import numpy as np
    import scipy.sparse as sp
    upper = sp.triu(sp.csr_matrix(adjacency), k=1).tocoo()
    x = sp.coo_matrix(features)
    labels = np.asarray(labels, dtype=np.int64)
    if classes is None:
        classes = int(labels.max()) + 1
    return {"num_nodes": int(adjacency.shape[0]), "classes": int(classes), "feature_dims": int(x.shape[1]),
            "edges": np.stack([upper.row, upper.col], axis=1).tolist(),
            "features": [[int(r), int(c), float(v)] for r, c, v in zip(x.row, x.col, x.data) if v != 0],
            "labels": labels.tolist()}


class ApiError(Exception):
    """The daemon refused a request: .status (HTTP), .code (the daemon's), .message."""

    def __init__(self, status, code, message, retry_after=None):
        super().__init__("HTTP %d %s: %s" % (status, code, message))
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


_FINISHED = ("succeeded", "failed", "cancelled")


class Client:
    def __init__(self, url, ca_file, admin_token=None, admin_token_file=None, timeout=300):
        parsed = urllib.parse.urlsplit(url)
        if parsed.scheme != "https" or not parsed.hostname:
            raise ValueError("url must be https://HOST[:PORT], got %r" % url)
        if not os.path.isfile(ca_file):
            raise ValueError("ca_file %r is not a file" % (ca_file,))
        if admin_token is not None and admin_token_file is not None:
            raise ValueError("give admin_token or admin_token_file, not both")
        if admin_token_file is not None:
            with open(admin_token_file, encoding="utf-8") as f:
                admin_token = f.read().strip()
            if not admin_token:
                raise ValueError("admin_token_file %r is empty" % admin_token_file)
        self._host = parsed.hostname
        self._port = parsed.port or 443
        self._token = admin_token
        self._timeout = timeout
        self._context = ssl.create_default_context(cafile=ca_file)  # only this CA: no system roots loaded
        self._context.minimum_version = ssl.TLSVersion.TLSv1_2
        self._connection = None

    # ---- transport ------------------------------------------------------------

    def close(self):
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _request(self, method, path, body=None, content_type="application/json", token=None, expect_json=True):
        headers = {}
        bearer = token if token is not None else self._token
        if bearer:  # "" sends none (the public routes)
            headers["Authorization"] = "Bearer " + bearer
        if body is not None:
            if content_type == "application/json":
                body = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = content_type
        for attempt in (0, 1):  # one retry on a connection the daemon closed while idle
            if self._connection is None:
                self._connection = http.client.HTTPSConnection(self._host, self._port, timeout=self._timeout,
                                                               context=self._context)
            try:
                self._connection.request(method, path, body=body, headers=headers)
                response = self._connection.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.close()
                if attempt == 1:
                    raise
        if response.getheader("Connection", "").lower() == "close":
            self.close()
        if response.status >= 400:
            code, message = "http_%d" % response.status, data.decode("utf-8", "replace")
            try:
                parsed = json.loads(data)
                code, message = parsed.get("error", code), parsed.get("message", message)
            except ValueError:
                pass
            retry = response.getheader("Retry-After")
            raise ApiError(response.status, code, message, int(retry) if retry and retry.isdigit() else None)
        if not expect_json:
            return data
        return json.loads(data) if data else None

    # ---- devices and anyone ---------------------------------------------------

    def health(self):
        return self._request("GET", "/healthz")

    def metrics(self):
        """The Prometheus text of /metrics."""
        return self._request("GET", "/metrics", expect_json=False).decode("utf-8")

    def graph_config(self, graph_id):
        """A graph's public configuration: what ldpgraph.device.ReportBuilder takes."""
        return self._request("GET", "/v1/graphs/%d" % graph_id, token="")

    def send_report(self, report_bytes, user_token):
        """Uploads one report (or a batch) with the user's token; stored durably when this returns."""
        return self._request("POST", "/v1/reports", body=bytes(report_bytes),
                             content_type="application/x-ldpgraph-report", token=user_token, expect_json=False)

    def result(self, graph_id, user_token):
        """What the newest model says about the token's own user (her class and probabilities)."""
        return self._request("GET", "/v1/graphs/%d/result" % graph_id, token=user_token)

    # ---- graphs and tokens (admin) -------------------------------------------

    def graphs(self):
        return self._request("GET", "/v1/admin/graphs")

    def create_graph(self, config):
        return self._request("POST", "/v1/admin/graphs", body=config)

    def user_tokens(self, graph_id, users=None, first=None, count=None):
        """{user: token} for the listed users, or for `count` users from `first`."""
        body = {"users": list(users)} if users is not None else {"first": first or 0, "count": count}
        answer = self._request("POST", "/v1/admin/graphs/%d/tokens" % graph_id, body=body)
        return {t["user_id"]: t["token"] for t in answer["tokens"]}

    def set_graph_label(self, graph_id, body):
        return self._request("PUT", "/v1/admin/graphs/%d/label" % graph_id, body=body)

    def set_symmetrisation(self, graph_id, body):
        return self._request("PUT", "/v1/admin/graphs/%d/symmetrise" % graph_id, body=body)

    # ---- rounds (docs/rounds.md) ------------------------------------------------

    def rounds(self, graph_id):
        """The round state of a graph collected in rounds: {"open", "opened_unix", "oldest_kept", ...}."""
        return self._request("GET", "/v1/admin/graphs/%d/rounds" % graph_id)

    def close_round(self, graph_id, close=None):
        """Closes the open round (or, when `close` is given, round `close` if it is the open one) and
        opens the next; the answer names the retraining job the schedule queued, if any."""
        body = {} if close is None else {"close": close}
        return self._request("POST", "/v1/admin/graphs/%d/rounds" % graph_id, body=body)

    # ---- jobs and models ------------------------------------------------------

    def train(self, request):
        """Queues a training job (the CLI's `ldpgraph daemon train`): {"job_id", "state", ...}."""
        return self._request("POST", "/v1/admin/jobs", body=request)

    def submit_job(self, request):
        """Deprecated: train(), the name every face gives it; kept for one release."""
        warnings.warn("Client.submit_job is deprecated: use Client.train", DeprecationWarning, stacklevel=2)
        return self.train(request)

    def jobs(self):
        return self._request("GET", "/v1/admin/jobs")

    def job(self, job_id):
        return self._request("GET", "/v1/admin/jobs/%d" % job_id)

    def cancel_job(self, job_id):
        return self._request("DELETE", "/v1/admin/jobs/%d" % job_id)

    def wait_for_job(self, job_id, poll_seconds=0.5, timeout=None, on_progress=None):
        """Polls a job until it succeeded, failed or was cancelled; on_progress(status) on each poll."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            status = self.job(job_id)
            if on_progress is not None:
                on_progress(status)
            if status.get("state") in _FINISHED:
                return status
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError("job %d is still %s after %s s" % (job_id, status.get("state"), timeout))
            time.sleep(poll_seconds)

    def models(self):
        return self._request("GET", "/v1/admin/models")

    def predict(self, version, request):
        return self._request("POST", "/v1/admin/models/%d/predict" % version, body=request)

    # ---- held graphs, GW, federation -----------------------------------------

    def held_graphs(self):
        return self._request("GET", "/v1/admin/held-graphs")

    def put_held_graph(self, graph_id, graph):
        """Uploads a whole graph the server is trusted with (GAP, FedCog); `graph` as held_graph() makes it."""
        return self._request("PUT", "/v1/admin/held-graphs/%d" % graph_id, body=graph)

    def delete_held_graph(self, graph_id):
        return self._request("DELETE", "/v1/admin/held-graphs/%d" % graph_id)

    def gw(self, request):
        return self._request("POST", "/v1/admin/gw", body=request)

    def gw_nearest(self, request):
        return self._request("POST", "/v1/admin/gw/nearest", body=request)

    def federation_runs(self):
        return self._request("GET", "/v1/admin/federation/runs")

    def start_federation_run(self, request):
        return self._request("POST", "/v1/admin/federation/runs", body=request)

    def federation_run(self, run):
        return self._request("GET", "/v1/admin/federation/runs/%s" % urllib.parse.quote(str(run), safe=""))

    def delete_federation_run(self, run):
        return self._request("DELETE", "/v1/admin/federation/runs/%s" % urllib.parse.quote(str(run), safe=""))

    def federation_models(self):
        return self._request("GET", "/v1/admin/federation/models")

    def federation_model(self, run):
        return self._request("GET", "/v1/admin/federation/models/%s" % urllib.parse.quote(str(run), safe=""))

    def federation_predict(self, run, request):
        return self._request("POST", "/v1/admin/federation/models/%s/predict" % urllib.parse.quote(str(run), safe=""),
                             body=request)

__all__ = [
    "ApiError",
    "Client",
    "held_graph",
]


def __dir__():
    # dir() lists the API alone, not the modules this one imports (PEP 562).
    return list(__all__)
