//! The referee: a candidate is a set of labelled edges between adjacent cells (the seed's
//! variables). It is valid when every pair's edges form one path between its endpoints, no cell
//! has edges of two pairs, endpoints have exactly one edge, and other cells two (fill rule) or
//! zero or two (no-fill rule). It never reads the QUBO.

use super::{Numberlink, Rule};
use crate::puzzle::Violation;

/// A candidate: the pair each edge belongs to (0: no edge). `right[i]` joins cell i to i + 1,
/// `down[i]` joins i to i + width; the last column's `right` and the last row's `down` are 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumberlinkSolution {
    /// Horizontal edges, per cell.
    pub right: Vec<u16>,
    /// Vertical edges, per cell.
    pub down: Vec<u16>,
}

impl NumberlinkSolution {
    /// No edges on a grid of `n` cells.
    pub fn empty(n: usize) -> Self {
        NumberlinkSolution {
            right: vec![0; n],
            down: vec![0; n],
        }
    }

    /// The labelled edges at cell i: (neighbour, pair).
    pub fn edges_at(&self, p: &Numberlink, i: usize) -> Vec<(usize, u16)> {
        let w = p.width();
        let mut out = Vec::with_capacity(4);
        if i % w + 1 < w && self.right[i] != 0 {
            out.push((i + 1, self.right[i]));
        }
        if !i.is_multiple_of(w) && self.right[i - 1] != 0 {
            out.push((i - 1, self.right[i - 1]));
        }
        if i + w < self.down.len() && self.down[i] != 0 {
            out.push((i + w, self.down[i]));
        }
        if i >= w && self.down[i - w] != 0 {
            out.push((i - w, self.down[i - w]));
        }
        out
    }

    /// Sets the edge between adjacent cells a and b to `pair`.
    pub fn set(&mut self, p: &Numberlink, a: usize, b: usize, pair: u16) {
        let (lo, hi) = (a.min(b), a.max(b));
        if hi == lo + 1 && lo / p.width() == hi / p.width() {
            self.right[lo] = pair;
        } else if hi == lo + p.width() {
            self.down[lo] = pair;
        }
    }

    /// Per cell, the pair whose path covers it (0: none; the first edge's pair where several
    /// meet).
    pub fn cell_labels(&self, p: &Numberlink) -> Vec<u16> {
        (0..self.right.len())
            .map(|i| match p.endpoints()[i] {
                0 => self.edges_at(p, i).first().map_or(0, |e| e.1),
                k => k,
            })
            .collect()
    }
}

/// Every rule `s` breaks.
pub fn check(p: &Numberlink, s: &NumberlinkSolution) -> Vec<Violation> {
    let n = p.width() * p.height();
    if s.right.len() != n || s.down.len() != n {
        return vec![Violation {
            constraint: "shape".into(),
            detail: format!(
                "the candidate is not for a {}×{} grid",
                p.width(),
                p.height()
            ),
        }];
    }
    let mut out = Vec::new();
    let cell = |i: usize| format!("cell[{}][{}]", i / p.width(), i % p.width());
    for i in 0..n {
        let edges = s.edges_at(p, i);
        let end = p.endpoints()[i];
        if let Some(&(_, other)) = edges.iter().find(|e| e.1 != edges[0].1) {
            out.push(Violation {
                constraint: cell(i),
                detail: format!(
                    "{}: the paths of {} and {} meet",
                    p.place(i),
                    p.name(edges[0].1),
                    p.name(other)
                ),
            });
            continue;
        }
        let d = edges.len();
        if end != 0 {
            if d != 1 || edges[0].1 != end {
                out.push(Violation {
                    constraint: cell(i),
                    detail: format!(
                        "{}: endpoint {} has {d} path edge(s) of its own; it needs exactly one",
                        p.place(i),
                        p.name(end)
                    ),
                });
            }
        } else if d == 1 || d > 2 || (d == 0 && p.rule() == Rule::Fill) {
            out.push(Violation {
                constraint: cell(i),
                detail: match d {
                    0 => format!("{}: empty, but every cell must be on a path", p.place(i)),
                    1 => format!("{}: a path ends here, away from its endpoints", p.place(i)),
                    _ => format!("{}: {d} path edges (a branch)", p.place(i)),
                },
            });
        }
    }
    for k in 1..=p.num_pairs() as u16 {
        let [a, b] = p.ends(k);
        // Walk from a along k's edges.
        let (mut prev, mut at, mut walked) = (usize::MAX, a, 0usize);
        loop {
            let next = s
                .edges_at(p, at)
                .into_iter()
                .find(|&(j, lab)| lab == k && j != prev);
            match next {
                Some((j, _)) if walked <= n => {
                    walked += 1;
                    prev = at;
                    at = j;
                    if at == b {
                        break;
                    }
                }
                _ => break,
            }
        }
        let total = s.right.iter().chain(&s.down).filter(|&&l| l == k).count();
        if at != b {
            out.push(Violation {
                constraint: format!("pair[{k}]"),
                detail: format!("{}'s path does not reach its other endpoint", p.name(k)),
            });
        } else if total != walked {
            out.push(Violation {
                constraint: format!("pair[{k}]"),
                detail: format!(
                    "{} has {} edge(s) off its path (a loop or a stray piece)",
                    p.name(k),
                    total - walked
                ),
            });
        }
    }
    out
}
