//! Shortening found chains: each re-placed on free qubits, joints moved to the shorter chain,
//! and a longest chain no pass shortens rebuilt with its neighbours (`regroup`).

use super::*;

/// Shortens overlap-free chains, as minorminer's chain-length passes do. Each variable in turn
/// first takes from its neighbours every qubit they can spare next to it (`steal_all`), is then
/// re-placed on free qubits only (other chains impassable, every free qubit costing 1; the new
/// chain is kept unless longer), and finally hands the qubits it can spare back to neighbours
/// shorter than the longest chain (`flip_back`). A path between two chains thus belongs to
/// whichever of them is shorter, which is what lowers the longest chain. The best chains by
/// `length_profile` are kept; passes repeat while one improves them, until `stop`.
pub(super) fn shorten(
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
pub(super) fn trim_all(
    chains: &mut [Vec<u32>],
    neighbours: &[Vec<usize>],
    search: &mut Search<'_>,
) {
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
pub(super) fn regroup(
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
pub(super) fn top(profile: &[usize]) -> (usize, usize) {
    let longest = profile.first().copied().unwrap_or(0);
    (
        longest,
        profile.iter().take_while(|&&l| l == longest).count(),
    )
}

/// Chain lengths, longest first: compared lexicographically, fewer long chains win (the order
/// minorminer ranks embeddings by once none overlap).
pub(super) fn length_profile(chains: &[Vec<u32>]) -> Vec<usize> {
    let mut lengths: Vec<usize> = chains.iter().map(Vec::len).collect();
    lengths.sort_unstable_by(|a, b| b.cmp(a));
    lengths
}
