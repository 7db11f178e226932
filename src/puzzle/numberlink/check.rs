//! The referee: a candidate is a set of labelled edges between adjacent cells (the seed's
//! variables). It is valid when every pair's edges form one path between its endpoints, no cell
//! has edges of two pairs, endpoints have exactly one edge, and other cells two (fill rule) or
//! zero or two (no-fill rule), and, under the fill rule, no path runs alongside itself. It never
//! reads the QUBO.

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

/// The isolated cycles of `s`: per layer k, every connected set of k's edges away from k's
/// endpoints in which each cell has exactly two of them, as (k, its cells in order round the
/// loop).
pub fn cycles(p: &Numberlink, s: &NumberlinkSolution) -> Vec<(u16, Vec<usize>)> {
    let n = p.width() * p.height();
    if s.right.len() != n || s.down.len() != n {
        return Vec::new();
    }
    let mut seen = vec![false; n];
    let mut out = Vec::new();
    for start in 0..n {
        if seen[start] || p.endpoints()[start] != 0 {
            continue;
        }
        let edges = s.edges_at(p, start);
        let Some(&(_, k)) = edges.first() else {
            continue;
        };
        let own = |i: usize| -> Vec<usize> {
            s.edges_at(p, i)
                .into_iter()
                .filter(|e| e.1 == k)
                .map(|e| e.0)
                .collect()
        };
        // Walk round from `start`; a cycle closes back on it with every cell of degree two.
        let mut cells = vec![start];
        let (mut prev, mut at) = (usize::MAX, start);
        let closed = loop {
            let next = own(at);
            if next.len() != 2 || p.endpoints()[at] != 0 {
                break false;
            }
            let step = if next[0] != prev { next[0] } else { next[1] };
            if step == start {
                break true;
            }
            if cells.len() > n {
                break false;
            }
            prev = at;
            at = step;
            cells.push(at);
        };
        for &c in &cells {
            seen[c] = true;
        }
        if closed {
            out.push((k, cells));
        }
    }
    out
}

/// What an empty cell of a fill-rule instance is told.
const EMPTY: &str = "empty, but every cell must be on a path";
/// What the loose end of a path is told.
const LOOSE_END: &str = "a path ends here, away from its endpoints";
/// What a pair whose path does not arrive is told.
const NOT_JOINED: &str = "path does not reach its other endpoint";
/// What an endpoint with nothing drawn at it is told.
const NOTHING_AT_END: &str = "has 0 path edge(s) of its own";

/// Whether `v` (from `check`) is work not done yet — an empty cell, a path still being drawn,
/// an endpoint with nothing at it — rather than a conflict (paths that meet, a branch, a loop,
/// a path alongside itself). Editors count these calmly; they are still not a solution.
pub fn is_unfinished(v: &Violation) -> bool {
    [EMPTY, LOOSE_END, NOT_JOINED, NOTHING_AT_END]
        .iter()
        .any(|t| v.detail.contains(t))
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
                    0 => format!("{}: {EMPTY}", p.place(i)),
                    1 => format!("{}: {LOOSE_END}", p.place(i)),
                    _ => format!("{}: {d} path edges (a branch)", p.place(i)),
                },
            });
        }
    }
    if p.rule() == Rule::Fill {
        // A path must not run alongside itself: side-by-side cells of one path are joined.
        let labels = s.cell_labels(p);
        let w = p.width();
        for i in 0..n {
            for (j, joined) in [(i + 1, s.right[i]), (i + w, s.down[i])] {
                let beside = j < n && (j == i + w || i % w + 1 < w);
                if beside && labels[i] != 0 && labels[i] == labels[j] && joined != labels[i] {
                    out.push(Violation {
                        constraint: format!("touch[{}][{}]", i / w, i % w),
                        detail: format!(
                            "{} and {}: {}'s path runs alongside itself (the fill rule forbids it)",
                            p.place(i),
                            p.place(j),
                            p.name(labels[i])
                        ),
                    });
                }
            }
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
                detail: format!("{}'s {NOT_JOINED}", p.name(k)),
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

#[cfg(test)]
mod unfinished_tests {
    use super::*;

    /// "1 . 1 / 2 . 2": nothing drawn is unfinished; pair 2 drawn through pair 1's row is a
    /// conflict (the paths meet), never unfinished.
    #[test]
    fn unfinished_work_is_told_from_conflicts() {
        let cells: Vec<Option<String>> = ["1", "", "1", "2", "", "2"]
            .iter()
            .map(|c| (!c.is_empty()).then(|| c.to_string()))
            .collect();
        let p = Numberlink::new(3, 2, &cells, Rule::Fill).unwrap();
        let empty = NumberlinkSolution::empty(6);
        let v = check(&p, &empty);
        assert!(!v.is_empty() && v.iter().all(is_unfinished), "{v:?}");
        // Pair 1 along the top, pair 2 up into the top row's middle: paths meet there.
        let mut meet = NumberlinkSolution::empty(6);
        meet.right[0] = 1;
        meet.right[1] = 1;
        meet.down[1] = 2;
        meet.right[3] = 2;
        let v = check(&p, &meet);
        assert!(
            v.iter()
                .any(|v| v.detail.contains("meet") && !is_unfinished(v)),
            "{v:?}"
        );
    }
}
