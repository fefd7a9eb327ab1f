"""Perturb a social graph as its users' phones would, denoise it on the
server, and train GCN on what the server holds: ldpgraph from Python.

  PYTHONPATH=build/daemon/bindings/python python3 examples/python/denoise_and_train.py [CORA_DIR]

Cora when its folder is given (../shared/data/nodes/cora), else a generated
graph of 2,000 users in 4 communities. Converts the predictions to a torch
tensor where torch is installed.
"""
import sys

import numpy as np
import scipy.sparse as sp

from ldpgraph import device, server


def graph():
    if len(sys.argv) > 1:  # a CSV folder: edges.csv, features.csv, labels.csv
        ds = server.read_dataset(sys.argv[1])
        return ds, server.adjacency_of(ds)
    rng = np.random.default_rng(0)
    n, y = 2000, np.arange(2000) % 4
    p = np.where(y[:, None] == y[None, :], 0.012, 0.0008)
    upper = sp.csr_matrix(np.triu(rng.random((n, n)) < p, 1))
    a = (upper + upper.T).astype(np.float32)
    x = (rng.random((n, 32)) < np.where(np.arange(32)[None, :] % 4 == y[:, None], 0.3, 0.05)).astype(np.float32)
    return server.node_dataset(a, x, y), a


dataset, adjacency = graph()
# 1. Every user's friend list through RR with her noisy degree, epsilon 4 (what her phone sends).
reports = device.link_reports(adjacency, "rr-degree", epsilon=4.0, seed=1)
print("true_entries=%d reported_entries=%d" % (adjacency.nnz, reports.rows().nnz))
# 2. The server's posterior graph (Blink's degree prior): edge probabilities, scipy CSR.
posterior = server.denoise_links(reports)
print("posterior_pairs=%d true_among_them=%.3f" % (posterior.nnz // 2, adjacency.multiply(posterior > 0).nnz / posterior.nnz))
# 3. GCN on the denoised graph (the best of Blink's and ours on validation), and without edges.
model, used = server.train_on_link_reports(reports, dataset, denoising="ours", seed=0)
print("graph_used=%s test_accuracy=%.3f" % (model.metrics["graph"], model.metrics["test_accuracy"]))
probabilities, _ = model.predict(dataset)
try:
    import torch
    print("torch_tensor_shape=%s" % (tuple(torch.from_numpy(probabilities).shape),))
except ImportError:
    print("torch=not installed (skipped the conversion)")
