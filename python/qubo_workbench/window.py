"""The workbench's window opened from Python, in a process of its own: the kernel never waits."""

import json
import os
import subprocess
import sys
import tempfile

import dimod

from .pyqubo_bridge import Model


def _launch(args, remove_after=None, wait=False):
    command = [sys.executable, "-m", "qubo_workbench"]
    if remove_after:
        command += ["--remove-after", remove_after]
    process = subprocess.Popen(command + args, stdin=subprocess.DEVNULL)
    if wait:
        process.wait()
    return process


def inspect(bqm, sampleset=None, *, screenshot=None):
    """Opens the workbench on `bqm` (its heatmap, statistics and samplers) and, if given,
    `sampleset` as the model's last run (energy histogram, samples), columns matched by label.
    A ConstrainedQuadraticModel opens as a constrained model: a weight slider per constraint
    family, feasibility and the objective per read.

    Returns the window's `subprocess.Popen` at once. With `screenshot` (a .png path) the window
    saves a picture once it has settled, closes, and this call waits for it.
    """
    folder = tempfile.mkdtemp(prefix="qubo-workbench-")
    if isinstance(bqm, dimod.ConstrainedQuadraticModel):
        # Opened as a constrained model: its families' weights as sliders, feasibility refereed.
        model = os.path.join(folder, "model.cqm")
        with open(model, "wb") as f:
            f.write(bqm.to_file().read())
    elif isinstance(bqm, Model):
        model = os.path.join(folder, "model.json")
        with open(model, "w") as f:
            f.write(bqm.to_json())
    elif isinstance(bqm, dimod.BinaryQuadraticModel):
        model = os.path.join(folder, "model.json")
        with open(model, "w") as f:
            json.dump(bqm.to_serializable(use_bytes=False), f)
    else:
        os.rmdir(folder)
        raise TypeError(
            "expected a dimod.BinaryQuadraticModel or ConstrainedQuadraticModel, "
            f"got {type(bqm).__name__}"
        )
    args = ["gui", model]
    if sampleset is not None:
        samples = os.path.join(folder, "samples.json")
        with open(samples, "w") as f:
            json.dump(sampleset.to_serializable(use_bytes=False), f)
        args += ["--samples", samples]
    if screenshot is not None:
        args += ["--screenshot", os.fspath(screenshot)]
    return _launch(args, remove_after=folder, wait=screenshot is not None)


def open_puzzle(path, *, screenshot=None):
    """Opens the workbench on a puzzle file (or a model file). Returns the window's
    `subprocess.Popen` at once (with `screenshot`, after the picture is saved)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(path)
    args = ["gui", path]
    if screenshot is not None:
        args += ["--screenshot", os.fspath(screenshot)]
    return _launch(args, wait=screenshot is not None)
