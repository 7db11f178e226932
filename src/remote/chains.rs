//! A QPU run's embedding step: how the logical variables become chains (`auto`, the clique of
//! the solver's topology — Pegasus or Zephyr — or the heuristic search, each falling back on
//! the other), chains read from a file in
//! minorminer's shape, the default chain strength, and the logical QUBO laid onto the chains as
//! the physical problem the QPU is sent.

use serde_json::Value;

use super::clique::{pegasus_clique, zephyr_clique};
use super::embedding::{EmbedError, Embedding};
use super::qp::PhysicalProblem;
use super::topology::WorkingGraph;
use crate::qubo::Qubo;

/// How the logical variables become chains.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EmbeddingMethod {
    /// Clique for dense models, heuristic for sparse ones; each falls back on the other.
    #[default]
    Auto,
    /// Chains that all touch (Pegasus and Zephyr solvers).
    Clique,
    /// The Cai–Macready–Roy search.
    Heuristic,
}

impl EmbeddingMethod {
    /// The parameter's word.
    pub fn name(self) -> &'static str {
        match self {
            EmbeddingMethod::Auto => "auto",
            EmbeddingMethod::Clique => "clique",
            EmbeddingMethod::Heuristic => "heuristic",
        }
    }
}

/// The share of possible couplings a model must have for `auto` to choose the clique: that
/// dense, the heuristic's chains are no shorter than the clique's and take seconds to find.
/// (The seed's 4×4 edge model, 37 % dense, on the Z(12, 4) mock: the clique's longest chain
/// is 11 in 0.02 s; the heuristic's 25 after 60 s, minorminer's 12–18 after 35–66 s.)
const DENSE_MODEL: f64 = 0.3;

/// Embeds the logical graph by `method` (the heuristic search given as `heuristic`); the
/// embedding and the name of the method that found it.
pub fn choose_embedding(
    method: EmbeddingMethod,
    n: usize,
    edges: &[(usize, usize)],
    graph: &WorkingGraph,
    props: &Value,
    heuristic: impl Fn(usize, &[(usize, usize)], &WorkingGraph) -> Result<Embedding, EmbedError>,
) -> Result<(Embedding, &'static str), EmbedError> {
    let clique = || {
        match topology(props) {
            Ok(Topology::Pegasus(m)) => pegasus_clique(n, graph, m),
            Ok(Topology::Zephyr(m, t)) => zephyr_clique(n, graph, m, t),
            Err(why) => Err(EmbedError::NotFound(why)),
        }
        .map(|e| (e, "clique"))
    };
    let heuristic = || heuristic(n, edges, graph).map(|e| (e, "heuristic"));
    let pairs = (n * n.saturating_sub(1) / 2).max(1) as f64;
    let dense = edges.len() as f64 / pairs >= DENSE_MODEL;
    let (first, second): (&dyn Fn() -> _, &dyn Fn() -> _) = match method {
        EmbeddingMethod::Clique => return clique(),
        EmbeddingMethod::Heuristic => return heuristic(),
        EmbeddingMethod::Auto if dense => (&clique, &heuristic),
        EmbeddingMethod::Auto => (&heuristic, &clique),
    };
    match first() {
        Err(EmbedError::NotFound(why_first)) => second().map_err(|e| match e {
            EmbedError::NotFound(why_second) => {
                EmbedError::NotFound(format!("{why_first}; and {why_second}"))
            }
            cancelled => cancelled,
        }),
        other => other,
    }
}

/// The largest embedding file read (a P16 embedding is tens of kilobytes).
const MAX_EMBEDDING_FILE_BYTES: u64 = 16 << 20;

/// Chains from a JSON file `{"variable index": [qubit, …], …}` (minorminer's shape, keyed by
/// the model's variable order), checked to give every one of the `n` variables a chain; what
/// is wrong, naming the file, otherwise. (Read before connecting: a bad file costs no request.)
pub fn read_embedding(path: &std::path::Path, n: usize) -> Result<Embedding, String> {
    let shown = path.display();
    let text = crate::io::read_text_limited(path, MAX_EMBEDDING_FILE_BYTES)
        .map_err(|e| format!("cannot read the embedding file: {e}"))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{shown}: not JSON ({e}); expected {{\"0\": [qubits], …}}"))?;
    embedding_from_json(&value, n).map_err(|why| format!("{shown}: {why}"))
}

/// Chains from `{"variable index": [qubit, …], …}`, one for each of the `n` variables.
pub fn embedding_from_json(value: &Value, n: usize) -> Result<Embedding, String> {
    let object = value
        .as_object()
        .ok_or("expected a JSON object from variable index to a list of qubits")?;
    let mut chains: Vec<Option<Vec<u32>>> = vec![None; n];
    for (key, qubits) in object {
        let v = key
            .parse::<usize>()
            .ok()
            .filter(|&v| v < n)
            .ok_or_else(|| {
                format!(
                    "key \"{key}\" is not a variable index of this model (0 to {})",
                    n.saturating_sub(1)
                )
            })?;
        let chain = qubits
            .as_array()
            .and_then(|list| {
                list.iter()
                    .map(|q| q.as_u64().and_then(|q| u32::try_from(q).ok()))
                    .collect::<Option<Vec<u32>>>()
            })
            .ok_or_else(|| format!("the chain of variable {v} is not a list of qubits"))?;
        chains[v] = Some(chain);
    }
    let chains = chains
        .into_iter()
        .enumerate()
        .map(|(v, c)| c.ok_or_else(|| format!("variable {v} has no chain")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Embedding { chains })
}

/// A QPU topology the clique construction knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topology {
    /// Pegasus P(m).
    Pegasus(usize),
    /// Zephyr Z(m, t).
    Zephyr(usize, usize),
}

/// The solver's topology from its `topology` property; why not when it is neither Pegasus
/// nor Zephyr (or its shape is out of range).
pub fn topology(props: &Value) -> Result<Topology, String> {
    let topology = &props["topology"];
    let shape = |k: usize| topology["shape"][k].as_u64();
    match (topology["type"].as_str(), shape(0), shape(1)) {
        (Some("pegasus"), Some(m), _) if (2..=64).contains(&m) => Ok(Topology::Pegasus(m as usize)),
        (Some("zephyr"), Some(m), t) if (1..=64).contains(&m) => {
            // dwave-networkx's default tile is 4.
            let t = t.unwrap_or(4);
            if (1..=16).contains(&t) {
                Ok(Topology::Zephyr(m as usize, t as usize))
            } else {
                Err(format!(
                    "the solver's Zephyr tile {t} is outside 1..=16 (set embedding to heuristic)"
                ))
            }
        }
        (Some(kind @ ("pegasus" | "zephyr")), _, _) => Err(format!(
            "the solver's {kind} shape is missing or out of range (set embedding to heuristic)"
        )),
        (Some(kind), _, _) => Err(format!(
            "the clique embedding is built for Pegasus and Zephyr solvers, and this one's \
             topology is {kind} (set embedding to heuristic)"
        )),
        (None, _, _) => Err(
            "the solver does not say its topology, which the clique embedding needs (set \
             embedding to heuristic)"
                .to_string(),
        ),
    }
}

/// Ocean's default chain strength, for a QUBO: 1.414 × the root-mean-square Ising coupling ×
/// √(mean degree), converted back to the penalty `s·(x_a + x_b − 2·x_a·x_b)` (= 2× the Ising
/// chain coupling). 1 for a model without couplings.
pub fn uniform_torque_compensation(q: &Qubo) -> f64 {
    let live: Vec<f64> = q
        .couplings()
        .iter()
        .map(|c| c.value)
        .filter(|v| *v != 0.0)
        .collect();
    if live.is_empty() || q.num_variables() == 0 {
        return 1.0;
    }
    let squares: f64 = live.iter().map(|v| (v / 4.0) * (v / 4.0)).sum();
    let rms = (squares / live.len() as f64).sqrt();
    let mean_degree = 2.0 * live.len() as f64 / q.num_variables() as f64;
    2.0 * 1.414 * rms * mean_degree.sqrt()
}

/// The logical QUBO on physical qubits: each linear bias spread evenly over its chain, each
/// coupling over the working couplers between the two chains, and every coupler inside a chain
/// carrying `strength · (x_a + x_b − 2·x_a·x_b)` (zero when the chain agrees).
pub fn embed_qubo(
    q: &Qubo,
    embedding: &Embedding,
    graph: &WorkingGraph,
    strength: f64,
) -> PhysicalProblem {
    let mut p = PhysicalProblem {
        offset: q.offset(),
        ..PhysicalProblem::default()
    };
    for (v, chain) in embedding.chains.iter().enumerate() {
        let share = q.linear()[v] / chain.len() as f64;
        for &a in chain {
            *p.linear.entry(a).or_default() += share;
        }
        for (k, &a) in chain.iter().enumerate() {
            for &b in &chain[k + 1..] {
                if graph.coupled(a, b) {
                    p.add_coupling(a, a, strength);
                    p.add_coupling(b, b, strength);
                    p.add_coupling(a, b, -2.0 * strength);
                }
            }
        }
    }
    for c in q.couplings().iter().filter(|c| c.value != 0.0) {
        let (ca, cb) = (
            &embedding.chains[c.i as usize],
            &embedding.chains[c.j as usize],
        );
        let links: Vec<(u32, u32)> = ca
            .iter()
            .flat_map(|&a| cb.iter().map(move |&b| (a, b)))
            .filter(|&(a, b)| graph.coupled(a, b))
            .collect();
        let share = c.value / links.len().max(1) as f64;
        for (a, b) in links {
            p.add_coupling(a, b, share);
        }
    }
    p
}
