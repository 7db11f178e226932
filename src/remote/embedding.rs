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

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::topology::WorkingGraph;

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

/// Shortens overlap-free chains, as minorminer's chain-length passes do. Each variable in turn
/// first takes from its neighbours every qubit they can spare next to it (`steal_all`), is then
/// re-placed on free qubits only (other chains impassable, every free qubit costing 1; the new
/// chain is kept unless longer), and finally hands the qubits it can spare back to neighbours
/// shorter than the longest chain (`flip_back`). A path between two chains thus belongs to
/// whichever of them is shorter, which is what lowers the longest chain. The best chains by
/// `length_profile` are kept; passes repeat while one improves them, until `stop`.
fn shorten(
    chains: &mut [Vec<u32>],
    neighbours: &[Vec<usize>],
    search: &mut Search<'_>,
    rng: &mut u64,
    stop: &dyn Fn() -> bool,
) {
    search.usage.fill(0);
    let mut owners = Owners::new(search.graph, chains);
    for chain in chains.iter() {
        search.occupy(chain);
    }
    search.strict = true;
    let mut best = chains.to_vec();
    let mut best_profile = length_profile(chains);
    let mut target = best_profile.first().copied().unwrap_or(0);
    let mut patience = SHORTEN_PATIENCE;
    // The best chains when patience was last renewed.
    let mut mark = best_profile.clone();
    'passes: for _ in 0..SHORTEN_ROUNDS {
        let start = (crate::rng::splitmix64(rng) % chains.len().max(1) as u64) as usize;
        let top_before = top(&best_profile);
        for v in placement_order(neighbours, start) {
            if stop() {
                break 'passes;
            }
            owners.steal_all(v, chains, neighbours);
            let old = std::mem::take(&mut chains[v]);
            search.release(&old);
            owners.clear(&old);
            // A chain of `old.len()` qubits lies within that many steps of every neighbour,
            // so nothing farther needs searching.
            let chain = match search.place(&neighbours[v], chains, old.len() as u64) {
                Ok((chain, _)) if chain.len() <= old.len() => chain,
                _ => old,
            };
            search.occupy(&chain);
            owners.set(&chain, v);
            chains[v] = chain;
            owners.flip_back(v, target, chains, neighbours);
            let profile = length_profile(chains);
            if profile < best_profile {
                best.clone_from_slice(chains);
                target = profile[0];
                best_profile = profile;
            }
        }
        // The passes move one chain at a time; a longest chain whose neighbours sit far apart
        // stays long that way, so once a pass leaves the longest chains as they were, they are
        // rebuilt together with their neighbours (dear on dense models, hence not every pass).
        let longest = length_profile(chains)[0];
        for v in 0..chains.len() {
            if top(&best_profile) < top_before {
                break;
            }
            if stop() {
                break 'passes;
            }
            if chains[v].len() == longest
                && regroup(v, chains, neighbours, search, &mut owners, rng)
            {
                let profile = length_profile(chains);
                if profile < best_profile {
                    best.clone_from_slice(chains);
                    target = profile[0];
                    best_profile = profile;
                }
            }
        }
        // Patience is renewed by fewer longest chains or 0.5 % fewer qubits: a long tail of
        // one-qubit gains is not worth the user's wait.
        let total = |p: &[usize]| p.iter().sum::<usize>();
        if top(&best_profile) < top(&mark) || total(&best_profile) * 200 < total(&mark) * 199 {
            patience = SHORTEN_PATIENCE;
            mark.clone_from(&best_profile);
        } else {
            patience -= 1;
        }
        if patience == 0 {
            break;
        }
    }
    chains.clone_from_slice(&best);
    // The best chains were kept as they stood mid-pass: free what they no longer need.
    trim_all(chains, neighbours, search);
    search.strict = false;
}

/// Frees every qubit that its chain can do without (`Owners::trim`), chain by chain.
fn trim_all(chains: &mut [Vec<u32>], neighbours: &[Vec<usize>], search: &mut Search<'_>) {
    search.usage.fill(0);
    for chain in chains.iter() {
        search.occupy(chain);
    }
    let mut owners = Owners::new(search.graph, chains);
    for v in 0..chains.len() {
        owners.trim(v, chains, neighbours, search);
    }
}

/// Rebuilds the chain of `v` with its neighbours' chains around it, on free qubits: `v` starts
/// as one qubit of its old chain, each neighbour is placed again touching it (or, failing
/// that, without it), then `v` joins them all. Tried from a few starting qubits; kept only if
/// the chain lengths improve (`length_profile`), else everything is put back. Whether kept.
fn regroup(
    v: usize,
    chains: &mut [Vec<u32>],
    neighbours: &[Vec<usize>],
    search: &mut Search<'_>,
    owners: &mut Owners<'_>,
    rng: &mut u64,
) -> bool {
    let group: Vec<usize> = std::iter::once(v)
        .chain(neighbours[v].iter().copied())
        .collect();
    let before = length_profile(chains);
    let old: Vec<Vec<u32>> = group.iter().map(|&w| chains[w].clone()).collect();
    let undo = |chains: &mut [Vec<u32>], search: &mut Search<'_>, owners: &mut Owners<'_>| {
        for (&w, chain) in group.iter().zip(&old) {
            let now = std::mem::replace(&mut chains[w], chain.clone());
            search.release(&now);
            owners.clear(&now);
        }
        for (&w, chain) in group.iter().zip(&old) {
            search.occupy(chain);
            owners.set(chain, w);
        }
    };
    for _ in 0..REGROUP_ANCHORS {
        for &w in &group {
            let chain = std::mem::take(&mut chains[w]);
            search.release(&chain);
            owners.clear(&chain);
        }
        let anchor = old[0][(crate::rng::splitmix64(rng) % old[0].len() as u64) as usize];
        chains[v] = vec![anchor];
        search.occupy(&chains[v]);
        let mut order = neighbours[v].clone();
        shuffle(&mut order, rng);
        let mut ok = true;
        for &w in &order {
            let with_v: Vec<usize> = neighbours[w]
                .iter()
                .copied()
                .filter(|&u| !chains[u].is_empty())
                .collect();
            let found = search.place(&with_v, chains, FAR).or_else(|_| {
                let without: Vec<usize> = with_v.iter().copied().filter(|&u| u != v).collect();
                search.place(&without, chains, FAR)
            });
            match found {
                Ok((chain, _)) => {
                    search.occupy(&chain);
                    chains[w] = chain;
                }
                Err(_) => {
                    ok = false;
                    break;
                }
            }
        }
        if ok {
            let seed = std::mem::take(&mut chains[v]);
            search.release(&seed);
            match search.place(&neighbours[v], chains, FAR) {
                Ok((chain, _)) => {
                    search.occupy(&chain);
                    chains[v] = chain;
                }
                Err(_) => ok = false,
            }
        }
        for &w in &group {
            owners.set(&chains[w], w);
        }
        if ok && length_profile(chains) < before {
            return true;
        }
        undo(chains, search, owners);
    }
    false
}

/// The longest chain and how many chains are that long: what `shorten` works down first.
fn top(profile: &[usize]) -> (usize, usize) {
    let longest = profile.first().copied().unwrap_or(0);
    (
        longest,
        profile.iter().take_while(|&&l| l == longest).count(),
    )
}

/// Chain lengths, longest first: compared lexicographically, fewer long chains win (the order
/// minorminer ranks embeddings by once none overlap).
fn length_profile(chains: &[Vec<u32>]) -> Vec<usize> {
    let mut lengths: Vec<usize> = chains.iter().map(Vec::len).collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    lengths
}

/// Which variable's chain holds each qubit, for overlap-free chains: lets a qubit move from one
/// chain to a neighbour's while every chain stays connected and touching all its neighbours.
struct Owners<'g> {
    graph: &'g WorkingGraph,
    owner: Vec<u32>,
    /// Couplers from the chain being examined to each variable's chain (scratch, kept zero).
    touching: Vec<u32>,
    /// Generation marks of the connectivity search (scratch).
    mark: Vec<u32>,
    generation: u32,
}

const FREE: u32 = u32::MAX;

impl<'g> Owners<'g> {
    fn new(graph: &'g WorkingGraph, chains: &[Vec<u32>]) -> Self {
        let mut owner = vec![FREE; graph.adjacency.len()];
        for (v, chain) in chains.iter().enumerate() {
            for &q in chain {
                owner[q as usize] = v as u32;
            }
        }
        Owners {
            graph,
            owner,
            touching: vec![0; chains.len()],
            mark: vec![0; graph.adjacency.len()],
            generation: 0,
        }
    }

    fn set(&mut self, chain: &[u32], v: usize) {
        for &q in chain {
            self.owner[q as usize] = v as u32;
        }
    }

    fn clear(&mut self, chain: &[u32]) {
        for &q in chain {
            self.owner[q as usize] = FREE;
        }
    }

    /// Moves into `v` every qubit of each neighbour's chain, next to `v`'s, that the neighbour
    /// can spare.
    fn steal_all(&mut self, v: usize, chains: &mut [Vec<u32>], neighbours: &[Vec<usize>]) {
        for &u in &neighbours[v] {
            while let Some(q) = self.spare(u, Some(v), chains, neighbours) {
                self.give(q, u, v, chains);
            }
        }
    }

    /// Hands qubits `v` can spare to each neighbour next to them, while that neighbour's chain
    /// is shorter than `target`.
    fn flip_back(
        &mut self,
        v: usize,
        target: usize,
        chains: &mut [Vec<u32>],
        neighbours: &[Vec<usize>],
    ) {
        for &u in &neighbours[v] {
            while chains[u].len() < target {
                match self.spare(v, Some(u), chains, neighbours) {
                    Some(q) => self.give(q, v, u, chains),
                    None => break,
                }
            }
        }
    }

    fn give(&mut self, q: u32, from: usize, to: usize, chains: &mut [Vec<u32>]) {
        let chains_from = &mut chains[from];
        if let Some(i) = chains_from.iter().position(|&x| x == q) {
            chains_from.swap_remove(i);
        }
        chains[to].push(q);
        self.owner[q as usize] = to as u32;
    }

    /// Frees every qubit of `v`'s chain that it can do without (see `spare`).
    fn trim(
        &mut self,
        v: usize,
        chains: &mut [Vec<u32>],
        neighbours: &[Vec<usize>],
        search: &mut Search<'_>,
    ) {
        while let Some(q) = self.spare(v, None, chains, neighbours) {
            let chain = &mut chains[v];
            if let Some(i) = chain.iter().position(|&x| x == q) {
                chain.swap_remove(i);
            }
            self.owner[q as usize] = FREE;
            search.release(&[q]);
        }
    }

    /// A qubit of `from`'s chain that it can do without — next to `to`'s chain, when one is
    /// named, to be handed over: the rest stays connected and still touches every neighbour's
    /// chain (`to`'s through the moved qubit).
    fn spare(
        &mut self,
        from: usize,
        to: Option<usize>,
        chains: &[Vec<u32>],
        neighbours: &[Vec<usize>],
    ) -> Option<u32> {
        let chain = &chains[from];
        if chain.len() < 2 {
            return None;
        }
        let adjacency = &self.graph.adjacency;
        // How many couplers join `from`'s chain to each other chain.
        for &a in chain {
            for &n in &adjacency[a as usize] {
                let o = self.owner[n as usize];
                if o != FREE && o as usize != from {
                    self.touching[o as usize] += 1;
                }
            }
        }
        let mut found = None;
        for &q in chain {
            let next_to_target = to.is_none_or(|to| {
                adjacency[q as usize]
                    .iter()
                    .any(|&n| self.owner[n as usize] as usize == to)
            });
            if !next_to_target {
                continue;
            }
            // Every neighbour `q` touches must keep a coupler without it.
            let needed = neighbours[from].iter().any(|&w| {
                Some(w) != to && {
                    let own = adjacency[q as usize]
                        .iter()
                        .filter(|&&n| self.owner[n as usize] as usize == w)
                        .count() as u32;
                    own > 0 && self.touching[w] <= own
                }
            });
            if !needed && self.connected_without(chain, q, from) {
                found = Some(q);
                break;
            }
        }
        for &a in chain {
            for &n in &adjacency[a as usize] {
                let o = self.owner[n as usize];
                if o != FREE {
                    self.touching[o as usize] = 0;
                }
            }
        }
        found
    }

    /// Whether `chain` (of variable `v`) without `q` is still connected.
    fn connected_without(&mut self, chain: &[u32], q: u32, v: usize) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.mark.fill(0);
            self.generation = 1;
        }
        let g = self.generation;
        let Some(&first) = chain.iter().find(|&&x| x != q) else {
            return false;
        };
        self.mark[q as usize] = g;
        self.mark[first as usize] = g;
        let mut stack = vec![first];
        let mut reached = 1;
        while let Some(x) = stack.pop() {
            for &n in &self.graph.adjacency[x as usize] {
                if self.owner[n as usize] as usize == v && self.mark[n as usize] != g {
                    self.mark[n as usize] = g;
                    reached += 1;
                    stack.push(n);
                }
            }
        }
        reached == chain.len() - 1
    }
}

/// Takes each shared qubit out of the chains that do not need it (their chain stays connected
/// and still touches every neighbour's chain without it): overlaps a placement left only
/// because a chain grew through its neighbour.
fn release_unneeded_shared(
    chains: &mut [Vec<u32>],
    neighbours: &[Vec<usize>],
    search: &mut Search<'_>,
) {
    let graph = search.graph;
    let shared: Vec<u32> = (0..search.usage.len() as u32)
        .filter(|&q| search.usage[q as usize] > 1)
        .collect();
    for q in shared {
        let owners: Vec<usize> = (0..chains.len())
            .filter(|&v| chains[v].contains(&q))
            .collect();
        for v in owners {
            if search.usage[q as usize] <= 1 {
                break;
            }
            let rest: Vec<u32> = chains[v].iter().copied().filter(|&x| x != q).collect();
            if rest.is_empty() || !connected(&rest, graph) {
                continue;
            }
            let touches_all = neighbours[v].iter().all(|&u| {
                rest.iter().any(|&a| {
                    graph.adjacency[a as usize]
                        .iter()
                        .any(|b| chains[u].contains(b))
                })
            });
            if touches_all {
                chains[v] = rest;
                search.usage[q as usize] -= 1;
            }
        }
    }
}

/// The end game of overlap removal: each chain holding a shared qubit is re-placed on free
/// qubits only (other chains impassable), alone or, failing that, after the chain it shares
/// with, both ripped up (either order). Moves that would leave a chain unplaced are undone, so
/// each kept move removes an overlap without creating one.
fn repair_overlaps(
    chains: &mut [Vec<u32>],
    neighbours: &[Vec<usize>],
    search: &mut Search<'_>,
    rng: &mut u64,
) {
    let mut conflicts: Vec<(usize, usize)> = Vec::new();
    let mut holder = vec![usize::MAX; search.usage.len()];
    for (v, chain) in chains.iter().enumerate() {
        for &q in chain {
            match holder[q as usize] {
                usize::MAX => holder[q as usize] = v,
                w => conflicts.push((w, v)),
            }
        }
    }
    conflicts.sort_unstable();
    conflicts.dedup();
    shuffle(&mut conflicts, rng);
    search.strict = true;
    for (a, b) in conflicts {
        let still = chains[a]
            .iter()
            .any(|q| search.usage[*q as usize] > 1 && chains[b].contains(q));
        if still {
            for vars in [&[a][..], &[b], &[a, b], &[b, a]] {
                if replace_strictly(vars, chains, neighbours, search) {
                    break;
                }
            }
        }
    }
    search.strict = false;
}

/// Rips up the chains of `vars` and places them again in that order on free qubits only; on
/// failure puts the old chains back. Whether the new chains were kept.
fn replace_strictly(
    vars: &[usize],
    chains: &mut [Vec<u32>],
    neighbours: &[Vec<usize>],
    search: &mut Search<'_>,
) -> bool {
    let old: Vec<Vec<u32>> = vars
        .iter()
        .map(|&v| std::mem::take(&mut chains[v]))
        .collect();
    for chain in &old {
        search.release(chain);
    }
    for (k, &v) in vars.iter().enumerate() {
        let placed: Vec<usize> = neighbours[v]
            .iter()
            .copied()
            .filter(|&u| !chains[u].is_empty())
            .collect();
        match search.place(&placed, chains, FAR) {
            Ok((chain, _)) => {
                search.occupy(&chain);
                chains[v] = chain;
            }
            Err(_) => {
                for &w in &vars[..k] {
                    let new = std::mem::take(&mut chains[w]);
                    search.release(&new);
                }
                for (&w, chain) in vars.iter().zip(old) {
                    search.occupy(&chain);
                    chains[w] = chain;
                }
                return false;
            }
        }
    }
    true
}

/// Fisher–Yates shuffle driven by the embedder's seeded generator.
fn shuffle<T>(items: &mut [T], rng: &mut u64) {
    for i in (1..items.len()).rev() {
        let j = (crate::rng::splitmix64(rng) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Whether `chain` is connected on the working graph.
fn connected(chain: &[u32], graph: &WorkingGraph) -> bool {
    let mut seen = vec![chain[0]];
    let mut k = 0;
    while k < seen.len() {
        for n in &graph.adjacency[seen[k] as usize] {
            if chain.contains(n) && !seen.contains(n) {
                seen.push(*n);
            }
        }
        k += 1;
    }
    seen.len() == chain.len()
}

/// The cost of passing through a qubit used by `used` other chains and shared in `history`
/// earlier rounds: `(1 + history) · 2^(shift·used)`.
fn qubit_cost(used: u32, history: u32, shift: u32) -> u64 {
    (1 + history as u64) << (shift * used.min(3))
}

/// Variables in breadth-first order from `start` (then from the most connected ones left), so
/// each is placed next to neighbours already placed.
fn placement_order(neighbours: &[Vec<usize>], start: usize) -> Vec<usize> {
    let n = neighbours.len();
    let mut by_degree: Vec<usize> = (0..n).collect();
    by_degree.sort_by_key(|&v| Reverse(neighbours[v].len()));
    if let Some(k) = by_degree.iter().position(|&v| v == start) {
        by_degree[..=k].rotate_right(1);
    }
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for &start in &by_degree {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut k = order.len();
        order.push(start);
        while k < order.len() {
            let v = order[k];
            for &u in &neighbours[v] {
                if !seen[u] {
                    seen[u] = true;
                    order.push(u);
                }
            }
            k += 1;
        }
    }
    order
}

/// Reused buffers of the shortest-path searches, and how many chains use each qubit.
struct Search<'g> {
    graph: &'g WorkingGraph,
    working: Vec<bool>,
    usage: Vec<u32>,
    dist: Vec<Vec<u64>>,
    parent: Vec<Vec<u32>>,
    cost: Vec<u64>,
    /// The cost of entering each qubit, for the current searches.
    step: Vec<u64>,
    heaps: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    /// Rounds each qubit has been shared (see `note_congestion`).
    history: Vec<u32>,
    rng: u64,
    /// log2 of the cost of a shared qubit; raised while overlaps persist.
    shift: u32,
    /// Tightening: qubits of other chains are impassable and free ones cost 1.
    strict: bool,
}

impl<'g> Search<'g> {
    fn new(graph: &'g WorkingGraph, seed: u64) -> Self {
        let size = graph.adjacency.len();
        let mut working = vec![false; size];
        for &q in &graph.qubits {
            working[q as usize] = true;
        }
        Search {
            graph,
            working,
            usage: vec![0; size],
            history: vec![0; size],
            dist: Vec::new(),
            parent: Vec::new(),
            cost: vec![0; size],
            step: vec![0; size],
            heaps: Vec::new(),
            rng: seed ^ 0x9e37_79b9_7f4a_7c15,
            shift: BASE_SHIFT,
            strict: false,
        }
    }

    fn weight(&self, q: u32) -> u64 {
        match (self.strict, self.usage[q as usize]) {
            (true, 0) => 1,
            (true, _) => FAR,
            (false, used) => qubit_cost(used, self.history[q as usize], self.shift),
        }
    }

    fn release(&mut self, chain: &[u32]) {
        for &q in chain {
            self.usage[q as usize] -= 1;
        }
    }

    fn occupy(&mut self, chain: &[u32]) {
        for &q in chain {
            self.usage[q as usize] += 1;
        }
    }

    /// Qubits in more than one chain.
    fn shared(&self) -> usize {
        self.usage.iter().filter(|&&u| u > 1).count()
    }

    fn clear(&mut self) {
        self.usage.fill(0);
        self.history.fill(0);
    }

    /// Remembers which qubits were shared this round (negotiated congestion, as FPGA routers
    /// do): a qubit contested round after round grows dear for every chain, the one that holds
    /// it included, so an enclosed chain finally moves.
    fn note_congestion(&mut self) {
        for (h, &u) in self.history.iter_mut().zip(&self.usage) {
            if u > 1 {
                *h = (*h + 1).min(MAX_HISTORY);
            }
        }
    }

    /// A chain for a variable whose placed neighbours are `placed`: the root minimising the
    /// summed path costs to every neighbour's chain, plus those paths.
    /// A chain for a variable whose placed neighbours are `placed`, and its root's cost;
    /// roots dearer than `bound` are not considered (`FAR`: no bound).
    fn place(
        &mut self,
        placed: &[usize],
        chains: &[Vec<u32>],
        bound: u64,
    ) -> Result<(Vec<u32>, u64), EmbedError> {
        let size = self.graph.adjacency.len();
        if placed.is_empty() {
            // Nothing to be near: the cheapest working qubit, ties broken at random.
            return self
                .cheapest(|s, q| s.weight(q))
                .map(|q| (vec![q], self.weight(q)))
                .ok_or_else(|| EmbedError::NotFound("no working qubit left".into()));
        }
        while self.dist.len() < placed.len() {
            self.dist.push(vec![FAR; size]);
            self.parent.push(vec![u32::MAX; size]);
        }
        self.shortest_paths(placed, chains, bound);
        // Root cost, as Cai, Macready and Roy define it: the root's weight, plus each
        // neighbour's path to it, the root included — so a root on a shared qubit pays for the
        // sharing once per neighbour, which keeps roots in free space and lets crowded regions
        // thin out.
        for q in 0..size {
            let mut c = if self.working[q] {
                self.weight(q as u32)
            } else {
                FAR
            };
            for k in 0..placed.len() {
                let d = self.dist[k][q];
                if d >= FAR {
                    c = FAR;
                    break;
                }
                c = c.saturating_add(d);
            }
            self.cost[q] = c;
        }
        let root = self.cheapest(|s, q| s.cost[q as usize]).ok_or_else(|| {
            EmbedError::NotFound(
                "the neighbours' chains cannot be joined on the working graph".to_string(),
            )
        })?;
        let mut best = self.steiner_chain(root, placed);
        if self.strict {
            // Shortening: the estimated cost only bounds a chain's size, so the next cheapest
            // roots are built too and the smallest chain kept (minorminer's short-chain search
            // does likewise, root by root).
            let mut candidates: Vec<(u64, u32)> = self
                .graph
                .qubits
                .iter()
                .map(|&q| (self.cost[q as usize], q))
                .filter(|&(c, q)| c < FAR && q != root)
                .collect();
            let tries = SHORT_CHAIN_ROOTS.min(candidates.len());
            if tries > 0 {
                candidates.select_nth_unstable(tries - 1);
                candidates.truncate(tries);
                for (_, q) in candidates {
                    let chain = self.steiner_chain(q, placed);
                    if chain.len() < best.len() {
                        best = chain;
                    }
                }
            }
        }
        Ok((best, self.cost[root as usize]))
    }

    /// The chain rooted at `root` joining every placed neighbour's chain, as a Steiner tree
    /// grown greedily: neighbours nearest the root first, each joined from the qubit of the
    /// chain so far that is nearest to it (not always from the root), then pruned.
    fn steiner_chain(&self, root: u32, placed: &[usize]) -> Vec<u32> {
        let mut chain = vec![root];
        let mut order: Vec<usize> = (0..placed.len()).collect();
        order.sort_by_key(|&k| self.dist[k][root as usize]);
        for k in order {
            let dist = &self.dist[k];
            let Some(&start) = chain.iter().min_by_key(|&&x| dist[x as usize]) else {
                continue;
            };
            let mut x = start;
            while dist[x as usize] > 0 {
                if !chain.contains(&x) {
                    chain.push(x);
                }
                x = self.parent[k][x as usize];
            }
        }
        self.prune(&mut chain, placed);
        chain
    }

    /// Drops leaves of `chain` (never the root) that no neighbour needs: a leaf goes when every
    /// neighbour chain it touches is touched by another qubit of the chain too. Paths to
    /// different neighbours often run side by side; this keeps only what joins them.
    fn prune(&self, chain: &mut Vec<u32>, placed: &[usize]) {
        let adjacency = &self.graph.adjacency;
        // The neighbours (indices into `placed`) each qubit of the chain touches: a qubit next
        // to it lies in that neighbour's chain, i.e. at distance 0 in its search.
        let mut touched: Vec<Vec<u32>> = chain
            .iter()
            .map(|&q| {
                (0..placed.len() as u32)
                    .filter(|&k| {
                        let dist = &self.dist[k as usize];
                        adjacency[q as usize].iter().any(|&n| dist[n as usize] == 0)
                    })
                    .collect()
            })
            .collect();
        // How many qubits of the chain touch each neighbour.
        let mut touching = vec![0u32; placed.len()];
        for &k in touched.iter().flatten() {
            touching[k as usize] += 1;
        }
        loop {
            let removable = (1..chain.len()).find(|&i| {
                let inner = adjacency[chain[i] as usize]
                    .iter()
                    .filter(|n| chain.contains(n))
                    .count();
                inner <= 1 && touched[i].iter().all(|&k| touching[k as usize] >= 2)
            });
            match removable {
                Some(i) => {
                    for &k in &touched[i] {
                        touching[k as usize] -= 1;
                    }
                    chain.swap_remove(i);
                    touched.swap_remove(i);
                }
                None => break,
            }
        }
    }

    /// Node-weighted shortest paths from `sources` (distance 0) into buffer `k`.
    /// Node-weighted shortest paths from each placed neighbour's chain (distance 0) into its
    /// own buffer, in parallel; a search stops past `bound` (no root can cost more).
    fn shortest_paths(&mut self, placed: &[usize], chains: &[Vec<u32>], bound: u64) {
        use rayon::prelude::*;
        while self.heaps.len() < placed.len() {
            self.heaps.push(BinaryHeap::new());
        }
        // Each qubit's cost, once for all the searches (`IMPASSABLE`: never entered).
        for q in 0..self.step.len() {
            self.step[q] = match (self.strict, self.usage[q]) {
                (true, 0) => 1,
                (true, _) => IMPASSABLE,
                (false, used) => qubit_cost(used, self.history[q], self.shift),
            };
        }
        let (graph, step) = (self.graph, &self.step);
        self.dist
            .par_iter_mut()
            .zip(self.parent.par_iter_mut())
            .zip(self.heaps.par_iter_mut())
            .zip(placed.par_iter())
            .for_each(|(((dist, parent), heap), &u)| {
                dist.fill(FAR);
                parent.fill(u32::MAX);
                heap.clear();
                for &s in &chains[u] {
                    dist[s as usize] = 0;
                    heap.push(Reverse((0, s)));
                }
                while let Some(Reverse((d, q))) = heap.pop() {
                    if d > dist[q as usize] {
                        continue;
                    }
                    if d > bound {
                        break;
                    }
                    for &n in &graph.adjacency[q as usize] {
                        let cost = step[n as usize];
                        if cost == IMPASSABLE {
                            continue;
                        }
                        let nd = d + cost;
                        if nd < dist[n as usize] {
                            dist[n as usize] = nd;
                            parent[n as usize] = q;
                            heap.push(Reverse((nd, n)));
                        }
                    }
                }
            });
    }

    /// The working qubit of least `score`, ties broken by the seeded generator.
    fn cheapest(&mut self, score: impl Fn(&Self, u32) -> u64) -> Option<u32> {
        let mut best: Option<(u64, u64, u32)> = None;
        for &q in &self.graph.qubits {
            let s = score(self, q);
            if s >= FAR {
                continue;
            }
            // Ties go to better-connected qubits (away from the fabric's edge), then at random.
            let degree = self.graph.adjacency[q as usize].len() as u64;
            let tie = (u64::MAX - degree) << 48 | crate::rng::splitmix64(&mut self.rng) >> 16;
            if best.is_none_or(|(bs, bt, _)| (s, tie) < (bs, bt)) {
                best = Some((s, tie, q));
            }
        }
        best.map(|b| b.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::topology::pegasus;

    const LONG: std::time::Duration = std::time::Duration::from_secs(600);

    #[test]
    fn a_clique_and_a_grid_embed_into_pegasus_and_verify() {
        let graph = pegasus(4);
        let clique: Vec<(usize, usize)> = (0..12)
            .flat_map(|a| (a + 1..12).map(move |b| (a, b)))
            .collect();
        let e = find_embedding(12, &clique, &graph, 1, LONG, &|| false).unwrap();
        e.verify(&clique, &graph).unwrap();
        assert!(e.max_chain_length() > 1, "K12 needs chains on Pegasus");
        let side = 6;
        let grid: Vec<(usize, usize)> = (0..side * side)
            .flat_map(|v| {
                let (r, c) = (v / side, v % side);
                let mut out = Vec::new();
                if c + 1 < side {
                    out.push((v, v + 1));
                }
                if r + 1 < side {
                    out.push((v, v + side));
                }
                out
            })
            .collect();
        let e = find_embedding(side * side, &grid, &graph, 2, LONG, &|| false).unwrap();
        e.verify(&grid, &graph).unwrap();
    }

    #[test]
    fn a_path_between_two_chains_goes_to_the_shorter_one() {
        // Qubits 0–1–2–3–4 in a row, plus 5 hanging off 1; variables 0 (chain 0, 1, 2, 3) and
        // 1 (chain 4) are coupled, and variable 2 (chain 5) is coupled to variable 0.
        let graph = WorkingGraph::new(
            (0..6).collect(),
            vec![(0, 1), (1, 2), (2, 3), (3, 4), (1, 5)],
        );
        let neighbours = vec![vec![1, 2], vec![0], vec![0]];
        let mut chains = vec![vec![0, 1, 2, 3], vec![4], vec![5]];
        let mut owners = Owners::new(&graph, &chains);
        // Variable 0 gives its spare qubits to variable 1 until 1's chain has 3 qubits; qubit 1
        // stays, as variable 2 needs it and the chain must stay connected.
        owners.flip_back(0, 3, &mut chains, &neighbours);
        chains.iter_mut().for_each(|c| c.sort_unstable());
        assert_eq!(chains, vec![vec![0, 1], vec![2, 3, 4], vec![5]]);
        let edges = [(0, 1), (0, 2)];
        Embedding {
            chains: chains.clone(),
        }
        .verify(&edges, &graph)
        .unwrap();
        // Taking everything back: variable 0 steals all its neighbours can spare.
        owners.steal_all(0, &mut chains, &neighbours);
        chains.iter_mut().for_each(|c| c.sort_unstable());
        assert_eq!(chains, vec![vec![0, 1, 2, 3], vec![4], vec![5]]);
        Embedding { chains }.verify(&edges, &graph).unwrap();
    }

    #[test]
    fn a_long_chain_between_far_neighbours_is_rebuilt_with_them() {
        // Qubits 0–1–…–10 in a row; variable 0 is coupled to 1 and 2, whose chains sit at the
        // two ends, so variable 0 spans the row. Re-placing one chain at a time cannot help;
        // rebuilding the three together gives chains of one qubit each.
        let graph = WorkingGraph::new((0..11).collect(), (0..10).map(|q| (q, q + 1)).collect());
        let neighbours = vec![vec![1, 2], vec![0], vec![0]];
        let edges = [(0, 1), (0, 2)];
        let mut chains = vec![(1..10).collect::<Vec<u32>>(), vec![0], vec![10]];
        let mut search = Search::new(&graph, 7);
        search.strict = true;
        for chain in &chains {
            search.occupy(chain);
        }
        let mut owners = Owners::new(&graph, &chains);
        let mut rng = 1;
        assert!(regroup(
            0,
            &mut chains,
            &neighbours,
            &mut search,
            &mut owners,
            &mut rng
        ));
        let e = Embedding {
            chains: chains.clone(),
        };
        e.verify(&edges, &graph).unwrap();
        assert_eq!(e.max_chain_length(), 1, "{chains:?}");
        assert_eq!(
            search.usage.iter().sum::<u32>(),
            3,
            "usage follows the chains"
        );
        // Nothing better exists now: the move is refused and everything stays as it was.
        let before = chains.clone();
        assert!(!regroup(
            0,
            &mut chains,
            &neighbours,
            &mut search,
            &mut owners,
            &mut rng
        ));
        assert_eq!(chains, before);
        let owned = (0..11u32)
            .filter(|&q| owners.owner[q as usize] != FREE)
            .count();
        assert_eq!(owned, 3, "owners follow the chains");
    }

    #[test]
    fn a_qubit_no_neighbour_needs_is_freed() {
        // Qubits 0–1–2–3–4 in a row; variable 0 holds 0–3 but only needs to reach variable 1
        // at qubit 4: qubits 0, 1 and 2 go, 3 stays (it is the only coupler to 4).
        let graph = WorkingGraph::new((0..5).collect(), (0..4).map(|q| (q, q + 1)).collect());
        let neighbours = vec![vec![1], vec![0]];
        let mut chains = vec![vec![0, 1, 2, 3], vec![4]];
        let mut search = Search::new(&graph, 1);
        for chain in &chains {
            search.occupy(chain);
        }
        let mut owners = Owners::new(&graph, &chains);
        owners.trim(0, &mut chains, &neighbours, &mut search);
        assert_eq!(chains, vec![vec![3], vec![4]]);
        assert_eq!(
            search.usage,
            vec![0, 0, 0, 1, 1],
            "usage follows the chains"
        );
        assert_eq!(owners.owner[..3], [FREE; 3], "owners follow the chains");
        // A chain never goes below one qubit, and a needed qubit stays.
        owners.trim(1, &mut chains, &neighbours, &mut search);
        assert_eq!(chains, vec![vec![3], vec![4]]);
    }

    #[test]
    fn a_cliques_chains_shorten_to_what_a_sparser_model_needs() {
        use crate::remote::{clique::zephyr_clique, topology::zephyr};
        let graph = zephyr(4, 4);
        // 40 variables, every pair coupled with probability 0.4 (seeded).
        let n = 40;
        let mut rng = 11u64;
        let edges: Vec<(usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .filter(|_| crate::rng::splitmix64(&mut rng) % 10 < 4)
            .collect();
        let clique = zephyr_clique(n, &graph, 4, 4).unwrap();
        let e = shorten_embedding(clique.clone(), &edges, &graph, 1, LONG, &|| false).unwrap();
        e.verify(&edges, &graph).unwrap();
        assert!(
            e.num_qubits() < clique.num_qubits() * 9 / 10,
            "{} qubits against the clique's {}",
            e.num_qubits(),
            clique.num_qubits()
        );
        assert!(e.max_chain_length() <= clique.max_chain_length());
        // Chains that do not embed the model are refused, naming why; a cancel says so.
        let mut bad = clique.clone();
        bad.chains[1] = bad.chains[0].clone();
        let err = shorten_embedding(bad, &edges, &graph, 1, LONG, &|| false).unwrap_err();
        assert!(
            err.to_string().contains("in the chains of 0 and 1"),
            "{err}"
        );
        let err = shorten_embedding(clique, &[(0, n)], &graph, 1, LONG, &|| false).unwrap_err();
        assert!(err.to_string().contains("beyond the model's 40"), "{err}");
        let err = shorten_embedding(e, &edges, &graph, 1, LONG, &|| true).unwrap_err();
        assert_eq!(err, EmbedError::Cancelled);
    }

    #[test]
    fn a_search_around_initial_chains_checks_them_and_embeds_the_rest() {
        let graph = pegasus(4);
        let q = |k: usize| graph.qubits[k];
        // A path of 6 variables; variables 0 and 1 start on a coupled pair of qubits.
        let path: Vec<(usize, usize)> = (0..5).map(|v| (v, v + 1)).collect();
        let (a, b) = graph.couplers[0];
        let initial = vec![vec![a], vec![b]];
        let e = find_embedding_around(6, &path, &graph, &initial, 1, LONG, &|| false).unwrap();
        e.verify(&path, &graph).unwrap();
        let refused = |initial: &[Vec<u32>]| {
            find_embedding_around(6, &path, &graph, initial, 1, LONG, &|| false)
                .unwrap_err()
                .to_string()
        };
        assert!(refused(&vec![vec![]; 7]).contains("7 initial chains for 6 variables"));
        assert!(refused(&[vec![q(0)], vec![q(0)]]).contains("in the initial chains of 0 and 1"));
        let dead = (0..graph.adjacency.len() as u32)
            .find(|q| graph.qubits.binary_search(q).is_err())
            .unwrap_or(u32::MAX);
        if dead != u32::MAX {
            assert!(refused(&[vec![dead]]).contains("which does not work"));
        }
        let far = *graph
            .qubits
            .iter()
            .find(|&&x| x != a && !graph.adjacency[a as usize].contains(&x))
            .unwrap();
        assert!(refused(&[vec![a, far]]).contains("initial chain 0 is not connected"));
    }

    #[test]
    fn the_last_overlaps_go_by_re_placing_on_free_qubits() {
        // Qubits 0–1–2–3–4 in a row; variables 0 and 1 are coupled, and their chains share
        // qubit 2. One of them moves to a free qubit next to the other.
        let graph = WorkingGraph::new((0..5).collect(), (0..4).map(|q| (q, q + 1)).collect());
        let neighbours = vec![vec![1], vec![0]];
        let mut chains = vec![vec![1, 2], vec![2, 3]];
        let mut search = Search::new(&graph, 3);
        for chain in &chains {
            search.occupy(chain);
        }
        assert_eq!(search.shared(), 1);
        repair_overlaps(&mut chains, &neighbours, &mut search, &mut 5);
        assert_eq!(search.shared(), 0, "{chains:?}");
        assert!(!search.strict, "the search is left as it was found");
        Embedding { chains }.verify(&[(0, 1)], &graph).unwrap();
    }

    #[test]
    fn impossible_models_and_cancels_say_so() {
        let graph = pegasus(2);
        let many: Vec<(usize, usize)> = (0..60)
            .flat_map(|a| (a + 1..60).map(move |b| (a, b)))
            .collect();
        let e = find_embedding(60, &many, &graph, 1, LONG, &|| false).unwrap_err();
        assert!(e.to_string().contains("60 variables but only"), "{e}");
        let e = find_embedding(30, &many, &graph, 1, LONG, &|| false).unwrap_err();
        assert!(e.to_string().contains("beyond the model's 30"), "{e}");
        let k30: Vec<(usize, usize)> = many.iter().copied().filter(|&(_, b)| b < 30).collect();
        // Rounds go on until the budget ends them.
        let short = std::time::Duration::from_millis(500);
        let e = find_embedding(30, &k30, &graph, 1, short, &|| false).unwrap_err();
        assert!(matches!(e, EmbedError::NotFound(_)), "{e}");
        let e = find_embedding(3, &[(0, 1)], &pegasus(3), 1, LONG, &|| true).unwrap_err();
        assert_eq!(e, EmbedError::Cancelled);
        // `verify` catches a broken embedding.
        let bad = Embedding {
            chains: vec![vec![graph.qubits[0]], vec![graph.qubits[0]]],
        };
        assert!(
            bad.verify(&[(0, 1)], &graph)
                .unwrap_err()
                .to_string()
                .contains("in the chains")
        );
    }
}
