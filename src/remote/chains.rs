//! A QPU run's embedding step: how the logical variables become chains (the clique of the
//! solver's topology — Pegasus or Zephyr —, the heuristic search, or `auto`: on dense models
//! the clique's chains shortened by the search's last phase, otherwise the search, each
//! falling back on the other), chains read from a file in
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
    /// The clique, shortened, for dense models; heuristic for sparse ones; each falls back on
    /// the other.
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

/// The share of possible couplings a model must have for `auto` to start from the clique:
/// that dense, the heuristic search from scratch struggles to part its chains at all (the
/// seed's 4×4 edge model, 37 % dense, on the Z(12, 4) mock: 1 of 3 seeds overlap-free within
/// 120 s), while the clique's chains, shortened to what the model's couplings need, are found
/// every time and are as short as minorminer's.
const DENSE_MODEL: f64 = 0.3;

/// Embeds the logical graph by `method`; the embedding and the name of the method that found
/// it. `heuristic` is the search (from the initial chains it is given, for some variables),
/// `shorten` the same search's last phase applied to overlap-free chains (both with the
/// caller's seed, budget and cancel flag). `auto` on a dense model shortens the clique's
/// chains, or, where the whole model has no clique that fits, searches around the largest
/// clique that does, laid on the best-connected variables; on a sparse model it searches from
/// scratch. Each falls back on the other.
pub fn choose_embedding(
    method: EmbeddingMethod,
    n: usize,
    edges: &[(usize, usize)],
    graph: &WorkingGraph,
    props: &Value,
    heuristic: impl Fn(&[(usize, usize)], &WorkingGraph, &[Vec<u32>]) -> Result<Embedding, EmbedError>,
    shorten: impl Fn(Embedding, &[(usize, usize)], &WorkingGraph) -> Result<Embedding, EmbedError>,
) -> Result<(Embedding, &'static str), EmbedError> {
    let clique_of = |k: usize| match topology(props) {
        Ok(Topology::Pegasus(m)) => pegasus_clique(k, graph, m),
        Ok(Topology::Zephyr(m, t)) => zephyr_clique(k, graph, m, t),
        Err(why) => Err(EmbedError::NotFound(why.to_string())),
    };
    let clique = || clique_of(n).map(|e| (e, "clique"));
    let shortened_clique = || {
        let (e, _) = clique()?;
        shorten(e, edges, graph).map(|e| (e, "clique, shortened"))
    };
    let around_a_clique = || match largest_clique(n, &clique_of) {
        Some(part) => heuristic(edges, graph, &on_best_connected(part, n, edges))
            .map(|e| (e, "heuristic around a clique")),
        None => heuristic(edges, graph, &[]).map(|e| (e, "heuristic")),
    };
    let heuristic = || heuristic(edges, graph, &[]).map(|e| (e, "heuristic"));
    let pairs = (n * n.saturating_sub(1) / 2).max(1) as f64;
    let dense = edges.len() as f64 / pairs >= DENSE_MODEL;
    let (first, second): (&dyn Fn() -> _, &dyn Fn() -> _) = match method {
        EmbeddingMethod::Clique => return clique(),
        EmbeddingMethod::Heuristic => return heuristic(),
        EmbeddingMethod::Auto if dense => (&shortened_clique, &around_a_clique),
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

/// The largest clique below `n` chains that fits (`clique_of(k)` fits for every k up to it), or
/// `None` when not even two chains do.
fn largest_clique(
    n: usize,
    clique_of: &dyn Fn(usize) -> Result<Embedding, EmbedError>,
) -> Option<Embedding> {
    // Every k tried is 2 or more, so the last clique that fit is the answer.
    let (mut fits, mut fails, mut largest) = (1, n, None);
    while fails - fits > 1 {
        let k = fits + (fails - fits) / 2;
        match clique_of(k) {
            Ok(clique) => (fits, largest) = (k, Some(clique)),
            Err(_) => fails = k,
        }
    }
    largest
}

/// Initial chains for `n` variables: `clique`'s chains on the variables with the most
/// couplings (ties to the lower index), none for the others.
fn on_best_connected(clique: Embedding, n: usize, edges: &[(usize, usize)]) -> Vec<Vec<u32>> {
    let mut degree = vec![0usize; n];
    for &(a, b) in edges.iter().filter(|&&(a, b)| a < n && b < n) {
        degree[a] += 1;
        degree[b] += 1;
    }
    let mut by_degree: Vec<usize> = (0..n).collect();
    by_degree.sort_by_key(|&v| std::cmp::Reverse(degree[v]));
    let mut initial = vec![Vec::new(); n];
    for (&v, chain) in by_degree.iter().zip(clique.chains) {
        initial[v] = chain;
    }
    initial
}

/// Why chains cannot be read, fit the working graph, or be kept: the library's one error for
/// embeddings as data (the search's own is `EmbedError`).
#[derive(Debug, thiserror::Error)]
pub enum EmbeddingError {
    /// The embedding file could not be read.
    #[error("cannot read the embedding file: {0}")]
    File(#[from] crate::io::FileError),
    /// The file is not JSON.
    #[error("{path}: not JSON ({source}); expected {{\"0\": [qubits], …}}")]
    NotJson {
        /// The file.
        path: String,
        /// The parser's complaint.
        source: serde_json::Error,
    },
    /// The chains do not give each variable one (a bad key, a bad list, a variable left out).
    #[error("{}{why}", .path.as_deref().map_or(String::new(), |p| format!("{p}: ")))]
    Chains {
        /// The file, when they came from one.
        path: Option<String>,
        /// What is wrong.
        why: String,
    },
    /// The chains break the embedding invariant on this graph (`Embedding::verify`).
    #[error("{0}")]
    Invalid(String),
    /// The solver's topology is not one the clique construction knows.
    #[error("{0}")]
    Topology(String),
    /// The embedding cache could not be written or cleared.
    #[error("{path}: {why}")]
    Cache {
        /// The cache folder or entry.
        path: String,
        /// What failed.
        why: String,
    },
}

/// The largest embedding file read (a P16 embedding is tens of kilobytes).
const MAX_EMBEDDING_FILE_BYTES: u64 = 16 << 20;

/// Chains from a JSON file `{"variable index": [qubit, …], …}` (minorminer's shape, keyed by
/// the model's variable order), checked to give every one of the `n` variables a chain; what
/// is wrong, naming the file, otherwise. (Read before connecting: a bad file costs no request.)
pub fn read_embedding(path: &std::path::Path, n: usize) -> Result<Embedding, EmbeddingError> {
    let shown = path.display().to_string();
    let text = crate::io::read_text_limited(path, MAX_EMBEDDING_FILE_BYTES)?;
    let value: Value = serde_json::from_str(&text).map_err(|source| EmbeddingError::NotJson {
        path: shown.clone(),
        source,
    })?;
    embedding_from_json(&value, n).map_err(|e| match e {
        EmbeddingError::Chains { why, .. } => EmbeddingError::Chains {
            path: Some(shown),
            why,
        },
        other => other,
    })
}

/// Chains from `{"variable index": [qubit, …], …}`, one for each of the `n` variables.
pub fn embedding_from_json(value: &Value, n: usize) -> Result<Embedding, EmbeddingError> {
    let bad = |why: String| EmbeddingError::Chains { path: None, why };
    let object = value.as_object().ok_or_else(|| {
        bad("expected a JSON object from variable index to a list of qubits".into())
    })?;
    let mut chains: Vec<Option<Vec<u32>>> = vec![None; n];
    for (key, qubits) in object {
        let v = key
            .parse::<usize>()
            .ok()
            .filter(|&v| v < n)
            .ok_or_else(|| {
                bad(format!(
                    "key \"{key}\" is not a variable index of this model (0 to {})",
                    n.saturating_sub(1)
                ))
            })?;
        let chain = qubits
            .as_array()
            .and_then(|list| {
                list.iter()
                    .map(|q| q.as_u64().and_then(|q| u32::try_from(q).ok()))
                    .collect::<Option<Vec<u32>>>()
            })
            .ok_or_else(|| bad(format!("the chain of variable {v} is not a list of qubits")))?;
        chains[v] = Some(chain);
    }
    let chains = chains
        .into_iter()
        .enumerate()
        .map(|(v, c)| c.ok_or_else(|| bad(format!("variable {v} has no chain"))))
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
pub fn topology(props: &Value) -> Result<Topology, EmbeddingError> {
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
                Err(EmbeddingError::Topology(format!(
                    "the solver's Zephyr tile {t} is outside 1..=16 (set embedding to heuristic)"
                )))
            }
        }
        (Some(kind @ ("pegasus" | "zephyr")), _, _) => Err(EmbeddingError::Topology(format!(
            "the solver's {kind} shape is missing or out of range (set embedding to heuristic)"
        ))),
        (Some(kind), _, _) => Err(EmbeddingError::Topology(format!(
            "the clique embedding is built for Pegasus and Zephyr solvers, and this one's \
             topology is {kind} (set embedding to heuristic)"
        ))),
        (None, _, _) => Err(EmbeddingError::Topology(
            "the solver does not say its topology, which the clique embedding needs (set \
             embedding to heuristic)"
                .to_string(),
        )),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::embedding::{find_embedding_around, shorten_embedding};
    use crate::remote::topology::{pegasus, zephyr};
    use serde_json::json;
    use std::cell::RefCell;
    use std::time::Duration;

    /// `n` variables, each pair coupled with probability 0.4 (seeded).
    fn dense_edges(n: usize, seed: u64) -> Vec<(usize, usize)> {
        let mut rng = seed;
        (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|_| crate::rng::splitmix64(&mut rng) % 10 < 4)
            .collect()
    }

    #[test]
    fn auto_on_a_dense_model_shortens_the_clique_where_it_fits() {
        let graph = zephyr(3, 4);
        let props = json!({"topology": {"type": "zephyr", "shape": [3, 4]}});
        let n = 30;
        let edges = dense_edges(n, 3);
        let long = Duration::from_secs(600);
        let (e, method) = choose_embedding(
            EmbeddingMethod::Auto,
            n,
            &edges,
            &graph,
            &props,
            |_, _, _| panic!("the clique fits: no search from scratch"),
            |start, edges, g| shorten_embedding(start, edges, g, 1, long, &|| false),
        )
        .unwrap();
        assert_eq!(method, "clique, shortened");
        e.verify(&edges, &graph).unwrap();
        let clique = zephyr_clique(n, &graph, 3, 4).unwrap();
        assert!(e.num_qubits() < clique.num_qubits());
    }

    #[test]
    fn auto_searches_around_the_largest_clique_that_fits_when_the_whole_does_not() {
        // P4 holds a clique of about 12·(4 − 1) = 36 chains; 40 dense variables need more.
        let graph = pegasus(4);
        let props = json!({"topology": {"type": "pegasus", "shape": [4]}});
        let n = 40;
        let edges = dense_edges(n, 7);
        let given = RefCell::new(Vec::new());
        let (e, method) = choose_embedding(
            EmbeddingMethod::Auto,
            n,
            &edges,
            &graph,
            &props,
            |edges, g, initial| {
                *given.borrow_mut() = initial.to_vec();
                find_embedding_around(n, edges, g, initial, 1, Duration::from_secs(600), &|| false)
            },
            |_, _, _| panic!("no clique of 40 fits: nothing to shorten"),
        )
        .unwrap();
        assert_eq!(method, "heuristic around a clique");
        e.verify(&edges, &graph).unwrap();
        // The largest clique's chains, on the best-connected variables.
        let initial = given.into_inner();
        let placed: Vec<usize> = (0..n).filter(|&v| !initial[v].is_empty()).collect();
        let k = placed.len();
        assert!((2..n).contains(&k), "{k} initial chains");
        assert!(pegasus_clique(k, &graph, 4).is_ok());
        assert!(pegasus_clique(k + 1, &graph, 4).is_err());
        let mut degree = vec![0; n];
        for &(a, b) in &edges {
            degree[a] += 1;
            degree[b] += 1;
        }
        let least_placed = placed.iter().map(|&v| degree[v]).min().unwrap();
        let most_unplaced = (0..n)
            .filter(|v| initial[*v].is_empty())
            .map(|v| degree[v])
            .max()
            .unwrap();
        assert!(least_placed >= most_unplaced);
    }

    #[test]
    fn the_largest_clique_is_found_by_halving() {
        let calls = std::cell::Cell::new(0);
        let fits_up_to = |limit: usize| {
            let calls = &calls;
            move |k: usize| {
                calls.set(calls.get() + 1);
                if k <= limit {
                    Ok(Embedding {
                        chains: (0..k as u32).map(|q| vec![q]).collect(),
                    })
                } else {
                    Err(EmbedError::NotFound("too many".into()))
                }
            }
        };
        let found = largest_clique(138, &fits_up_to(103)).unwrap();
        assert_eq!(found.chains.len(), 103);
        assert!(calls.get() <= 10, "{} tries", calls.get());
        assert!(largest_clique(138, &fits_up_to(1)).is_none());
        assert!(largest_clique(138, &fits_up_to(0)).is_none());
    }
}
