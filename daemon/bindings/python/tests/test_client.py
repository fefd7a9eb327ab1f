"""ldpgraph.client against a real ldpgraphd on loopback TLS: devices built
from Python report (ldpgraph.device.ReportBuilder), a node job trains, and
each user reads her own result, which is the admin API's prediction for her.
Refusals raise ApiError with the daemon's code; another CA is refused."""

import ssl

import numpy as np
import pytest

import ldpgraph
from ldpgraph.client import ApiError, Client

from conftest import Daemon, communities

N = 200


@pytest.fixture(scope="module")
def admin(daemon):
    with Client(daemon.url, daemon.ca, admin_token=daemon.admin_token) as c:
        yield c


def test_phones_built_in_python_report_and_read_their_own_results(admin):
    assert admin.health() is not None
    admin.create_graph({"graph_id": 31, "num_users": N, "edges": {"mechanism": "dprr", "epsilon": 2.0},
                        "features": {"dims": 8, "epsilon": 2.0}, "label": {"classes": 2, "epsilon": 2.0}})
    config = admin.graph_config(31)
    assert config["num_users"] == N
    builder = ldpgraph.device.ReportBuilder(config)
    tokens = admin.user_tokens(31, first=0, count=N)
    a, x, y = communities(N, dims=8, seed=4)
    rng = ldpgraph.device.Rng(seed=9)
    sent = {}
    for u in range(N):
        report = builder.build(u, a[u].indices, features=x[u].astype(np.float64), label=int(y[u]), rng=rng)
        sent[u] = report.encode()
        admin.send_report(sent[u], tokens[u])
    admin.send_report(sent[0], tokens[0])  # a retry of the same bytes is acknowledged once
    graphs = admin.graphs()["graphs"]
    assert [g["reports"] for g in graphs if g["graph_id"] == 31] == [N]
    with pytest.raises(ApiError) as conflict:  # another report for a user who has one
        admin.send_report(builder.build(0, a[0].indices, x[0].astype(np.float64), int(y[0]), rng).encode(), tokens[0])
    assert conflict.value.status == 409

    seen = []
    job = admin.train({"task": "node", "graph": 31, "seed": 1, "epochs": 40})
    status = admin.wait_for_job(job["job_id"], poll_seconds=0.1, timeout=120, on_progress=seen.append)
    assert status["state"] == "succeeded", status
    assert seen and seen[-1]["state"] == "succeeded"
    version = admin.models()["models"][-1]["version"]
    predictions = admin.predict(version, {"nodes": list(range(N))})["predictions"]
    for u in (0, 1, 57, N - 1):
        mine = admin.result(31, tokens[u])
        assert mine["class"] == predictions[u]["class"]


def test_rounds_of_changing_friend_lists_retrain_a_model_each(admin, tmp_path):
    admin.create_graph({"graph_id": 33, "num_users": N, "edges": {"mechanism": "rr", "epsilon": 4.0},
                        "features": {"dims": 8, "epsilon": 4.0}, "label": {"classes": 2, "epsilon": 4.0},
                        "rounds": {"retrain": {"model": "gcn", "epochs": 30, "seed": 1}}})
    config = admin.graph_config(33)
    assert config["rounds"]["open"] == 1
    builder = ldpgraph.device.ReportBuilder(config)
    tokens = admin.user_tokens(33, first=0, count=N)
    a, x, y = communities(N, dims=8, seed=5)
    ledgers = [ldpgraph.device.BudgetLedger(tmp_path / ("u%d.bin" % u), epsilon_cap=100.0) for u in range(N)]
    versions = []
    for round in (1, 2):
        friends = [list(a[u].indices) for u in range(N)]
        if round == 2:
            friends[0] = friends[0][1:]  # user 0 drops a friend
        for u in range(N):
            admin.send_report(ledgers[u].report_round(builder, round, u, friends[u], features=x[u].astype(np.float64),
                                                      label=int(y[u])), tokens[u])
        with pytest.raises(ApiError) as early:  # the next round is not open yet
            other = ldpgraph.device.BudgetLedger(tmp_path / "other.bin", epsilon_cap=100.0)
            admin.send_report(other.report_round(builder, round + 1, 1, friends[1], features=x[1].astype(np.float64),
                                                 label=int(y[1])), tokens[1])
        assert (early.value.status, early.value.code) == (409, "wrong_round")
        closed = admin.close_round(33, close=round)
        assert closed["open"] == round + 1
        status = admin.wait_for_job(closed["retrain"]["job_id"], poll_seconds=0.1, timeout=120)
        assert status["state"] == "succeeded", status
        versions.append(admin.models()["models"][-1])
        assert versions[-1]["round"] == round
        assert admin.result(33, tokens[3])["model_version"] == versions[-1]["version"]
    assert admin.rounds(33)["open"] == 3
    # Two rounds of an unchanged list cost one.
    assert ledgers[3].loss(33)["epsilon"] == pytest.approx(ledgers[3].loss(33)["naive_epsilon"] / 2)
    with pytest.raises(ApiError) as stale:
        admin.close_round(33, close=1)
    assert (stale.value.status, stale.value.code) == (409, "round_not_open")


def test_refusals_carry_the_daemons_code(admin, daemon):
    with pytest.raises(ApiError) as unknown:
        admin.create_graph({"graph_id": 32, "num_users": 10, "colour": "blue"})
    assert (unknown.value.status, unknown.value.code) == (400, "invalid_config")
    assert "colour" in unknown.value.message
    with pytest.raises(ApiError) as missing:
        admin.job(987654)
    assert missing.value.status == 404
    jobs_before = admin.jobs()["jobs"]
    with pytest.warns(DeprecationWarning, match="use Client.train"):  # the old name, one release
        with pytest.raises(ApiError) as no_graph:
            admin.submit_job({"task": "node", "graph": 987654})
    assert (no_graph.value.status, no_graph.value.code) == (404, "unknown_graph")
    assert admin.jobs()["jobs"] == jobs_before  # nothing queued
    with Client(daemon.url, daemon.ca, admin_token="not-the-token") as stranger:
        with pytest.raises(ApiError) as refused:
            stranger.graphs()
    assert refused.value.status == 401
    with pytest.raises(ApiError) as bad_report:
        admin.send_report(b"LG\x01garbage", admin.user_tokens(31, users=[3])[3])
    assert bad_report.value.status == 400
    assert admin.graphs()["graphs"][0]["reports"] == N  # nothing changed


def test_the_pinned_ca_is_the_only_one_trusted(daemon, tmp_path_factory):
    other = Daemon(tmp_path_factory.mktemp("other"))  # its own throwaway CA
    try:
        with Client(daemon.url, other.ca, admin_token=daemon.admin_token) as wrong:
            with pytest.raises(ssl.SSLCertVerificationError):
                wrong.health()
    finally:
        other.stop()


@pytest.mark.parametrize("kwargs, message", [
    (dict(url="http://127.0.0.1:1"), "https"),
    (dict(ca_file="/nonexistent/ca.pem"), "ca_file"),
    (dict(admin_token="a", admin_token_file="b"), "not both"),
])
def test_bad_client_arguments_are_named(daemon, kwargs, message):
    args = dict(url=daemon.url, ca_file=daemon.ca)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        Client(**args)


def test_a_held_graph_from_scipy_trains_a_gap_model_and_is_taken_back(admin):
    a, x, y = communities(300, dims=8, seed=7)
    body = ldpgraph.client.held_graph(a, x, y)
    summary = admin.put_held_graph(77, body)
    assert (summary["num_nodes"], summary["edges"], summary["classes"]) == (300, a.nnz // 2, 2)
    with pytest.raises(ApiError) as taken:
        admin.put_held_graph(77, body)
    assert taken.value.status == 409
    job = admin.train({"task": "gap", "held_graph": 77, "privacy": "edge", "epsilon": 8, "epochs": 20})
    assert admin.wait_for_job(job["job_id"], poll_seconds=0.1, timeout=120)["state"] == "succeeded"
    assert admin.models()["models"][-1]["model"] == "gap"
    assert [g["graph_id"] for g in admin.held_graphs()["held_graphs"]] == [77]
    admin.delete_held_graph(77)
    assert admin.held_graphs()["held_graphs"] == []
