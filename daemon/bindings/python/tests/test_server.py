"""ldpgraph.server from Python: the same models as the CLI, byte for byte;
datasets from scipy and numpy (dense float32 features read in place); every
trainer, the denoiser, GW and FedCog on small graphs; bad inputs named."""

import math
import os
import subprocess

import numpy as np
import pytest
import scipy.sparse as sp

import ldpgraph
from ldpgraph import device, server

from conftest import DATA, binary, communities


# ---- the same numbers as the CLI ---------------------------------------------

@pytest.mark.parametrize("model", ["gcn", "sage"])
def test_a_node_model_from_python_is_the_clis_byte_for_byte(cora, cora_dir, tmp_path, model):
    a, x, y = cora
    ds = server.node_dataset(a, x, y, name="cora")
    trained = server.train(ds, model, seed=3, epochs=60)
    trained.save(tmp_path / "python.model")
    cli = subprocess.run([binary("LDPGRAPH_CLI"), "train", "--dataset", str(cora_dir), "--model", model, "--seed", "3",
                          "--epochs", "60", "--out", str(tmp_path / "cli.model")], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert (tmp_path / "python.model").read_bytes() == (tmp_path / "cli.model").read_bytes()
    printed = dict(line.split("=", 1) for line in cli.stdout.split())
    assert float(printed["test_accuracy"]) == pytest.approx(trained.metrics["test_accuracy"], abs=1e-6)
    probabilities, accuracy = server.load_model(tmp_path / "cli.model").predict(ds)
    assert probabilities.shape == (a.shape[0], 7) and np.allclose(probabilities.sum(axis=1), 1, atol=1e-5)
    assert accuracy > 0.8


def test_gin_from_python_arrays_is_the_clis_byte_for_byte(tmp_path):
    mutag = DATA / "graphs" / "MUTAG" / "MUTAG.txt"
    if not mutag.exists():
        pytest.skip("../shared/data/graphs/MUTAG is absent")
    read = server.read_dataset(mutag)
    graphs = [server.adjacency_of(read, i) for i in range(read.num_graphs)]
    ds = server.graph_dataset(graphs, read.graph_labels(), name="MUTAG")
    server.train(ds, "gin", seed=2, epochs=4).save(tmp_path / "python.model")
    cli = subprocess.run([binary("LDPGRAPH_CLI"), "train", "--dataset", str(mutag), "--model", "gin", "--seed", "2",
                          "--epochs", "4", "--out", str(tmp_path / "cli.model")], capture_output=True, text=True)
    assert cli.returncode == 0, cli.stderr
    assert (tmp_path / "python.model").read_bytes() == (tmp_path / "cli.model").read_bytes()


# ---- datasets -----------------------------------------------------------------

def test_float32_c_contiguous_features_are_read_in_place():
    a, x, y = communities(300, dims=16)
    assert x.dtype == np.float32 and x.flags.c_contiguous
    ds = server.node_dataset(a, x, y)
    assert ds.features_borrowed
    assert ds._feature_address() == x.ctypes.data  # the numpy buffer itself: no copy
    model = server.train(ds, "gcn", epochs=30)
    p_view, _ = model.predict(ds)
    # The same features held by the dataset (converted from float64): the same scores.
    held = server.node_dataset(a, x.astype(np.float64), y)
    assert held._feature_address() != x.ctypes.data
    assert np.array_equal(p_view, model.predict(held)[0])


def test_sparse_and_dense_features_give_the_same_model_within_rounding():
    a, x, y = communities(300, dims=16, seed=2)
    dense = server.train(server.node_dataset(a, x, y), "sage", epochs=40, seed=1)
    sparse = server.train(server.node_dataset(a, sp.csr_matrix(x), y), "sage", epochs=40, seed=1)
    assert abs(dense.metrics["test_accuracy"] - sparse.metrics["test_accuracy"]) <= 0.03


@pytest.mark.parametrize("make, error, message", [
    (lambda a, x, y: server.node_dataset(a.toarray(), x, y), TypeError, "adjacency must be a scipy.sparse"),
    (lambda a, x, y: server.node_dataset(a[:, :-1], x, y), ValueError, "square"),
    (lambda a, x, y: server.node_dataset(a, x[:-1], y), ValueError, "features have 299 rows; the graph has 300"),
    (lambda a, x, y: server.node_dataset(a, np.where(x > 0.9, np.nan, x), y), ValueError, "is not finite"),
    (lambda a, x, y: server.node_dataset(a, x, y.astype(float)), TypeError, "labels must be integers"),
    (lambda a, x, y: server.node_dataset(a, x, y[:-1]), ValueError, "one label per node"),
    (lambda a, x, y: server.node_dataset(a, x[:, 0], y), ValueError, "2-d"),
])
def test_bad_datasets_are_named(make, error, message):
    a, x, y = communities(300)
    with pytest.raises(error, match=message):
        make(a, x, y)


# ---- training -----------------------------------------------------------------

@pytest.fixture(scope="module")
def small():
    a, x, y = communities(400, dims=8, seed=5)
    return a, x, y, server.node_dataset(a, x, y)


@pytest.mark.parametrize("call, message", [
    (lambda ds: server.train(ds, "gat"), "model must be one of"),
    (lambda ds: server.train(ds, "gcn", epochs=0), r"epochs must be in \[1, 100000\], got 0"),
    (lambda ds: server.train(ds, "gcn", lr=float("nan")), "lr must be in"),
    (lambda ds: server.train(ds, "gcn", seed=-1), "seed must be a non-negative int"),
    (lambda ds: server.train(ds, "gcn", split=([0, 1], [2], [99999])), r"split: test\[0\] = 99999"),
    (lambda ds: server.train(ds, "gin"), "gin classifies graphs"),
    (lambda ds: server.train_gap(ds, epsilon=float("nan")), "epsilon must be a positive"),
    (lambda ds: server.train_gap(ds, epsilon=-1), "epsilon must be a positive"),
    (lambda ds: server.train_gap(ds, privacy="user"), "privacy must be one of"),
    (lambda ds: server.train_lpgnn(ds, kx=()), "kx must name at least one"),
    (lambda ds: server.train_lpgnn(ds, label_epsilon=0), "label_epsilon"),
])
def test_bad_training_arguments_are_named(small, call, message):
    with pytest.raises((TypeError, ValueError), match=message):
        call(small[3])


def test_progress_is_reported_and_a_failing_callback_stops_nothing_but_raises(small):
    epochs = []
    server.train(small[3], "gcn", epochs=20, on_epoch=epochs.append)
    assert [e["epoch"] for e in epochs] == list(range(1, len(epochs) + 1)) and epochs[0]["val_accuracy"] >= 0

    def broken(_):
        raise KeyError("from the callback")
    with pytest.raises(KeyError, match="from the callback"):
        server.train(small[3], "gcn", epochs=20, on_epoch=broken)


def test_an_explicit_split_is_used(small):
    n = small[3].num_nodes
    ids = np.arange(n)
    model = server.train(small[3], "gcn", epochs=20, split=(ids[:100], ids[100:150], ids[150:]))
    assert (model.metrics["train"], model.metrics["val"], model.metrics["test"]) == (100, 50, n - 150)


def test_lpgnn_on_private_features_and_labels(small, tmp_path):
    a, x, y, _ = small
    noisy_x = device.perturb_features(x, "mbm", 4.0, seed=1)
    noisy_y = device.perturb_labels(y, 2, 2.0, seed=2)
    ds = server.node_dataset(a, noisy_x, noisy_y)
    model = server.train_lpgnn(ds, "sage", label_epsilon=2.0, kx=(0, 2), ky=(0, 2), epochs=60)
    assert model.metrics["kx"] in (0, 2) and model.metrics["ky"] in (0, 2)
    probabilities, _ = model.predict(ds)
    truth = server.node_dataset(a, noisy_x, y)
    _, accuracy = model.predict(truth)
    assert probabilities.shape == (400, 2) and accuracy > 0.7
    model.save(tmp_path / "lpgnn.model")
    assert server.load_model(tmp_path / "lpgnn.model").kind == "sage"


@pytest.mark.parametrize("privacy", ["edge", "node"])
def test_gap_releases_at_the_epsilon_asked(small, tmp_path, privacy):
    model = server.train_gap(small[3], privacy, epsilon=8.0, epochs=30, max_degree=8)
    assert model.kind == "gap"
    assert model.metrics["epsilon"] == pytest.approx(8.0, rel=1e-3) and model.metrics["noise_multiplier"] > 0
    assert model.metrics["test_accuracy"] > 0.6
    model.save(tmp_path / "gap.model")
    again = server.load_model(tmp_path / "gap.model")
    assert np.array_equal(again.predict(small[3])[0], model.predict(small[3])[0])
    other = server.node_dataset(*communities(50)[:1], labels=np.zeros(50, dtype=np.int64))
    with pytest.raises(ValueError, match="predicts for that graph only"):
        model.predict(other)


def test_link_ldp_reports_denoise_into_a_posterior_graph(small):
    a, x, y, ds = small
    reports = device.link_reports(a, "rr-degree", 4.0, seed=3)
    posterior = server.denoise_links(reports)
    assert posterior.shape == a.shape
    assert (abs(posterior - posterior.T) > 1e-6).nnz == 0  # symmetric
    assert posterior.data.min() > 0 and posterior.data.max() <= 1
    # The heaviest pairs are mostly true friendships.
    top = posterior.multiply(posterior >= np.quantile(posterior.data, 0.8))
    assert a.multiply(top > 0).nnz / (top > 0).nnz > 0.6
    onehot = np.eye(2, dtype=np.float32)[y]
    learned = server.denoise_links(reports, prior="learned", class_probabilities=onehot)
    assert learned.nnz > 0
    model, graph = server.train_on_link_reports(reports, ds, denoising="ours", epochs=60)
    assert model.metrics["graph"] in ("blink-hybrid", "ours-soft", "ours-hybrid", "edge-free")
    assert graph.shape == a.shape and model.predict(ds)[0].shape == (400, 2)
    with pytest.raises(ValueError, match="class_probabilities or features_of"):
        server.denoise_links(reports, prior="learned")
    # The soft graph keeps each user's most probable pairs, a multiple of her degree.
    soft = server.denoise_links(reports, output="soft", soft_degree_multiple=1.0)
    wider = server.denoise_links(reports, output="soft", soft_degree_multiple=8.0)
    assert 0 < soft.nnz < wider.nnz
    with pytest.raises(ValueError, match="soft_degree_multiple must be in"):
        server.denoise_links(reports, output="soft", soft_degree_multiple=0.5)


def test_gw_is_zero_on_a_graph_and_itself_and_fgw_weighs_features():
    a, x, _ = communities(40, dims=4, seed=8)
    c = server.graph_distances(a)
    assert c.shape == (40, 40) and np.allclose(c, c.T)
    value, coupling = server.gromov_wasserstein(c, c)
    assert value == pytest.approx(0, abs=1e-9)
    assert np.allclose(coupling.sum(axis=1), 1 / 40)
    b = server.graph_distances(communities(30, seed=9)[0])
    assert server.gromov_wasserstein(c, b)[0] > 0
    fused, _ = server.fused_gromov_wasserstein(c, c, x, x, alpha=0.5)
    assert fused == pytest.approx(0, abs=1e-9)
    with pytest.raises(ValueError, match=r"c\[0, 1\] is not finite"):
        bad = c.copy()
        bad[0, 1] = np.inf
        server.gromov_wasserstein(bad, c)


def test_fedcog_sgc_in_process_learns_as_one_graph(small):
    weights, metrics = server.fedcog_sgc(small[3], parties=3, epochs=100)
    assert metrics["parties"] == 3 and metrics["cross_edges"] > 0
    assert [w.shape for w in weights] == [(8, 2), (1, 2)]
    assert metrics["test_accuracy"] > 0.7
    with pytest.raises(ValueError, match="one party index per node"):
        server.fedcog_sgc(small[3], party_of=[0, 1])


# ---- the accountant -----------------------------------------------------------

def test_the_noise_for_an_epsilon_gives_that_epsilon():
    s = server.rdp_noise_multiplier(2.0, 0.01, 1000, 1e-5)
    e = server.rdp_epsilon(s, 0.01, 1000, 1e-5)
    assert 2.0 * 0.999 <= e <= 2.0
    assert server.rdp_epsilon(2 * s, 0.01, 1000, 1e-5) < e


def test_tensorflow_privacy_mnist_row():
    # TF Privacy's MNIST tutorial: N = 60000, batch 256, noise 1.1, 60 epochs, delta 1e-5 publishes 3.01 with
    # the classic RDP conversion; the tight one this accountant uses gives less (2.60; the C++ unit test
    # checks the classic figure itself).
    steps = 60 * 60000 // 256
    assert server.rdp_epsilon(1.1, 256 / 60000, steps, 1e-5) == pytest.approx(2.60, abs=0.01)


@pytest.mark.parametrize("args, message", [
    ((0.0, 0.1, 10, 1e-5), "noise_multiplier"),
    ((1.0, 1.5, 10, 1e-5), "sampling_rate"),
    ((1.0, 0.1, -1, 1e-5), "steps"),
    ((1.0, 0.1, 10, float("nan")), "delta"),
])
def test_bad_accountant_arguments_are_named(args, message):
    with pytest.raises(ValueError, match=message):
        server.rdp_epsilon(*args)


def test_long_calls_release_the_gil():
    # While a training runs in a thread, this thread keeps running Python. Were the GIL held through the
    # call, the sleep below would only end with the training, and no tick would be counted.
    import threading
    import time
    a, x, y = communities(3000, dims=64, seed=6)
    ds = server.node_dataset(a, x, y)
    started, done = threading.Event(), threading.Event()
    ticks = 0

    def work():
        started.set()
        server.train(ds, "gcn", epochs=200, hidden=64)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    time.sleep(0.02)  # the worker takes the GIL and enters the call
    while not done.is_set():
        ticks += 1
    t.join()
    assert ticks > 1000
