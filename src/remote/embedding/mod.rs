//! Minor embedding: each logical variable becomes a chain of physical qubits (a connected set
//! on the working graph), and every logical coupling needs at least one coupler between the two
//! chains. Found by the heuristic of Cai, Macready and Roy (2014): place each variable at the
//! qubit that is cheapest to reach from all its placed neighbours' chains, its chain being the
//! union of the shortest paths there; qubits already used cost exponentially more, so repeated
//! rip-up-and-replace rounds push chains apart until none overlap; the last few overlaps go by
//! re-placing the chains that hold them on free qubits only, singly or in pairs
//! (`repair_overlaps`). Then, as minorminer does, chains are shortened: each is re-placed on
//! free qubits only, and the qubits joining two chains move to whichever is shorter
//! (`shorten`), which is what brings the longest chain down; a longest chain that no such pass
//! shortens is rebuilt together with its neighbours' chains (`regroup`). Qubits a chain can do
//! without are freed before and after those passes (`Owners::trim`). `shorten_embedding` runs
//! the same passes from chains found otherwise (a clique embedding on a dense model).
//!
//! Invariant of a returned `Embedding` (checked by `verify`): chains are non-empty, disjoint,
//! connected on working couplers, and every logical edge has a working coupler between its
//! chains. The search is bounded by rounds and by the caller's cancel flag.

use super::topology::WorkingGraph;

mod owners;
mod search;
mod shorten;
#[cfg(test)]
mod tests;

use owners::*;
use search::*;
use shorten::*;

/// Rip-up-and-replace rounds, over all restarts, before giving up on removing overlaps (the time
/// budget usually ends the search first).
const MAX_ROUNDS: usize = 5000;
/// With this few qubits shared and no progress for `FOCUS_AFTER_STALE` rounds, rounds re-place
/// only the chains holding one and their neighbours' (cheap rounds for the end game)...
const FOCUS_SHARED: usize = 24;
const FOCUS_AFTER_STALE: usize = 4;
/// ...but every this many rounds, all chains.
const FULL_ROUND_EVERY: u32 = 4;
/// Rounds without fewer shared qubits before starting afresh.
const STALE_ROUNDS: usize = 20;
/// Roots tried per chain while shortening (the cheapest by estimate; the smallest chain wins).
const SHORT_CHAIN_ROOTS: usize = 12;
/// Passes of `shorten` at most (each re-places every chain once); patience and the time budget
/// usually end them first.
const SHORTEN_ROUNDS: usize = 1000;
/// Passes of `shorten` in a row without better chains before it stops (minorminer's
/// `chainlength_patience` is 10).
const SHORTEN_PATIENCE: usize = 10;
/// Tries of the whole search (overlap removal, then shortening), budget permitting.
const EMBED_TRIES: usize = 3;
/// Starting qubits `regroup` tries for a longest chain.
const REGROUP_ANCHORS: usize = 4;
/// Cost of a qubit used by `k` other chains: `BASE^k` (free qubits cost 1).
const BASE_SHIFT: u32 = 3;
/// The largest `BASE_SHIFT` grows to (3 shared uses · 16 bits stays far below `FAR`).
const MAX_SHIFT: u32 = 16;
/// The most rounds a qubit's contest is remembered (keeps costs far below `FAR`).
const MAX_HISTORY: u32 = 1 << 12;
/// An unreachable qubit's distance.
const FAR: u64 = u64::MAX / 4;
/// The step cost of a qubit searches may not enter.
const IMPASSABLE: u64 = u64::MAX;

/// Chains of physical qubits, one per logical variable.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Embedding {
    /// `chains[v]`: the qubits of variable v.
    pub chains: Vec<Vec<u32>>,
}

impl Embedding {
    /// Qubits used in all.
    pub fn num_qubits(&self) -> usize {
        self.chains.iter().map(Vec::len).sum()
    }

    /// The longest chain.
    pub fn max_chain_length(&self) -> usize {
        self.chains.iter().map(Vec::len).max().unwrap_or(0)
    }

    /// Checks the invariant against the logical edges and the working graph; the first
    /// problem in words.
    pub fn verify(
        &self,
        edges: &[(usize, usize)],
        graph: &WorkingGraph,
    ) -> Result<(), super::chains::EmbeddingError> {
        let invalid = super::chains::EmbeddingError::Invalid;
        let mut owner = vec![usize::MAX; graph.adjacency.len()];
        for (v, chain) in self.chains.iter().enumerate() {
            if chain.is_empty() {
                return Err(invalid(format!("variable {v} has an empty chain")));
            }
            for &q in chain {
                if graph.qubits.binary_search(&q).is_err() {
                    return Err(invalid(format!(
                        "variable {v} uses qubit {q}, which does not work"
                    )));
                }
                if owner[q as usize] == v {
                    return Err(invalid(format!(
                        "variable {v}'s chain lists qubit {q} twice"
                    )));
                }
                if owner[q as usize] != usize::MAX {
                    return Err(invalid(format!(
                        "qubit {q} is in the chains of {} and {v}",
                        owner[q as usize]
                    )));
                }
                owner[q as usize] = v;
            }
            // Connected: a search from the first qubit over the chain reaches all of it.
            let mut seen = vec![chain[0]];
            let mut k = 0;
            while k < seen.len() {
                for &n in &graph.adjacency[seen[k] as usize] {
                    if owner[n as usize] == v && !seen.contains(&n) {
                        seen.push(n);
                    }
                }
                k += 1;
            }
            if seen.len() != chain.len() {
                return Err(invalid(format!(
                    "the chain of variable {v} is not connected"
                )));
            }
        }
        for &(a, b) in edges {
            let linked = self.chains[a].iter().any(|&p| {
                graph.adjacency[p as usize]
                    .iter()
                    .any(|&q| owner[q as usize] == b)
            });
            if !linked {
                return Err(invalid(format!(
                    "no coupler joins the chains of {a} and {b}"
                )));
            }
        }
        Ok(())
    }
}

/// Why no embedding was found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EmbedError {
    /// The model does not fit (too many variables, or overlaps remain after every round).
    #[error("{0}")]
    NotFound(String),
    /// The caller cancelled.
    #[error("embedding cancelled")]
    Cancelled,
}

/// Finds an embedding of the logical graph (`n` variables, `edges`) into `graph`. `seed` breaks
/// ties, so a run can be repeated.
pub fn find_embedding(
    n: usize,
    edges: &[(usize, usize)],
    graph: &WorkingGraph,
    seed: u64,
    budget: std::time::Duration,
    cancelled: &dyn Fn() -> bool,
) -> Result<Embedding, EmbedError> {
    find_embedding_around(n, edges, graph, &[], seed, budget, cancelled)
}

/// `find_embedding` starting from `initial` chains for some variables (`initial[v]`, empty or
/// past the end for none): each try, and each restart, first places the other variables
/// around them before rip-up-and-replace rounds move every chain as usual. A clique
/// embedding of a dense model's best-connected variables is such a start where the whole model
/// has no clique that fits. Initial chains must be connected, on working qubits, and disjoint.
pub fn find_embedding_around(
    n: usize,
    edges: &[(usize, usize)],
    graph: &WorkingGraph,
    initial: &[Vec<u32>],
    seed: u64,
    budget: std::time::Duration,
    cancelled: &dyn Fn() -> bool,
) -> Result<Embedding, EmbedError> {
    let t0 = std::time::Instant::now();
    if initial.len() > n {
        return Err(EmbedError::NotFound(format!(
            "{} initial chains for {n} variables",
            initial.len()
        )));
    }
    let mut start = vec![Vec::new(); n];
    start[..initial.len()].clone_from_slice(initial);
    check_initial_chains(&start, graph).map_err(EmbedError::NotFound)?;
    if n > graph.qubits.len() {
        return Err(EmbedError::NotFound(format!(
            "{n} variables but only {} working qubits",
            graph.qubits.len()
        )));
    }
    let neighbours = neighbour_lists(n, edges)?;
    // Where overlap removal ends decides how short the chains can get, and it varies much from
    // seed to seed: a few tries, the best kept, as long as the budget lasts.
    let mut best: Option<Embedding> = None;
    let mut rng = seed;
    for attempt in 0..EMBED_TRIES {
        if attempt > 0 && t0.elapsed() >= budget {
            break;
        }
        let try_seed = if attempt == 0 {
            seed
        } else {
            crate::rng::splitmix64(&mut rng)
        };
        match embed_once(&neighbours, &start, graph, try_seed, t0, budget, cancelled) {
            Ok(found) => {
                let better = best
                    .as_ref()
                    .is_none_or(|b| length_profile(&found.chains) < length_profile(&b.chains));
                if better {
                    best = Some(found);
                }
            }
            Err(EmbedError::Cancelled) => return Err(EmbedError::Cancelled),
            Err(e) if best.is_none() => return Err(e),
            // A later try that runs out of budget: the earlier chains stand.
            Err(_) => break,
        }
    }
    best.ok_or_else(|| EmbedError::NotFound("no embedding tried".into()))
}

/// Shortens the overlap-free chains `start` (a clique embedding, say, whose chains touch far
/// more than a sparser model needs) by the heuristic's last phase (`shorten`) until `budget`
/// or its patience runs out: minorminer's `find_embedding` with `initial_chains`. The result is
/// never worse than `start` by `length_profile`. `start` must pass `verify` for `edges`.
pub fn shorten_embedding(
    start: Embedding,
    edges: &[(usize, usize)],
    graph: &WorkingGraph,
    seed: u64,
    budget: std::time::Duration,
    cancelled: &dyn Fn() -> bool,
) -> Result<Embedding, EmbedError> {
    let t0 = std::time::Instant::now();
    let neighbours = neighbour_lists(start.chains.len(), edges)?;
    start
        .verify(edges, graph)
        .map_err(|e| EmbedError::NotFound(e.to_string()))?;
    let mut chains = start.chains;
    let mut search = Search::new(graph, seed);
    let mut rng = seed;
    // What the model does not need goes first (a clique's chains touch every other chain):
    // fewer qubits, and room for the passes.
    trim_all(&mut chains, &neighbours, &mut search);
    shorten(&mut chains, &neighbours, &mut search, &mut rng, &|| {
        cancelled() || t0.elapsed() >= budget
    });
    // Half-shortened chains are valid but not what was asked for (nor worth caching).
    if cancelled() {
        return Err(EmbedError::Cancelled);
    }
    Ok(Embedding { chains })
}

/// What keeps `chains` (empty ones aside) from being a start: a qubit that does not work, a
/// qubit in two chains, a chain in pieces.
fn check_initial_chains(chains: &[Vec<u32>], graph: &WorkingGraph) -> Result<(), String> {
    let mut owner = vec![usize::MAX; graph.adjacency.len()];
    for (v, chain) in chains.iter().enumerate() {
        for &q in chain {
            if graph.qubits.binary_search(&q).is_err() {
                return Err(format!(
                    "initial chain {v} uses qubit {q}, which does not work"
                ));
            }
            match owner[q as usize] {
                usize::MAX => owner[q as usize] = v,
                u => return Err(format!("qubit {q} is in the initial chains of {u} and {v}")),
            }
        }
        if !chain.is_empty() && !connected(chain, graph) {
            return Err(format!("initial chain {v} is not connected"));
        }
    }
    Ok(())
}

/// Each variable's neighbours, sorted and without repeats; a coupling naming a variable beyond
/// `n` is refused.
fn neighbour_lists(n: usize, edges: &[(usize, usize)]) -> Result<Vec<Vec<usize>>, EmbedError> {
    let mut neighbours = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a >= n || b >= n {
            return Err(EmbedError::NotFound(format!(
                "the coupling ({a}, {b}) names a variable beyond the model's {n}"
            )));
        }
        if a != b {
            neighbours[a].push(b);
            neighbours[b].push(a);
        }
    }
    for list in &mut neighbours {
        list.sort_unstable();
        list.dedup();
    }
    Ok(neighbours)
}

/// One try: overlap removal from scratch, then `shorten`, until `t0 + budget`.
fn embed_once(
    neighbours: &[Vec<usize>],
    initial: &[Vec<u32>],
    graph: &WorkingGraph,
    seed: u64,
    t0: std::time::Instant,
    budget: std::time::Duration,
    cancelled: &dyn Fn() -> bool,
) -> Result<Embedding, EmbedError> {
    let n = neighbours.len();
    let mut search = Search::new(graph, seed);
    let mut rng = seed;
    let mut order = Vec::new();
    let mut chains: Vec<Vec<u32>> = vec![Vec::new(); n];
    let (mut stale, mut fewest_shared, mut attempt_round) = (0, usize::MAX, 0);
    let mut rounds = 0;
    // The overlap-free chains, once found.
    let mut clean: Option<Vec<Vec<u32>>> = None;
    let mut timed_out = false;
    let mut last_cost = vec![FAR; n];
    // The variables the next round re-places, when few qubits are shared (else all of them).
    let mut focus: Vec<usize> = Vec::new();
    while rounds < MAX_ROUNDS && (rounds == 0 || t0.elapsed() < budget) {
        rounds += 1;
        // Close to the goal, a restart would throw away minutes of progress: wait longer.
        let patience = if fewest_shared <= FOCUS_SHARED {
            STALE_ROUNDS * 4
        } else {
            STALE_ROUNDS
        };
        if order.is_empty() || stale >= patience {
            // (Re)start from nothing, from a random variable: a placement can lock itself in
            // (a chain whose every neighbour is taken keeps its overlap whatever it costs).
            search.clear();
            chains.clone_from_slice(initial);
            for chain in &chains {
                search.occupy(chain);
            }
            last_cost.fill(FAR);
            let start = (crate::rng::splitmix64(&mut rng) % n.max(1) as u64) as usize;
            order = placement_order(neighbours, start);
            // The first round places the variables without a chain around those given.
            order.retain(|&v| chains[v].is_empty());
            (stale, fewest_shared, attempt_round) = (0, usize::MAX, 0);
            focus.clear();
        } else {
            if order.len() < n {
                // After the first round around initial chains, every chain moves.
                order = (0..n).collect();
            }
            // A new order each round: a fixed one can cycle between the same placements.
            shuffle(&mut order, &mut rng);
            shuffle(&mut focus, &mut rng);
        }
        let focused = !focus.is_empty();
        let round_order = if focused {
            std::mem::take(&mut focus)
        } else {
            order.clone()
        };
        search.shift = (BASE_SHIFT + attempt_round / 2).min(MAX_SHIFT);
        attempt_round += 1;
        for &v in &round_order {
            if cancelled() {
                return Err(EmbedError::Cancelled);
            }
            // The budget holds inside a round too: a round on a large model takes seconds.
            if t0.elapsed() >= budget {
                timed_out = true;
                break;
            }
            let old = std::mem::take(&mut chains[v]);
            search.release(&old);
            // On a fresh start only placed neighbours count; later, all of them.
            let placed: Vec<usize> = neighbours[v]
                .iter()
                .copied()
                .filter(|&u| !chains[u].is_empty())
                .collect();
            // A root costing far more than last time is not worth searching for: bound the
            // searches, and search unbounded only when nothing is found within the bound.
            let bound = last_cost[v].saturating_mul(4).max(64);
            let bounded = if bound < FAR {
                search.place(&placed, &chains, bound).ok()
            } else {
                None
            };
            let (chain, cost) = match bounded {
                Some(found) => found,
                None => search.place(&placed, &chains, FAR)?,
            };
            last_cost[v] = cost;
            search.occupy(&chain);
            chains[v] = chain;
        }
        if timed_out {
            break;
        }
        release_unneeded_shared(&mut chains, neighbours, &mut search);
        if search.shared() <= FOCUS_SHARED {
            repair_overlaps(&mut chains, neighbours, &mut search, &mut rng);
        }
        search.note_congestion();
        let shared = search.shared();
        if shared > 0
            && shared <= FOCUS_SHARED
            && stale >= FOCUS_AFTER_STALE
            && attempt_round % FULL_ROUND_EVERY != 0
        {
            let mut involved = vec![false; n];
            for (v, chain) in chains.iter().enumerate() {
                if chain.iter().any(|&q| search.usage[q as usize] > 1) {
                    involved[v] = true;
                    for &u in &neighbours[v] {
                        involved[u] = true;
                    }
                }
            }
            focus = (0..n).filter(|&v| involved[v]).collect();
        }
        if shared == 0 {
            // The first overlap-free chains: `shorten` does better from there than more
            // rounds of overlap removal would.
            clean = Some(std::mem::take(&mut chains));
            break;
        } else if shared < fewest_shared {
            (fewest_shared, stale) = (shared, 0);
        } else if !focused {
            // Cheap focused rounds do not count: the full round among them does.
            stale += 1;
        }
    }
    match clean {
        Some(mut chains) => {
            shorten(&mut chains, neighbours, &mut search, &mut rng, &|| {
                cancelled() || t0.elapsed() >= budget
            });
            Ok(Embedding { chains })
        }
        None => Err(EmbedError::NotFound(format!(
            "no overlap-free embedding within {:.1} s ({rounds} rounds{}): the model ({n} \
             variables, {} couplings) is too dense for this heuristic on this working graph \
             ({} qubits); try a longer embedding_timeout_s, or dwave-hybrid",
            t0.elapsed().as_secs_f64(),
            if timed_out {
                String::new()
            } else {
                format!(", {} qubits still shared", search.shared())
            },
            neighbours.iter().map(Vec::len).sum::<usize>() / 2,
            graph.qubits.len()
        ))),
    }
}
