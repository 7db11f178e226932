"""qw.sample_cqm: a dimod ConstrainedQuadraticModel sampled through the workbench's encoding,
each read refereed on the model itself, as LeapHybridCQMSampler's sample sets are."""

import os

import dimod
import numpy as np
import pytest

import qubo_workbench as qw

HAS_DISPLAY = bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def knapsack(n=10):
    cqm = dimod.ConstrainedQuadraticModel()
    x = [dimod.Binary(f"item[{i}]") for i in range(n)]
    w = [3, 5, 2, 7, 4, 6, 1, 8, 5, 3][:n]
    v = [4, 6, 3, 9, 5, 7, 2, 10, 6, 2][:n]
    cqm.set_objective(-sum(a * b for a, b in zip(v, x)))
    cqm.add_constraint(sum(a * b for a, b in zip(w, x)) <= 20, label="capacity")
    cqm.add_constraint(x[0] + x[1] >= 1, label="pick[0]")
    cqm.add_constraint(x[2] + x[3] == 1, label="pick[1]")
    return cqm


def feasible_share(ss):
    return np.average(ss.record.is_feasible, weights=ss.record.num_occurrences)


def test_reads_are_refereed_on_the_model_as_dimod_does():
    cqm = knapsack()
    ss = qw.sample_cqm(cqm, sampler="sa", num_reads=50, seed=3)
    assert set(ss.variables) == set(cqm.variables)
    assert ss.info["constraint_labels"] == ["capacity", "pick[0]", "pick[1]"]
    assert set(ss.info["weights"]) == {"capacity", "pick", "objective"}
    for row in ss.data(["sample", "energy", "is_feasible", "is_satisfied"]):
        assert row.energy == pytest.approx(cqm.objective.energy(row.sample))
        assert bool(row.is_feasible) == cqm.check_feasible(row.sample)
        violations = cqm.violations(row.sample, clip=True)
        for label, ok in zip(ss.info["constraint_labels"], row.is_satisfied):
            assert bool(ok) == (violations[label] <= 1e-6), label
    assert feasible_share(ss) > 0.6
    # The feasible optimum (by enumeration) is among the reads of a longer run.
    best = min(
        cqm.objective.energy(s)
        for s in dimod.ExactSolver().sample(dimod.BQM(cqm.objective.linear, {}, 0, "BINARY")).samples()
        if cqm.check_feasible(s)
    )
    longer = qw.sample_cqm(cqm, sampler="sa", num_reads=200, num_sweeps=4000, seed=1)
    assert longer.filter(lambda d: d.is_feasible).first.energy == pytest.approx(best)


def test_weights_set_by_name_change_what_wins():
    cqm = knapsack()
    strong = qw.sample_cqm(cqm, num_reads=100, seed=1)
    weak = qw.sample_cqm(cqm, num_reads=100, seed=1, weights={"capacity": 0.05, "pick": 0.05})
    assert weak.info["weights"]["capacity"] == 0.05
    assert feasible_share(weak) < feasible_share(strong)
    with pytest.raises(ValueError, match="unknown weight 'capcity'"):
        qw.sample_cqm(cqm, weights={"capcity": 3})
    unbalanced = qw.sample_cqm(cqm, num_reads=50, seed=1, formulation="unbalanced")
    assert unbalanced.record.is_feasible.any()
    with pytest.raises(ValueError, match="unknown formulation"):
        qw.sample_cqm(cqm, formulation="lagrange")


def test_spin_variables_come_back_as_spins():
    cqm = dimod.ConstrainedQuadraticModel()
    s = [dimod.Spin(f"s{i}") for i in range(4)]
    cqm.set_objective(s[0] * s[1] + s[1] * s[2] - s[3])
    cqm.add_constraint(s[0] + s[1] + s[2] + s[3] == 0, label="balance")
    ss = qw.sample_cqm(cqm, sampler="exact", num_reads=16)
    assert set(np.unique(ss.record.sample)) <= {-1, 1}
    for row in ss.data(["sample", "energy", "is_feasible"]):
        assert row.energy == pytest.approx(cqm.objective.energy(row.sample))
        assert bool(row.is_feasible) == cqm.check_feasible(row.sample)


def test_what_cannot_be_a_qubo_is_refused_by_name():
    cqm = dimod.ConstrainedQuadraticModel()
    cqm.set_objective(dimod.Integer("count", upper_bound=5))
    with pytest.raises(ValueError, match="'count' is an integer variable"):
        qw.sample_cqm(cqm)
    with pytest.raises(TypeError):
        qw.sample_cqm(dimod.BQM("BINARY"))
    with pytest.raises(ValueError, match="unknown sampler"):
        qw.sample_cqm(knapsack(), sampler="annealer")


@pytest.mark.skipif(not HAS_DISPLAY, reason="needs a display (CI runs this under xvfb-run)")
def test_inspect_opens_a_constrained_model(tmp_path):
    shot = tmp_path / "cqm.png"
    window = qw.inspect(knapsack(), screenshot=shot)
    assert window.returncode == 0
    assert shot.stat().st_size > 10_000


def test_a_pyqubo_model_keeps_its_constraints_and_placeholders():
    pyqubo = pytest.importorskip("pyqubo")
    x = pyqubo.Array.create("x", shape=(3, 3), vartype="BINARY")
    cost = [[1, 4, 2], [3, 1, 5], [2, 2, 1]]
    H = sum(cost[i][j] * x[i, j] for i in range(3) for j in range(3))
    A, B = pyqubo.Placeholder("A"), pyqubo.Placeholder("B")
    H += A * sum(
        pyqubo.Constraint((sum(x[i, j] for j in range(3)) - 1) ** 2, label=f"row[{i}]")
        for i in range(3)
    )
    H += B * sum(
        pyqubo.Constraint((sum(x[i, j] for i in range(3)) - 1) ** 2, label=f"col[{j}]")
        for j in range(3)
    )
    compiled = H.compile()
    feed = {"A": 5.0, "B": 6.0}
    model = qw.from_pyqubo(compiled, feed)
    assert model.weights == feed
    assert sorted(model.constraint_labels) == sorted(
        [f"row[{i}]" for i in range(3)] + [f"col[{j}]" for j in range(3)]
    )
    # Every state: the encoded energy is PyQUBO's, feasibility PyQUBO's decode.
    ss = qw.sample_cqm(model, sampler="exact", num_reads=512)
    assert len(ss) == 512
    for row in ss.data(["sample", "energy", "is_feasible", "penalty_energy"]):
        sample = {k: int(v) for k, v in row.sample.items()}
        assert row.penalty_energy == pytest.approx(
            compiled.energy(sample, vartype="BINARY", feed_dict=feed)
        )
        decoded = compiled.decode_sample(sample, vartype="BINARY", feed_dict=feed)
        assert bool(row.is_feasible) == all(ok for ok, _ in decoded.constraints().values())
    # The placeholders are the weights: weak ones let the empty assignment win.
    best = ss.filter(lambda d: d.is_feasible).first
    assert best.energy == 3.0  # the diagonal
    weak = qw.sample_cqm(model, sampler="exact", num_reads=1, weights={"A": 0.1, "B": 0.1})
    assert not weak.first.is_feasible
