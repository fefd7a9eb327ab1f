"""Shared fixtures: the shared datasets (skipped when ../shared/data is
absent), the CLI and daemon binaries CMake names, and a real ldpgraphd on
loopback TLS with a throwaway CA."""

import os
import pathlib
import re
import shutil
import subprocess
import time

import numpy as np
import pytest
import scipy.sparse as sp

ROOT = pathlib.Path(__file__).resolve().parents[4]
DATA = pathlib.Path(os.environ.get("LDPGRAPH_DATA", ROOT.parent / "shared" / "data"))


def binary(name):
    path = os.environ.get(name)
    if not path or not os.path.exists(path):
        pytest.skip("%s is not set (run through ctest, which names the built binary)" % name)
    return path


@pytest.fixture(scope="session")
def cora_dir():
    path = DATA / "nodes" / "cora"
    if not (path / "edges.csv").exists():
        pytest.skip("../shared/data/nodes/cora is absent")
    return path


def read_cora(path):
    """Cora from its CSV files with numpy alone: (adjacency, features, labels)."""
    e = np.loadtxt(path / "edges.csv", delimiter=",", skiprows=1, dtype=np.int64)
    f = np.loadtxt(path / "features.csv", delimiter=",", skiprows=1, dtype=np.float64)
    lab = np.loadtxt(path / "labels.csv", delimiter=",", skiprows=1, dtype=np.int64)
    n = int(max(e.max(), lab[:, 0].max())) + 1
    a = sp.coo_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n)).tocsr()
    a = ((a + a.T) > 0).astype(np.float32)
    x = sp.csr_matrix((f[:, 2], (f[:, 0].astype(int), f[:, 1].astype(int))), shape=(n, int(f[:, 1].max()) + 1))
    y = np.full(n, -1, dtype=np.int64)
    y[lab[:, 0]] = lab[:, 1]
    return a, x, y


@pytest.fixture(scope="session")
def cora(cora_dir):
    return read_cora(cora_dir)


def communities(n, classes=2, p_in=0.08, p_out=0.005, dims=8, seed=0):
    """A small graph of `classes` communities whose features and labels follow them."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % classes
    same = y[:, None] == y[None, :]
    upper = np.triu(rng.random((n, n)) < np.where(same, p_in, p_out), 1)
    a = sp.csr_matrix(upper | upper.T, dtype=np.float32)
    x = (rng.random((n, dims)) * 0.5 + 0.5 * (y[:, None] == np.arange(dims)[None, :] % classes)).astype(np.float32)
    return a, x, y.astype(np.int64)


class Daemon:
    """A real ldpgraphd in a temporary folder, on a free loopback port."""

    def __init__(self, folder):
        self.folder = folder
        pki = folder / "pki"
        pki.mkdir()
        openssl = shutil.which("openssl")
        if openssl is None:
            pytest.skip("openssl is not installed")

        def run(*args):
            subprocess.run([openssl, *args], check=True, capture_output=True)

        run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=ldpgraph test CA", "-keyout", str(pki / "ca.key"), "-out", str(pki / "ca.crt"))
        run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-subj", "/CN=localhost",
            "-keyout", str(pki / "server.key"), "-out", str(pki / "server.csr"))
        ext = pki / "san.ext"
        ext.write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
        run("x509", "-req", "-in", str(pki / "server.csr"), "-CA", str(pki / "ca.crt"), "-CAkey", str(pki / "ca.key"),
            "-CAcreateserial", "-days", "2", "-extfile", str(ext), "-out", str(pki / "server.crt"))
        (folder / "secret").write_text("python-test-secret-0123456789abcdef0123456789")
        self.admin_token = "python-admin-token-0123456789"
        (folder / "admin-token").write_text(self.admin_token)
        for f in (pki / "server.key", folder / "secret", folder / "admin-token"):
            f.chmod(0o600)
        (folder / "ldpgraphd.toml").write_text(
            '[server]\nlisten_address = "127.0.0.1"\nlisten_port = 0\nthreads = 2\n'
            '[tls]\ncertificate = "pki/server.crt"\nprivate_key = "pki/server.key"\n'
            '[store]\npath = "store.db"\n[auth]\nsecret_file = "secret"\nadmin_token_file = "admin-token"\n'
            '[limits]\nper_address_rate = 0\n[log]\nformat = "json"\n')
        self.ca = str(pki / "ca.crt")
        self.log = folder / "ldpgraphd.log"
        self.process = subprocess.Popen([binary("LDPGRAPHD"), "--config", str(folder / "ldpgraphd.toml")],
                                        stdout=subprocess.DEVNULL, stderr=open(self.log, "wb"))
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            found = re.search(r'"event":"listening"[^}]*"port":"(\d+)"', self.log.read_text())
            if found:
                self.url = "https://127.0.0.1:" + found.group(1)
                return
            if self.process.poll() is not None:
                raise RuntimeError("ldpgraphd exited: " + self.log.read_text())
            time.sleep(0.05)
        raise RuntimeError("ldpgraphd did not listen: " + self.log.read_text())

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="module")
def daemon(tmp_path_factory):
    d = Daemon(tmp_path_factory.mktemp("ldpgraphd"))
    yield d
    d.stop()
