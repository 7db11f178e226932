//! The placement search: congestion-weighted shortest paths from the placed neighbours'
//! chains, the cheapest root and the Steiner chain through it (`Search`).

use super::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Fisher–Yates shuffle driven by the embedder's seeded generator.
pub(super) fn shuffle<T>(items: &mut [T], rng: &mut u64) {
    for i in (1..items.len()).rev() {
        let j = (crate::rng::splitmix64(rng) % (i as u64 + 1)) as usize;
        items.swap(i, j);
    }
}

/// Whether `chain` is connected on the working graph.
pub(super) fn connected(chain: &[u32], graph: &WorkingGraph) -> bool {
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
pub(super) fn qubit_cost(used: u32, history: u32, shift: u32) -> u64 {
    (1 + history as u64) << (shift * used.min(3))
}

/// Variables in breadth-first order from `start` (then from the most connected ones left), so
/// each is placed next to neighbours already placed.
pub(super) fn placement_order(neighbours: &[Vec<usize>], start: usize) -> Vec<usize> {
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
pub(super) struct Search<'g> {
    pub(super) graph: &'g WorkingGraph,
    pub(super) working: Vec<bool>,
    pub(super) usage: Vec<u32>,
    pub(super) dist: Vec<Vec<u64>>,
    pub(super) parent: Vec<Vec<u32>>,
    pub(super) cost: Vec<u64>,
    /// The cost of entering each qubit, for the current searches.
    pub(super) step: Vec<u64>,
    pub(super) heaps: Vec<BinaryHeap<Reverse<(u64, u32)>>>,
    /// Rounds each qubit has been shared (see `note_congestion`).
    pub(super) history: Vec<u32>,
    pub(super) rng: u64,
    /// log2 of the cost of a shared qubit; raised while overlaps persist.
    pub(super) shift: u32,
    /// Tightening: qubits of other chains are impassable and free ones cost 1.
    pub(super) strict: bool,
}

impl<'g> Search<'g> {
    pub(super) fn new(graph: &'g WorkingGraph, seed: u64) -> Self {
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

    pub(super) fn weight(&self, q: u32) -> u64 {
        match (self.strict, self.usage[q as usize]) {
            (true, 0) => 1,
            (true, _) => FAR,
            (false, used) => qubit_cost(used, self.history[q as usize], self.shift),
        }
    }

    pub(super) fn release(&mut self, chain: &[u32]) {
        for &q in chain {
            self.usage[q as usize] -= 1;
        }
    }

    pub(super) fn occupy(&mut self, chain: &[u32]) {
        for &q in chain {
            self.usage[q as usize] += 1;
        }
    }

    /// Qubits in more than one chain.
    pub(super) fn shared(&self) -> usize {
        self.usage.iter().filter(|&&u| u > 1).count()
    }

    pub(super) fn clear(&mut self) {
        self.usage.fill(0);
        self.history.fill(0);
    }

    /// Remembers which qubits were shared this round (negotiated congestion, as FPGA routers
    /// do): a qubit contested round after round grows dear for every chain, the one that holds
    /// it included, so an enclosed chain finally moves.
    pub(super) fn note_congestion(&mut self) {
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
    pub(super) fn place(
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
    pub(super) fn steiner_chain(&self, root: u32, placed: &[usize]) -> Vec<u32> {
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
    pub(super) fn prune(&self, chain: &mut Vec<u32>, placed: &[usize]) {
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
    pub(super) fn shortest_paths(&mut self, placed: &[usize], chains: &[Vec<u32>], bound: u64) {
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
    pub(super) fn cheapest(&mut self, score: impl Fn(&Self, u32) -> u64) -> Option<u32> {
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
