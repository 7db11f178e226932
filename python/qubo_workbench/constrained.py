"""Constrained models (dimod's ConstrainedQuadraticModel) sampled by the workbench: a penalty
weight per constraint family, each read refereed on the model itself.

    cqm = dimod.ConstrainedQuadraticModel()
    ...
    sampleset = qw.sample_cqm(cqm, sampler="sa", weights={"capacity": 80}, num_reads=200)
    sampleset.filter(lambda d: d.is_feasible).first
"""

import json

import dimod
import numpy as np

from . import _native
from .pyqubo_bridge import Model
from .samplers import _DESCRIPTIONS, _jsonable


def sample_cqm(cqm, sampler="sa", *, weights=None, formulation=None, threads=None, **parameters):
    """Samples `cqm` (binary and spin variables; integer and real ones are refused by name).

    The workbench encodes it as it encodes a constrained file: the objective under the weight
    `objective`, each constraint under its family's weight (labels `capacity[3]`,
    `capacity[4]` share `capacity`; dimod's unnamed constraints share `constraint`), equalities
    squared, inequalities by binary slack (`formulation="slack"`, as dimod.cqm_to_bqm) or by
    unbalanced penalisation (`"unbalanced"`, no extra variables). `weights` overrides defaults
    by name; `parameters` go to the sampler (`sa`, `pt`, `pa`, `sqa`, `tabu`, `exact`).

    Returns a SampleSet as LeapHybridCQMSampler's: `energy` is the objective (apart from the
    penalties), `is_feasible` per read, `is_satisfied` per read and constraint (labels in
    `info["constraint_labels"]`), and `penalty_energy`, the encoded model's energy; `info`
    holds the weights used.
    """
    if isinstance(cqm, Model):
        raw, model_json = b"", cqm.to_json()
        variables, spins = cqm.variables, []
    elif isinstance(cqm, dimod.ConstrainedQuadraticModel):
        raw, model_json = cqm.to_file().read(), None
        variables = list(cqm.variables)
        spins = [k for k, v in enumerate(variables) if cqm.vartype(v) is dimod.SPIN]
    else:
        raise TypeError(
            "expected a dimod.ConstrainedQuadraticModel (or from_pyqubo's model), "
            f"got {type(cqm).__name__}"
        )
    if sampler not in _DESCRIPTIONS:
        known = ", ".join(_DESCRIPTIONS)
        raise ValueError(f"unknown sampler {sampler!r} (local samplers: {known})")
    (bits, energies, counts, feasible, satisfied, objective, labels, info) = _native.sample_cqm(
        sampler,
        raw,
        json.dumps(parameters, default=_jsonable),
        json.dumps(weights or {}, default=_jsonable),
        formulation,
        None if threads is None else int(threads),
        model_json,
    )
    info = json.loads(info)
    rows = len(energies)
    samples = np.frombuffer(bits, dtype=np.uint8).reshape(rows, len(variables)).astype(np.int8)
    if spins:
        samples[:, spins] = 2 * samples[:, spins] - 1
    is_satisfied = (
        np.frombuffer(satisfied, dtype=np.uint8).reshape(rows, len(labels)).astype(bool)
    )
    info["constraint_labels"] = labels
    return dimod.SampleSet.from_samples(
        (samples, variables),
        "INTEGER",
        energy=np.asarray(objective, dtype=float),
        num_occurrences=np.asarray(counts, dtype=np.int64),
        is_feasible=np.asarray(feasible, dtype=bool),
        is_satisfied=is_satisfied,
        penalty_energy=np.asarray(energies, dtype=float),
        info=info,
    )
