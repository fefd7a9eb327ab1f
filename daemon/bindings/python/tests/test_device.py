"""ldpgraph.device from Python: whole graphs and one user at a time, reports
and their wire format, the ledger, bad inputs, and label RR's distribution
against its formula and its epsilon."""

import math

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


# ---- one user at a time --------------------------------------------------------

def test_edge_randomizers_run_per_user_as_on_a_phone():
    rng = ldpgraph.device.Rng(seed=3)
    for mechanism in ("dprr", "rr", "rr-degree", "locallap", "none"):
        r = ldpgraph.device.EdgeRandomizer(100, mechanism, 2.0)
        out = r.perturb(5, [1, 7, 9], rng)
        assert out["mechanism"] == mechanism
        ids = out["neighbours"]
        assert np.all(np.diff(ids.astype(np.int64)) > 0) and np.all(ids < 100) and 5 not in ids
        if mechanism == "locallap":
            assert len(out["values"]) == 99
        if mechanism == "none":
            assert list(ids) == [1, 7, 9]
    r = ldpgraph.device.EdgeRandomizer(100, "dprr", 2.0)
    with pytest.raises(ValueError, match="out_of_range|outside|>= n|not"):
        r.perturb(5, [1, 100], rng)
    with pytest.raises(ValueError, match="epsilon must be a positive finite number"):
        ldpgraph.device.EdgeRandomizer(100, "dprr", float("nan"))
    with pytest.raises(ValueError, match="mechanism"):
        ldpgraph.device.EdgeRandomizer(100, "laplace", 1.0)


def test_multibit_is_unbiased_through_the_rectifier():
    dims, epsilon = 20, 4.0
    encoder = ldpgraph.device.MultiBitEncoder(dims, epsilon)
    rectifier = ldpgraph.device.MultiBitRectifier(dims, epsilon)
    x = np.linspace(0, 1, dims)
    rng = ldpgraph.device.Rng(seed=11)
    trials = 20000
    total = np.zeros(dims)
    for _ in range(trials):
        index, sign = encoder.encode(x, rng)
        assert len(index) == encoder.sampled_dims
        total += rectifier.rectify(index, sign)
    estimate = total / trials
    # Each coordinate's estimate has a standard deviation of a few units; the mean over 20000 about 0.03.
    assert np.max(np.abs(estimate - x)) < 0.15
    with pytest.raises(ValueError, match="out_of_range|range|outside"):
        encoder.encode(np.full(dims, 2.0), rng)
    with pytest.raises(ValueError):
        encoder.encode(np.full(dims - 1, 0.5), rng)


def test_label_rr_matches_its_formula_and_holds_its_epsilon():
    # The statistical test of a mechanism from Python: 4 classes at epsilon 1, 2 x 200000 draws from the
    # two neighbouring inputs (true label 0 and 1). Every output's frequency fits the formula (chi-square),
    # and the distinguishing event "output = 0" gives a lower bound on epsilon (Clopper-Pearson on both
    # rates, 99.9%) that stays under the claim while its point estimate reaches it.
    from scipy import stats
    classes, epsilon, draws = 4, 1.0, 200000
    rr = ldpgraph.device.LabelRandomizer(classes, epsilon)
    keep = math.exp(epsilon) / (math.exp(epsilon) + classes - 1)
    assert rr.keep_probability == pytest.approx(keep)
    counts = {}
    for label, seed in ((0, 1), (1, 2)):
        out = ldpgraph.device.perturb_labels(np.full(draws, label), classes, epsilon, seed=seed)
        counts[label] = np.bincount(out, minlength=classes)
        expected = np.full(classes, (1 - keep) / (classes - 1) * draws)
        expected[label] = keep * draws
        assert stats.chisquare(counts[label], expected).pvalue > 1e-4
    a, b = counts[0][0], counts[1][0]
    alpha = 1e-3
    p_low = stats.beta.ppf(alpha / 2, a, draws - a + 1)
    q_high = stats.beta.ppf(1 - alpha / 2, b + 1, draws - b)
    lower_bound = math.log(p_low / q_high)
    assert lower_bound <= epsilon
    assert math.log((a / draws) / (b / draws)) == pytest.approx(epsilon, abs=0.05)
    assert lower_bound > 0.9 * epsilon  # the test has the power to see a mechanism that leaked more


def test_vectorised_labels_and_features_refuse_bad_input():
    with pytest.raises(ValueError, match=r"labels\[1\] = 7 is not a class in \[0, 3\)"):
        ldpgraph.device.perturb_labels([0, 7], 3, 1.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        ldpgraph.device.perturb_features(np.full((3, 2), 5.0), "mbm", 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        ldpgraph.device.perturb_features(np.zeros((3, 2)), "mbm", float("nan"))


# ---- reports and the ledger ----------------------------------------------------

CONFIG = {"graph_id": 12, "num_users": 50, "edges": {"mechanism": "dprr", "epsilon": 2.0},
          "features": {"dims": 3, "epsilon": 1.0}, "label": {"classes": 2, "epsilon": 1.0}}


def test_reports_round_trip_through_the_wire_format():
    builder = ldpgraph.device.ReportBuilder(CONFIG)
    report = builder.build(4, [1, 2, 30], features=[0.2, 0.5, 0.9], label=1, rng=ldpgraph.device.Rng(seed=1))
    data = report.encode()
    back = ldpgraph.device.decode_report(data)
    assert (back.graph_id, back.user_id, back.report_id) == (12, 4, report.report_id)
    assert np.array_equal(back.edges["neighbours"], report.edges["neighbours"])
    assert back.features["dims"] == 3 and back.label in (0, 1)
    assert back.epsilon == pytest.approx(4.0)
    assert back.encode() == data
    with pytest.raises(ValueError, match="offset|byte"):
        ldpgraph.device.decode_report(data[:-3])
    with pytest.raises(ValueError, match="expected 3 feature values, got 0"):
        builder.build(4, [1], features=None, label=1)
    with pytest.raises(ValueError, match="unknown|colour"):
        ldpgraph.device.ReportBuilder(dict(CONFIG, colour="blue"))


def test_rounds_of_an_unchanged_user_cost_one_round(tmp_path):
    path = tmp_path / "rounds.bin"
    builder = ldpgraph.device.ReportBuilder(CONFIG)
    ledger = ldpgraph.device.BudgetLedger(path, epsilon_cap=10.0)
    friends, x = [1, 2, 30], [0.2, 0.5, 0.9]
    bodies = set()
    for round in range(1, 41):
        report = ldpgraph.device.decode_report(ledger.report_round(builder, round, 4, friends, features=x, label=1))
        bodies.add((tuple(report.edges["neighbours"]), report.edges["q"], tuple(report.features["sign"]), report.label))
    assert len(bodies) == 1  # the same randomization every round
    loss = ledger.loss(12)
    assert loss["epsilon"] == pytest.approx(4.0) and loss["naive_epsilon"] == pytest.approx(160.0)
    assert (loss["rounds"], loss["last_round"]) == (40, 40)
    assert loss["edges_epsilon"] + loss["features_epsilon"] + loss["label_epsilon"] == pytest.approx(4.0)
    assert ledger.spent == pytest.approx(4.0)
    assert ledger.report_round(builder, 40, 4, friends, features=x, label=1) == \
        ledger.report_round(builder, 40, 4, friends, features=x, label=1)
    with pytest.raises(RuntimeError, match="failed_precondition.*not after the last reported round 40"):
        ledger.report_round(builder, 39, 4, friends, features=x, label=1)
    with pytest.raises(RuntimeError, match="failed_precondition.*rounds"):
        ledger.report_once(12, lambda: (b"", 1.0))
    with pytest.raises(ValueError, match="own|herself|user"):
        ledger.report_round(builder, 41, 4, [4], features=x, label=1)
    with pytest.raises(ValueError, match="round"):
        ledger.report_round(builder, -1, 4, friends, features=x, label=1)
    with pytest.raises(TypeError):
        ledger.report_round(CONFIG, 41, 4, friends, features=x, label=1)
    with pytest.raises(RuntimeError, match="failed_precondition"):
        ledger.loss(99)
    # A new label costs its own coin; past the cap nothing is stored.
    ledger.report_round(builder, 41, 4, friends, features=x, label=0)
    assert ledger.loss(12)["label_epsilon"] == pytest.approx(2.0)
    tight = ldpgraph.device.BudgetLedger(tmp_path / "tight.bin", epsilon_cap=4.5)
    tight.report_round(builder, 1, 4, friends, features=x, label=1)
    with pytest.raises(ldpgraph.BudgetExhausted):
        tight.report_round(builder, 2, 4, friends, features=x, label=0)
    assert tight.loss(12)["rounds"] == 1


def test_the_ledger_sends_one_report_per_graph_and_keeps_to_its_cap(tmp_path):
    path = tmp_path / "ledger.bin"
    builder = ldpgraph.device.ReportBuilder(CONFIG)
    calls = []

    def make():
        calls.append(1)
        report = builder.build(4, [1, 2], features=[0.1, 0.1, 0.1], label=0)
        return report.encode(), report.epsilon

    ledger = ldpgraph.device.BudgetLedger(path, epsilon_cap=6.0)
    first = ledger.report_once(12, make)
    assert ledger.report_once(12, make) == first and len(calls) == 1  # the same bytes, no new randomness
    assert ledger.spent == pytest.approx(4.0)
    with pytest.raises(ldpgraph.BudgetExhausted):
        ledger.report_once(13, make)  # 4 + 4 > 6: nothing stored
    assert len(ledger) == 1
    reopened = ldpgraph.device.BudgetLedger(path, epsilon_cap=6.0)
    assert reopened.find(12) == first and reopened.find(13) is None

    def broken():
        raise RuntimeError("the app failed")
    with pytest.raises(RuntimeError, match="the app failed"):
        reopened.report_once(14, broken)
    assert len(reopened) == 1


SUMMARY_CONFIG = {
    "graph_id": 40, "num_users": 2,
    "embedding": {"dims": 2, "epsilon": 4, "encoding": "summary", "value_bins": 2, "size_bins": 2,
                  "min_nodes": 10, "max_nodes": 100},
}


def test_a_summary_report_is_one_cell_whatever_the_graphs_size(tmp_path):
    builder = ldpgraph.device.ReportBuilder(SUMMARY_CONFIG)
    assert builder.config["embedding"]["encoding"] == "summary"
    rng = ldpgraph.device.Rng(seed=3)
    small = builder.build_embedding(np.full((12, 2), 0.2), rng=rng)
    large = builder.build_embedding(np.full((90, 2), 0.9), rng=rng)
    assert 0 <= small.summary_cell < 8 and 0 <= large.summary_cell < 8
    assert len(small.encode()) == len(large.encode())
    assert small.epsilon == pytest.approx(4.0)
    assert ldpgraph.device.decode_report(small.encode()).summary_cell == small.summary_cell
    # Randomized response over 8 cells at epsilon 4: the true cell (every bin
    # the lowest) with Pr e^4 / (e^4 + 7) = 0.886, each other with 0.016.
    cells = [builder.build_embedding(np.full((12, 2), 0.2), rng=ldpgraph.device.Rng(seed=s)).summary_cell
             for s in range(2000)]
    keep = math.exp(4) / (math.exp(4) + 7)
    assert cells.count(0) / 2000 == pytest.approx(keep, abs=0.03)
    assert all(cells.count(c) / 2000 == pytest.approx((1 - keep) / 7, abs=0.012) for c in range(1, 8))
    with pytest.raises(ValueError, match="2 columns, got 3"):
        builder.build_embedding(np.full((5, 3), 0.5))
    with pytest.raises(ValueError, match="2-d"):
        builder.build_embedding([0.5, 0.5])
    with pytest.raises(ValueError, match="range|outside"):
        builder.build_embedding(np.full((5, 2), 1.5))
    with pytest.raises(RuntimeError, match="not an embedding graph"):
        ldpgraph.device.ReportBuilder(CONFIG).build_embedding(np.full((5, 3), 0.5))
    with pytest.raises(ValueError, match="embedding.encoding"):
        ldpgraph.device.ReportBuilder(dict(SUMMARY_CONFIG, embedding=dict(SUMMARY_CONFIG["embedding"], encoding="zip")))

    ledger = ldpgraph.device.BudgetLedger(tmp_path / "ledger", epsilon_cap=10)
    sent = ledger.report_embedding(builder, np.full((30, 2), 0.4), rng=rng)
    again = ledger.report_embedding(builder, np.full((70, 2), 0.7), rng=rng)
    assert again == sent and ledger.spent == pytest.approx(4.0)
