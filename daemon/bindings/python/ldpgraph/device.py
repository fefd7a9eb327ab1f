"""The mechanisms a device runs, one user at a time or over a whole graph.

Everything here is the SDK's own code (what runs on a phone), bound to
Python. One user: EdgeRandomizer, MultiBitEncoder, LabelRandomizer and
ReportBuilder draw from an Rng (the OS CSPRNG unless seeded). A whole graph:
perturb_graph, link_reports, perturb_features and perturb_labels perturb
every user exactly as her device would.

Seeds are for tests and experiments: anyone who knows one can undo the
noise, so a real device never seeds.
"""

import json

import numpy as np

from . import _arrays, _ldpgraph

Rng = _ldpgraph.Rng
EdgeRandomizer = _ldpgraph.EdgeRandomizer
MultiBitEncoder = _ldpgraph.MultiBitEncoder
MultiBitRectifier = _ldpgraph.MultiBitRectifier
LabelRandomizer = _ldpgraph.LabelRandomizer
Report = _ldpgraph.Report
LinkReports = _ldpgraph.LinkReports
BudgetExhausted = _ldpgraph.BudgetExhausted

MECHANISMS = ("dprr", "dprr-fixed", "rr", "rr-degree", "locallap", "none")


def perturb_graph(adjacency, mechanism="dprr", epsilon=1.0, seed=None, n_max=0):
    """Every user's friend list through `mechanism` at `epsilon`.

    adjacency: a square scipy.sparse matrix (row u: user u's friends).
    mechanism: dprr (eq. 8's budget split), dprr-fixed (epsilon / 10 on the
        degree), rr, rr-degree (RR rows; the noisy degree is in link_reports),
        locallap or none.
    seed: None draws from the OS CSPRNG (as devices do); an int repeats the draws.
    Returns the noisy rows as a scipy.sparse.csr_matrix of 0/1 (directed:
    row u is what user u reported; LocalLap's server step is undirected).
    """
    _arrays.choice("mechanism", mechanism, MECHANISMS)
    epsilon = _arrays.positive("epsilon", epsilon)
    if seed is not None:
        _arrays.non_negative_int("seed", seed)
    if mechanism == "rr-degree":
        return link_reports(adjacency, "rr-degree", epsilon, seed, n_max=n_max).rows()
    indptr, indices = _arrays.csr_pattern(adjacency)
    out_indptr, out_indices = _ldpgraph.perturb_csr(indptr, indices, mechanism, epsilon, seed, int(n_max))
    return _arrays.csr_matrix(out_indptr, out_indices, adjacency.shape[0])


def link_reports(adjacency, mechanism="rr-degree", epsilon=1.0, seed=None, allocation="paper", n_max=0):
    """Every user's edge report as the link denoiser reads it (dprr, rr or rr-degree).

    The result's rows() are the noisy lists, degree_estimates() what the
    reports say of each user's degree; ldpgraph.server.denoise_links takes it.
    `adjacency` must be symmetric (each row: that user's friends).
    """
    _arrays.choice("mechanism", mechanism, ("dprr", "rr", "rr-degree"))
    _arrays.choice("allocation", allocation, ("paper", "fixed"))
    epsilon = _arrays.positive("epsilon", epsilon)
    indptr, indices = _arrays.csr_pattern(adjacency)
    reports = _ldpgraph.simulate_link_reports(indptr, indices, mechanism, epsilon, allocation, int(n_max),
                                              _arrays.seed_or_random("seed", seed))
    return _LinkReports(reports)


class _LinkReports:
    """Every user's edge report; what ldpgraph.server.denoise_links reads."""

    def __init__(self, native):
        self.native = native

    @property
    def num_users(self):
        return self.native.num_users

    def rows(self):
        """The reported lists as a scipy CSR matrix (directed, 0/1)."""
        indptr, indices = self.native.rows_csr()
        return _arrays.csr_matrix(indptr, indices, self.native.num_users)

    def degree_estimates(self):
        """Each user's degree as her report tells it (shrunk toward the mean)."""
        return self.native.degree_estimates()


def perturb_features(features, mechanism="mbm", epsilon=1.0, seed=None):
    """The server's estimate of every row of `features` after LDP.

    features: nodes x dims in [0, 1] (scale each column first).
    mechanism: mbm (the multi-bit encoder devices run, with the rectifier),
        1bm or laplace (baselines of the LPGNN study).
    Returns a float32 nodes x dims numpy array.
    """
    _arrays.choice("mechanism", mechanism, ("mbm", "1bm", "laplace"))
    epsilon = _arrays.positive("epsilon", epsilon)
    return _ldpgraph.perturb_features(np.asarray(features), mechanism, epsilon, _arrays.seed_or_random("seed", seed))


def perturb_labels(labels, classes, epsilon=1.0, seed=None):
    """Every label through k-ary randomized response (LPGNN's label RR)."""
    epsilon = _arrays.positive("epsilon", epsilon)
    if seed is not None:
        _arrays.non_negative_int("seed", seed)
    return _ldpgraph.perturb_labels(np.asarray(labels), int(classes), epsilon, seed)


class ReportBuilder:
    """Runs a graph's mechanisms on one user's true data, as her device does.

    config: the graph's public configuration, as the daemon serves it at
    GET /v1/graphs/{id} (a dict or its JSON text).
    """

    def __init__(self, config):
        text = config if isinstance(config, str) else json.dumps(config)
        self._native = _ldpgraph.ReportBuilder(text)

    @property
    def config(self):
        return json.loads(self._native.config_json)

    def build(self, user, neighbours, features=None, label=None, rng=None):
        """The report of `user`: her friends, her features and label if the graph asks for them."""
        user = _arrays.non_negative_int("user", user)
        return self._native.build(user, np.asarray(neighbours, dtype=np.int64), features, label,
                                  rng if rng is not None else Rng())

    def build_embedding(self, embeddings, label=None, rng=None):
        """An embedding graph's one report (GW-LDP, docs/gw.md): its owner's node
        embeddings (nodes x dims, each entry in [0, 1]) through the graph's encoder,
        and the graph's class by randomized response if the graph asks for one.
        The summary encoding takes any number of nodes and sends one grid cell
        (report.summary_cell), so the graph's size stays private. RuntimeError
        (failed_precondition) on a graph of users' reports; ValueError for bad
        embeddings or label."""
        return self._native.build_embedding(np.asarray(embeddings, dtype=np.float64), label,
                                            rng if rng is not None else Rng())


def encode_report(report):
    """The report's wire bytes (docs/wire-format.md)."""
    return report.encode()


def decode_report(data):
    """A report from untrusted bytes; ValueError naming the field and byte offset."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("data must be bytes, got %s" % type(data).__name__)
    return _ldpgraph.decode_report(bytes(data))


class BudgetLedger:
    """The device's memory of what it sent: one report per graph, ever, under a cap.

    report_once(graph_id, make) returns the stored bytes if the graph has a
    report, else calls make() -> (bytes, epsilon), stores that durably (in
    `path`, replaced atomically) and returns it. Over the cap:
    BudgetExhausted, and nothing is stored.
    """

    def __init__(self, path, epsilon_cap=float("inf")):
        self._native = _ldpgraph.BudgetLedger(str(path), _arrays.positive("epsilon_cap", epsilon_cap, True))

    def report_once(self, graph_id, make):
        return self._native.report_once(_arrays.non_negative_int("graph_id", graph_id), make)

    def report_embedding(self, builder, embeddings, label=None, rng=None):
        """The embedding graph's one report, recorded: the same bytes on a retry,
        nothing more spent (ReportBuilder.build_embedding makes it the first time)."""
        if not isinstance(builder, ReportBuilder):
            raise TypeError("builder must be a ReportBuilder, got %s" % type(builder).__name__)
        graph_id = builder.config["graph_id"]

        def make():
            report = builder.build_embedding(embeddings, label, rng)
            return report.encode(), report.epsilon

        return self._native.report_once(graph_id, make)

    def report_round(self, builder, round, user, neighbours, features=None, label=None, rng=None):
        """Her memoised report for round `round` of the builder's graph (docs/rounds.md).

        Every random choice is a permanent coin of the graph's secret key, kept in
        this ledger, so unchanged data sends the same report and spends nothing
        more; the same round again returns the same bytes. RuntimeError
        (failed_precondition) for an earlier round, a graph reported with
        report_once, a changed policy or an embedding graph; ValueError for bad
        data; BudgetExhausted past the cap. Nothing is stored when refused.
        """
        if not isinstance(builder, ReportBuilder):
            raise TypeError("builder must be a ReportBuilder, got %s" % type(builder).__name__)
        round = _arrays.non_negative_int("round", round)
        user = _arrays.non_negative_int("user", user)
        return self._native.report_round(builder._native, round, user, np.asarray(neighbours, dtype=np.int64),
                                         features, label, rng if rng is not None else Rng())

    def loss(self, graph_id):
        """What `graph_id` has cost so far: epsilon, naive_epsilon (fresh noise every
        round), rounds, last_round and the parts edges_epsilon, features_epsilon,
        label_epsilon. RuntimeError (failed_precondition) if the graph has no report."""
        return self._native.loss(_arrays.non_negative_int("graph_id", graph_id))

    def find(self, graph_id):
        """The stored report bytes of `graph_id`, or None."""
        return self._native.find(_arrays.non_negative_int("graph_id", graph_id))

    @property
    def spent(self):
        return self._native.spent

    @property
    def cap(self):
        return self._native.cap

    def __len__(self):
        return len(self._native)

__all__ = [
    "BudgetExhausted",
    "BudgetLedger",
    "EdgeRandomizer",
    "LabelRandomizer",
    "LinkReports",
    "MECHANISMS",
    "MultiBitEncoder",
    "MultiBitRectifier",
    "Report",
    "ReportBuilder",
    "Rng",
    "decode_report",
    "encode_report",
    "link_reports",
    "perturb_features",
    "perturb_graph",
    "perturb_labels",
]


def __dir__():
    # dir() lists the API alone, not the modules this one imports (PEP 562).
    return list(__all__)
