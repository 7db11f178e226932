//! The exact reference for the no-fill rule (ADC puzzles: cells may stay empty), as SAT on
//! CaDiCaL (the `cadical` crate, which builds CaDiCaL 1.9.5 from source with the C++ compiler),
//! and under either rule the window re-solve that repairs a read (`resolve_window`).
//! Chosen by measurement on this encoding (2 cores, first solution): ADC Q2 CaDiCaL 4.1 s,
//! Glucose 1.9 s, MiniSat 2.4 s (through PySAT); splr 0.17 (pure Rust) took 6–13 s, and with its
//! eliminator off it answered "unsatisfiable" to a puzzle with a known answer — an exact
//! reference cannot rest on that.
//!
//! Why SAT here: the path search (`solve`) prunes by the fill rule's own consequences (no cell
//! left with fewer than two ways, no path alongside itself); without them it gave up on ADC 2018
//! Q2 (50×50, 320 pairs) and Q12 (40×40, 219 pairs) at its budget. The encoding is the compact
//! one the ADC entrants used (after Zucker's and lacop's flow solvers, with colours in binary):
//! - a variable per grid edge (used or not), and per cell ⌈log₂(pairs + 1)⌉ bits of its pair;
//! - an endpoint has exactly one used edge and its own pair's bits;
//! - any other cell has zero or two used edges;
//! - a used edge joins two cells with the same bits.
//!
//! Every component of used edges is then a path between two endpoints of one pair (an endpoint
//! has one edge, other cells two) or an isolated cycle. Under no-fill a cycle can simply be
//! dropped, so no cycle constraint is needed: the solution is the paths. A second solution is
//! asked for by forbidding the first one's path edges all together (two different valid
//! solutions are never one inside the other, as each pair has one path end to end), with the
//! U-turn cuts switched off by their selector so that it is any other solution.
//!
//! Under the fill rule every other cell has exactly two used edges, and two side-by-side cells
//! with the same bits must be joined (a path never runs alongside itself): per grid edge,
//! "used, or some bit differs", with one helper variable per bit saying it differs. Cycles are
//! then still possible and are forbidden lazily: a model with one gets a clause against that
//! cycle's edges all together (no valid answer has a cycle) and is solved again.
//!
//! The U-turn cuts: no unit square with three used edges. Its two open corners are one path's
//! cells side by side, which no-fill allows, but the path could cut across; any solution
//! shortens to one without them, so with the cuts the first search still finds a solution
//! exactly when one exists. Measured on ADC Q2 (first solution, CaDiCaL): 10.1 s without the
//! cuts, 4.1 s with them.

use std::time::Instant;

use cadical::{Solver, Timeout};

use super::check::NumberlinkSolution;
use super::{Numberlink, Rule};

/// What the SAT reference found.
pub struct SatSearch {
    /// Up to the number asked for.
    pub solutions: Vec<NumberlinkSolution>,
    /// The time limit ran out before the answer was known.
    pub gave_up: bool,
    /// Variables and clauses of the encoding.
    pub size: (usize, usize),
}

/// The encoding: edges first (1-based DIMACS numbering), then each cell's bits.
struct Encoding {
    cells: usize,
    /// Per edge: its two cells.
    edges: Vec<(usize, usize)>,
    bits: usize,
    clauses: Vec<Vec<i32>>,
    /// The fill rule's helper variables (after the selector): whether bit t of an edge's two
    /// cells differs.
    helpers: usize,
}

impl Encoding {
    fn edge_var(e: usize) -> i32 {
        e as i32 + 1
    }

    /// Whether candidate `s` draws the edge between cells i and j.
    fn drawn(p: &Numberlink, s: &NumberlinkSolution, i: usize, j: usize) -> bool {
        s.edges_at(p, i).iter().any(|&(n, _)| n == j)
    }

    fn bit_var(&self, cell: usize, t: usize) -> i32 {
        (self.edges.len() + cell * self.bits + t) as i32 + 1
    }

    fn num_vars(&self, cells: usize) -> usize {
        self.edges.len() + cells * self.bits + 1 + self.helpers
    }

    /// The selector of the U-turn cuts (the last variable): assumed true for the first
    /// solution, false when asking for another, so a second solution with a U-turn counts.
    fn cuts_on(&self) -> i32 {
        (self.edges.len() + self.cells * self.bits + 1) as i32
    }

    fn of(p: &Numberlink) -> Encoding {
        let (w, h) = (p.width(), p.height());
        let cells = w * h;
        let mut edges = Vec::with_capacity(2 * cells);
        let mut at: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for i in 0..cells {
            for j in [
                (i % w + 1 < w).then_some(i + 1),
                (i + w < cells).then_some(i + w),
            ]
            .into_iter()
            .flatten()
            {
                at[i].push(edges.len());
                at[j].push(edges.len());
                edges.push((i, j));
            }
        }
        let bits = (usize::BITS - p.num_pairs().leading_zeros()).max(1) as usize;
        let mut enc = Encoding {
            cells,
            edges,
            bits,
            clauses: Vec::new(),
            helpers: 0,
        };
        for (i, incident) in at.iter().enumerate() {
            let lits: Vec<i32> = incident.iter().map(|&e| Self::edge_var(e)).collect();
            let k = p.endpoints()[i];
            if k != 0 {
                // Exactly one edge, and the pair's own bits.
                enc.clauses.push(lits.clone());
                for a in 0..lits.len() {
                    for b in a + 1..lits.len() {
                        enc.clauses.push(vec![-lits[a], -lits[b]]);
                    }
                }
                for t in 0..bits {
                    let v = enc.bit_var(i, t);
                    enc.clauses
                        .push(vec![if (k >> t) & 1 == 1 { v } else { -v }]);
                }
            } else {
                // Zero or two: never exactly one, never three or more.
                for a in 0..lits.len() {
                    let mut c = vec![-lits[a]];
                    c.extend(
                        lits.iter()
                            .enumerate()
                            .filter(|&(b, _)| b != a)
                            .map(|(_, &l)| l),
                    );
                    enc.clauses.push(c);
                    for b in a + 1..lits.len() {
                        for c in b + 1..lits.len() {
                            enc.clauses.push(vec![-lits[a], -lits[b], -lits[c]]);
                        }
                    }
                }
            }
        }
        // The U-turn cuts (module header), each behind the selector.
        let edge_between = |a: usize, b: usize| at[a].iter().copied().find(|e| at[b].contains(e));
        for i in 0..cells {
            if i % w + 1 >= w || i + w >= cells {
                continue;
            }
            let square = [
                edge_between(i, i + 1),
                edge_between(i + 1, i + w + 1),
                edge_between(i + w, i + w + 1),
                edge_between(i, i + w),
            ];
            let lits: Vec<i32> = square
                .iter()
                .flatten()
                .map(|&e| -Self::edge_var(e))
                .collect();
            for skip in 0..lits.len() {
                let mut c: Vec<i32> = vec![-enc.cuts_on()];
                c.extend((0..lits.len()).filter(|&k| k != skip).map(|k| lits[k]));
                enc.clauses.push(c);
            }
        }
        for (e, &(i, j)) in enc.edges.iter().enumerate() {
            let x = Self::edge_var(e);
            let (ki, kj) = (p.endpoints()[i], p.endpoints()[j]);
            if ki != 0 && kj != 0 && ki != kj {
                enc.clauses.push(vec![-x]);
                continue;
            }
            for t in 0..bits {
                let (a, b) = (enc.bit_var(i, t), enc.bit_var(j, t));
                enc.clauses.push(vec![-x, -a, b]);
                enc.clauses.push(vec![-x, a, -b]);
            }
        }
        if p.rule() == Rule::Fill {
            for (i, incident) in at.iter().enumerate() {
                if p.endpoints()[i] == 0 {
                    // At least one edge: with "never one, never three", exactly two.
                    enc.clauses
                        .push(incident.iter().map(|&e| Self::edge_var(e)).collect());
                }
            }
            // Side by side with the same bits means joined: used, or some bit differs.
            let first_helper = enc.cuts_on() + 1;
            for e in 0..enc.edges.len() {
                let (i, j) = enc.edges[e];
                let mut clause = vec![Self::edge_var(e)];
                for t in 0..bits {
                    let d = first_helper + enc.helpers as i32;
                    enc.helpers += 1;
                    let (a, b) = (enc.bit_var(i, t), enc.bit_var(j, t));
                    enc.clauses.push(vec![-d, a, b]);
                    enc.clauses.push(vec![-d, -a, -b]);
                    clause.push(d);
                }
                enc.clauses.push(clause);
            }
        }
        enc
    }

    /// The cycles among a model's used edges (each as its edge indices): every used edge that
    /// is not on a path walked from an endpoint.
    fn cycles(&self, p: &Numberlink, used: &[bool]) -> Vec<Vec<usize>> {
        let mut at: Vec<Vec<usize>> = vec![Vec::new(); self.cells];
        for (e, &(i, j)) in self.edges.iter().enumerate() {
            if used[e] {
                at[i].push(e);
                at[j].push(e);
            }
        }
        let other = |e: usize, i: usize| {
            let (a, b) = self.edges[e];
            if a == i { b } else { a }
        };
        let mut seen = vec![false; self.edges.len()];
        // Walk every path from its endpoints; what is left is cycles.
        for i in (0..self.cells).filter(|&i| p.endpoints()[i] != 0) {
            let (mut prev, mut cell) = (usize::MAX, i);
            while let Some(&e) = at[cell].iter().find(|&&e| e != prev && !seen[e]) {
                seen[e] = true;
                prev = e;
                cell = other(e, cell);
            }
        }
        let mut out = Vec::new();
        for start in 0..self.edges.len() {
            if !used[start] || seen[start] {
                continue;
            }
            let mut ring = Vec::new();
            let mut stack = vec![start];
            seen[start] = true;
            while let Some(e) = stack.pop() {
                ring.push(e);
                let (i, j) = self.edges[e];
                for &f in at[i].iter().chain(&at[j]) {
                    if !seen[f] {
                        seen[f] = true;
                        stack.push(f);
                    }
                }
            }
            out.push(ring);
        }
        out
    }

    /// The paths of a model (isolated cycles dropped), labelled by pair.
    fn decode(&self, p: &Numberlink, model: &[i32]) -> NumberlinkSolution {
        let cells = p.width() * p.height();
        let used = |e: usize| model.get(e).is_some_and(|&l| l > 0);
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); cells];
        for (e, &(i, j)) in self.edges.iter().enumerate() {
            if used(e) {
                next[i].push(j);
                next[j].push(i);
            }
        }
        let mut s = NumberlinkSolution::empty(cells);
        for k in 1..=p.num_pairs() as u16 {
            // Walk from the first endpoint: every cell on the way has two edges until the
            // other endpoint.
            let [start, _] = p.ends(k);
            let (mut prev, mut at) = (usize::MAX, start);
            for _ in 0..cells {
                let Some(&step) = next[at].iter().find(|&&j| j != prev) else {
                    break;
                };
                s.set(p, at, step, k);
                prev = at;
                at = step;
                if p.endpoints()[at] != 0 {
                    break;
                }
            }
        }
        s
    }
}

/// A solver loaded with `enc`'s clauses, stopping each call after `seconds`.
fn loaded(enc: &Encoding, seconds: f32) -> Solver<Timeout> {
    let mut solver: Solver<Timeout> = Solver::new();
    solver.set_callbacks(Some(Timeout::new(seconds.max(0.01))));
    for c in &enc.clauses {
        solver.add_clause(c.iter().copied());
    }
    solver
}

/// How one call ended.
enum Answer {
    Found(NumberlinkSolution),
    None,
    GaveUp,
}

/// Cycle clauses one call may add before it gives up (each call is also timed).
const MAX_CYCLE_ROUNDS: usize = 10_000;

/// One answer under `assumptions`: under the fill rule a model with a cycle gets a clause
/// against it and is solved again (the clauses stay: they hold for every valid answer).
fn answer(
    solver: &mut Solver<Timeout>,
    enc: &Encoding,
    p: &Numberlink,
    assumptions: &[i32],
    deadline: Option<Instant>,
) -> Answer {
    for _ in 0..MAX_CYCLE_ROUNDS {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Answer::GaveUp;
        }
        match solver.solve_with(assumptions.iter().copied()) {
            Some(true) => {}
            Some(false) => return Answer::None,
            None => return Answer::GaveUp,
        }
        let used: Vec<bool> = (0..enc.edges.len())
            .map(|e| solver.value(Encoding::edge_var(e)) == Some(true))
            .collect();
        let cycles = if p.rule() == Rule::Fill {
            enc.cycles(p, &used)
        } else {
            Vec::new()
        };
        if cycles.is_empty() {
            let model: Vec<i32> = (0..enc.edges.len())
                .map(|e| {
                    let x = Encoding::edge_var(e);
                    if used[e] { x } else { -x }
                })
                .collect();
            return Answer::Found(enc.decode(p, &model));
        }
        for ring in cycles {
            solver.add_clause(ring.into_iter().map(|e| -Encoding::edge_var(e)));
        }
    }
    Answer::GaveUp
}

/// Up to `limit` solutions of a puzzle (the reference under no-fill; under fill a check on the
/// path search) within `seconds` of solving (each call).
pub fn search(p: &Numberlink, limit: usize, seconds: u64) -> SatSearch {
    let enc = Encoding::of(p);
    let cells = p.width() * p.height();
    let size = (enc.num_vars(cells), enc.clauses.len());
    let mut solver = loaded(&enc, seconds.max(1) as f32);
    let mut found = Vec::new();
    let mut gave_up = false;
    while found.len() < limit.max(1) {
        let cuts = if found.is_empty() {
            enc.cuts_on()
        } else {
            -enc.cuts_on()
        };
        match answer(&mut solver, &enc, p, &[cuts], None) {
            Answer::Found(s) => {
                // Forbid these paths together (see the module header); the solver keeps what
                // it learnt for the next call.
                let mut block = Vec::new();
                for (e, &(i, j)) in enc.edges.iter().enumerate() {
                    if Encoding::drawn(p, &s, i, j) {
                        block.push(-Encoding::edge_var(e));
                    }
                }
                found.push(s);
                if block.is_empty() {
                    break;
                }
                solver.add_clause(block);
            }
            Answer::None => break,
            Answer::GaveUp => {
                gave_up = true;
                break;
            }
        }
    }
    SatSearch {
        solutions: found,
        gave_up,
        size,
    }
}

/// What a window re-solve found.
pub enum Window {
    /// A valid answer that agrees with the candidate outside the window.
    Solved(NumberlinkSolution),
    /// No valid answer agrees with the candidate outside the window.
    Impossible,
    /// The time ran out first.
    GaveUp,
}

/// The window re-solve (`repair`): the whole puzzle's encoding, loaded once, asked under
/// assumptions for a valid answer that keeps every edge of a candidate between two cells
/// outside a window, and the pair of every labelled cell outside it (edges at a window cell
/// are open). What it finds is valid as a whole, and "impossible" means no answer keeps that
/// outside. Windows are tried one after another on one solver: what it learns holds for all.
pub struct WindowSolver<'a> {
    p: &'a Numberlink,
    enc: Encoding,
    solver: Solver<Timeout>,
    seconds: f32,
}

impl<'a> WindowSolver<'a> {
    /// The solver for `p`, each window's search stopping after `seconds`.
    pub fn new(p: &'a Numberlink, seconds: f32) -> Self {
        let enc = Encoding::of(p);
        let solver = loaded(&enc, seconds);
        WindowSolver {
            p,
            enc,
            solver,
            seconds,
        }
    }

    /// A valid answer that agrees with `s` outside the `free` cells, within the seconds given
    /// to `new`.
    pub fn resolve(&mut self, s: &NumberlinkSolution, free: &[bool]) -> Window {
        let (p, enc) = (self.p, &self.enc);
        let labels = s.cell_labels(p);
        let mut assumptions = vec![enc.cuts_on()];
        for (e, &(i, j)) in enc.edges.iter().enumerate() {
            if !free[i] && !free[j] {
                let on = Encoding::drawn(p, s, i, j);
                let x = Encoding::edge_var(e);
                assumptions.push(if on { x } else { -x });
            }
        }
        for (i, &k) in labels.iter().enumerate() {
            if !free[i] && k != 0 {
                for t in 0..enc.bits {
                    let v = enc.bit_var(i, t);
                    assumptions.push(if (k >> t) & 1 == 1 { v } else { -v });
                }
            }
        }
        let deadline = Instant::now() + std::time::Duration::from_secs_f32(self.seconds.max(0.01));
        match answer(&mut self.solver, enc, p, &assumptions, Some(deadline)) {
            Answer::Found(s) => Window::Solved(s),
            Answer::None => Window::Impossible,
            Answer::GaveUp => Window::GaveUp,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::numberlink::{Rule, check, solve};

    /// A small puzzle with endpoints at random cells (solvable or not).
    fn random_board(seed: u64, rule: Rule) -> Numberlink {
        let mut s = seed;
        let mut next = |n: u64| crate::rng::splitmix64(&mut s) % n;
        let (w, h) = (3 + next(2) as usize, 3 + next(2) as usize);
        // Under fill (every cell covered, no path alongside itself) more pairs are solvable.
        let pairs = match rule {
            Rule::NoFill => 1 + next(3) as usize,
            Rule::Fill => (2 + next(4) as usize).min(w * h / 2),
        };
        let mut cells: Vec<Option<String>> = vec![None; w * h];
        for k in 0..pairs {
            for _ in 0..2 {
                let free: Vec<usize> = (0..w * h).filter(|&i| cells[i].is_none()).collect();
                let i = free[next(free.len() as u64) as usize];
                cells[i] = Some(((b'A' + k as u8) as char).to_string());
            }
        }
        Numberlink::new(w, h, &cells, rule).unwrap()
    }

    fn random_no_fill(seed: u64) -> Numberlink {
        random_board(seed, Rule::NoFill)
    }

    /// Under the fill rule the encoding (exactly two edges, no path alongside itself, cycles
    /// cut lazily) counts what the path search counts: on random boards (mostly without an
    /// answer), generated ones (one answer each) and generated ones with a pair taken away
    /// (its cells left for the others).
    #[test]
    fn under_fill_sat_counts_as_the_path_search_does() {
        let mut boards: Vec<Numberlink> = (0..60)
            .map(|seed| random_board(1000 + seed, Rule::Fill))
            .collect();
        for seed in 0..30u64 {
            let side = 4 + seed as usize % 3;
            let p =
                crate::puzzle::numberlink::generate::generate(side, side, side - 1, seed).unwrap();
            let cells: Vec<Option<String>> = (0..side * side)
                .map(|i| match p.endpoints()[i] {
                    0 => None,
                    k if k as usize == p.num_pairs() => None,
                    k => Some(p.name(k).to_string()),
                })
                .collect();
            boards.push(p);
            boards.push(Numberlink::new(side, side, &cells, Rule::Fill).unwrap());
        }
        let mut counts = [0usize; 4];
        for (b, p) in boards.iter().enumerate() {
            let path = solve::search(p, 3, 50_000_000);
            assert!(!path.gave_up, "board {b}");
            let sat = search(p, 3, 10);
            assert!(!sat.gave_up, "board {b}");
            assert_eq!(sat.solutions.len(), path.solutions.len(), "board {b}");
            for s in &sat.solutions {
                let v = check::check(p, s);
                assert!(v.is_empty(), "board {b}: {v:?}");
            }
            counts[sat.solutions.len()] += 1;
        }
        // The sample holds boards with no answer and with one (the rule leaves a second
        // answer rare: none of these has one).
        assert!(counts[0] >= 10 && counts[1] >= 30, "{counts:?}");
    }

    #[test]
    fn sat_counts_as_the_path_search_does_and_its_solutions_pass_the_checker() {
        let (mut solvable, mut several) = (0, 0);
        for seed in 0..80 {
            let p = random_no_fill(seed);
            let path = solve::search(&p, 3, 50_000_000);
            assert!(!path.gave_up, "seed {seed}");
            let sat = search(&p, 3, 10);
            assert!(!sat.gave_up, "seed {seed}");
            assert_eq!(sat.solutions.len(), path.solutions.len(), "seed {seed}");
            for s in &sat.solutions {
                let v = check::check(&p, s);
                assert!(v.is_empty(), "seed {seed}: {v:?}");
            }
            solvable += usize::from(!sat.solutions.is_empty());
            several += usize::from(sat.solutions.len() >= 2);
        }
        // The sample holds both kinds, and puzzles with several answers.
        assert!((10..80).contains(&solvable), "{solvable} of 80 solvable");
        assert!(several > 5, "{several} with several answers");
    }

    #[test]
    fn adc_2018_q12_is_decided_and_its_answer_is_valid() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/puzzles/numberlink/adc2018/Q12.txt"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let p = crate::puzzle::numberlink::text::parse(&text, "Q12")
            .unwrap()
            .remove(0);
        assert_eq!(p.rule(), Rule::NoFill);
        let found = search(&p, 1, 60);
        assert!(!found.gave_up);
        let s = found.solutions.first().expect("Q12 has an answer");
        assert_eq!(check::check(&p, s), Vec::new());
    }
}
