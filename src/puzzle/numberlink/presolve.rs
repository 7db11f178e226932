//! Presolve: deductions every valid answer obeys, propagated to a fixed point, then used to fix
//! QUBO variables (`Encoding::fix`). Per cell, the set of pairs whose path may cover it (an
//! endpoint: its own); per grid edge, on, off or open. Rules, each sound for every solution (no
//! uniqueness assumed):
//! - an edge whose two cells share no possible pair is off;
//! - a cell needs one edge (endpoint) or two (others; under no-fill, zero or two): with exactly
//!   that many edges left, all are on; with that many on, the rest are off (no-fill: a cell
//!   with fewer than two edges left is empty);
//! - the two cells of an on edge are on the same path: their pair sets intersect;
//! - a cell can be on pair k's path only if both of k's endpoints reach it through open edges
//!   and cells that may be k's (not through other endpoints);
//! - fill rule (no path alongside itself): two side-by-side cells surely on one path are joined,
//!   and across an off edge a cell surely on k's path bars k from its neighbour;
//! - no loops: an open edge between two cells already joined by on edges is off;
//! - probing by cases: an edge on or off, a cell on each of its possible pairs; what every
//!   case that does not contradict itself agrees on holds.
//!
//! Invariant: every valid answer satisfies every fixed value, so the presolved model keeps all
//! of them with their energies. A contradiction (the instance has no answer) fixes nothing.

use super::{Numberlink, Rule};

/// Largest cells × pairs the presolve takes on (its sets are dense).
const MAX_CELL_PAIRS: usize = 4 << 20;
/// Propagation passes at most (each pass is linear in cells × pairs).
const MAX_PASSES: usize = 1000;
/// Probes (assumptions propagated) at most.
const MAX_PROBES: usize = 20_000;
/// Cells × pairs over all probes at most (about a second of propagation).
const MAX_PROBE_WORK: usize = 50_000_000;

/// Propagations within nested cases at most.
const MAX_PROBES_IN_CASES: usize = 100_000;
/// Cells × pairs over the nested cases' propagations at most (about a second).
const MAX_CASE_WORK: usize = 10_000_000;

/// An edge's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeState {
    /// Not decided.
    Open,
    /// On in every answer.
    On,
    /// Off in every answer.
    Off,
}

/// What presolve decided.
#[derive(Clone, Debug)]
pub struct Deductions {
    /// Per cell, per pair k (index k − 1): whether k's path may cover the cell.
    pub may: Vec<Vec<bool>>,
    /// Per cell: its right edge and its lower edge.
    pub right: Vec<EdgeState>,
    /// Per cell: its lower edge.
    pub down: Vec<EdgeState>,
}

impl Deductions {
    /// The edge between adjacent cells a < b.
    pub fn edge(&self, p: &Numberlink, a: usize, b: usize) -> EdgeState {
        if b == a + 1 {
            self.right[a]
        } else {
            debug_assert_eq!(b, a + p.width());
            self.down[a]
        }
    }

    fn set(&mut self, p: &Numberlink, a: usize, b: usize, s: EdgeState) {
        let (a, b) = (a.min(b), a.max(b));
        if b == a + 1 {
            self.right[a] = s;
        } else {
            self.down[a] = s;
        }
        let _ = p;
    }

    /// Cells and edges decided, for reports: (edges decided, edges in all).
    pub fn decided_edges(&self, p: &Numberlink) -> (usize, usize) {
        let w = p.width();
        let n = self.right.len();
        let mut all = 0;
        let mut done = 0;
        for i in 0..n {
            for (exists, s) in [(i % w + 1 < w, self.right[i]), (i + w < n, self.down[i])] {
                if exists {
                    all += 1;
                    done += usize::from(s != EdgeState::Open);
                }
            }
        }
        (done, all)
    }
}

/// The deductions, or `None` when the instance is too large for them or has no answer.
pub fn deduce(p: &Numberlink) -> Option<Deductions> {
    deduce_to_depth(p, 2)
}

/// The deductions with case splits nested up to `depth` (0: rules only, 1: probing, 2: cases
/// within cases).
pub fn deduce_to_depth(p: &Numberlink, depth: u32) -> Option<Deductions> {
    let (n, k_all) = (p.width() * p.height(), p.num_pairs());
    if n * k_all.max(1) > MAX_CELL_PAIRS {
        return None;
    }
    let mut d = Deductions {
        may: (0..n)
            .map(|i| match p.endpoints()[i] {
                0 => vec![true; k_all],
                k => (1..=k_all).map(|j| j == k as usize).collect(),
            })
            .collect(),
        right: vec![EdgeState::Open; n],
        down: vec![EdgeState::Open; n],
    };
    if !propagate(p, &mut d) {
        return None;
    }
    // Probes cost a propagation each (a few passes over cells × pairs): bound the total work.
    let mut budget = MAX_PROBES.min(MAX_PROBE_WORK / (n * k_all.max(1)) as u64 as usize);
    if depth == 0 {
        return Some(d);
    }
    if !probe(p, &mut d, &mut budget, 1) {
        return None;
    }
    if depth == 1 {
        return Some(d);
    }
    // Cases within cases: each outer case runs a probing round of its own. Much stronger
    // (it decides every Janko puzzle up to 10×10, where single probing leaves up to 1236
    // variables) and much dearer, hence a budget of its own.
    let mut budget = MAX_PROBES_IN_CASES.min(MAX_CASE_WORK / (n * k_all.max(1)));
    probe(p, &mut d, &mut budget, 2).then_some(d)
}

/// The rules to a fixed point; `false` on a contradiction.
fn propagate(p: &Numberlink, d: &mut Deductions) -> bool {
    // The local rules are cheap; reach (two searches per pair) is most of the cost, so it runs
    // only once they are at a fixed point.
    for _ in 0..MAX_PASSES {
        let before = (d.right.clone(), d.down.clone(), d.may.clone());
        if !local_rules(p, d) {
            return false;
        }
        if (&d.right, &d.down, &d.may) != (&before.0, &before.1, &before.2) {
            continue;
        }
        if !reach_rule(p, d) {
            return false;
        }
        if d.may == before.2 {
            return true;
        }
    }
    true
}

/// Probing by cases: an open edge is on or off, a cell is on one of its possible pairs. Each
/// case is assumed and propagated; what holds in every case that does not contradict itself
/// holds (an edge state all surviving cases agree on, a pair no surviving case allows for a
/// cell). Sound: every answer falls in one of the cases. With one surviving case this is
/// failed-literal probing; with several it still finds what they share. Returns `false` on a
/// contradiction; stops when `budget` propagations are spent.
fn probe(p: &Numberlink, d: &mut Deductions, budget: &mut usize, depth: u32) -> bool {
    let n = p.width() * p.height();
    loop {
        let mut changed = false;
        for a in 0..n {
            for b in p.neighbours(a).filter(|&b| b > a) {
                if d.edge(p, a, b) != EdgeState::Open || *budget < 2 {
                    continue;
                }
                *budget -= 2;
                let cases = [EdgeState::On, EdgeState::Off].map(|assume| {
                    let mut t = d.clone();
                    t.set(p, a, b, assume);
                    assume_case(p, t, budget, depth)
                });
                match settle(p, d, cases) {
                    Some(true) => changed = true,
                    Some(false) => {}
                    None => return false,
                }
            }
        }
        for c in (0..n).filter(|&c| p.endpoints()[c] == 0) {
            let pairs: Vec<usize> = (0..p.num_pairs()).filter(|&k| d.may[c][k]).collect();
            if pairs.len() < 2 || *budget < pairs.len() {
                continue;
            }
            *budget -= pairs.len();
            let cases: Vec<Option<Deductions>> = pairs
                .iter()
                .map(|&k| {
                    let mut t = d.clone();
                    t.may[c] = (0..p.num_pairs()).map(|j| j == k).collect();
                    assume_case(p, t, budget, depth)
                })
                .collect();
            match settle(p, d, cases) {
                Some(true) => changed = true,
                Some(false) => {}
                None => return false,
            }
        }
        if !changed || *budget == 0 {
            return true;
        }
    }
}

/// A case's deductions: propagated, and below the top depth probed in turn; `None` when the
/// case contradicts itself.
fn assume_case(
    p: &Numberlink,
    mut t: Deductions,
    budget: &mut usize,
    depth: u32,
) -> Option<Deductions> {
    if !propagate(p, &mut t) {
        return None;
    }
    if depth > 1 && !probe(p, &mut t, budget, depth - 1) {
        return None;
    }
    Some(t)
}

/// Folds the outcomes of a case split into `d`: keeps what every surviving case shares, then
/// propagates. `Some(changed)`, or `None` when no case survives or the result contradicts.
fn settle(
    p: &Numberlink,
    d: &mut Deductions,
    cases: impl IntoIterator<Item = Option<Deductions>>,
) -> Option<bool> {
    let mut shared: Option<Deductions> = None;
    for t in cases.into_iter().flatten() {
        shared = Some(match shared {
            None => t,
            Some(mut s) => {
                for (m, tm) in s.may.iter_mut().zip(&t.may) {
                    m.iter_mut().zip(tm).for_each(|(x, y)| *x |= *y);
                }
                for (e, te) in s.right.iter_mut().zip(&t.right) {
                    if e != te {
                        *e = EdgeState::Open;
                    }
                }
                for (e, te) in s.down.iter_mut().zip(&t.down) {
                    if e != te {
                        *e = EdgeState::Open;
                    }
                }
                s
            }
        });
    }
    let shared = shared?;
    if (&shared.right, &shared.down, &shared.may) == (&d.right, &d.down, &d.may) {
        return Some(false);
    }
    *d = shared;
    propagate(p, d).then_some(true)
}

/// One round of the local rules (all but reach); `false` on a contradiction.
fn local_rules(p: &Numberlink, d: &mut Deductions) -> bool {
    let n = p.width() * p.height();
    let share =
        |d: &Deductions, a: usize, b: usize| d.may[a].iter().zip(&d.may[b]).any(|(x, y)| *x && *y);
    // Edges between cells with no pair in common are off.
    for a in 0..n {
        for b in p.neighbours(a).filter(|&b| b > a) {
            if !share(d, a, b) {
                if d.edge(p, a, b) == EdgeState::On {
                    return false;
                }
                d.set(p, a, b, EdgeState::Off);
            }
        }
    }
    // Degrees.
    for c in 0..n {
        let edges: Vec<(usize, EdgeState)> = p
            .neighbours(c)
            .map(|j| (j, d.edge(p, c.min(j), c.max(j))))
            .collect();
        let on = edges.iter().filter(|e| e.1 == EdgeState::On).count();
        let open = edges.iter().filter(|e| e.1 == EdgeState::Open).count();
        let endpoint = p.endpoints()[c] != 0;
        let need = if endpoint {
            1
        } else if p.rule() == Rule::Fill || on > 0 {
            2
        } else if on + open < 2 {
            0
        } else {
            continue;
        };
        if on > need || on + open < need {
            return false;
        }
        if on + open == need {
            for &(j, _) in edges.iter().filter(|e| e.1 == EdgeState::Open) {
                d.set(p, c, j, EdgeState::On);
            }
        } else if on == need {
            for &(j, _) in edges.iter().filter(|e| e.1 == EdgeState::Open) {
                d.set(p, c, j, EdgeState::Off);
            }
        }
        if need == 0 {
            d.may[c].iter_mut().for_each(|m| *m = false);
        }
    }
    // On edges join cells of one path.
    for a in 0..n {
        for b in p.neighbours(a).filter(|&b| b > a) {
            if d.edge(p, a, b) == EdgeState::On {
                let both: Vec<bool> = d.may[a]
                    .iter()
                    .zip(&d.may[b])
                    .map(|(x, y)| *x && *y)
                    .collect();
                if !both.iter().any(|&x| x) {
                    return false;
                }
                d.may[a] = both.clone();
                d.may[b] = both;
            }
        }
    }
    // Fill rule, no path alongside itself: two side-by-side cells surely on one path are
    // joined; across an edge that is off, a cell surely on k's path bars k from its neighbour.
    if p.rule() == Rule::Fill {
        let single = |m: &[bool]| {
            let mut on = m.iter().enumerate().filter(|e| *e.1);
            match (on.next(), on.next()) {
                (Some((k, _)), None) => Some(k),
                _ => None,
            }
        };
        for a in 0..n {
            for b in p.neighbours(a).filter(|&b| b > a) {
                let (ka, kb) = (single(&d.may[a]), single(&d.may[b]));
                match d.edge(p, a, b) {
                    EdgeState::Off => {
                        if ka.is_some() && ka == kb {
                            return false;
                        }
                        if let Some(k) = ka {
                            d.may[b][k] = false;
                        }
                        if let Some(k) = kb {
                            d.may[a][k] = false;
                        }
                    }
                    EdgeState::Open if ka.is_some() && ka == kb => d.set(p, a, b, EdgeState::On),
                    _ => {}
                }
            }
        }
    }
    // No loops: an open edge between two cells already joined by on edges would close a cycle.
    let component = on_components(p, d);
    for a in 0..n {
        for b in p.neighbours(a).filter(|&b| b > a) {
            if d.edge(p, a, b) == EdgeState::Open && component[a] == component[b] {
                d.set(p, a, b, EdgeState::Off);
            }
        }
    }
    // Under fill, every cell is on some path.
    p.rule() == Rule::NoFill || d.may.iter().all(|m| m.iter().any(|&x| x))
}

/// Reach: both ends of k must reach a cell for k to cover it; `false` on a contradiction.
fn reach_rule(p: &Numberlink, d: &mut Deductions) -> bool {
    let n = p.width() * p.height();
    for k in 1..=p.num_pairs() as u16 {
        let [a, b] = p.ends(k);
        let from_a = reach(p, d, k, a);
        let from_b = reach(p, d, k, b);
        if !from_a[b] {
            return false;
        }
        for c in 0..n {
            if p.endpoints()[c] == 0 && !(from_a[c] && from_b[c]) {
                d.may[c][k as usize - 1] = false;
            }
        }
    }
    // Under fill, every cell is on some path.
    p.rule() == Rule::NoFill || d.may.iter().all(|m| m.iter().any(|&x| x))
}

/// Per cell, a representative of its component under the on edges (union-find, path halving).
fn on_components(p: &Numberlink, d: &Deductions) -> Vec<usize> {
    let n = p.width() * p.height();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for a in 0..n {
        for b in p.neighbours(a).filter(|&b| b > a) {
            if d.edge(p, a, b) == EdgeState::On {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[ra] = rb;
            }
        }
    }
    (0..n).map(|i| root(&mut parent, i)).collect()
}

/// Cells pair k's path can reach from its endpoint `start` through open or on edges and cells
/// that may be k's (other endpoints are not passed through).
fn reach(p: &Numberlink, d: &Deductions, k: u16, start: usize) -> Vec<bool> {
    let n = p.width() * p.height();
    let mut seen = vec![false; n];
    seen[start] = true;
    let mut stack = vec![start];
    while let Some(c) = stack.pop() {
        if c != start && p.endpoints()[c] != 0 {
            continue;
        }
        for j in p.neighbours(c) {
            if !seen[j]
                && d.may[j][k as usize - 1]
                && d.edge(p, c.min(j), c.max(j)) != EdgeState::Off
            {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::super::solve::search;
    use super::*;

    #[test]
    fn deductions_hold_in_the_solution() {
        let text =
            "8 8\nA.......\n..BC...D\n........\nA...E...\n.....C..\nDF..B...\n..E.....\nFG.....G\n";
        let p = parse(text, "generated").unwrap().remove(0);
        let d = deduce(&p).unwrap();
        let s = &search(&p, 1, 1_000_000).solutions[0];
        let labels = s.cell_labels(&p);
        let w = p.width();
        for (i, &label) in labels.iter().enumerate() {
            assert!(d.may[i][label as usize - 1], "cell {i}");
            for (j, on) in [(i + 1, s.right[i]), (i + w, s.down[i])] {
                if j < w * p.height() && (j != i + 1 || i % w + 1 < w) {
                    match d.edge(&p, i, j) {
                        EdgeState::On => assert_ne!(on, 0, "{i}-{j}"),
                        EdgeState::Off => assert_eq!(on, 0, "{i}-{j}"),
                        EdgeState::Open => {}
                    }
                }
            }
        }
        let (done, all) = d.decided_edges(&p);
        assert!(done > 0 && done <= all);
    }

    #[test]
    fn cases_within_cases_decide_what_probing_leaves_open() {
        // Long paths, few pairs: one level of cases decides 13 of 112 edges, two decide all,
        // and what they decide is the one answer.
        let p = super::super::generate::generate(8, 8, 3, 26).unwrap();
        let (one, all) = deduce_to_depth(&p, 1).unwrap().decided_edges(&p);
        assert!(one < all, "{one} of {all}");
        let d = deduce_to_depth(&p, 2).unwrap();
        assert_eq!(d.decided_edges(&p), (all, all));
        let s = &search(&p, 2, 10_000_000).solutions;
        assert_eq!(s.len(), 1);
        let w = p.width();
        for i in 0..w * p.height() {
            if i % w + 1 < w {
                assert_eq!(
                    d.right[i] == EdgeState::On,
                    s[0].right[i] != 0,
                    "right of {i}"
                );
            }
            if i + w < w * p.height() {
                assert_eq!(d.down[i] == EdgeState::On, s[0].down[i] != 0, "below {i}");
            }
        }
    }

    #[test]
    fn an_open_edge_that_closes_a_loop_is_off() {
        // Three on edges of a 2×2 block (cells 0, 1, 4, 5 of a 4-wide grid): the fourth
        // would close a loop.
        let p = parse("4 4\n...A\n....\n...B\nA..B\n", "block")
            .unwrap()
            .remove(0);
        let mut d = Deductions {
            may: vec![vec![true; 2]; 16],
            right: vec![EdgeState::Open; 16],
            down: vec![EdgeState::Open; 16],
        };
        d.right[0] = EdgeState::On;
        d.down[0] = EdgeState::On;
        d.down[1] = EdgeState::On;
        let _ = local_rules(&p, &mut d);
        assert_eq!(d.right[4], EdgeState::Off);
    }

    #[test]
    fn an_unsolvable_instance_gives_no_deductions() {
        let cross = parse("3 3\n.A.\nB.B\n.A.\n", "cross").unwrap().remove(0);
        assert!(deduce(&cross).is_none());
    }
}
