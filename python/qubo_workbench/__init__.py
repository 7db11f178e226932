"""qubo-workbench from Python: its local samplers as dimod samplers, and its window.

    import dimod, qubo_workbench as qw
    sampleset = qw.SimulatedAnnealingSampler().sample(bqm, num_reads=100, seed=1)
    qw.inspect(bqm, sampleset)
    sampleset = qw.sample_cqm(cqm, sampler="sa", weights={"capacity": 80})
"""

from ._native import version
from .samplers import (
    ExactSolver,
    ParallelTemperingSampler,
    PopulationAnnealingSampler,
    SimulatedAnnealingSampler,
    SimulatedQuantumAnnealingSampler,
    TabuSampler,
)
from .campaign import campaign
from .constrained import sample_cqm
from .pyqubo_bridge import Model, from_pyqubo
from .window import inspect, open_puzzle

__all__ = [
    "ExactSolver",
    "ParallelTemperingSampler",
    "PopulationAnnealingSampler",
    "SimulatedAnnealingSampler",
    "SimulatedQuantumAnnealingSampler",
    "TabuSampler",
    "Model",
    "campaign",
    "from_pyqubo",
    "inspect",
    "sample_cqm",
    "open_puzzle",
    "version",
]
__version__ = version()
