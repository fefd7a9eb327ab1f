"""The mechanisms a device runs, applied to every user of a graph at once.

Each user's row is perturbed exactly as her phone would perturb it (the
SDK's own code), so a whole graph can be studied without a fleet.
"""

import numpy as np
import scipy.sparse as sp

from . import _ldpgraph

MECHANISMS = ("dprr", "dprr-fixed", "rr", "locallap", "none")


def perturb_graph(adjacency, mechanism="dprr", epsilon=1.0, seed=None, n_max=0):
    """Every user's friend list through `mechanism` at `epsilon`.

    adjacency: a square scipy.sparse matrix (row u: user u's friends).
    seed: None draws from the OS CSPRNG (as devices do); an int repeats the
        draws (for experiments only: anyone with the seed can undo them).
    Returns the noisy rows as a scipy.sparse.csr_matrix of 0/1 (directed:
    row u is what user u reported; LocalLap's server step is undirected).
    """
    if not sp.issparse(adjacency):
        raise TypeError("adjacency must be a scipy.sparse matrix, got %s" % type(adjacency).__name__)
    if adjacency.ndim != 2 or adjacency.shape[0] != adjacency.shape[1]:
        raise ValueError("adjacency must be square, got shape %s" % (adjacency.shape,))
    if not isinstance(mechanism, str) or mechanism not in MECHANISMS:
        raise ValueError("mechanism must be one of %s, got %r" % (", ".join(MECHANISMS), mechanism))
    epsilon = float(epsilon)
    if not np.isfinite(epsilon) or epsilon <= 0:
        raise ValueError("epsilon must be a positive finite number, got %r" % epsilon)
    if seed is not None and (not isinstance(seed, (int, np.integer)) or seed < 0):
        raise ValueError("seed must be None or a non-negative int, got %r" % (seed,))
    csr = sp.csr_matrix(adjacency)
    csr.sum_duplicates()
    csr.sort_indices()
    indptr, indices = _ldpgraph.perturb_csr(csr.indptr.astype(np.int64), csr.indices.astype(np.int32), mechanism,
                                             epsilon, seed, int(n_max))
    n = csr.shape[0]
    data = np.ones(len(indices), dtype=np.float32)
    return sp.csr_matrix((data, indices, indptr), shape=(n, n))
