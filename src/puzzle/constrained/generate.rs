//! Generated constrained models: the textbook problems users bring from notebooks — a
//! knapsack (one inequality), a graph colouring (one-hot per node, at most one colour per
//! edge end) and a travelling salesman (one-hot rows and columns, distances in the objective).
//! The same parameters always give the same model. Labels are LP names (`x_3_1`, `node_3`:
//! no brackets, which CPLEX's format and the readers built on it refuse), so the models
//! written as LP read anywhere.

use super::model::{ConstrainedModel, Constraint, Direction, Expr, Sense, VarType, Variable};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::puzzle::PuzzleError;
use crate::rng::splitmix64;

/// The generator's parameters.
pub(super) const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "problem",
        ty: ParamType::Choice(&["knapsack", "colouring", "tsp", "qap"]),
        default: ParamDefault::Word("knapsack"),
        help: "knapsack: items with weights and values under a capacity; colouring: a random \
               graph's nodes coloured so no edge joins two of one colour; tsp: a tour through \
               random cities; qap: facilities placed on locations, flow × distance minimised",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "size",
        ty: ParamType::Int { min: 2, max: 200 },
        default: ParamDefault::Int(12),
        help: "items (knapsack), nodes (colouring), cities (tsp) or facilities (qap)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "colours",
        ty: ParamType::Int { min: 2, max: 16 },
        default: ParamDefault::Int(3),
        help: "colours (colouring only)",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(ParamDefault::Int(1), "the same seed gives the same model"),
];

/// The model the parameters describe.
pub(super) fn generate(params: &ParamValues) -> Result<ConstrainedModel, PuzzleError> {
    let int =
        |name: &str, default: u64| params.get(name).and_then(|v| v.as_u64()).unwrap_or(default);
    let size = int("size", 12) as usize;
    let seed = int("seed", 1);
    let problem = params
        .get("problem")
        .and_then(|v| v.as_str())
        .unwrap_or("knapsack");
    let mut rng = seed;
    Ok(match problem {
        "colouring" => colouring(size, int("colours", 3) as usize, &mut rng, seed),
        "tsp" => tsp(size.min(30), &mut rng, seed),
        "qap" => qap(size.min(30), &mut rng, seed),
        _ => knapsack(size, &mut rng, seed),
    })
}

fn below(rng: &mut u64, n: u64) -> u64 {
    splitmix64(rng) % n
}

fn binary(label: String) -> Variable {
    Variable {
        label,
        vartype: VarType::Binary,
    }
}

fn constraint(label: String, linear: Vec<(u32, f64)>, sense: Sense, rhs: f64) -> Constraint {
    Constraint {
        label,
        lhs: Expr {
            constant: 0.0,
            linear,
            quadratic: Vec::new(),
        },
        sense,
        rhs,
        discrete: false,
        soft_weight: None,
        weight: None,
        penalty: false,
    }
}

/// Items of weight 1–20 and value 1–30; the capacity is 40 % of their total weight.
fn knapsack(n: usize, rng: &mut u64, seed: u64) -> ConstrainedModel {
    let weights: Vec<f64> = (0..n).map(|_| 1.0 + below(rng, 20) as f64).collect();
    let values: Vec<f64> = (0..n).map(|_| 1.0 + below(rng, 30) as f64).collect();
    let capacity = (0.4 * weights.iter().sum::<f64>()).floor();
    ConstrainedModel {
        name: format!("knapsack, {n} items, seed {seed}"),
        direction: Direction::Maximize,
        variables: (0..n).map(|i| binary(format!("x_{i}"))).collect(),
        objective: Expr {
            constant: 0.0,
            linear: values
                .iter()
                .enumerate()
                .map(|(i, &v)| (i as u32, v))
                .collect(),
            quadratic: Vec::new(),
        },
        constraints: vec![constraint(
            "capacity".into(),
            weights
                .iter()
                .enumerate()
                .map(|(i, &w)| (i as u32, w))
                .collect(),
            Sense::Le,
            capacity,
        )],
        weights: Default::default(),
    }
}

/// A random graph of about 2n edges, colourable with k colours by construction (a hidden
/// colouring is drawn first and only edges between different colours are added, a ring through
/// the colour classes among them, so it is connected), coloured with k colours: x[v][c]
/// one-hot per node, x[u][c] + x[v][c] ≤ 1 per edge and colour; the objective prefers low
/// colours slightly.
fn colouring(n: usize, k: usize, rng: &mut u64, seed: u64) -> ConstrainedModel {
    let hidden: Vec<usize> = (0..n).map(|v| v % k).collect();
    let mut edges = std::collections::BTreeSet::new();
    for v in 0..n {
        let u = (v + 1) % n;
        if hidden[u] != hidden[v] {
            edges.insert((v.min(u), v.max(u)));
        }
    }
    let possible = (0..n)
        .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
        .filter(|&(u, v)| hidden[u] != hidden[v])
        .count();
    while edges.len() < (2 * n).min(possible) {
        let (u, v) = (below(rng, n as u64) as usize, below(rng, n as u64) as usize);
        if u != v && hidden[u] != hidden[v] {
            edges.insert((u.min(v), u.max(v)));
        }
    }
    let var = |v: usize, c: usize| (v * k + c) as u32;
    let mut constraints = Vec::new();
    for v in 0..n {
        constraints.push(constraint(
            format!("node_{v}"),
            (0..k).map(|c| (var(v, c), 1.0)).collect(),
            Sense::Eq,
            1.0,
        ));
    }
    for &(u, v) in &edges {
        for c in 0..k {
            constraints.push(constraint(
                format!("edge_{u}_{v}_{c}"),
                vec![(var(u, c), 1.0), (var(v, c), 1.0)],
                Sense::Le,
                1.0,
            ));
        }
    }
    ConstrainedModel {
        name: format!(
            "colouring, {n} nodes, {} edges, {k} colours, seed {seed}",
            edges.len()
        ),
        direction: Direction::Minimize,
        variables: (0..n)
            .flat_map(|v| (0..k).map(move |c| binary(format!("x_{v}_{c}"))))
            .collect(),
        objective: Expr {
            constant: 0.0,
            linear: (0..n)
                .flat_map(|v| (0..k).map(move |c| (var(v, c), c as f64)))
                .filter(|t| t.1 != 0.0)
                .collect(),
            quadratic: Vec::new(),
        },
        constraints,
        weights: Default::default(),
    }
}

/// n cities on a 100 × 100 square; x[c][t]: city c at step t of the tour. One city per step,
/// one step per city; the objective sums the legs, the last back to the first.
fn tsp(n: usize, rng: &mut u64, seed: u64) -> ConstrainedModel {
    let at: Vec<(f64, f64)> = (0..n)
        .map(|_| (below(rng, 101) as f64, below(rng, 101) as f64))
        .collect();
    let dist = |a: usize, b: usize| {
        let (dx, dy) = (at[a].0 - at[b].0, at[a].1 - at[b].1);
        (dx * dx + dy * dy).sqrt().round()
    };
    let var = |c: usize, t: usize| (c * n + t) as u32;
    let mut quadratic = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            for t in 0..n {
                quadratic.push((var(a, t), var(b, (t + 1) % n), dist(a, b)));
            }
        }
    }
    permutation(
        n,
        ["city", "step"],
        quadratic,
        format!("travelling salesman, {n} cities, seed {seed}"),
    )
}

/// A quadratic assignment: n facilities with random flows (0–9) between them, n locations on a
/// line of random spacing; x[f][l]: facility f at location l, one-hot per facility and per
/// location (a permutation: two-way one-hot); the objective Σ flow(f, g)·dist(l, k) over the
/// pairs placed.
fn qap(n: usize, rng: &mut u64, seed: u64) -> ConstrainedModel {
    // Flows of the pairs f < g, row by row.
    let flows: Vec<f64> = (0..n * n.saturating_sub(1) / 2)
        .map(|_| below(rng, 10) as f64)
        .collect();
    let pair = |f: usize, g: usize| f * n - f * (f + 1) / 2 + (g - f - 1);
    let mut at = vec![0.0f64; n];
    for l in 1..n {
        at[l] = at[l - 1] + 1.0 + below(rng, 5) as f64;
    }
    let var = |f: usize, l: usize| (f * n + l) as u32;
    let mut quadratic = Vec::new();
    for f in 0..n {
        for g in f + 1..n {
            let flow = flows[pair(f, g)];
            if flow == 0.0 {
                continue;
            }
            for (l, &x) in at.iter().enumerate() {
                for (k, &y) in at.iter().enumerate() {
                    if l != k {
                        quadratic.push((var(f, l), var(g, k), flow * (x - y).abs()));
                    }
                }
            }
        }
    }
    permutation(
        n,
        ["facility", "location"],
        quadratic,
        format!("quadratic assignment, {n} facilities, seed {seed}"),
    )
}

/// An n × n permutation model (TSP, QAP): x_r_c over rows and columns, one-hot per row and per
/// column (constraints `names[0]_r`, `names[1]_c`: a two-way one-hot), the quadratic
/// objective given over x_r_c = r·n + c, minimised.
fn permutation(
    n: usize,
    names: [&str; 2],
    quadratic: Vec<(u32, u32, f64)>,
    name: String,
) -> ConstrainedModel {
    let var = |r: usize, c: usize| (r * n + c) as u32;
    let mut constraints = Vec::new();
    for r in 0..n {
        constraints.push(constraint(
            format!("{}_{r}", names[0]),
            (0..n).map(|c| (var(r, c), 1.0)).collect(),
            Sense::Eq,
            1.0,
        ));
    }
    for c in 0..n {
        constraints.push(constraint(
            format!("{}_{c}", names[1]),
            (0..n).map(|r| (var(r, c), 1.0)).collect(),
            Sense::Eq,
            1.0,
        ));
    }
    let variables: Vec<Variable> = (0..n)
        .flat_map(|r| (0..n).map(move |c| binary(format!("x_{r}_{c}"))))
        .collect();
    let objective = super::model::tidy(
        &variables,
        Expr {
            constant: 0.0,
            linear: Vec::new(),
            quadratic,
        },
    );
    ConstrainedModel {
        name,
        direction: Direction::Minimize,
        variables,
        objective,
        constraints,
        weights: Default::default(),
    }
}
