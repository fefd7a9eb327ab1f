"""Argument checks and scipy/numpy conversions shared by the package.

Every check raises TypeError or ValueError naming the argument, before any
native code runs.
"""

import math
import secrets

import numpy as np
import scipy.sparse as sp


def csr_pattern(matrix, name="adjacency", square=True):
    """(indptr int64, indices int32) of a scipy.sparse matrix's pattern.

    Stored zeros, repeats and (for a square graph) self-loops are dropped,
    as the CSV reader drops them; rows come out sorted.
    """
    if not sp.issparse(matrix):
        raise TypeError("%s must be a scipy.sparse matrix, got %s" % (name, type(matrix).__name__))
    if matrix.ndim != 2 or (square and matrix.shape[0] != matrix.shape[1]):
        raise ValueError("%s must be square, got shape %s" % (name, matrix.shape,))
    if sp.isspmatrix_csr(matrix) and matrix.has_canonical_format and not (square and matrix.diagonal().any()) \
            and (matrix.data != 0).all():
        # Already what the native side reads: its own arrays, not copied (only read).
        return matrix.indptr.astype(np.int64), matrix.indices.astype(np.int32, copy=False)
    csr = sp.csr_matrix(matrix, copy=True)
    csr.sum_duplicates()
    csr.eliminate_zeros()
    if square and csr.diagonal().any():
        coo = csr.tocoo()
        keep = coo.row != coo.col
        csr = sp.csr_matrix((coo.data[keep], (coo.row[keep], coo.col[keep])), shape=csr.shape)
    csr.sort_indices()
    return csr.indptr.astype(np.int64), csr.indices.astype(np.int32)


def sparse_features(matrix, name="features"):
    """(indptr, indices, data, cols) of sparse features, values as float32."""
    csr = sp.csr_matrix(matrix, copy=True)
    csr.sum_duplicates()
    csr.eliminate_zeros()
    csr.sort_indices()
    data = csr.data.astype(np.float32)
    if not np.all(np.isfinite(data)):
        raise ValueError("%s must be finite" % name)
    return csr.indptr.astype(np.int64), csr.indices.astype(np.int32), data, int(csr.shape[1])


def csr_matrix(indptr, indices, n, data=None):
    """A scipy CSR matrix over n x n from native arrays (0/1 unless data), not copied.

    scipy wants both index arrays of one dtype: int32 when the entries allow.
    """
    if data is None:
        data = np.ones(len(indices), dtype=np.float32)
    if len(indices) < 2**31 and indptr.dtype != np.int32:
        indptr = indptr.astype(np.int32)
    return sp.csr_matrix((data, indices, indptr), shape=(n, n), copy=False)


def positive(name, value, infinite_ok=False):
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise TypeError("%s must be a number, got %r" % (name, value)) from None
    if math.isnan(value) or value <= 0 or (not infinite_ok and math.isinf(value)):
        raise ValueError("%s must be a positive %s number, got %r" % (name, "" if infinite_ok else "finite", value))
    return value


def seed_or_random(name, seed):
    """A seed for native code: the given one, or 64 bits from the OS CSPRNG."""
    if seed is None:
        return secrets.randbits(64)
    return non_negative_int(name, seed)


def non_negative_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError("%s must be a non-negative int, got %r" % (name, value))
    return int(value)


def choice(name, value, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError("%s must be one of %s, got %r" % (name, ", ".join(choices), value))
    return value
