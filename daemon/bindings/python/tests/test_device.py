"""ldpgraph.device from Python: shapes, bad inputs, and DPRR's degree."""

import numpy as np
import pytest
import scipy.sparse as sp

import ldpgraph


def ring(n, k):
    """Each user's k nearest on a ring of n, both sides: 2k friends each."""
    offsets = [d for d in range(-k, k + 1) if d != 0]
    rows = np.concatenate([np.arange(n)] * len(offsets))
    cols = np.concatenate([(np.arange(n) + d) % n for d in offsets])
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))


def test_seeded_runs_repeat_and_the_os_source_differs():
    a = ring(2000, 5)
    one = ldpgraph.device.perturb_graph(a, "dprr", 2.0, seed=7)
    two = ldpgraph.device.perturb_graph(a, "dprr", 2.0, seed=7)
    assert one.shape == (2000, 2000)
    assert (one != two).nnz == 0
    assert (ldpgraph.device.perturb_graph(a, "dprr", 2.0) != one).nnz > 0


def test_dprr_keeps_the_degree_in_expectation():
    a = ring(20000, 5)  # every user has 10 friends
    noisy = ldpgraph.device.perturb_graph(a, "dprr", 4.0, seed=1)
    degrees = np.diff(noisy.indptr)
    # DPRR's noisy degree is unbiased: the mean over 20000 users is within a few standard errors of 10.
    assert abs(degrees.mean() - 10) < 0.5


@pytest.mark.parametrize("bad, message", [
    (dict(adjacency=np.zeros((3, 3))), "scipy.sparse"),
    (dict(adjacency=sp.csr_matrix((3, 4))), "square"),
    (dict(mechanism="laplace"), "mechanism must be one of"),
    (dict(epsilon=float("nan")), "epsilon"),
    (dict(epsilon=-1), "epsilon"),
    (dict(seed=-3), "seed"),
])
def test_bad_inputs_raise_naming_the_argument(bad, message):
    args = dict(adjacency=ring(10, 1), mechanism="dprr", epsilon=1.0, seed=1)
    args.update(bad)
    with pytest.raises((TypeError, ValueError), match=message):
        ldpgraph.device.perturb_graph(**args)


def test_the_native_layer_refuses_ids_out_of_range():
    with pytest.raises(ValueError, match=r"node 0 has neighbour 9, not a node id in \[0, 2\)"):
        ldpgraph._ldpgraph.perturb_csr(np.array([0, 1, 1], dtype=np.int64), np.array([9], dtype=np.int32), "dprr", 1.0,
                                       1, 0)
