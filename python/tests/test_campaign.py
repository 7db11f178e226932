"""Campaigns from Python: the same campaign run here and on a two-worker Dask LocalCluster gives
the same table (times aside), in the command line's format."""

import json
import os

import pytest

import qubo_workbench as qw
from qubo_workbench import _native

TIMING = ("sample_s", "tts99_s", "tts99_ci95", "threads")


def _deterministic(table):
    rows = []
    for row in table:
        point = {k: v for k, v in row["point"].items() if k not in TIMING}
        rows.append({**row, "point": point})
    return rows


def _instances(folder):
    os.makedirs(folder)
    for seed in ("1", "2", "3"):
        path = os.path.join(folder, f"s{seed}.txt")
        assert _native.main(["generate", "sudoku", "--size", "4", "--givens", "5",
                             "--seed", seed, "-o", path]) == 0


SETTINGS = dict(sampler="sa", sampler_param="num_sweeps", values=[2, 8, 32], repeats=3,
                num_reads=10, seed=1, extra=["--ci-width", "0.3", "--budget-factor", "0"])


def test_a_campaign_here_writes_the_table_and_plots(tmp_path):
    instances = str(tmp_path / "instances")
    _instances(instances)
    out = str(tmp_path / "here")
    table = qw.campaign([instances], out, **SETTINGS)
    assert len(table) == 9
    assert {r["point"]["params"]["num_sweeps"] for r in table} == {2, 8, 32}
    for name in ("campaign.csv", "campaign.json", "tts.png", "scaling.png"):
        assert os.path.getsize(os.path.join(out, name)) > 0
    # Run again: everything is in the journal, nothing is measured twice.
    again = qw.campaign([instances], out, **SETTINGS)
    assert _deterministic(again) == _deterministic(table)
    with open(os.path.join(out, "points.jsonl"), encoding="utf-8") as f:
        assert len(f.read().splitlines()) == 9


def test_a_campaign_on_a_two_worker_local_cluster_gives_the_command_lines_table(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    instances = str(tmp_path / "instances")
    _instances(instances)
    here = qw.campaign([instances], str(tmp_path / "here"), **SETTINGS)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        there = qw.campaign([instances], str(tmp_path / "cluster"), client=client, **SETTINGS)
    assert _deterministic(there) == _deterministic(here)
    with open(tmp_path / "cluster" / "campaign.json", encoding="utf-8") as f:
        assert json.load(f) == there


def test_a_campaign_of_two_samplers_sweeps_each_instance_with_each(tmp_path):
    instances = str(tmp_path / "instances")
    _instances(instances)
    settings = {**SETTINGS, "sampler": ["sa", "pt"], "values": [4, 16],
                "extra": SETTINGS["extra"] + ["--num-replicas", "4"]}
    table = qw.campaign([instances], str(tmp_path / "both"), **settings)
    assert len(table) == 3 * 2 * 2
    assert {(r["sampler"], r["point"]["params"]["num_sweeps"]) for r in table} == {
        ("sa", 4), ("sa", 16), ("pt", 4), ("pt", 16)}
    with pytest.raises(RuntimeError):
        qw.campaign([instances], str(tmp_path / "bad"), **{**settings, "sampler": ["sa", "sa"]})
