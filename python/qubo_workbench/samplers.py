"""The workbench's local samplers as dimod samplers.

Each class is a thin wrapper: the model goes to the Rust module as dimod's numpy vectors (in
BINARY form), the parameters as JSON, and the registry's sampler checks and runs them exactly as
the CLI does. The answer comes back as distinct 0/1 rows with energies and occurrence counts, and
is turned into a SampleSet in the model's labels and vartype.
"""

import json
import time

import dimod
import numpy as np

from . import _native

# One description per registered local sampler: name, summary, parameters.
_DESCRIPTIONS = {d["name"]: d for d in json.loads(_native.describe_samplers())}


def _jsonable(value):
    """numpy scalars and arrays as plain Python, for json.dumps."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"{value!r} ({type(value).__name__}) is not a parameter value")


class _WorkbenchSampler(dimod.Sampler):
    """A registered local sampler of the workbench (`_registry_name`), as a dimod sampler."""

    _registry_name = None

    def __init__(self):
        description = _DESCRIPTIONS[self._registry_name]
        params = description["parameters"]
        # dimod: parameter name -> the properties relevant to it (none here).
        self._parameters = {p["name"]: [] for p in params}
        self._parameters["threads"] = []
        for p in params:
            if p["alias"]:
                self._parameters[p["alias"]] = []
        self._properties = {
            "workbench_sampler": description["name"],
            "summary": description["summary"],
            "parameter_descriptions": {
                p["name"]: {k: p[k] for k in ("type", "range", "default", "help", "alias")}
                for p in params
            },
            "workbench_version": _native.version(),
        }

    @property
    def parameters(self):
        return self._parameters

    @property
    def properties(self):
        return self._properties

    def sample(self, bqm, *, threads=None, **parameters):
        """Samples `bqm` (a BinaryQuadraticModel, any labels, BINARY or SPIN); `threads` worker
        threads (default: every core), as the CLI's --threads.

        Returns a SampleSet in the model's labels and vartype; `info` holds the run's sampler,
        parameters, seed, warnings and `timing` (ns, as dwave-samplers' `info["timing"]`):
        `preprocessing_ns` (the sampler's set-up: CSR, β pilot), `sampling_ns`,
        `postprocessing_ns` (exact energies, distinct rows), and the bridge's own cost around them:
        `conversion_ns` (the BQM to arrays, in Python), `native_ns` (the whole Rust call) and
        `answer_ns` (the SampleSet built in the model's labels). Unknown parameter names and values out of
        range raise ValueError; Ctrl-C cancels the run and raises KeyboardInterrupt.
        """
        if not isinstance(bqm, dimod.BinaryQuadraticModel):
            raise TypeError(f"expected a dimod.BinaryQuadraticModel, got {type(bqm).__name__}")
        t_start = time.perf_counter_ns()
        labels = list(bqm.variables)
        n = len(labels)
        params_json = json.dumps(parameters, default=_jsonable)
        binary = bqm if bqm.vartype is dimod.BINARY else bqm.change_vartype(dimod.BINARY, inplace=False)
        linear, (rows, cols, values), offset = binary.to_numpy_vectors(variable_order=labels)
        linear = np.ascontiguousarray(linear, dtype="<f8").tobytes()
        rows = np.ascontiguousarray(rows, dtype="<i8").tobytes()
        cols = np.ascontiguousarray(cols, dtype="<i8").tobytes()
        values = np.ascontiguousarray(values, dtype="<f8").tobytes()
        t_native = time.perf_counter_ns()
        raw, energies, counts, info = _native.sample(
            self._registry_name,
            n,
            linear,
            rows,
            cols,
            values,
            float(offset),
            params_json,
            None if threads is None else int(threads),
        )
        t_answer = time.perf_counter_ns()
        info = json.loads(info)
        samples = np.frombuffer(raw, dtype=np.uint8).reshape(len(energies), n).astype(np.int8)
        if bqm.vartype is dimod.SPIN:
            samples = 2 * samples - 1
        sampleset = dimod.SampleSet.from_samples(
            (samples, labels),
            bqm.vartype,
            energy=np.asarray(energies, dtype=float),
            num_occurrences=np.asarray(counts, dtype=np.int64),
            info=info,
        )
        sampleset.info["timing"] = {
            **{k: info.get(k, 0) for k in ("preprocessing_ns", "sampling_ns", "postprocessing_ns")},
            "conversion_ns": t_native - t_start,
            "native_ns": t_answer - t_native,
            "answer_ns": time.perf_counter_ns() - t_answer,
        }
        return sampleset


class SimulatedAnnealingSampler(_WorkbenchSampler):
    """Simulated annealing (Metropolis sweeps under a β schedule), dwave-samplers' parameters."""

    _registry_name = "sa"


class ParallelTemperingSampler(_WorkbenchSampler):
    """Parallel tempering (replica exchange) with the workbench's constraint-preserving moves."""

    _registry_name = "pt"


class PopulationAnnealingSampler(_WorkbenchSampler):
    """Population annealing: a population (num_reads) cooled and resampled step by step."""

    _registry_name = "pa"


class SimulatedQuantumAnnealingSampler(_WorkbenchSampler):
    """Simulated quantum annealing (path-integral Monte Carlo), OpenJij's SQA parameters."""

    _registry_name = "sqa"


class TabuSampler(_WorkbenchSampler):
    """Tabu search with restarts, dwave-samplers' TabuSampler parameters."""

    _registry_name = "tabu"


class ExactSolver(_WorkbenchSampler):
    """Exact enumeration (n <= 30): the `num_reads` lowest states (default 100)."""

    _registry_name = "exact"
