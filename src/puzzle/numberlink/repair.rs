//! The repair step, per rule:
//! - **no-fill**: the one defect both formulations leave at their ground energy there is an
//!   isolated cycle, and its cells may simply stay empty, so removing it keeps every other
//!   cell's degree and leaves a valid answer.
//! - **fill**: a cycle's cells must be covered, and splicing a cycle into a path always makes
//!   that path run alongside itself, so nothing local is that cheap. Instead the read's defects
//!   (cells where the rules break, and cycles) are re-solved exactly in a window: the window's
//!   cells are freed, everything else is kept as the read has it, and the SAT encoding looks
//!   for a valid answer that agrees with the kept part (`sat::WindowSolver`) — an exact
//!   large-neighbourhood step, the idea of the edge-matching window re-solves (Salassa et al.)
//!   and of routing's rip-up and re-route. Windows are tried smallest first: rings of growing
//!   width round the defects, and the pairs met at the defects ripped up whole. None may free
//!   more than `MAX_FREE_SHARE` of the board: past that it would be the reference solving the
//!   puzzle, not a repair of the read, so the step gives up.
//!
//! The repaired answer is reported as repaired, with the window's size, never as a sample
//! (`Outcome` counts samples as they are).

use super::check::{NumberlinkSolution, cycles};
use super::sat::{Window, WindowSolver};
use super::{Numberlink, Rule};
use crate::puzzle::Repaired;

/// The widest ring round the defects, in cells (Manhattan distance).
const MAX_RING: usize = 8;
/// The largest share of the board a window may free.
const MAX_FREE_SHARE: f64 = 0.5;
/// Seconds each window's search may take, and the whole step.
const WINDOW_SECONDS: f32 = 1.0;
const REPAIR_SECONDS: f32 = 3.0;

/// `s` repaired (see the module header); `None` when it needs no repair or the step finds none.
pub fn repair(p: &Numberlink, s: &NumberlinkSolution) -> Option<Repaired<NumberlinkSolution>> {
    match p.rule() {
        Rule::NoFill => without_cycles(p, s),
        Rule::Fill => resolve_defects(p, s),
    }
}

/// `s` without its isolated cycles; `None` when it has none.
fn without_cycles(p: &Numberlink, s: &NumberlinkSolution) -> Option<Repaired<NumberlinkSolution>> {
    let found = cycles(p, s);
    if found.is_empty() {
        return None;
    }
    let mut s = s.clone();
    for (_, ring) in &found {
        for i in 0..ring.len() {
            s.set(p, ring[i], ring[(i + 1) % ring.len()], 0);
        }
    }
    Some(Repaired {
        solution: s,
        how: format!("removed {} isolated cycle(s)", found.len()),
    })
}

/// The cells where `s` breaks a fill-rule constraint: a cell whose edges are of two pairs, an
/// endpoint without exactly one edge of its own, another cell without exactly two, both cells
/// of a path alongside itself, and every cell of an isolated cycle. (A pair that is not joined
/// shows as a loose end or a wrong endpoint, so it is among these.)
pub(super) fn defect_cells(p: &Numberlink, s: &NumberlinkSolution) -> Vec<bool> {
    let (w, n) = (p.width(), p.width() * p.height());
    let mut defect = vec![false; n];
    let labels = s.cell_labels(p);
    for i in 0..n {
        let edges = s.edges_at(p, i);
        let mixed = edges.iter().any(|e| e.1 != edges[0].1);
        let bad_degree = match p.endpoints()[i] {
            0 => edges.len() != 2,
            k => edges.len() != 1 || edges[0].1 != k,
        };
        defect[i] |= mixed || bad_degree;
        for (j, joined) in [(i + 1, s.right[i]), (i + w, s.down[i])] {
            let beside = j < n && (j == i + w || i % w + 1 < w);
            if beside && labels[i] != 0 && labels[i] == labels[j] && joined != labels[i] {
                defect[i] = true;
                defect[j] = true;
            }
        }
    }
    for (_, ring) in cycles(p, s) {
        for i in ring {
            defect[i] = true;
        }
    }
    defect
}

/// The cells within Manhattan distance `ring` of a `seed` cell.
fn ringed(p: &Numberlink, seed: &[bool], ring: usize) -> Vec<bool> {
    let mut out = seed.to_vec();
    let mut frontier: Vec<usize> = (0..seed.len()).filter(|&i| seed[i]).collect();
    for _ in 0..ring {
        let mut next = Vec::new();
        for i in frontier {
            for j in p.neighbours(i) {
                if !out[j] {
                    out[j] = true;
                    next.push(j);
                }
            }
        }
        frontier = next;
    }
    out
}

/// The defects and every cell of the pairs met at them (a pair whose edge, endpoint or label
/// is at a defect cell), as `s` has them: those paths ripped up whole, to be routed again.
fn ripped_up(p: &Numberlink, s: &NumberlinkSolution, defect: &[bool]) -> Vec<bool> {
    let labels = s.cell_labels(p);
    let mut pairs = vec![false; p.num_pairs() + 1];
    for i in (0..defect.len()).filter(|&i| defect[i]) {
        pairs[labels[i] as usize] = true;
        pairs[p.endpoints()[i] as usize] = true;
        for (_, k) in s.edges_at(p, i) {
            pairs[k as usize] = true;
        }
    }
    pairs[0] = false;
    (0..defect.len())
        .map(|i| defect[i] || pairs[labels[i] as usize])
        .collect()
}

/// The windows the step tries, smallest first and each once: rings of growing width round
/// the defects, and the defects' pairs ripped up (with rings round them too).
fn windows(p: &Numberlink, s: &NumberlinkSolution, defect: &[bool]) -> Vec<Vec<bool>> {
    let n = defect.len();
    let rip = ripped_up(p, s, defect);
    let mut out: Vec<Vec<bool>> = Vec::new();
    for ring in 1..=MAX_RING {
        out.push(ringed(p, defect, ring));
        out.push(ringed(p, &rip, ring - 1));
    }
    let size = |w: &Vec<bool>| w.iter().filter(|&&f| f).count();
    out.retain(|w| size(w) as f64 <= MAX_FREE_SHARE * n as f64);
    out.sort_by_key(size);
    out.dedup();
    out
}

/// The fill rule's window re-solve (module header).
fn resolve_defects(p: &Numberlink, s: &NumberlinkSolution) -> Option<Repaired<NumberlinkSolution>> {
    let defect = defect_cells(p, s);
    let defects = defect.iter().filter(|&&d| d).count();
    if defects == 0 {
        return None;
    }
    let n = defect.len();
    let started = std::time::Instant::now();
    let mut solver = WindowSolver::new(p, WINDOW_SECONDS);
    for free in windows(p, s, &defect) {
        if started.elapsed().as_secs_f32() > REPAIR_SECONDS {
            return None;
        }
        let freed = free.iter().filter(|&&f| f).count();
        let result = solver.resolve(s, &free);
        match result {
            Window::Solved(solution) => {
                return Some(Repaired {
                    solution,
                    how: format!(
                        "re-solved {freed} of {n} cells exactly (SAT) round the read's {defects} \
                         defective cell(s); the rest kept as read"
                    ),
                });
            }
            Window::Impossible => continue,
            Window::GaveUp => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::super::parse;
    use super::super::tests::shipped_7x7;
    use super::*;

    #[test]
    fn under_no_fill_a_cycle_is_removed() {
        let text = "4 4\nA..A\n....\n....\n....\n";
        let p = parse(&format!("rule no-fill\n{text}"), "t")
            .unwrap()
            .remove(0);
        let mut s = NumberlinkSolution::empty(16);
        for (x, y) in [(0, 1), (1, 2), (2, 3)] {
            s.set(&p, x, y, 1);
        }
        for (x, y) in [(9, 10), (10, 14), (14, 13), (13, 9)] {
            s.set(&p, x, y, 1);
        }
        assert!(!check(&p, &s).is_empty());
        let fixed = repair(&p, &s).unwrap();
        assert!(check(&p, &fixed.solution).is_empty());
        assert!(
            repair(&p, &fixed.solution).is_none(),
            "nothing left to repair"
        );
    }

    #[test]
    fn under_fill_a_damaged_answer_is_re_solved_in_a_window_round_its_defects() {
        let (p, answer) = shipped_7x7();
        assert!(
            repair(&p, &answer).is_none(),
            "a valid answer needs no repair"
        );
        let n = p.width() * p.height();
        let mut repaired = 0;
        // Damage: drop or relabel the edges at one cell, for every cell in turn.
        for i in 0..n {
            let mut damaged = answer.clone();
            for (j, _) in answer.edges_at(&p, i) {
                damaged.set(&p, i, j, if i % 2 == 0 { 0 } else { 1 + (i as u16 % 6) });
            }
            if check(&p, &damaged).is_empty() {
                continue;
            }
            let defect = defect_cells(&p, &damaged);
            assert!(
                defect[i] || defect.iter().any(|&d| d),
                "cell {i}: defects found"
            );
            let Some(fixed) = repair(&p, &damaged) else {
                continue;
            };
            assert_eq!(check(&p, &fixed.solution), Vec::new(), "cell {i}");
            // The puzzle has one answer, so that is what comes back.
            assert_eq!(fixed.solution, answer, "cell {i}");
            assert!(fixed.how.contains("re-solved"), "{}", fixed.how);
            repaired += 1;
        }
        // Damage at one cell stays within a small window.
        assert!(repaired > n / 2, "{repaired} of {n} repaired");
    }

    /// The window keeps the read outside it: with damage in two far corners and only one
    /// corner freed, nothing fits; with both freed, the answer comes back.
    #[test]
    fn a_window_keeps_the_read_outside_it() {
        let (p, answer) = shipped_7x7();
        let n = p.width() * p.height();
        let inner = |i: usize| p.endpoints()[i] == 0;
        let (a, b) = (
            (0..n).find(|&i| inner(i)).unwrap(),
            (0..n).rev().find(|&i| inner(i)).unwrap(),
        );
        let mut damaged = answer.clone();
        for i in [a, b] {
            for (j, _) in answer.edges_at(&p, i) {
                damaged.set(&p, i, j, 0);
            }
        }
        let only = |c: usize| {
            let mut seed = vec![false; n];
            seed[c] = true;
            ringed(&p, &seed, 1)
        };
        let mut solver = WindowSolver::new(&p, 5.0);
        assert!(matches!(
            solver.resolve(&damaged, &only(a)),
            Window::Impossible
        ));
        assert!(matches!(
            solver.resolve(&damaged, &only(b)),
            Window::Impossible
        ));
        let both: Vec<bool> = only(a).iter().zip(only(b)).map(|(x, y)| *x || y).collect();
        match solver.resolve(&damaged, &both) {
            Window::Solved(s) => assert_eq!(s, answer),
            _ => panic!("both corners freed: the answer fits"),
        }
        // Nothing freed: a valid read is its own answer, a damaged one has none.
        let none = vec![false; n];
        assert!(matches!(solver.resolve(&answer, &none), Window::Solved(s) if s == answer));
        assert!(matches!(
            solver.resolve(&damaged, &none),
            Window::Impossible
        ));
    }

    #[test]
    fn under_fill_a_cycle_is_a_defect_and_its_window_is_re_solved() {
        let (p, answer) = shipped_7x7();
        let w = p.width();
        // Cut a 2×2 block of non-endpoint cells out of its paths and make it a loop of pair 1.
        let block = (0..p.height() - 1)
            .flat_map(|r| (0..w - 1).map(move |c| r * w + c))
            .find(|&i| {
                [i, i + 1, i + w, i + w + 1]
                    .iter()
                    .all(|&c| p.endpoints()[c] == 0)
            })
            .expect("a free block");
        let cells = [block, block + 1, block + w + 1, block + w];
        let mut damaged = answer.clone();
        for &c in &cells {
            for (j, _) in answer.edges_at(&p, c) {
                damaged.set(&p, c, j, 0);
            }
        }
        for k in 0..4 {
            damaged.set(&p, cells[k], cells[(k + 1) % 4], 1);
        }
        assert!(!cycles(&p, &damaged).is_empty());
        let defect = defect_cells(&p, &damaged);
        assert!(cells.iter().all(|&c| defect[c]));
        let fixed = repair(&p, &damaged).expect("the window holds the answer");
        assert_eq!(check(&p, &fixed.solution), Vec::new());
    }
}
