"""What the server computes, from numpy and scipy: no files in between.

Datasets come from arrays (node_dataset, graph_dataset) or from the files
the CLI reads (read_dataset). Training runs the same C++ as `ldpgraph
train` and the daemon's jobs, without the GIL, so a model trained here with
a seed equals the CLI's byte for byte; Model.save writes the daemon's model
file format. Also here: the link-LDP denoiser, the RDP accountant,
Gromov-Wasserstein, and FedCog-SGC with its parties in this process.
"""

import math

import numpy as np
import scipy.sparse as sp

from . import _arrays, _ldpgraph

Dataset = _ldpgraph.Dataset
Model = _ldpgraph.Model


# ---- datasets ---------------------------------------------------------------

def node_dataset(adjacency, features=None, labels=None, name="python"):
    """One graph whose nodes are classified.

    adjacency: square scipy.sparse (row u: u's neighbours; the pattern counts,
        self-loops and stored zeros are dropped).
    features: None (a constant input), a scipy.sparse matrix (kept sparse),
        or a dense array; a float32 C-contiguous one is read in place, never
        copied (keep it unchanged while the dataset is used).
    labels: one integer per node, -1 for unknown.
    """
    indptr, indices = _arrays.csr_pattern(adjacency)
    if features is not None:
        if sp.issparse(features):
            features = _arrays.sparse_features(features)
        elif not isinstance(features, np.ndarray):
            features = np.asarray(features, dtype=np.float32)
    if labels is not None:
        labels = np.asarray(labels)
        if labels.dtype.kind not in "iu":
            raise TypeError("labels must be integers, got dtype %s" % labels.dtype)
    return _ldpgraph.node_dataset(indptr, indices, labels, features, str(name))


def graph_dataset(adjacencies, labels, node_tags=None, name="python"):
    """A set of graphs, each with one class label (for GIN)."""
    graphs = [_arrays.csr_pattern(a, "adjacencies[%d]" % i) for i, a in enumerate(adjacencies)]
    labels = np.asarray(labels)
    if labels.dtype.kind not in "iu":
        raise TypeError("labels must be integers, got dtype %s" % labels.dtype)
    return _ldpgraph.graph_dataset(graphs, labels, None if node_tags is None else np.asarray(node_tags), str(name))


def read_dataset(path):
    """A dataset in one of the CLI's formats: s2v file, TU folder, CSV folder."""
    return _ldpgraph.read_dataset(str(path))


def adjacency_of(dataset, graph=0):
    """A dataset's graph as a scipy CSR matrix."""
    indptr, indices = dataset.adjacency_csr(graph)
    return _arrays.csr_matrix(indptr, indices, len(indptr) - 1)


# ---- training ---------------------------------------------------------------

def _split(split):
    if split is None:
        return None
    if len(split) != 3:
        raise ValueError("split must be (train, val, test) node id arrays")
    return tuple(np.asarray(part, dtype=np.int64) for part in split)


def _with_metrics(result):
    model, metrics = result[0], result[1]
    model.metrics = dict(metrics)
    return model


def train(dataset, model="gcn", *, hidden=None, layers=None, dropout=0.5, epochs=500, lr=0.01, seed=0,
          split=None, readout="mean", node_input="constant", batch_size=32, on_epoch=None):
    """Trains GCN or GraphSAGE on a node dataset, or GIN on a graph set, as `ldpgraph train`.

    Defaults are the CLI's (GCN/SAGE: hidden 16, 2 layers; GIN: hidden 64, 5
    layers). split: None for the stratified 50/25/25 split of `seed` (GIN:
    75/10/15), or (train, val, test) node ids. on_epoch(dict) is told each
    epoch's losses. Returns a Model whose .metrics hold the test accuracy.
    """
    _arrays.choice("model", model, ("gcn", "sage", "gin"))
    seed = _arrays.non_negative_int("seed", seed)
    if on_epoch is not None and not callable(on_epoch):
        raise TypeError("on_epoch must be callable")
    if model == "gin":
        if split is not None:
            raise ValueError("split is for node models; GIN splits its graphs 75/10/15 by seed")
        return _with_metrics(_ldpgraph.train_gin(dataset, 64 if hidden is None else int(hidden),
                                                 5 if layers is None else int(layers), float(dropout), readout,
                                                 node_input, int(epochs), int(batch_size), float(lr), seed, on_epoch))
    return _with_metrics(_ldpgraph.train_node(dataset, model, 16 if hidden is None else int(hidden),
                                              2 if layers is None else int(layers), float(dropout), int(epochs),
                                              float(lr), seed, _split(split), on_epoch))


def train_lpgnn(dataset, model="sage", *, label_method="drop", label_epsilon=math.inf, rectified=True,
                kx=(0, 2, 4, 8, 16), ky=(0, 2, 4, 8, 16), hidden=16, epochs=500, seed=0, split=None,
                on_progress=None):
    """LPGNN on private features and labels: KProp's steps chosen on validation, Drop for RR labels.

    The dataset holds what the server has: rectified features
    (ldpgraph.device.perturb_features) and, under label_epsilon, labels
    through RR (ldpgraph.device.perturb_labels). rectified=False for true
    features. Returns a Model (metrics: kx, ky, accuracies) whose predict
    applies the chosen KProp.
    """
    _arrays.choice("model", model, ("gcn", "sage"))
    _arrays.choice("label_method", label_method, ("ce", "fc", "drop"))
    label_epsilon = _arrays.positive("label_epsilon", label_epsilon, True)
    return _with_metrics(_ldpgraph.train_lpgnn(dataset, model, label_method, label_epsilon, bool(rectified),
                                               [int(k) for k in kx], [int(k) for k in ky], int(hidden), int(epochs),
                                               _arrays.non_negative_int("seed", seed), _split(split), on_progress))


def train_gap(dataset, privacy="edge", *, epsilon=math.inf, delta=0.0, hops=2, hidden=16, epochs=100,
              classifier_epochs=0, lr=0.01, max_degree=10, batch_size=0, clip=1.0, residual="auto", seed=0,
              split=None):
    """GAP on a graph the server holds: edge- or node-level DP for the released model.

    epsilon: for the whole release (inf: no privacy); delta 0: 1 / (10 x
    edges or nodes). The aggregation noise is drawn from the OS CSPRNG.
    Returns a Model (metrics: the noise, epsilon, delta, accuracies) that
    predicts the graph it was trained on.
    """
    _arrays.choice("privacy", privacy, ("edge", "node"))
    _arrays.choice("residual", residual, ("auto", "on", "off"))
    epsilon = _arrays.positive("epsilon", epsilon, True)
    delta = float(delta)
    if not (delta == 0 or 0 < delta < 1):
        raise ValueError("delta must be 0 (automatic) or in (0, 1), got %r" % delta)
    return _with_metrics(_ldpgraph.train_gap(dataset, privacy, epsilon, delta, int(hops), int(hidden), int(epochs),
                                             int(classifier_epochs), float(lr), int(max_degree), int(batch_size),
                                             float(clip), residual, _arrays.non_negative_int("seed", seed),
                                             _split(split)))


def load_model(path):
    """A model file the daemon, the CLI or Model.save wrote."""
    model = _ldpgraph.load_model(str(path))
    model.metrics = {}
    return model


# ---- link LDP ---------------------------------------------------------------

def denoise_links(reports, *, prior="degree", output="hybrid", class_probabilities=None, features_of=None,
                  em_iterations=3, soft_degree_multiple=None, seed=0):
    """The posterior graph of link-LDP reports, as a symmetric scipy CSR of edge probabilities.

    reports: ldpgraph.device.link_reports(...).
    prior: degree (Blink's: from the degree estimates alone) or learned
        (ours: also from class_probabilities, users x classes, and/or the
        features of features_of, a node dataset).
    output: hybrid (the expected number of most probable pairs, weighted),
        soft (each user's most probable pairs, weighted: soft_degree_multiple
        times her estimated degree, or by default 4 to 64 times as a budget
        of 2^21 pairs allows; a pair either end keeps is kept) or hard
        (pairs more likely than not).
    """
    _arrays.choice("prior", prior, ("degree", "learned"))
    _arrays.choice("output", output, ("hybrid", "soft", "hard"))
    if prior == "learned" and class_probabilities is None and features_of is None:
        raise ValueError("prior='learned' needs class_probabilities or features_of")
    if prior == "degree" and (class_probabilities is not None or features_of is not None):
        raise ValueError("class_probabilities and features_of are for prior='learned'")
    indptr, indices, weights = _ldpgraph.denoise_links(
        reports.native, output, None if class_probabilities is None else np.asarray(class_probabilities),
        features_of, int(em_iterations), 0.0 if soft_degree_multiple is None else float(soft_degree_multiple),
        _arrays.non_negative_int("seed", seed))
    return _arrays.csr_matrix(indptr, indices, reports.num_users, weights)


def train_on_link_reports(reports, dataset, *, denoising="ours", model="gcn", label_method="ce",
                          label_epsilon=math.inf, rectified=False, hidden=16, epochs=500, seed=0):
    """LPGNN on the denoised graph of link-LDP reports, as the daemon's node jobs.

    denoising: blink (the hybrid graph under the degree prior) or ours (the
    learned prior; the best of its graphs and the edge-free model on
    validation). The dataset gives features and labels (its edges are not
    used). Returns (Model, posterior graph as scipy CSR); the model predicts
    the users of that graph.
    """
    _arrays.choice("denoising", denoising, ("blink", "ours"))
    _arrays.choice("model", model, ("gcn", "sage"))
    m, metrics, (indptr, indices, weights) = _ldpgraph.train_on_link_reports(
        reports.native, dataset, denoising, model, label_method, _arrays.positive("label_epsilon", label_epsilon, True),
        bool(rectified), int(hidden), int(epochs), _arrays.non_negative_int("seed", seed))
    m.metrics = dict(metrics)
    return m, _arrays.csr_matrix(indptr, indices, reports.num_users, weights)


# ---- the RDP accountant -----------------------------------------------------

def _check(name, value, low, high, low_open=True):
    value = float(value)
    if not math.isfinite(value) or value < low or value > high or (low_open and value == low):
        raise ValueError("%s must be in %s%g, %g], got %r" % (name, "(" if low_open else "[", low, high, value))
    return value


def _schedule(sampling_rate, steps, delta, min_steps):
    """The checked (sampling_rate, steps, delta) of a run of subsampled releases."""
    if int(steps) != steps or steps < min_steps:
        raise ValueError("steps must be an integer >= %d, got %r" % (min_steps, steps))
    return _check("sampling_rate", sampling_rate, 0, 1), int(steps), _check("delta", delta, 0, 1)


def rdp_epsilon(noise_multiplier, sampling_rate, steps, delta):
    """The (epsilon, delta) of `steps` Poisson-subsampled Gaussian releases."""
    noise_multiplier = _check("noise_multiplier", noise_multiplier, 0, 1e6)
    return _ldpgraph.rdp_epsilon(noise_multiplier, *_schedule(sampling_rate, steps, delta, 0))


def rdp_noise_multiplier(epsilon, sampling_rate, steps, delta):
    """The smallest noise multiplier for which the releases are (epsilon, delta)-DP."""
    epsilon = _check("epsilon", epsilon, 0, 1e6)
    return _ldpgraph.rdp_noise_multiplier(epsilon, *_schedule(sampling_rate, steps, delta, 1))


# ---- Gromov-Wasserstein -----------------------------------------------------

def graph_distances(adjacency, structure="shortest-path"):
    """A graph's intra-distance matrix as GW compares it (hop counts, or A itself)."""
    _arrays.choice("structure", structure, ("shortest-path", "adjacency"))
    indptr, indices = _arrays.csr_pattern(adjacency)
    return _ldpgraph.graph_distances(indptr, indices, structure)


def gromov_wasserstein(c, d, *, random_starts=0, seed=0):
    """GW(C, D) with uniform weights and square loss: (value, coupling n x m)."""
    return _ldpgraph.gromov_wasserstein(c, d, None, 1.0, int(random_starts), _arrays.non_negative_int("seed", seed))


def fused_gromov_wasserstein(c, d, x, y, *, alpha=0.5, random_starts=0, seed=0):
    """Fused GW with node features x (n x f) and y (m x f): (value, coupling).

    alpha in [0, 1] weighs the structure against the features' squared
    Euclidean cost (1: plain GW).
    """
    alpha = float(alpha)
    if not 0 <= alpha <= 1:
        raise ValueError("alpha must be in [0, 1], got %r" % alpha)
    cost = _ldpgraph.feature_cost(x, y)
    return _ldpgraph.gromov_wasserstein(c, d, cost, alpha, int(random_starts), _arrays.non_negative_int("seed", seed))


# ---- FedCog -----------------------------------------------------------------

def fedcog_sgc(dataset, *, party_of=None, partition="community", parties=3, steps=2, epochs=200, lr=0.2,
               weight_decay=5e-4, seed=0):
    """FedCog-SGC with every party in this process: (weights [W, b], metrics).

    party_of: one party index per node, or None to deal the nodes by
    `partition` (community or random) to `parties` parties. The split is the
    stratified 50/25/25 of `seed`.
    """
    _arrays.choice("partition", partition, ("community", "random"))
    return _ldpgraph.fedcog_sgc(dataset, None if party_of is None else np.asarray(party_of), partition, int(parties),
                                int(steps), int(epochs), float(lr), float(weight_decay),
                                _arrays.non_negative_int("seed", seed))

__all__ = [
    "Dataset",
    "Model",
    "adjacency_of",
    "denoise_links",
    "fedcog_sgc",
    "fused_gromov_wasserstein",
    "graph_dataset",
    "graph_distances",
    "gromov_wasserstein",
    "load_model",
    "node_dataset",
    "rdp_epsilon",
    "rdp_noise_multiplier",
    "read_dataset",
    "train",
    "train_gap",
    "train_lpgnn",
    "train_on_link_reports",
]


def __dir__():
    # dir() lists the API alone, not the modules this one imports (PEP 562).
    return list(__all__)
