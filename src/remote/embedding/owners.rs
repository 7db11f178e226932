//! Which chain holds each qubit (`Owners`), and the repairs that re-place chains on free
//! qubits only until no two overlap.

use super::*;

/// Which variable's chain holds each qubit, for overlap-free chains: lets a qubit move from one
/// chain to a neighbour's while every chain stays connected and touching all its neighbours.
pub(super) struct Owners<'g> {
    pub(super) graph: &'g WorkingGraph,
    pub(super) owner: Vec<u32>,
    /// Couplers from the chain being examined to each variable's chain (scratch, kept zero).
    pub(super) touching: Vec<u32>,
    /// Generation marks of the connectivity search (scratch).
    pub(super) mark: Vec<u32>,
    pub(super) generation: u32,
}

pub(super) const FREE: u32 = u32::MAX;

impl<'g> Owners<'g> {
    pub(super) fn new(graph: &'g WorkingGraph, chains: &[Vec<u32>]) -> Self {
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

    pub(super) fn set(&mut self, chain: &[u32], v: usize) {
        for &q in chain {
            self.owner[q as usize] = v as u32;
        }
    }

    pub(super) fn clear(&mut self, chain: &[u32]) {
        for &q in chain {
            self.owner[q as usize] = FREE;
        }
    }

    /// Moves into `v` every qubit of each neighbour's chain, next to `v`'s, that the neighbour
    /// can spare.
    pub(super) fn steal_all(
        &mut self,
        v: usize,
        chains: &mut [Vec<u32>],
        neighbours: &[Vec<usize>],
    ) {
        for &u in &neighbours[v] {
            while let Some(q) = self.spare(u, Some(v), chains, neighbours) {
                self.give(q, u, v, chains);
            }
        }
    }

    /// Hands qubits `v` can spare to each neighbour next to them, while that neighbour's chain
    /// is shorter than `target`.
    pub(super) fn flip_back(
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

    pub(super) fn give(&mut self, q: u32, from: usize, to: usize, chains: &mut [Vec<u32>]) {
        let chains_from = &mut chains[from];
        if let Some(i) = chains_from.iter().position(|&x| x == q) {
            chains_from.swap_remove(i);
        }
        chains[to].push(q);
        self.owner[q as usize] = to as u32;
    }

    /// Frees every qubit of `v`'s chain that it can do without (see `spare`).
    pub(super) fn trim(
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
    pub(super) fn spare(
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
    pub(super) fn connected_without(&mut self, chain: &[u32], q: u32, v: usize) -> bool {
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
pub(super) fn release_unneeded_shared(
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
pub(super) fn repair_overlaps(
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
pub(super) fn replace_strictly(
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
