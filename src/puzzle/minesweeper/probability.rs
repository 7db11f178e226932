//! The exact probability engine: the mine probability of every cell of a position, given the
//! opened numbers, the flags and the total mine count.
//!
//! A configuration assigns mines to the *frontier* (unopened cells next to an opened number)
//! consistently with every number; the remaining R − m mines (R = mines − flags, m = frontier
//! mines) lie anywhere among the F unconstrained unopened cells, in C(F, R − m) ways. Every full
//! layout is equally likely, so a configuration weighs C(F, R − m). Frontier cells with the same
//! set of numbers around them are interchangeable: they form a *box*, and a configuration only
//! says how many mines each box holds (weight ∏ C(size, count)). Boxes linked by shared numbers
//! form independent *components*, enumerated separately (depth-first, pruned by each number's
//! remaining need and room) and combined by convolution over their mine counts — in log space,
//! since expert boards weigh far beyond f64 (C(470, 99) alone is ~10¹⁰⁴).
//!
//! Invariant: during the enumeration, `need[c]` is what constraint c still needs from its
//! unassigned boxes and `room[c]` their total size; a branch lives iff 0 ≤ need ≤ room for every
//! constraint it touched.

use std::collections::BTreeMap;

use super::{Cell, MineSolution, Minesweeper};
use crate::puzzle::{CellProbabilities, PuzzleError};

/// Search nodes the engine may spend on one position before it gives up.
pub const ENGINE_NODE_BUDGET: u64 = 20_000_000;

/// Every cell's mine probability and what the engine saw.
#[derive(Clone, Debug, PartialEq)]
pub struct Probabilities {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Row-major: 0 for opened cells, 1 for flagged ones.
    pub p: Vec<f64>,
    /// log₁₀ of the number of full mine layouts consistent with the position.
    pub log10_layouts: f64,
    /// Unopened cells next to a number.
    pub frontier: usize,
    /// Unopened cells next to no number.
    pub unconstrained: usize,
    /// Independent groups of frontier cells.
    pub components: usize,
    /// Search nodes spent.
    pub nodes: u64,
}

/// The unopened cells with the lowest mine probability `p` (ties all listed); none when every
/// unopened cell is a certain mine (the "safest" cell is never one).
pub fn safest_cells(cells: &[Cell], p: &[f64]) -> Vec<usize> {
    let open: Vec<usize> = (0..p.len().min(cells.len()))
        .filter(|&k| cells[k] == Cell::Unopened && p[k] < 1.0 - 1e-12)
        .collect();
    let low = open.iter().map(|&k| p[k]).fold(f64::INFINITY, f64::min);
    open.into_iter().filter(|&k| p[k] <= low + 1e-12).collect()
}

impl Probabilities {
    /// The probability at row r, column c.
    pub fn at(&self, r: usize, c: usize) -> f64 {
        self.p[r * self.width + c]
    }

    /// The unopened, unflagged cells with the lowest probability (ties all listed), given the
    /// position they belong to.
    pub fn safest(&self, position: &Minesweeper) -> Vec<usize> {
        safest_cells(position.cells(), &self.p)
    }

    /// Rows of probabilities (the JSON shape).
    pub fn rows(&self) -> Vec<Vec<f64>> {
        self.p.chunks(self.width).map(<[f64]>::to_vec).collect()
    }

    /// The per-cell values alone (the kind-independent form).
    pub fn cells(&self) -> CellProbabilities {
        CellProbabilities {
            width: self.width,
            height: self.height,
            p: self.p.clone(),
        }
    }
}

/// The seed's estimate from decoded samples: per frontier cell, the share of reads with a mine
/// there; per unconstrained cell, the mines a read leaves for them (R − its frontier mines,
/// clamped to 0..F) spread evenly; 0 for opened cells, 1 for flags. Every read counts, valid or
/// not, as in the seed.
pub fn sampled(p: &Minesweeper, candidates: &[(&MineSolution, u64)]) -> CellProbabilities {
    let n = p.width * p.height;
    let reads: u64 = candidates.iter().map(|c| c.1).sum();
    let mut sum = vec![0.0f64; n];
    let on_frontier = p.frontier_mask();
    let unconstrained: Vec<usize> = (0..n)
        .filter(|&k| p.cells[k] == Cell::Unopened && !on_frontier[k])
        .collect();
    let remaining = p.mines.saturating_sub(p.num_flags()) as f64;
    for (s, count) in candidates {
        let w = *count as f64;
        let mut frontier_mines = 0.0;
        for (k, total) in sum.iter_mut().enumerate() {
            if p.cells[k] == Cell::Unopened && s.mines.get(k).copied().flatten() == Some(true) {
                *total += w;
                frontier_mines += 1.0;
            }
        }
        if !unconstrained.is_empty() {
            let each = ((remaining - frontier_mines) / unconstrained.len() as f64).clamp(0.0, 1.0);
            for &k in &unconstrained {
                sum[k] += w * each;
            }
        }
    }
    let prob = (0..n)
        .map(|k| match p.cells[k] {
            Cell::Flagged => 1.0,
            Cell::Opened(_) => 0.0,
            Cell::Unopened if reads > 0 => sum[k] / reads as f64,
            Cell::Unopened => 0.0,
        })
        .collect();
    CellProbabilities {
        width: p.width,
        height: p.height,
        p: prob,
    }
}

/// ln n! for n up to a bound, so ln C(n, k) is three lookups.
struct LnFactorial(Vec<f64>);

impl LnFactorial {
    fn new(n: usize) -> Self {
        let mut t = Vec::with_capacity(n + 1);
        let mut acc = 0.0f64;
        t.push(0.0);
        for k in 1..=n {
            acc += (k as f64).ln();
            t.push(acc);
        }
        LnFactorial(t)
    }

    /// ln C(n, k); −∞ when k is out of 0..=n.
    fn ln_choose(&self, n: usize, k: i64) -> f64 {
        if k < 0 || k as usize > n {
            return f64::NEG_INFINITY;
        }
        let k = k as usize;
        self.0[n] - self.0[k] - self.0[n - k]
    }
}

/// ln(e^a + e^b) without overflow.
fn ln_add(a: f64, b: f64) -> f64 {
    if a == f64::NEG_INFINITY {
        return b;
    }
    if b == f64::NEG_INFINITY {
        return a;
    }
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi + (lo - hi).exp().ln_1p()
}

/// Convolution of two log-weight vectors indexed by mine count.
fn convolve(a: &[f64], b: &[f64], cap: usize) -> Vec<f64> {
    let len = (a.len() + b.len()).saturating_sub(1).min(cap + 1);
    let mut out = vec![f64::NEG_INFINITY; len.max(1)];
    for (i, &x) in a.iter().enumerate() {
        if x == f64::NEG_INFINITY {
            continue;
        }
        for (j, &y) in b.iter().enumerate() {
            if i + j < out.len() && y != f64::NEG_INFINITY {
                out[i + j] = ln_add(out[i + j], x + y);
            }
        }
    }
    out
}

/// A frontier constraint: `need` mines among its boxes.
struct Constraint {
    need: i64,
    boxes: Vec<usize>,
}

/// One component's enumeration: per frontier mine count m, the total weight and each box's
/// weighted mine count (both plain f64: a component's weights stay far below f64's range).
struct Tally {
    weight: Vec<f64>,
    box_mines: Vec<Vec<f64>>,
}

struct Enumeration<'a> {
    sizes: &'a [usize],
    box_constraints: &'a [Vec<usize>],
    order: &'a [usize],
    binomial: &'a [Vec<f64>],
    need: Vec<i64>,
    room: Vec<i64>,
    counts: Vec<usize>,
    max_mines: usize,
    nodes: u64,
    budget: u64,
    tally: Tally,
    local: BTreeMap<usize, usize>,
}

impl Enumeration<'_> {
    /// Assigns boxes `order[depth..]`; false when the budget ran out.
    fn run(&mut self, depth: usize, mines: usize, weight: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            return false;
        }
        if depth == self.order.len() {
            self.tally.weight[mines] += weight;
            for (&b, &li) in &self.local {
                self.tally.box_mines[mines][li] += weight * self.counts[b] as f64;
            }
            return true;
        }
        let b = self.order[depth];
        let size = self.sizes[b];
        for t in 0..=size {
            if mines + t > self.max_mines {
                break;
            }
            let mut ok = true;
            for &c in &self.box_constraints[b] {
                self.need[c] -= t as i64;
                self.room[c] -= size as i64;
                if self.need[c] < 0 || self.need[c] > self.room[c] {
                    ok = false;
                }
            }
            if ok {
                self.counts[b] = t;
                if !self.run(depth + 1, mines + t, weight * self.binomial[size][t]) {
                    return false;
                }
            }
            for &c in &self.box_constraints[b] {
                self.need[c] += t as i64;
                self.room[c] += size as i64;
            }
            if !ok
                && self.box_constraints[b]
                    .iter()
                    .any(|&c| self.need[c] - (t as i64) < 0)
            {
                // More mines here only overshoot a need further.
                break;
            }
        }
        true
    }
}

/// The exact probabilities of `p`, within `node_budget` search nodes. Errors: the position is
/// inconsistent (naming the first broken number, or the mine count), or a component is too
/// large for the budget (sample it instead).
pub fn exact_probabilities(
    p: &Minesweeper,
    node_budget: u64,
) -> Result<Probabilities, PuzzleError> {
    if let Some(v) = super::check::conflicts(p).into_iter().next() {
        return Err(PuzzleError::Invalid(format!(
            "the position is inconsistent: {}",
            v.detail
        )));
    }
    let n = p.width * p.height;
    let flags = p.num_flags();
    let remaining = p.mines as i64 - flags as i64;
    // Constraints from every opened number with unopened neighbours.
    let constraint_cells: Vec<(i64, Vec<usize>)> =
        p.hints().into_iter().map(|h| (h.need, h.unknown)).collect();
    let mut on_frontier = vec![Vec::<usize>::new(); n];
    for (id, (_, unknown)) in constraint_cells.iter().enumerate() {
        for &j in unknown {
            on_frontier[j].push(id);
        }
    }
    // Boxes: frontier cells with the same constraints.
    let mut boxes_by_key: BTreeMap<Vec<usize>, Vec<usize>> = BTreeMap::new();
    let mut unconstrained = 0usize;
    for (k, constraints_of) in on_frontier.iter().enumerate() {
        if p.cells[k] != Cell::Unopened {
            continue;
        }
        if constraints_of.is_empty() {
            unconstrained += 1;
        } else {
            boxes_by_key
                .entry(constraints_of.clone())
                .or_default()
                .push(k);
        }
    }
    let boxes: Vec<(Vec<usize>, Vec<usize>)> = boxes_by_key.into_iter().collect();
    let sizes: Vec<usize> = boxes.iter().map(|(_, cells)| cells.len()).collect();
    let box_constraints: Vec<Vec<usize>> = boxes.iter().map(|(key, _)| key.clone()).collect();
    let mut constraints: Vec<Constraint> = constraint_cells
        .iter()
        .map(|(need, _)| Constraint {
            need: *need,
            boxes: Vec::new(),
        })
        .collect();
    for (b, cs) in box_constraints.iter().enumerate() {
        for &c in cs {
            constraints[c].boxes.push(b);
        }
    }
    // Components: boxes linked through constraints, each in breadth-first order so numbers
    // close (need = room = 0) early in the search.
    let mut component_of = vec![usize::MAX; boxes.len()];
    let mut components: Vec<Vec<usize>> = Vec::new();
    for start in 0..boxes.len() {
        if component_of[start] != usize::MAX {
            continue;
        }
        let id = components.len();
        let mut order = vec![start];
        component_of[start] = id;
        let mut head = 0;
        while head < order.len() {
            let b = order[head];
            head += 1;
            for &c in &box_constraints[b] {
                for &o in &constraints[c].boxes {
                    if component_of[o] == usize::MAX {
                        component_of[o] = id;
                        order.push(o);
                    }
                }
            }
        }
        components.push(order);
    }
    let max_size = sizes.iter().copied().max().unwrap_or(0);
    let binomial: Vec<Vec<f64>> = (0..=max_size)
        .map(|s| {
            let mut row = vec![1.0; s + 1];
            for t in 1..=s {
                row[t] = row[t - 1] * (s - t + 1) as f64 / t as f64;
            }
            row
        })
        .collect();
    let max_mines = remaining.max(0) as usize;
    let mut nodes = 0u64;
    let mut tallies: Vec<(Vec<usize>, Tally)> = Vec::with_capacity(components.len());
    for order in &components {
        let local: BTreeMap<usize, usize> =
            order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let cap = order
            .iter()
            .map(|&b| sizes[b])
            .sum::<usize>()
            .min(max_mines);
        let mut need: Vec<i64> = constraints.iter().map(|c| c.need).collect();
        let mut room: Vec<i64> = vec![0; constraints.len()];
        for (c, con) in constraints.iter().enumerate() {
            room[c] = con.boxes.iter().map(|&b| sizes[b] as i64).sum();
            need[c] = con.need;
        }
        let mut e = Enumeration {
            sizes: &sizes,
            box_constraints: &box_constraints,
            order,
            binomial: &binomial,
            need,
            room,
            counts: vec![0; boxes.len()],
            max_mines: cap,
            nodes: 0,
            budget: node_budget.saturating_sub(nodes),
            tally: Tally {
                weight: vec![0.0; cap + 1],
                box_mines: vec![vec![0.0; order.len()]; cap + 1],
            },
            local: local.clone(),
        };
        let finished = e.run(0, 0, 1.0);
        nodes += e.nodes;
        if !finished {
            let cells: usize = order.iter().map(|&b| sizes[b]).sum();
            return Err(PuzzleError::Invalid(format!(
                "a group of {cells} linked frontier cells needs more than {node_budget} search nodes \
                 to enumerate: too large for the exact engine (sample its probabilities instead)"
            )));
        }
        tallies.push((order.clone(), e.tally));
    }
    // Combine in log space: ln weight per total frontier mine count, leave-one-out per component.
    let ln_fact = LnFactorial::new(n);
    let ln_w: Vec<Vec<f64>> = tallies
        .iter()
        .map(|(_, t)| {
            t.weight
                .iter()
                .map(|&w| if w > 0.0 { w.ln() } else { f64::NEG_INFINITY })
                .collect()
        })
        .collect();
    let k = ln_w.len();
    let mut prefix = vec![vec![0.0]];
    for w in &ln_w {
        let next = convolve(prefix.last().unwrap(), w, max_mines);
        prefix.push(next);
    }
    let mut suffix = vec![vec![0.0]; k + 1];
    for i in (0..k).rev() {
        suffix[i] = convolve(&suffix[i + 1], &ln_w[i], max_mines);
    }
    let rest = |m: usize| ln_fact.ln_choose(unconstrained, remaining - m as i64);
    let all = &prefix[k];
    let mut ln_z = f64::NEG_INFINITY;
    let mut ln_rest_mines = f64::NEG_INFINITY; // ln Σ w·C(F, R−m)·(R−m)
    for (m, &w) in all.iter().enumerate() {
        let term = w + rest(m);
        ln_z = ln_add(ln_z, term);
        let left = remaining - m as i64;
        if left > 0 {
            ln_rest_mines = ln_add(ln_rest_mines, term + (left as f64).ln());
        }
    }
    if ln_z == f64::NEG_INFINITY {
        return Err(PuzzleError::Invalid(format!(
            "the position is inconsistent: no placement of {} fits every number",
            crate::io::count(p.mines, "mine")
        )));
    }
    let mut prob = vec![0.0; n];
    for (k2, cell) in p.cells.iter().enumerate() {
        if *cell == Cell::Flagged {
            prob[k2] = 1.0;
        }
    }
    for (ci, (order, tally)) in tallies.iter().enumerate() {
        let others = convolve(&prefix[ci], &suffix[ci + 1], max_mines);
        for (li, &b) in order.iter().enumerate() {
            let mut ln_num = f64::NEG_INFINITY;
            for (m, row) in tally.box_mines.iter().enumerate() {
                if row[li] <= 0.0 {
                    continue;
                }
                for (mo, &w) in others.iter().enumerate() {
                    ln_num = ln_add(ln_num, row[li].ln() + w + rest(m + mo));
                }
            }
            let pb = ((ln_num - ln_z).exp() / sizes[b] as f64).clamp(0.0, 1.0);
            for &cell in &boxes[b].1 {
                prob[cell] = pb;
            }
        }
    }
    if unconstrained > 0 {
        let pu = ((ln_rest_mines - ln_z).exp() / unconstrained as f64).clamp(0.0, 1.0);
        for (k2, cell) in p.cells.iter().enumerate() {
            if *cell == Cell::Unopened && on_frontier[k2].is_empty() {
                prob[k2] = pu;
            }
        }
    }
    Ok(Probabilities {
        width: p.width,
        height: p.height,
        p: prob,
        log10_layouts: ln_z / std::f64::consts::LN_10,
        frontier: sizes.iter().sum(),
        unconstrained,
        components: components.len(),
        nodes,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_safest_cell_is_never_a_certain_mine() {
        let cells = [Cell::Unopened, Cell::Unopened, Cell::Opened(1)];
        assert_eq!(safest_cells(&cells, &[1.0, 1.0, 0.0]), Vec::<usize>::new());
        assert_eq!(safest_cells(&cells, &[1.0, 0.5, 0.0]), vec![1]);
        assert_eq!(safest_cells(&cells, &[0.25, 0.25, 0.0]), vec![0, 1]);
    }

    use super::*;
    use crate::puzzle::{ParseHints, Puzzle};

    fn position(text: &str) -> Minesweeper {
        Minesweeper::parse_text(text, "test", &ParseHints::default())
            .unwrap()
            .remove(0)
            .puzzle
    }

    /// Every full layout consistent with the position, enumerated cell by cell.
    fn brute_force(p: &Minesweeper) -> Vec<f64> {
        let n = p.width * p.height;
        let unknown: Vec<usize> = (0..n).filter(|&k| p.cells[k] == Cell::Unopened).collect();
        let need = p.mines - p.num_flags();
        let mut count = vec![0f64; n];
        let mut total = 0f64;
        for bits in 0u64..(1 << unknown.len()) {
            if bits.count_ones() as usize != need {
                continue;
            }
            let mut mine = vec![false; n];
            for (i, &k) in unknown.iter().enumerate() {
                mine[k] = bits >> i & 1 == 1;
            }
            for (m, cell) in mine.iter_mut().zip(&p.cells) {
                if *cell == Cell::Flagged {
                    *m = true;
                }
            }
            let ok = (0..n).all(|k| match p.cells[k] {
                Cell::Opened(v) => {
                    p.neighbours(k).iter().filter(|&&j| mine[j]).count() == v as usize
                }
                _ => true,
            });
            if ok {
                total += 1.0;
                for k in 0..n {
                    if mine[k] {
                        count[k] += 1.0;
                    }
                }
            }
        }
        count.iter().map(|c| c / total).collect()
    }

    #[test]
    fn agrees_with_brute_force_on_small_random_positions() {
        let mut seed = 11u64;
        let mut checked = 0;
        for trial in 0..200 {
            let (w, h) = (3 + trial % 3, 3 + (trial / 3) % 3);
            let mines = 1 + (crate::rng::splitmix64(&mut seed) as usize) % (w * h / 3);
            let full = super::super::generate::generate(w, h, mines, seed ^ trial as u64).unwrap();
            // Open a few more safe cells and flag a known mine now and then.
            let mut p = full.clone();
            let layout = p.layout.clone().unwrap();
            for (k, &mine) in layout.iter().enumerate() {
                let r = crate::rng::splitmix64(&mut seed);
                if !mine && r.is_multiple_of(5) {
                    p.open(k / w, k % w);
                } else if mine && r.is_multiple_of(7) {
                    p.toggle_flag(k / w, k % w);
                }
            }
            let unknown = p.cells.iter().filter(|&&c| c == Cell::Unopened).count();
            if unknown > 18 {
                continue;
            }
            let exact = exact_probabilities(&p, ENGINE_NODE_BUDGET).unwrap();
            let truth = brute_force(&p);
            for (k, (got, want)) in exact.p.iter().zip(&truth).enumerate() {
                assert!(
                    (got - want).abs() < 1e-12,
                    "trial {trial}, cell {k}: {got} vs {want}\n{}",
                    p.to_text()
                );
            }
            checked += 1;
        }
        assert!(checked > 100, "{checked} positions checked");
    }

    #[test]
    fn agrees_with_the_documented_example() {
        // LewisGaul/minesolver's example2 with 8 mines, probabilities from its README.
        let p = Minesweeper::parse_text(
            "# 2 # # #\n# # # # #\n# 3 # # #\n# 2 # 4 #\n# # # # #\n",
            "example2",
            &ParseHints {
                mines: Some(8),
                ..Default::default()
            },
        )
        .unwrap()
        .remove(0)
        .puzzle;
        let want = [
            [0.2711, 0.0000, 0.2711, 0.3133, 0.3133],
            [0.4859, 0.4859, 0.4859, 0.3133, 0.3133],
            [0.2651, 0.0000, 0.5060, 0.5494, 0.5494],
            [0.2651, 0.0000, 0.5060, 0.0000, 0.5494],
            [0.1084, 0.1084, 0.2410, 0.5494, 0.5494],
        ];
        let got = exact_probabilities(&p, ENGINE_NODE_BUDGET).unwrap();
        for (r, row) in want.iter().enumerate() {
            for (c, &p) in row.iter().enumerate() {
                assert!(
                    (got.at(r, c) - p).abs() < 5e-5,
                    "({r}, {c}): {}",
                    got.at(r, c)
                );
            }
        }
        assert_eq!(got.safest(&p).len(), 2);
    }

    #[test]
    fn an_inconsistent_position_names_the_cell() {
        let p = position("3 1 2\n#3#\n");
        let e = exact_probabilities(&p, ENGINE_NODE_BUDGET)
            .unwrap_err()
            .to_string();
        assert!(e.contains("row 1, column 2"), "{e}");
        // Each number fits on its own, but no placement fits them all.
        let p = position("3 2 2\n#1#\n111\n");
        let e = exact_probabilities(&p, ENGINE_NODE_BUDGET)
            .unwrap_err()
            .to_string();
        assert!(e.contains("inconsistent"), "{e}");
    }

    #[test]
    fn expert_sized_weights_stay_finite() {
        // An expert board after its first click: hundreds of unconstrained cells, C(F, R − m)
        // far beyond f64, and the probabilities still sum to the mine count.
        let p = super::super::generate::generate(30, 16, 99, 3).unwrap();
        let got = exact_probabilities(&p, ENGINE_NODE_BUDGET).unwrap();
        assert!(got.log10_layouts > 80.0, "{}", got.log10_layouts);
        let sum: f64 = got.p.iter().sum();
        assert!((sum - 99.0).abs() < 1e-6, "{sum}");
    }
}
