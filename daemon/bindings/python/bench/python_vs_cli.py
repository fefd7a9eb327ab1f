"""The Python package's overhead against the CLI, measured in one run.

  PYTHONPATH=BUILD/daemon/bindings/python python3 python_vs_cli.py BUILD [CORA_DIR]

1. Perturbing every user of a generated 22,470-node social graph (ldpgraph
   generate --kind sbm --nodes 22470 --degree 15.2) with DPRR at epsilon 1:
   `ldpgraph perturb`'s own figure (the perturbation alone, files excluded)
   against ldpgraph.device.perturb_graph on the scipy matrix (everything the
   call does: checks, conversions both ways, the same perturbation).
2. A Cora GCN training (500 epochs at most, seed 0): `ldpgraph train`'s
   train_seconds (the trainer alone) against the whole ldpgraph.server.train
   call on arrays already in memory (the task's data, split and model made,
   then trained), and against the trainer's own figure inside Python.
Rounds alternate CLI and Python, each Python round reading its input as the
CLI does before its timed part. Medians and minimums and their ratios (the
Python figure over the CLI's) are printed as key=value lines.
"""

import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

import ldpgraph
from ldpgraph import device, server

ROUNDS = 7


def key_values(text):
    return dict(line.split("=", 1) for line in text.split() if "=" in line)


def cli(binary, *args):
    done = subprocess.run([binary, *args], check=True, capture_output=True, text=True)
    return key_values(done.stdout)


def report(what, cli_seconds, python_seconds):
    c, p = statistics.median(cli_seconds), statistics.median(python_seconds)
    cm, pm = min(cli_seconds), min(python_seconds)
    print("%s_cli_seconds=%.4f %s_python_seconds=%.4f %s_python_over_cli=%.3f" % (what, c, what, p, what, p / c))
    print("%s_cli_best=%.4f %s_python_best=%.4f %s_python_over_cli_best=%.3f" % (what, cm, what, pm, what, pm / cm))


def main():
    build = pathlib.Path(sys.argv[1])
    binary = str(build / "daemon" / "ldpgraph")
    cora = pathlib.Path(sys.argv[2]) if len(sys.argv) > 2 else None
    with tempfile.TemporaryDirectory() as tmp:
        graph = pathlib.Path(tmp) / "sbm"
        cli(binary, "generate", "--kind", "sbm", "--nodes", "22470", "--degree", "15.2", "--features", "4714",
            "--words", "14", "--output", str(graph), "--seed", "1")
        adjacency = server.adjacency_of(server.read_dataset(graph))
        print("perturb_users=%d perturb_entries=%d" % (adjacency.shape[0], adjacency.nnz))
        cli_seconds, python_seconds = [], []
        for r in range(ROUNDS):
            out = cli(binary, "perturb", "--input", str(graph), "--output", str(pathlib.Path(tmp) / "noisy"),
                      "--mechanism", "dprr", "--epsilon", "1", "--seed", str(r))
            cli_seconds.append(float(out["seconds"]))
            # As the CLI: the graph read, then its perturbation timed (a CPU idle while the CLI ran
            # would otherwise charge its wake-up to Python).
            adjacency = server.adjacency_of(server.read_dataset(graph))
            start = time.perf_counter()
            device.perturb_graph(adjacency, "dprr", 1.0, seed=r)
            python_seconds.append(time.perf_counter() - start)
        report("perturb", cli_seconds, python_seconds)

    if cora is None or not (cora / "edges.csv").exists():
        print("train_skipped=no Cora folder given (../shared/data/nodes/cora)")
        return
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
    from conftest import read_cora  # the same numpy-only reader the tests use
    a, x, y = read_cora(cora)
    ds = server.node_dataset(a, x, y, name="cora")
    cli_seconds, python_seconds, trainer_seconds = [], [], []
    for r in range(ROUNDS):
        out = cli(binary, "train", "--dataset", str(cora), "--model", "gcn", "--seed", "0")
        cli_seconds.append(float(out["train_seconds"]))
        ds = server.node_dataset(a, x, y, name="cora")  # as the CLI: the data made, then the training timed
        start = time.perf_counter()
        model = server.train(ds, "gcn", seed=0)
        python_seconds.append(time.perf_counter() - start)
        trainer_seconds.append(model.metrics["train_seconds"])  # the trainer's own clock, as the CLI's figure
        assert abs(model.metrics["test_accuracy"] - float(out["test_accuracy"])) < 1e-6
    report("train", cli_seconds, python_seconds)
    # The same C++ trainer's own figure inside Python: what the process, not the binding, adds.
    print("train_python_trainer_seconds=%.4f train_trainer_over_cli=%.3f"
          % (statistics.median(trainer_seconds), statistics.median(trainer_seconds) / statistics.median(cli_seconds)))


if __name__ == "__main__":
    main()
