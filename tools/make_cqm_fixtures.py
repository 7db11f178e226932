import dimod, json, numpy as np, sys
out = sys.argv[1]
rng = np.random.default_rng(7)
# 1) knapsack with string labels, quadratic objective term, a discrete constraint, a soft one
cqm = dimod.ConstrainedQuadraticModel()
x = [dimod.Binary(f"item_{i}") for i in range(8)]
w = [3, 5, 2, 7, 4, 6, 1, 8]
v = [4, 6, 3, 9, 5, 7, 2, 10]
cqm.set_objective(-sum(vi * xi for vi, xi in zip(v, x)) + 2 * x[0] * x[1] + 0.5)
cqm.add_constraint(sum(wi * xi for wi, xi in zip(w, x)) <= 15, label="capacity")
cqm.add_constraint(x[2] + x[3] >= 1, label="pick[0]")
cqm.add_constraint(x[4] + x[5] - x[6] == 1, label="pick[1]")
cqm.add_discrete(["item_0", "item_1", "item_7"], label="one_of")
cqm.add_constraint(x[5] + x[6] <= 1, label="soft_pair", weight=3.0, penalty="quadratic")
s = [dimod.Spin(f"s{i}") for i in range(3)]
cqm.add_variables("SPIN", ["s0", "s1", "s2"])
cqm.set_objective(cqm.objective + 1.5 * s[0] * s[1] - s[2] + x[4] * s[2])
cqm.add_constraint(s[0] + s[1] + s[2] <= 1, label="spins")
for name, compress in [("mixed.cqm", False), ("mixed-deflate.cqm", True)]:
    with open(f"{out}/{name}", "wb") as f:
        f.write(cqm.to_file(compress=compress).read())
# expectations on random samples
samples = []
for _ in range(40):
    smp = {}
    for var in cqm.variables:
        if cqm.vartype(var) is dimod.SPIN:
            smp[var] = int(rng.choice([-1, 1]))
        else:
            smp[var] = int(rng.integers(0, 2))
    hard = {k: c for k, c in cqm.constraints.items() if not c.lhs.is_soft()}
    viol = cqm.violations(smp, skip_satisfied=False, clip=True)
    samples.append({"sample": smp, "objective": float(cqm.objective.energy(smp)),
                    "violations": {str(k): float(viol[k]) for k in viol},
                    "feasible": bool(cqm.check_feasible(smp))})
json.dump({"variables": list(cqm.variables), "constraints": list(cqm.constraints),
           "samples": samples}, open(f"{out}/mixed.json", "w"), indent=1)
# 2) an integer variable: refused
cqm2 = dimod.ConstrainedQuadraticModel()
i = dimod.Integer("count", upper_bound=5)
cqm2.set_objective(i)
with open(f"{out}/integer.cqm", "wb") as f:
    f.write(cqm2.to_file().read())
# 3) integer labels (no variable_labels.json), tuple labels
cqm3 = dimod.ConstrainedQuadraticModel()
cqm3.add_variables("BINARY", [0, 1, 2])
cqm3.set_objective(dimod.BinaryQuadraticModel({0: 1.0, 1: -2.0, 2: 1.0}, {}, 0, 'BINARY'))
cqm3.add_constraint([(0, 1.0), (1, 1.0), (2, 1.0)], "==", 2)
with open(f"{out}/range.cqm", "wb") as f:
    f.write(cqm3.to_file().read())
cqm4 = dimod.ConstrainedQuadraticModel()
cqm4.add_variables("BINARY", [("x", 1), ("x", 2)])
cqm4.set_objective(dimod.BinaryQuadraticModel({("x", 1): 1.0, ("x", 2): 1.0}, {}, 0, 'BINARY'))
cqm4.add_constraint([(("x", 1), 1.0), (("x", 2), 1.0)], ">=", 1, label=("c", 1))
with open(f"{out}/tuple.cqm", "wb") as f:
    f.write(cqm4.to_file().read())
print("labels", list(cqm.constraints), list(cqm3.constraints))
