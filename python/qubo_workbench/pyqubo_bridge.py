"""PyQUBO models as workbench models: each `Constraint` a labelled constraint (held when its
penalty is 0), each `Placeholder` a weight whose default is the feed_dict's value.

PyQUBO keeps its expressions in C++; what a compiled model tells is its QUBO for given
placeholder values and each constraint's energy for a given sample. So the polynomials are
recovered from those: each constraint's penalty by evaluating it at 0, at each unit vector and
at each pair (1 + n + n(n−1)/2 evaluations, exact for a quadratic), each placeholder's share of
the QUBO by raising it by one. A placeholder must scale constraints only (A·Constraint(…), the
PyQUBO idiom); the rest of the QUBO is the objective.
"""

import json

#: Variables a PyQUBO model may have here: its constraints are interpolated over every pair.
MAX_VARIABLES = 400


def _qubo(model, feed_dict):
    q, offset = model.to_qubo(feed_dict=feed_dict)
    terms = {}
    for (u, v), b in q.items():
        key = (u, u) if u == v else tuple(sorted((u, v)))
        terms[key] = terms.get(key, 0.0) + b
    return terms, offset


def _minus(a, b, scale=1.0):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0.0) - scale * v
    return {k: v for k, v in out.items() if abs(v) > 1e-12}


def _penalties(model, variables, feed_dict):
    """Each constraint's penalty as {(u, u): linear, (u, v): quadratic, (): constant}."""
    zero = {v: 0 for v in variables}

    def energies(ones):
        sample = dict(zero)
        for v in ones:
            sample[v] = 1
        decoded = model.decode_sample(sample, vartype="BINARY", feed_dict=feed_dict)
        return {label: e for label, (_, e) in decoded.constraints().items()}

    base = energies(())
    labels = list(base)
    poly = {c: {(): base[c]} for c in labels}
    single = {}
    for v in variables:
        single[v] = energies((v,))
        for c in labels:
            poly[c][(v, v)] = single[v][c] - base[c]
    for i, u in enumerate(variables):
        for w in variables[i + 1:]:
            both = energies((u, w))
            for c in labels:
                b = both[c] - single[u][c] - single[w][c] + base[c]
                if abs(b) > 1e-12:
                    poly[c][tuple(sorted((u, w)))] = b
    return {c: {k: v for k, v in p.items() if abs(v) > 1e-12 or k == ()} for c, p in poly.items()}


def from_pyqubo(model, feed_dict=None):
    """A compiled PyQUBO model (`H.compile()`) as a workbench model: pass it to `sample_cqm`
    or `inspect` like a CQM. Constraints keep their labels (held when their penalty is 0),
    placeholders become weights (their defaults `feed_dict`'s values) scaling the constraints
    they multiply; the rest of the Hamiltonian is the objective. Quadratic models only (PyQUBO
    reduces higher orders with its own auxiliary variables, which come along).
    """
    feed_dict = dict(feed_dict or {})
    variables = sorted(model.variables)
    if len(variables) > MAX_VARIABLES:
        raise ValueError(
            f"{len(variables)} variables: from_pyqubo interpolates constraints over every pair, "
            f"up to {MAX_VARIABLES} variables"
        )
    for name, value in feed_dict.items():
        if not isinstance(value, (int, float)) or value != value or abs(value) == float("inf"):
            raise ValueError(f"placeholder {name!r}: {value!r} is not a finite number")
    total, offset = _qubo(model, feed_dict)
    shares = {}
    for p in feed_dict:
        raised = dict(feed_dict)
        raised[p] = feed_dict[p] + 1.0
        terms, off = _qubo(model, raised)
        share = _minus(terms, total)
        if abs(off - offset) > 1e-12:
            share[()] = off - offset
        shares[p] = share
    penalties = _penalties(model, variables, feed_dict)
    # Each constraint goes to the placeholder whose share holds all of its terms.
    owner = {}
    for c, poly in penalties.items():
        terms = [k for k in poly if k != () and abs(poly[k]) > 1e-12]
        for p, share in shares.items():
            if terms and all(k in share for k in terms):
                owner[c] = p
                break
    for p, share in shares.items():
        rest = dict(share)
        for c, q in ((c, penalties[c]) for c, o in owner.items() if o == p):
            rest = _minus(rest, q)
        if rest:
            raise ValueError(
                f"placeholder {p!r} scales more than constraints (terms such as "
                f"{next(iter(rest))}): from_pyqubo needs the PyQUBO idiom A * Constraint(…)"
            )
    # The objective: what no placeholder scales (constants kept apart from the terms).
    objective = dict(total)
    for p, share in shares.items():
        objective = _minus(objective, {k: v for k, v in share.items() if k != ()}, feed_dict[p])
    constant = offset - sum(feed_dict[p] * s.get((), 0.0) for p, s in shares.items())
    index = {v: k for k, v in enumerate(variables)}

    def expr(poly, constant=0.0):
        items = sorted((k, b) for k, b in poly.items() if len(k) == 2)
        return {
            "constant": constant + poly.get((), 0.0),
            "linear": [[index[k[0]], b] for k, b in items if k[0] == k[1]],
            "quadratic": [[index[k[0]], index[k[1]], b] for k, b in items if k[0] != k[1]],
        }

    constraints = []
    for c, poly in penalties.items():
        p = owner.get(c)
        constraints.append(
            {
                "label": c,
                "lhs": expr(poly),
                "sense": "==",
                "rhs": 0.0,
                "penalty": True,
                # Not scaled by a placeholder: its penalty is already in the objective, so its
                # own weight starts at 0 (feasibility is still refereed).
                "weight": p if p is not None else f"{c}.extra",
            }
        )
    weights = dict(feed_dict)
    for c in penalties:
        if c not in owner:
            weights[f"{c}.extra"] = 0.0
    return Model(
        {
            "kind": "constrained",
            "name": "PyQUBO model",
            "variables": [{"label": v, "vartype": "binary"} for v in variables],
            "objective": expr(objective, constant),
            "constraints": constraints,
            "weights": weights,
        }
    )


class Model:
    """A workbench constrained model held as its JSON form (what `from_pyqubo` returns):
    `sample_cqm` and `inspect` take it like a CQM."""

    def __init__(self, data):
        self.data = data

    @property
    def variables(self):
        return [v["label"] for v in self.data["variables"]]

    @property
    def constraint_labels(self):
        return [c["label"] for c in self.data["constraints"]]

    @property
    def weights(self):
        return dict(self.data.get("weights", {}))

    def to_json(self):
        return json.dumps(self.data)

    def __repr__(self):
        return (
            f"<workbench model: {len(self.variables)} variables, "
            f"{len(self.constraint_labels)} constraints, weights {self.weights}>"
        )
