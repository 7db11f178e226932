//! Clique embedding for Pegasus QPUs: chains that touch every other chain, so any model with
//! up to that many variables embeds, however dense — in milliseconds and with predictable chain
//! lengths (about n/12 + 2 qubits for n variables), where the heuristic embedder struggles.
//!
//! Construction (the "triangle" of Chimera clique embeddings, laid on Pegasus's long qubits):
//! every position p = 12w + k has a vertical line of qubits (0, w, k, ·) at x = p and a
//! horizontal line (1, w, k, ·) at y = p. For the chosen positions p₁ < … < pₙ, chain i is its
//! vertical line from y = p₁ up to y = pᵢ plus its horizontal line from x = pᵢ out to x = pₙ;
//! the two cross at (pᵢ, pᵢ). For i < j, chain j's vertical passes y = pᵢ and chain i's
//! horizontal passes x = pⱼ, so they cross at (pⱼ, pᵢ) — one coupler per pair.
//!
//! Dead qubits and couplers: a position whose chain would use a dead qubit or coupler is left
//! out, and of two chains whose crossing coupler is dead the one with more such conflicts is
//! dropped. The window [p₁, pₙ] is the narrowest that still leaves n chains (shorter chains).
//!
//! Zephyr (`zephyr_clique`) is the same triangle on Zephyr's lines: position p = (w, k, j) has
//! a vertical line (0, w, k, j, ·) in column w and a horizontal line (1, w, k, j, ·) in row w;
//! qubit z of a line covers rows (or columns) 2z + j and 2z + j + 1, and a vertical and a
//! horizontal qubit that cover each other's row and column are coupled. Chains are about
//! n/(4t) + 2 qubits long.
//!
//! Invariant: a returned embedding passes `Embedding::verify` for the complete graph on its
//! chains (checked before returning).

use super::embedding::{EmbedError, Embedding};
use super::topology::{
    HORIZONTAL_OFFSETS, VERTICAL_OFFSETS, WorkingGraph, pegasus_index, zephyr_index,
};

/// Chains for a clique of `n` variables on the Pegasus P(`m`) working graph `graph`.
pub fn pegasus_clique(n: usize, graph: &WorkingGraph, m: usize) -> Result<Embedding, EmbedError> {
    if !(2..=64).contains(&m) {
        return Err(EmbedError::NotFound(format!(
            "Pegasus shape {m} is outside 2..=64"
        )));
    }
    if n == 0 {
        return Ok(Embedding::default());
    }
    let lines = Lines::new(graph, m);
    let positions = 12 * m;
    // The narrowest window [lo, hi] whose chains, after dropping conflicts, number n or more.
    let mut best: Option<Vec<usize>> = None;
    for lo in 0..positions {
        for hi in lo + n - 1..positions {
            if best
                .as_ref()
                .is_some_and(|b| hi - lo >= b[b.len() - 1] - b[0])
            {
                break;
            }
            let feasible: Vec<usize> = (lo..=hi).filter(|&p| lines.chain_fits(p, lo, hi)).collect();
            if feasible.len() < n {
                continue;
            }
            let kept = lines.drop_conflicts(feasible);
            if kept.len() >= n {
                // The n consecutive survivors spanning the fewest positions.
                let start = (0..=kept.len() - n)
                    .min_by_key(|&s| kept[s + n - 1] - kept[s])
                    .expect("kept.len() >= n");
                best = Some(kept[start..start + n].to_vec());
                break;
            }
        }
    }
    let Some(chosen) = best else {
        return Err(EmbedError::NotFound(format!(
            "no clique of {n} chains fits this working graph (Pegasus P{m} with {} working \
             qubits): {}",
            graph.qubits.len(),
            match lines.largest_clique() {
                0 => "no chain fits at all".to_string(),
                k => format!("the largest clique found has {k} chains"),
            }
        )));
    };
    let (lo, hi) = (chosen[0], chosen[chosen.len() - 1]);
    let embedding = Embedding {
        chains: chosen.iter().map(|&p| lines.chain(p, lo, hi)).collect(),
    };
    let edges: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    embedding
        .verify(&edges, graph)
        .map_err(|why| EmbedError::NotFound(format!("clique construction failed: {why}")))?;
    Ok(embedding)
}

/// Chains for a clique of `n` variables on the Zephyr Z(`m`, `t`) working graph `graph`: the
/// narrowest window of major offsets whose chains, once those using a dead qubit or coupler and
/// those whose crossings are dead are dropped, still number `n`.
pub fn zephyr_clique(
    n: usize,
    graph: &WorkingGraph,
    m: usize,
    t: usize,
) -> Result<Embedding, EmbedError> {
    if !(1..=64).contains(&m) || !(1..=16).contains(&t) {
        return Err(EmbedError::NotFound(format!(
            "Zephyr shape ({m}, {t}) is outside 1..=64, 1..=16"
        )));
    }
    if n == 0 {
        return Ok(Embedding::default());
    }
    let z = ZephyrLines { graph, m, t };
    let majors = 2 * m + 1;
    let per_major = 2 * t;
    let mut largest = 0;
    // Narrowest windows first: the first that keeps n chains has the shortest chains.
    for width in 0..majors {
        for lo in 0..majors - width {
            let hi = lo + width;
            let fitting: Vec<(usize, Vec<u32>)> = (lo * per_major..(hi + 1) * per_major)
                .filter_map(|p| z.chain(p, lo, hi).map(|c| (p, c)))
                .collect();
            // Dropping conflicts only shrinks a set: skip those that cannot beat the best.
            if fitting.len() <= largest {
                continue;
            }
            let kept = z.drop_conflicts(fitting);
            largest = largest.max(kept.len());
            if kept.len() >= n {
                let embedding = Embedding {
                    chains: kept.into_iter().take(n).map(|(_, c)| c).collect(),
                };
                let edges: Vec<(usize, usize)> = (0..n)
                    .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                    .collect();
                embedding.verify(&edges, graph).map_err(|why| {
                    EmbedError::NotFound(format!("clique construction failed: {why}"))
                })?;
                return Ok(embedding);
            }
        }
    }
    Err(EmbedError::NotFound(format!(
        "no clique of {n} chains fits this working graph (Zephyr Z({m}, {t}) with {} working \
         qubits): {}",
        graph.qubits.len(),
        match largest {
            0 => "no chain fits at all".to_string(),
            k => format!("the largest clique found has {k} chains"),
        }
    )))
}

/// Which of `k` chains survive when, one at a time, the chain with the most dead crossings
/// (`meet(i, j)` false, i < j) is dropped until none is left; ties drop the later chain.
fn survivors(k: usize, meet: impl Fn(usize, usize) -> bool) -> Vec<bool> {
    let mut conflicts: Vec<Vec<usize>> = vec![Vec::new(); k];
    for i in 0..k {
        for j in i + 1..k {
            if !meet(i, j) {
                conflicts[i].push(j);
                conflicts[j].push(i);
            }
        }
    }
    let mut alive = vec![true; k];
    let mut degree: Vec<usize> = conflicts.iter().map(Vec::len).collect();
    while let Some((worst, _)) = degree
        .iter()
        .enumerate()
        .filter(|&(i, &d)| alive[i] && d > 0)
        .max_by_key(|&(i, &d)| (d, std::cmp::Reverse(i)))
    {
        alive[worst] = false;
        for &other in &conflicts[worst] {
            degree[other] = degree[other].saturating_sub(1);
        }
        degree[worst] = 0;
    }
    alive
}

/// Zephyr's lines: position p = w·2t + 2k + j.
struct ZephyrLines<'g> {
    graph: &'g WorkingGraph,
    m: usize,
    t: usize,
}

impl ZephyrLines<'_> {
    /// (major offset, k, j) of position p.
    fn place(&self, p: usize) -> (usize, usize, usize) {
        let r = p % (2 * self.t);
        (p / (2 * self.t), r / 2, r % 2)
    }

    /// The qubit of position p's line (orientation u) that covers major offset `x`.
    fn qubit(&self, u: usize, p: usize, x: usize) -> Option<u32> {
        let (w, k, j) = self.place(p);
        let z = x.checked_sub(j)? / 2;
        (z < self.m).then(|| zephyr_index(self.m, self.t, u, w, k, j, z))
    }

    fn works(&self, q: u32) -> bool {
        self.graph.qubits.binary_search(&q).is_ok()
    }

    /// Position p's chain in window [lo, hi] of majors — its vertical line from row lo down
    /// to its own row, its horizontal line from its own column out to hi — when every qubit
    /// and coupler of it works.
    fn chain(&self, p: usize, lo: usize, hi: usize) -> Option<Vec<u32>> {
        let c = self.place(p).0;
        let vertical = (self.qubit(0, p, lo)?..=self.qubit(0, p, c)?).collect::<Vec<u32>>();
        let horizontal = (self.qubit(1, p, c)?..=self.qubit(1, p, hi)?).collect::<Vec<u32>>();
        let linked = |line: &[u32]| {
            line.iter().all(|&q| self.works(q))
                && line.windows(2).all(|w| self.graph.coupled(w[0], w[1]))
        };
        let corner = self.graph.coupled(*vertical.last()?, horizontal[0]);
        (linked(&vertical) && linked(&horizontal) && corner)
            .then(|| vertical.into_iter().chain(horizontal).collect())
    }

    /// Whether the chains of positions a ≤ b (by major) meet: b's vertical crosses a's
    /// horizontal at row major(a), column major(b).
    fn meet(&self, a: usize, b: usize) -> bool {
        let (ca, cb) = (self.place(a).0, self.place(b).0);
        match (self.qubit(0, b, ca), self.qubit(1, a, cb)) {
            (Some(v), Some(h)) => self.graph.coupled(v, h),
            _ => false,
        }
    }

    /// Drops, one at a time, the chain with the most dead crossings until none is left.
    fn drop_conflicts(&self, mut kept: Vec<(usize, Vec<u32>)>) -> Vec<(usize, Vec<u32>)> {
        let alive = survivors(kept.len(), |i, j| self.meet(kept[i].0, kept[j].0));
        let mut index = 0;
        kept.retain(|_| {
            index += 1;
            alive[index - 1]
        });
        kept
    }
}

/// The vertical and horizontal lines of P(m), with how far each stays intact.
struct Lines<'g> {
    graph: &'g WorkingGraph,
    m: usize,
    /// For the vertical line of position p and its qubit z: the lowest z₀ such that qubits
    /// z₀..=z work and are chained by working couplers (`usize::MAX` when z itself is dead).
    intact_down: Vec<Vec<usize>>,
    /// For the horizontal line of position p and its qubit z: the highest z₁ likewise above.
    intact_up: Vec<Vec<Option<usize>>>,
    /// `meets[a · 12m + b]` for a < b: the crossing coupler of chains a and b works.
    meets: Vec<bool>,
}

impl<'g> Lines<'g> {
    fn new(graph: &'g WorkingGraph, m: usize) -> Self {
        let m1 = m - 1;
        let works = |q: u32| graph.qubits.binary_search(&q).is_ok();
        let mut intact_down = Vec::with_capacity(12 * m);
        let mut intact_up = Vec::with_capacity(12 * m);
        for p in 0..12 * m {
            let (w, k) = (p / 12, p % 12);
            let v = |z| pegasus_index(m, 0, w, k, z);
            let mut down = vec![usize::MAX; m1];
            for z in 0..m1 {
                if works(v(z)) {
                    down[z] = if z > 0 && down[z - 1] != usize::MAX && graph.coupled(v(z - 1), v(z))
                    {
                        down[z - 1]
                    } else {
                        z
                    };
                }
            }
            let h = |z| pegasus_index(m, 1, w, k, z);
            let mut up = vec![None; m1];
            for z in (0..m1).rev() {
                if works(h(z)) {
                    up[z] = Some(match up.get(z + 1) {
                        Some(Some(top)) if graph.coupled(h(z), h(z + 1)) => *top,
                        _ => z,
                    });
                }
            }
            intact_down.push(down);
            intact_up.push(up);
        }
        let mut lines = Lines {
            graph,
            m,
            intact_down,
            intact_up,
            meets: Vec::new(),
        };
        let positions = 12 * m;
        lines.meets = (0..positions * positions)
            .map(|ab| {
                let (a, b) = (ab / positions, ab % positions);
                a < b && lines.crossing_works(a, b)
            })
            .collect();
        lines
    }

    /// Which qubit of position p's vertical line covers y (None beyond the line).
    fn vertical_z(&self, p: usize, y: usize) -> Option<usize> {
        let offset = VERTICAL_OFFSETS[p % 12];
        let z = y.checked_sub(offset)? / 12;
        (z < self.m - 1).then_some(z)
    }

    /// Which qubit of position p's horizontal line covers x.
    fn horizontal_z(&self, p: usize, x: usize) -> Option<usize> {
        let offset = HORIZONTAL_OFFSETS[p % 12];
        let z = x.checked_sub(offset)? / 12;
        (z < self.m - 1).then_some(z)
    }

    fn vertical_qubit(&self, p: usize, z: usize) -> u32 {
        pegasus_index(self.m, 0, p / 12, p % 12, z)
    }

    fn horizontal_qubit(&self, p: usize, z: usize) -> u32 {
        pegasus_index(self.m, 1, p / 12, p % 12, z)
    }

    /// Whether position p's chain in window [lo, hi] uses only working qubits and couplers.
    fn chain_fits(&self, p: usize, lo: usize, hi: usize) -> bool {
        let (Some(v_lo), Some(v_p), Some(h_p), Some(h_hi)) = (
            self.vertical_z(p, lo),
            self.vertical_z(p, p),
            self.horizontal_z(p, p),
            self.horizontal_z(p, hi),
        ) else {
            return false;
        };
        self.intact_down[p][v_p] <= v_lo
            && self.intact_up[p][h_p].is_some_and(|top| top >= h_hi)
            && self
                .graph
                .coupled(self.vertical_qubit(p, v_p), self.horizontal_qubit(p, h_p))
    }

    /// Whether the chains of positions a < b meet: b's vertical crosses a's horizontal.
    fn crossing_works(&self, a: usize, b: usize) -> bool {
        match (self.vertical_z(b, a), self.horizontal_z(a, b)) {
            (Some(vz), Some(hz)) => self
                .graph
                .coupled(self.vertical_qubit(b, vz), self.horizontal_qubit(a, hz)),
            _ => false,
        }
    }

    /// Drops, one at a time, the chain with the most dead crossings until none is left.
    fn drop_conflicts(&self, mut kept: Vec<usize>) -> Vec<usize> {
        let positions = 12 * self.m;
        let alive = survivors(kept.len(), |i, j| self.meets[kept[i] * positions + kept[j]]);
        let mut index = 0;
        kept.retain(|_| {
            index += 1;
            alive[index - 1]
        });
        kept
    }

    /// Position p's chain in window [lo, hi] (which `chain_fits`).
    fn chain(&self, p: usize, lo: usize, hi: usize) -> Vec<u32> {
        let fits = "chain_fits checked the window";
        let (v_lo, v_p) = (
            self.vertical_z(p, lo).expect(fits),
            self.vertical_z(p, p).expect(fits),
        );
        let (h_p, h_hi) = (
            self.horizontal_z(p, p).expect(fits),
            self.horizontal_z(p, hi).expect(fits),
        );
        (v_lo..=v_p)
            .map(|z| self.vertical_qubit(p, z))
            .chain((h_p..=h_hi).map(|z| self.horizontal_qubit(p, z)))
            .collect()
    }

    /// The most chains any window keeps (for the message when n do not fit).
    fn largest_clique(&self) -> usize {
        let positions = 12 * self.m;
        let mut largest = 0;
        for lo in 0..positions {
            for hi in lo..positions {
                let feasible: Vec<usize> =
                    (lo..=hi).filter(|&p| self.chain_fits(p, lo, hi)).collect();
                // Dropping conflicts only shrinks a set: skip those that cannot beat the best.
                if feasible.len() > largest {
                    largest = largest.max(self.drop_conflicts(feasible).len());
                }
            }
        }
        largest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remote::topology::pegasus;

    #[test]
    fn cliques_embed_with_chains_of_about_n_over_12_plus_2() {
        let p16 = pegasus(16);
        for n in [1, 2, 13, 60, 120] {
            let e = pegasus_clique(n, &p16, 16).unwrap();
            assert_eq!(e.chains.len(), n);
            assert!(
                e.max_chain_length() <= n / 12 + 3,
                "K{n}: longest chain {}",
                e.max_chain_length()
            );
        }
        let p6 = pegasus(6);
        let e = pegasus_clique(40, &p6, 6).unwrap();
        assert_eq!(e.chains.len(), 40);
        let err = pegasus_clique(100, &p6, 6).unwrap_err().to_string();
        assert!(
            err.contains("no clique of 100") && err.contains("largest clique found"),
            "{err}"
        );
    }

    #[test]
    fn zephyr_cliques_have_chains_of_about_n_over_4t_plus_2_and_avoid_defects() {
        use crate::remote::topology::zephyr;
        let z = zephyr(12, 4);
        for n in [1, 2, 17, 80, 159] {
            let e = zephyr_clique(n, &z, 12, 4).unwrap();
            assert_eq!(e.chains.len(), n);
            assert!(
                e.max_chain_length() <= n / 16 + 3,
                "K{n}: longest chain {}",
                e.max_chain_length()
            );
        }
        let defective = z.with_dead(20, 30, 5);
        let e = zephyr_clique(159, &defective, 12, 4).unwrap();
        assert_eq!(e.chains.len(), 159);
        let err = zephyr_clique(400, &defective, 12, 4)
            .unwrap_err()
            .to_string();
        assert!(err.contains("the largest clique found has"), "{err}");
    }

    #[test]
    fn dead_qubits_and_couplers_are_avoided() {
        let graph = pegasus(16).with_defects(0.01, 0.005, 4);
        // verify() inside pegasus_clique checks every chain and pair on the defective graph.
        let e = pegasus_clique(80, &graph, 16).unwrap();
        assert_eq!(e.chains.len(), 80);
        let err = pegasus_clique(170, &graph, 16).unwrap_err().to_string();
        assert!(err.contains("the largest clique found has"), "{err}");
    }
}
