"""Campaigns from Python: `campaign(...)` runs the command line's `campaign` in this process, or,
with a Dask `client=`, as independent tasks on a `distributed` cluster — one task per instance
file and swept value, each a one-point campaign in a folder of its own on the worker, its rows
gathered into the campaign folder's journal, then the table and plots written here exactly as
the command line writes them. Tasks are pure, so a killed worker's are simply run again.

    from dask.distributed import Client, LocalCluster
    table = qw.campaign(["puzzles/sudoku/top95.txt"], "top95-sa", sampler="sa",
                        sampler_param="num_sweeps", values=[10, 100, 1000],
                        extra=["--limit", "10", "--presolve"],
                        client=Client(LocalCluster(n_workers=2, threads_per_worker=1)))

On a real cluster: `Client("tcp://scheduler:8786")`, or dask-jobqueue's `SLURMCluster` /
`PBSCluster` (workers need `pip install qubo-workbench` and the instance files at the same
paths). With a stopping rule that compares no points (`--budget-factor 0`, and `--tts-ratio 0`
when judged by a TTS99 metric) the table is the command line's own, row for row (times aside).
"""

import json
import os
import tempfile

from . import _native

__all__ = ["campaign"]


def _args(instances, out, sampler, sampler_param, weight, values, start, stop, steps, log,
          repeats, num_reads, seed, extra):
    names = _names(sampler)
    flag = "--sampler" if len(names) == 1 else "--samplers"
    args = ["campaign", *[str(i) for i in instances], "--out", str(out), flag, ",".join(names)]
    if sampler_param is not None:
        args += ["--sampler-param", sampler_param]
    if weight is not None:
        args += ["--weight", weight]
    if values is not None:
        args += ["--values", ",".join(str(v) for v in values)]
    for flag, value in (("--from", start), ("--to", stop), ("--steps", steps),
                        ("--repeats", repeats), ("--num-reads", num_reads), ("--seed", seed)):
        if value is not None:
            args += [flag, str(value)]
    if log:
        args.append("--log")
    return args + [str(e) for e in extra]


def _names(sampler):
    """A sampler's name, or several (a list or tuple), as a list."""
    names = [sampler] if isinstance(sampler, str) else [str(s) for s in sampler]
    if not names:
        raise ValueError("name at least one sampler")
    return names


def _run(args):
    code = _native.main(args)
    if code not in (0,):
        raise RuntimeError(f"qubo-workbench {' '.join(args)} exited with {code}")


def _table(out):
    with open(os.path.join(out, "campaign.json"), encoding="utf-8") as f:
        return json.load(f)


def _expand(instances):
    """Instance files: folders opened (sorted, hidden files left out), as the command does."""
    files = []
    for path in instances:
        path = str(path)
        if os.path.isdir(path):
            names = sorted(n for n in os.listdir(path) if not n.startswith("."))
            files += [os.path.join(path, n) for n in names
                      if os.path.isfile(os.path.join(path, n))]
        else:
            files.append(path)
    return files


def _one_point(args):
    """A task: a one-point campaign in a folder of its own; its rows."""
    with tempfile.TemporaryDirectory(prefix="qw-campaign-") as folder:
        at = args.index("--out") + 1
        args = args[:at] + [folder] + args[at + 1:]
        _run(args)
        return _table(folder)


def campaign(instances, out, *, sampler, sampler_param=None, weight=None, values=None,
             start=None, stop=None, steps=None, log=False, repeats=None, num_reads=None,
             seed=None, extra=(), client=None):
    """Sweeps one axis (`sampler_param` or `weight`) over `instances` (files or folders) into the
    folder `out`, and returns its table: a list of rows {instance, sampler, num_variables,
    point}. `sampler` is a name or a list of names (each instance swept by each; a sampler flag
    in `extra` applies to every one that has it). The values are `values` (a list), or `start`/`stop`/`steps` (`log` for geometric
    steps); `extra` holds further command-line flags (`--limit`, `--presolve`, `--ci-width`,
    `--budget-factor`, the sampler's own…). Without `client` it runs here, on every core,
    resuming what `out` already holds; with a Dask `client` its points run on the cluster."""
    args = _args(instances, out, sampler, sampler_param, weight, values, start, stop, steps, log,
                 repeats, num_reads, seed, extra)
    if client is None:
        _run(args)
        return _table(out)
    if values is None:
        raise ValueError("on a cluster, give the swept values as a list (values=[...])")
    os.makedirs(out, exist_ok=True)
    tasks = []
    for file in _expand(instances):
        for name in _names(sampler):
            for v in values:
                one = _args([file], out, name, sampler_param, weight, [v], None, None, None,
                            False, repeats, num_reads, seed, extra)
                tasks.append(client.submit(_one_point, one, pure=False))
    rows = [row for part in client.gather(tasks) for row in part]
    # The gathered rows join the folder's journal; the command then finds every point done
    # and writes the table and plots as for a local campaign.
    with open(os.path.join(out, "points.jsonl"), "a", encoding="utf-8") as journal:
        for row in rows:
            journal.write(json.dumps(row) + "\n")
    _run(args)
    return _table(out)
