//! QPU working graphs: the solver's `qubits` and `couplers` as an adjacency list, and the
//! Pegasus and Zephyr families generated from their definitions (for the fake QPUs and tests: an
//! Advantage-sized P16 and an Advantage2-sized Z(12, 4) with some qubits and couplers dead, as
//! real working graphs are).
//!
//! Pegasus P(m): qubit (u, w, k, z) — orientation u (0 vertical, 1 horizontal), w < m, k < 12,
//! z < m − 1 — has linear index `z + (m−1)(k + 12(w + m·u))`. Edges: "external" (same u, w, k;
//! z and z + 1), "odd" (k = 2j and 2j + 1), and "internal" between a vertical and a horizontal
//! qubit whose line segments cross, placed by the offsets below (the production layout). Only
//! the fabric is kept (qubits at the ragged edges that couple to nothing are dropped), which
//! gives 5 640 qubits and 40 484 couplers for P16 — the figures dwave-networkx gives.

use std::collections::BTreeSet;

use super::RemoteError;

/// The largest qubit number read from a solver (Advantage2 systems number about 4 800; a
/// million leaves room while keeping the adjacency's allocation bounded).
pub const MAX_QUBIT_INDEX: u32 = 1_000_000;

/// Vertical and horizontal offsets of the production Pegasus layout.
/// Vertical qubit (0, w, k, z) lies at x = 12w + k and spans y from 12z + v(k) for 12 units;
/// horizontal (1, w, k, z) at y = 12w + k spans x from 12z + h(k).
pub(super) const VERTICAL_OFFSETS: [usize; 12] = [2, 2, 2, 2, 10, 10, 10, 10, 6, 6, 6, 6];
pub(super) const HORIZONTAL_OFFSETS: [usize; 12] = [6, 6, 6, 6, 2, 2, 2, 2, 10, 10, 10, 10];

/// The linear index of Pegasus P(m) qubit (u, w, k, z).
pub(super) fn pegasus_index(m: usize, u: usize, w: usize, k: usize, z: usize) -> u32 {
    (z + (m - 1) * (k + 12 * (w + m * u))) as u32
}

/// A working graph: which qubits work, and their neighbours.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkingGraph {
    /// Working qubits, ascending.
    pub qubits: Vec<u32>,
    /// Working couplers (low, high), ascending.
    pub couplers: Vec<(u32, u32)>,
    /// Neighbours of each qubit index (indexed by qubit number, empty for absent ones).
    pub adjacency: Vec<Vec<u32>>,
}

impl WorkingGraph {
    /// A graph from a solver's lists (couplers whose ends are not working are dropped).
    pub fn new(qubits: Vec<u32>, couplers: Vec<(u32, u32)>) -> Self {
        let mut qubits = qubits;
        qubits.sort_unstable();
        qubits.dedup();
        let size = qubits.last().map_or(0, |&q| q as usize + 1);
        let working: BTreeSet<u32> = qubits.iter().copied().collect();
        let mut couplers: Vec<(u32, u32)> = couplers
            .into_iter()
            .filter(|&(a, b)| a != b && working.contains(&a) && working.contains(&b))
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        couplers.sort_unstable();
        couplers.dedup();
        let mut adjacency = vec![Vec::new(); size];
        for &(a, b) in &couplers {
            adjacency[a as usize].push(b);
            adjacency[b as usize].push(a);
        }
        WorkingGraph {
            qubits,
            couplers,
            adjacency,
        }
    }

    /// Reads a solver's `qubits` and `couplers` properties. Qubit numbers index the adjacency,
    /// so one beyond `MAX_QUBIT_INDEX` is refused rather than allocated for.
    pub fn from_properties(props: &serde_json::Value) -> Result<Self, RemoteError> {
        let qubits: Vec<u32> = props["qubits"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|q| q.as_u64().and_then(|q| u32::try_from(q).ok()))
            .collect();
        if let Some(q) = qubits.iter().find(|&&q| q > MAX_QUBIT_INDEX) {
            return Err(RemoteError::Protocol(format!(
                "the solver lists qubit {q}; qubit numbers above {MAX_QUBIT_INDEX} are not \
                 supported"
            )));
        }
        let couplers = props["couplers"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| {
                let a = u32::try_from(c.get(0)?.as_u64()?).ok()?;
                let b = u32::try_from(c.get(1)?.as_u64()?).ok()?;
                Some((a, b))
            })
            .collect();
        Ok(WorkingGraph::new(qubits, couplers))
    }

    /// Whether `a` and `b` are coupled.
    pub fn coupled(&self, a: u32, b: u32) -> bool {
        self.adjacency
            .get(a as usize)
            .is_some_and(|n| n.contains(&b))
    }

    /// The graph with some qubits and couplers removed at random (`seed`): a fraction
    /// `dead_qubits` of the qubits and `dead_couplers` of the remaining couplers.
    pub fn with_defects(&self, dead_qubits: f64, dead_couplers: f64, seed: u64) -> Self {
        let mut state = seed;
        let mut coin = |p: f64| {
            let r = crate::rng::splitmix64(&mut state);
            ((r >> 11) as f64 / (1u64 << 53) as f64) < p
        };
        let qubits: Vec<u32> = self
            .qubits
            .iter()
            .copied()
            .filter(|_| !coin(dead_qubits))
            .collect();
        let couplers: Vec<(u32, u32)> = self
            .couplers
            .iter()
            .copied()
            .filter(|_| !coin(dead_couplers))
            .collect();
        WorkingGraph::new(qubits, couplers)
    }
}

impl WorkingGraph {
    /// The graph with exactly `dead_qubits` qubits and `dead_couplers` of the remaining
    /// couplers removed, chosen at random (`seed`): a fixture matching a reported yield.
    pub fn with_dead(&self, dead_qubits: usize, dead_couplers: usize, seed: u64) -> Self {
        let mut state = seed;
        let mut pick = |len: usize, count: usize| -> BTreeSet<usize> {
            let mut chosen = BTreeSet::new();
            while chosen.len() < count.min(len) {
                chosen.insert((crate::rng::splitmix64(&mut state) % len as u64) as usize);
            }
            chosen
        };
        let dead_q = pick(self.qubits.len(), dead_qubits);
        let qubits: Vec<u32> = (0..self.qubits.len())
            .filter(|k| !dead_q.contains(k))
            .map(|k| self.qubits[k])
            .collect();
        let alive: BTreeSet<u32> = qubits.iter().copied().collect();
        let left: Vec<(u32, u32)> = self
            .couplers
            .iter()
            .copied()
            .filter(|(a, b)| alive.contains(a) && alive.contains(b))
            .collect();
        let dead_c = pick(left.len(), dead_couplers);
        let couplers = (0..left.len())
            .filter(|k| !dead_c.contains(k))
            .map(|k| left[k])
            .collect();
        WorkingGraph::new(qubits, couplers)
    }
}

/// The Pegasus graph P(m) (m ≥ 2), fabric only, with linear qubit indices.
pub fn pegasus(m: usize) -> WorkingGraph {
    assert!(m >= 2, "Pegasus needs m ≥ 2");
    let m1 = m - 1;
    let index = |u: usize, w: usize, k: usize, z: usize| pegasus_index(m, u, w, k, z);
    // The fabric: at the first and last w of each orientation, only the k that couple.
    let min_offset = |o: &[usize; 12]| *o.iter().min().expect("12 offsets");
    let max_offset = |o: &[usize; 12]| *o.iter().max().expect("12 offsets");
    let start = [
        min_offset(&HORIZONTAL_OFFSETS),
        min_offset(&VERTICAL_OFFSETS),
    ];
    let end = [
        12 - max_offset(&HORIZONTAL_OFFSETS),
        12 - max_offset(&VERTICAL_OFFSETS),
    ];
    let in_fabric =
        |u: usize, w: usize, k: usize| (w != 0 || k >= start[u]) && (w != m1 || k < 12 - end[u]);
    let mut couplers = Vec::new();
    for u in 0..2 {
        for w in 0..m {
            for k in 0..12 {
                if !in_fabric(u, w, k) {
                    continue;
                }
                for z in 0..m1 {
                    if z + 1 < m1 {
                        couplers.push((index(u, w, k, z), index(u, w, k, z + 1)));
                    }
                    if k % 2 == 0 {
                        couplers.push((index(u, w, k, z), index(u, w, k + 1, z)));
                    }
                }
            }
        }
    }
    // A vertical qubit (0, w, k, z) crosses horizontal qubit (1, z + [kk < v(k)], kk,
    // w − [k < h(kk)]) for each kk, where v and h are the offsets.
    for w in 0..m {
        for (kk, &h_offset) in HORIZONTAL_OFFSETS.iter().enumerate() {
            for (k, &v_offset) in VERTICAL_OFFSETS.iter().enumerate() {
                for z in 0..m1 {
                    let w2 = z + usize::from(kk < v_offset);
                    let Some(z2) = w.checked_sub(usize::from(k < h_offset)) else {
                        continue;
                    };
                    if w2 >= m || z2 >= m1 || !in_fabric(0, w, k) || !in_fabric(1, w2, kk) {
                        continue;
                    }
                    couplers.push((index(0, w, k, z), index(1, w2, kk, z2)));
                }
            }
        }
    }
    let qubits: BTreeSet<u32> = couplers.iter().flat_map(|&(a, b)| [a, b]).collect();
    WorkingGraph::new(qubits.into_iter().collect(), couplers)
}

/// The linear index of Zephyr Z(m, t) qubit (u, w, k, j, z): orientation u, major offset
/// w < 2m + 1, k < t, minor offset j < 2, position along the line z < m.
pub(super) fn zephyr_index(
    m: usize,
    t: usize,
    u: usize,
    w: usize,
    k: usize,
    j: usize,
    z: usize,
) -> u32 {
    ((((u * (2 * m + 1) + w) * t + k) * 2 + j) * m + z) as u32
}

/// The Zephyr graph Z(m, t) (m ≥ 1, t ≥ 1) with linear qubit indices, as dwave-networkx's
/// `zephyr_graph(m, t)` builds it (Boothby, Raymond, King 2021): the prelattice Q(2m + 1) of
/// tiles with 2t vertical and 2t horizontal nodes, pairs of external edges contracted into
/// qubits (u, w, k, j, z). Edges:
/// - external: (u, w, k, j, z) ~ (u, w, k, j, z + 1);
/// - odd: (u, w, k, 0, z) ~ (u, w, k, 1, z − a) for a ∈ {0, 1};
/// - internal: (0, 2w + 1 + a(2i − 1), k, j, z) ~ (1, 2z + 1 + b(2j − 1), h, i, w) for w, z < m,
///   h, k < t and i, j, a, b ∈ {0, 1}.
///
/// Z(m, t) has 4tm(2m + 1) qubits and 2t((8t + 8)m² − 2m − 3) couplers (m > 1).
pub fn zephyr(m: usize, t: usize) -> WorkingGraph {
    assert!(m >= 1 && t >= 1, "Zephyr needs m, t ≥ 1");
    let big = 2 * m + 1;
    let q = |u, w, k, j, z| zephyr_index(m, t, u, w, k, j, z);
    let mut couplers = Vec::new();
    for u in 0..2 {
        for w in 0..big {
            for k in 0..t {
                for j in 0..2 {
                    for z in 0..m.saturating_sub(1) {
                        couplers.push((q(u, w, k, j, z), q(u, w, k, j, z + 1)));
                    }
                }
                for a in 0..2 {
                    for z in a..m {
                        couplers.push((q(u, w, k, 0, z), q(u, w, k, 1, z - a)));
                    }
                }
            }
        }
    }
    for w in 0..m {
        for z in 0..m {
            for h in 0..t {
                for k in 0..t {
                    for i in 0..2 {
                        for j in 0..2 {
                            for a in 0..2 {
                                for b in 0..2 {
                                    // 2w + 1 + a(2i − 1) and 2z + 1 + b(2j − 1), in 0..=2m.
                                    let wv = 2 * w + 1 + a * 2 * i - a;
                                    let wh = 2 * z + 1 + b * 2 * j - b;
                                    couplers.push((q(0, wv, k, j, z), q(1, wh, h, i, w)));
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    let qubits = (0..zephyr_num_qubits(m, t) as u32).collect();
    WorkingGraph::new(qubits, couplers)
}

/// Qubits a Zephyr Z(m, t) chip numbers: 4·t·m·(2m + 1).
pub fn zephyr_num_qubits(m: usize, t: usize) -> usize {
    4 * t * m * (2 * m + 1)
}

/// Qubits a Pegasus P(m) chip numbers (fabric or not): 24·m·(m − 1).
pub fn pegasus_num_qubits(m: usize) -> usize {
    24 * m * (m - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes dwave-networkx's `pegasus_graph(m)` gives (fabric only).
    #[test]
    fn pegasus_has_the_known_sizes() {
        let p6 = pegasus(6);
        assert_eq!((p6.qubits.len(), p6.couplers.len()), (680, 4484));
        let p16 = pegasus(16);
        assert_eq!((p16.qubits.len(), p16.couplers.len()), (5640, 40484));
        // Every qubit of the bulk has degree 15; none exceeds it.
        let max = p16.adjacency.iter().map(Vec::len).max().unwrap();
        assert_eq!(max, 15);
        assert_eq!(pegasus_num_qubits(16), 5760);
    }

    /// FNV-1a of the sorted edge list written `a,b;a,b;…`, and the sizes, as dwave-networkx
    /// 1.x's `zephyr_graph(m, t)` gives them (computed with it; see tools/zephyr_reference.py).
    #[test]
    fn zephyr_is_dwave_networkx_s_graph_edge_for_edge() {
        let fnv = |g: &WorkingGraph| {
            let text = g
                .couplers
                .iter()
                .map(|(a, b)| format!("{a},{b}"))
                .collect::<Vec<_>>()
                .join(";");
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in text.bytes() {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            h
        };
        for (m, t, qubits, couplers, hash) in [
            (2, 2, 80, 356, 0x97cf_95d8_9eef_01d4_u64),
            (3, 4, 336, 2808, 0x2d11_95b9_6506_cd5a),
            (12, 4, 4800, 45864, 0x36e4_9aff_5606_e686),
        ] {
            let z = zephyr(m, t);
            assert_eq!(
                (z.qubits.len(), z.couplers.len()),
                (qubits, couplers),
                "Z({m}, {t})"
            );
            assert_eq!(fnv(&z), hash, "Z({m}, {t}) edge set");
            assert_eq!(zephyr_num_qubits(m, t), qubits);
        }
        // Inside an Advantage2-sized graph a qubit has 4t + 4 = 20 neighbours.
        let max = zephyr(12, 4).adjacency.iter().map(Vec::len).max().unwrap();
        assert_eq!(max, 20);
    }

    #[test]
    fn defects_remove_qubits_and_their_couplers() {
        let p = pegasus(4);
        let d = p.with_defects(0.02, 0.01, 9);
        assert!(d.qubits.len() < p.qubits.len());
        assert!(d.couplers.len() < p.couplers.len());
        for &(a, b) in &d.couplers {
            assert!(d.qubits.binary_search(&a).is_ok() && d.qubits.binary_search(&b).is_ok());
            assert!(p.coupled(a, b));
        }
    }
}
