//! The exact reference: depth-first branch and bound over the bits, within a node budget.
//! Each linear constraint keeps its assigned sum and the range the unassigned terms can still
//! add, so a branch that can no longer satisfy one is cut; the objective keeps a lower bound
//! (assigned terms exactly, each open term at its most favourable), so a branch that cannot
//! beat the best feasible assignment is cut. It finds the optimum and whether a second
//! assignment ties it.

use super::model::{ConstrainedModel, Direction, Expr, Sense};

/// What the search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The best feasible assignment (bits) and its objective, if any was found.
    pub best: Option<(Vec<u8>, f64)>,
    /// A second feasible assignment with the same objective, if the search met one.
    pub tie: Option<Vec<u8>>,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the budget ran out before the search finished (then `best` is only the best
    /// found, and "none" means unknown).
    pub gave_up: bool,
}

/// A term of the minimised objective or of a constraint, in bits.
struct Row {
    /// Σ over assigned terms.
    assigned: f64,
    /// Σ min(0, a) over open terms (what they can still lower it by).
    open_lo: f64,
    /// Σ max(0, a) over open terms.
    open_hi: f64,
    sense: Sense,
    target: f64,
    /// Required (soft constraints are not).
    hard: bool,
}

/// Term updates a node may cost on average before the search stops (see `Solver::work`).
const WORK_PER_NODE: u64 = 64;

/// One term touching a variable: (row, the other variable or `u32::MAX`, coefficient).
type Touch = (u32, u32, f64);

struct Solver {
    n: usize,
    /// Row 0 is the objective (minimised); then the constraints.
    rows: Vec<Row>,
    touches: Vec<Vec<Touch>>,
    value: Vec<i8>,
    nodes: u64,
    budget: u64,
    /// Term updates made (`set`), held to `WORK_PER_NODE` × the node budget: a node of a
    /// dense model costs its variable's thousand terms (a 2 000-variable QPLIB model spent
    /// 41 s on 5·10⁶ nodes before this).
    work: u64,
    best: Option<(Vec<u8>, f64)>,
    tie: Option<Vec<u8>>,
    tolerance: f64,
}

/// A term's contribution while some of its variables are open: (lo, hi).
fn open_range(c: f64, states: &[i8]) -> (f64, f64) {
    if states.contains(&0) {
        return (0.0, 0.0);
    }
    if states.iter().all(|&s| s == 1) {
        return (c, c);
    }
    (c.min(0.0), c.max(0.0))
}

impl Solver {
    fn new(model: &ConstrainedModel) -> Solver {
        let n = model.variables.len();
        let sign = match model.direction {
            Direction::Minimize => 1.0,
            Direction::Maximize => -1.0,
        };
        let mut rows = Vec::new();
        let mut touches: Vec<Vec<Touch>> = vec![Vec::new(); n];
        let mut add = |e: &Expr, sense: Sense, target: f64, hard: bool, scale: f64| {
            let r = rows.len() as u32;
            let mut row = Row {
                assigned: scale * e.constant,
                open_lo: 0.0,
                open_hi: 0.0,
                sense,
                target,
                hard,
            };
            for &(i, a) in &e.linear {
                let a = scale * a;
                row.open_lo += a.min(0.0);
                row.open_hi += a.max(0.0);
                touches[i as usize].push((r, u32::MAX, a));
            }
            for &(i, j, b) in &e.quadratic {
                let b = scale * b;
                row.open_lo += b.min(0.0);
                row.open_hi += b.max(0.0);
                touches[i as usize].push((r, j, b));
                touches[j as usize].push((r, i, b));
            }
            rows.push(row);
        };
        add(
            &model.objective.to_binary(&model.variables),
            Sense::Le,
            f64::INFINITY,
            false,
            sign,
        );
        for c in &model.constraints {
            add(
                &c.lhs.to_binary(&model.variables),
                c.sense,
                c.rhs,
                c.is_hard(),
                1.0,
            );
        }
        Solver {
            n,
            rows,
            touches,
            value: vec![-1; n],
            nodes: 0,
            budget: 0,
            work: 0,
            best: None,
            tie: None,
            tolerance: super::model::FEASIBILITY_TOLERANCE,
        }
    }

    /// Sets (or clears, `v` = −1) variable `i`, keeping every row's sums.
    fn set(&mut self, i: usize, v: i8) {
        self.work += self.touches[i].len() as u64;
        for k in 0..self.touches[i].len() {
            let (r, other, c) = self.touches[i][k];
            let other_state = if other == u32::MAX {
                1
            } else {
                self.value[other as usize]
            };
            let before = open_or_fixed(c, &[self.value[i], other_state]);
            let after = open_or_fixed(c, &[v, other_state]);
            let row = &mut self.rows[r as usize];
            row.assigned += after.0 - before.0;
            row.open_lo += after.1 - before.1;
            row.open_hi += after.2 - before.2;
        }
        self.value[i] = v;
    }

    /// Whether a hard row can still hold.
    fn can_hold(&self, row: &Row) -> bool {
        let lo = row.assigned + row.open_lo;
        let hi = row.assigned + row.open_hi;
        match row.sense {
            Sense::Le => lo <= row.target + self.tolerance,
            Sense::Ge => hi >= row.target - self.tolerance,
            Sense::Eq => lo <= row.target + self.tolerance && hi >= row.target - self.tolerance,
        }
    }

    fn search(&mut self, depth: usize, touched: usize) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget || self.work > self.budget.saturating_mul(WORK_PER_NODE) {
            return false;
        }
        // The rows the last assignment moved (all, at the root) must still be satisfiable.
        let check = |s: &Solver, r: usize| !s.rows[r].hard || s.can_hold(&s.rows[r]);
        if depth > 0 {
            for k in 0..self.touches[touched].len() {
                let r = self.touches[touched][k].0 as usize;
                if r > 0 && !check(self, r) {
                    return true;
                }
            }
        } else if !(1..self.rows.len()).all(|r| check(self, r)) {
            return true;
        }
        let obj = &self.rows[0];
        let bound = obj.assigned + obj.open_lo;
        if let Some((_, best)) = &self.best
            && bound > best + self.tolerance * best.abs().max(1.0)
        {
            return true;
        }
        if depth == self.n {
            let value = obj.assigned;
            let bits: Vec<u8> = self.value.iter().map(|&v| v as u8).collect();
            match &self.best {
                Some((_, best)) if (value - best).abs() <= self.tolerance * best.abs().max(1.0) => {
                    if self.tie.is_none() {
                        self.tie = Some(bits);
                    }
                }
                Some((_, best)) if value > *best => {}
                _ => {
                    self.best = Some((bits, value));
                    self.tie = None;
                }
            }
            return true;
        }
        for v in [0i8, 1] {
            self.set(depth, v);
            let finished = self.search(depth + 1, depth);
            self.set(depth, -1);
            if !finished {
                return false;
            }
        }
        true
    }
}

/// A term's (assigned, open lo, open hi) parts given its variables' states (−1 open).
fn open_or_fixed(c: f64, states: &[i8]) -> (f64, f64, f64) {
    if states.iter().all(|&s| s >= 0) {
        let on = states.iter().all(|&s| s == 1);
        return (if on { c } else { 0.0 }, 0.0, 0.0);
    }
    let (lo, hi) = open_range(c, states);
    (0.0, lo, hi)
}

/// The best feasible assignment within `node_budget` nodes.
pub fn search(model: &ConstrainedModel, node_budget: u64) -> Search {
    let mut s = Solver::new(model);
    s.budget = node_budget;
    let finished = s.search(0, 0);
    let sign = match model.direction {
        Direction::Minimize => 1.0,
        Direction::Maximize => -1.0,
    };
    Search {
        best: s.best.map(|(bits, v)| (bits, sign * v)),
        tie: s.tie,
        nodes: s.nodes.min(node_budget),
        gave_up: !finished,
    }
}
