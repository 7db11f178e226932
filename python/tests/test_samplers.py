"""The Python bridge held to dimod's own sampler checks, and to the workbench's promises:
energies equal to dimod's, labels and vartype kept, seeds reproducing a run, parameters checked
by name and range, the GIL released while sampling."""

import threading
import time
import unittest

import dimod
import dimod.testing
import numpy as np
import pytest

import qubo_workbench as qw

ALL = [
    qw.SimulatedAnnealingSampler,
    qw.ParallelTemperingSampler,
    qw.PopulationAnnealingSampler,
    qw.SimulatedQuantumAnnealingSampler,
    qw.TabuSampler,
    qw.ExactSolver,
]
SEEDED = [S for S in ALL if S is not qw.ExactSolver]


# dimod's generated battery (empty, single-variable, labelled, SPIN and BINARY models; the
# returned sample sets' shape, vartype, labels and energies) for every sampler.
@dimod.testing.load_sampler_bqm_tests(qw.SimulatedAnnealingSampler)
@dimod.testing.load_sampler_bqm_tests(qw.ParallelTemperingSampler)
@dimod.testing.load_sampler_bqm_tests(qw.PopulationAnnealingSampler)
@dimod.testing.load_sampler_bqm_tests(qw.SimulatedQuantumAnnealingSampler)
@dimod.testing.load_sampler_bqm_tests(qw.TabuSampler, suppress_overload_warning=True)
@dimod.testing.load_sampler_bqm_tests(qw.ExactSolver, suppress_overload_warning=True)
class TestDimodBattery(unittest.TestCase):
    pass


def odd_labels_model(vartype):
    """A frustrated model with labels of every kind dimod allows."""
    labels = ["a", 3, ("t", 1), frozenset({1}), 2.5]
    rng = np.random.default_rng(11)
    linear = {v: float(rng.normal()) for v in labels}
    quadratic = {
        (u, v): float(rng.normal())
        for i, u in enumerate(labels)
        for v in labels[i + 1 :]
    }
    return dimod.BinaryQuadraticModel(linear, quadratic, 0.75, vartype)


@pytest.mark.parametrize("sampler", ALL, ids=lambda s: s.__name__)
def test_api(sampler):
    dimod.testing.assert_sampler_api(sampler())


@pytest.mark.parametrize("sampler", ALL, ids=lambda s: s.__name__)
@pytest.mark.parametrize("vartype", [dimod.SPIN, dimod.BINARY], ids=str)
def test_energies_labels_and_vartype(sampler, vartype):
    bqm = odd_labels_model(vartype)
    sampleset = sampler().sample(bqm, num_reads=20)
    dimod.testing.assert_sampleset_energies(sampleset, bqm)
    assert list(sampleset.variables) == list(bqm.variables)
    assert sampleset.vartype is vartype
    assert sampleset.record.num_occurrences.sum() == 20 or sampler is qw.ExactSolver
    # 5 variables: every sampler finds the ground state, which enumeration confirms.
    ground = dimod.ExactSolver().sample(bqm).first.energy
    assert sampleset.first.energy == pytest.approx(ground)


@pytest.mark.parametrize("sampler", SEEDED, ids=lambda s: s.__name__)
def test_a_seed_reproduces_the_sample_set(sampler):
    bqm = dimod.generators.ran_r(1, 40, seed=3)
    a = sampler().sample(bqm, num_reads=30, seed=1234)
    b = sampler().sample(bqm, num_reads=30, seed=1234)
    assert np.array_equal(a.record.sample, b.record.sample)
    assert np.array_equal(a.record.energy, b.record.energy)
    assert np.array_equal(a.record.num_occurrences, b.record.num_occurrences)
    assert a.info["seed"] == 1234
    # Without a seed, the one used is reported, and it reproduces the run.
    c = sampler().sample(bqm, num_reads=30)
    d = sampler().sample(bqm, num_reads=30, seed=c.info["seed"])
    assert np.array_equal(c.record.sample, d.record.sample)


def test_the_timing_shows_the_bridge_beside_the_sampler():
    bqm = odd_labels_model(dimod.SPIN)
    t = time.perf_counter_ns()
    ss = qw.SimulatedAnnealingSampler().sample(bqm, num_reads=20, num_sweeps=200, seed=3)
    wall = time.perf_counter_ns() - t
    timing = ss.info["timing"]
    for key in ("preprocessing_ns", "sampling_ns", "postprocessing_ns", "conversion_ns",
                "native_ns", "answer_ns"):
        assert isinstance(timing[key], int) and timing[key] >= 0, key
    assert timing["sampling_ns"] > 0 and timing["native_ns"] > 0
    # The sampler's phases happen inside the native call, and the bridge's parts inside the
    # whole sample() call.
    inside = timing["preprocessing_ns"] + timing["sampling_ns"] + timing["postprocessing_ns"]
    assert inside <= timing["native_ns"]
    assert timing["conversion_ns"] + timing["native_ns"] + timing["answer_ns"] <= wall


def test_sample_qubo_and_sample_ising_come_from_dimod():
    sampler = qw.TabuSampler()
    ss = sampler.sample_qubo({(0, 0): -1, (1, 1): -1, (0, 1): 2}, seed=1)
    assert ss.first.energy == -1
    ss = sampler.sample_ising({"x": 1}, {("x", "y"): -1}, seed=1)
    assert ss.first.sample == {"x": -1, "y": -1}
    assert ss.first.energy == -2


def test_parameters_are_the_clis_and_are_checked():
    sa = qw.SimulatedAnnealingSampler()
    assert {"num_reads", "num_sweeps", "beta_range", "seed"} <= set(sa.parameters)
    described = sa.properties["parameter_descriptions"]["num_sweeps"]
    assert described["default"] == 1000 and described["help"]
    sqa = qw.SimulatedQuantumAnnealingSampler()
    assert "trotter" in sqa.parameters and "Gamma" in sqa.parameters  # OpenJij's name too
    bqm = dimod.generators.ran_r(1, 8, seed=1)
    with pytest.raises(ValueError, match="unknown parameter 'num_sweep'"):
        sa.sample(bqm, num_sweep=10)
    with pytest.raises(ValueError, match="num_sweeps must be an integer"):
        sa.sample(bqm, num_sweeps=-1)
    # numpy numbers and tuples are taken as the CLI's numbers and pairs.
    ss = sa.sample(bqm, num_reads=np.int64(5), beta_range=(np.float64(0.1), 4.0), seed=1)
    assert ss.record.num_occurrences.sum() == 5
    assert ss.info["params"]["beta_range"] == [0.1, 4.0]
    # threads, as the CLI's --threads: the same reads on one thread as on every core.
    one = sa.sample(bqm, num_reads=16, seed=5, threads=1)
    every = sa.sample(bqm, num_reads=16, seed=5)
    assert sorted(one.record.energy) == sorted(every.record.energy)
    with pytest.raises(ValueError, match="threads must be at least 1"):
        sa.sample(bqm, threads=0)


def test_bad_models_are_refused_with_the_problem_named():
    bqm = dimod.BinaryQuadraticModel({"a": float("nan")}, {}, 0, dimod.BINARY)
    with pytest.raises(ValueError, match="linear bias of variable 0"):
        qw.TabuSampler().sample(bqm)
    too_big = dimod.generators.ran_r(1, 31, seed=1)
    with pytest.raises(ValueError, match="30"):
        qw.ExactSolver().sample(too_big)
    with pytest.raises(TypeError):
        qw.TabuSampler().sample({"a": 1})


def test_the_native_module_checks_what_it_is_handed():
    from qubo_workbench import _native

    f8 = lambda *xs: np.asarray(xs, dtype="<f8").tobytes()  # noqa: E731
    i8 = lambda *xs: np.asarray(xs, dtype="<i8").tobytes()  # noqa: E731
    cases = [
        (("sa", 2, b"\0" * 15, b"", b"", b"", 0.0, "{}"), "not a whole number of float64"),
        (("sa", 3, f8(0, 0), b"", b"", b"", 0.0, "{}"), "2 linear biases for 3 variables"),
        (("sa", 2, f8(0, 0), i8(-1), i8(1), f8(1), 0.0, "{}"), "negative index -1"),
        (("sa", 2, f8(0, 0), i8(0), i8(5), f8(1), 0.0, "{}"), "5"),
        (("sa", 2, f8(0, 0), i8(0, 1), i8(1), f8(1), 0.0, "{}"), "must be as many"),
        (("sa", 2, f8(0, 0), b"", b"", b"", float("inf"), "{}"), "offset"),
        (("sa", 2, f8(0, 0), b"", b"", b"", 0.0, "[1]"), "JSON object"),
        (("nope", 2, f8(0, 0), b"", b"", b"", 0.0, "{}"), "nope"),
        (("dwave-qpu", 2, f8(0, 0), b"", b"", b"", 0.0, "{}"), "runs remotely"),
    ]
    for args, message in cases:
        with pytest.raises(ValueError, match=message):
            _native.sample(*args)


def test_sampling_releases_the_gil():
    """A Python thread keeps running while a long run samples."""
    bqm = dimod.generators.ran_r(1, 300, seed=2)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.005)

    t = threading.Thread(target=tick)
    t.start()
    started = time.perf_counter()
    qw.SimulatedAnnealingSampler().sample(bqm, num_reads=64, num_sweeps=100000, seed=1)
    elapsed = time.perf_counter() - started
    done.set()
    t.join()
    during = [x for x in ticks if started < x < started + elapsed]
    # With the GIL held throughout, the thread could not have ticked at all.
    assert elapsed > 0.2, "the run must be long enough to tell"
    assert len(during) > 10, (len(during), elapsed)
