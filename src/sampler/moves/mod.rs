//! Constraint-preserving moves for the Metropolis samplers (SA, PT): instead of flipping one
//! bit, which must climb a penalty wall to get from one valid assignment to the next, a move
//! keeps the model's exactly-one groups (`qubo::OneHotGroups`) satisfied:
//! - *one-hot*: move the 1 of a group to another of its variables (two bits);
//! - *two-way*: for two families that form a permutation (cells × pieces, cells × row-digits),
//!   exchange two assignments (four bits), or move the 1 inside both groups at once (a piece
//!   turning in place), so both families stay satisfied.
//!
//! Variables outside the held groups flip one at a time. The held groups' penalty terms are
//! then constant; every other term stays a penalty, and ΔE is the model's own, exactly.
//!
//! A *sweep* is n proposals, each at a uniformly drawn variable v (random scan, so each
//! proposal is reversible on its own): a free v flips; a held v = 0 becomes its group's 1 (the
//! group's current 1 turns off), and with two families the 1 of v's other group moves to where
//! the first one was (a variable w in the intersection of the two vacated groups, drawn
//! uniformly). Metropolis–Hastings accepts with min(1, e^(−βΔE)·q_back/q_forth), where the
//! proposal ratio counts the intersections' sizes (1 when they are all equal), so at a fixed β
//! the states visited follow the Boltzmann distribution restricted to the held groups.
//!
//! Invariant: `MoveState::one_a[g]` is the variable that is 1 in held group g of family A (and
//! `one_b` of family B); the engine's sums or fields are those of its state (`engines`).

pub(super) mod assignment;
mod engines;
pub(super) mod ladder;
pub(super) mod lanes;
mod plan;
pub(super) mod run;

pub(super) use engines::{CsrEngine, Engine, GroupedEngine, MoveCsr};
pub use plan::{HoldError, describe, kind_for};
pub(super) use plan::{MovePlan, record};

use serde::{Deserialize, Serialize};

use crate::qubo::OneHotGroups;
use crate::rng::{Xoshiro128p, neg_ln_uniform};

/// Which moves a Metropolis sampler makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveSet {
    /// Two-way when the model has two families that form a permutation of wide groups (edge
    /// matching), one-hot on the widest family when no two form a permutation (Numberlink's
    /// cells), else single flips (see `held_families` for the measurements).
    #[default]
    Auto,
    /// Single-bit flips (the plain Metropolis sampler).
    Flip,
    /// Move the 1 inside the groups of the widest family.
    OneHot,
    /// Exchange assignments between two families that form a permutation.
    TwoWay,
    /// Two-way moves, and after every sweep an exact re-solve of a set of groups as an
    /// assignment problem (`assignment`).
    Assignment,
}

/// The parameter's words, in `MoveSet` order after `auto`.
pub const MOVE_WORDS: &[&str] = &["auto", "flip", "one-hot", "two-way", "assignment"];

/// The `moves` parameter, shared by SA and PT.
pub const MOVES_PARAM: crate::params::ParamSpec = crate::params::ParamSpec {
    name: "moves",
    ty: crate::params::ParamType::Choice(MOVE_WORDS),
    default: crate::params::ParamDefault::Word("auto"),
    help: "flip: one bit at a time; one-hot: move the 1 inside each exactly-one group (a cell's \
           digit), keeping those groups satisfied; two-way: exchange assignments between two \
           families of groups that form a permutation (cells × pieces, cells × row-digits); \
           assignment: two-way, and after every sweep up to 64 groups re-solved exactly as an \
           assignment problem (the best refill of their pieces or digits); auto: two-way where the \
           groups are wide (edge matching), one-hot where no two families form a permutation \
           (Numberlink's cells), else flip",
    alias: None,
    exposed: true,
};

/// The `hold` parameter, shared by SA and PT: which families the moves hold, by name.
pub const HOLD_PARAM: crate::params::ParamSpec = crate::params::ParamSpec {
    name: "hold",
    ty: crate::params::ParamType::Text { max_len: 200 },
    default: crate::params::ParamDefault::Auto(
        "as moves chooses: the widest family for one-hot, the first permutation pair for two-way",
    ),
    help: "the exactly-one families moves hold, by their groups' label names: one for one-hot \
           (cell), two that form a permutation for two-way and assignment (cell,box: Sudoku's \
           cells × box-digits, Lewis's box permutations, where the default pair is cells × \
           row-digits); with moves = auto, one name makes one-hot moves and two make two-way",
    alias: None,
    exposed: true,
};

const NONE: u32 = u32::MAX;

/// A uniform index below `n` from 32 random bits.
#[inline(always)]
pub(super) fn below(r: u32, n: usize) -> usize {
    ((r as u64 * n as u64) >> 32) as usize
}

/// One read's state under moves: the engine (state with its fields or sums), the current 1 of
/// every held group, and the running energy.
pub(super) struct MoveState<E> {
    pub engine: E,
    one_a: Vec<u32>,
    one_b: Vec<u32>,
    /// The running energy (exact ΔE added up; resynchronised by `resync`).
    pub energy: f64,
    /// Accepted proposals since the counter was last cleared.
    pub accepted: u64,
}

impl<E: Engine> MoveState<E> {
    /// The state of `engine`, which must satisfy the plan's held groups.
    pub fn new(plan: &MovePlan, engine: E) -> Self {
        let mut one_a = vec![NONE; plan.num_a()];
        let mut one_b = vec![NONE; plan.num_b];
        for v in 0..plan.n {
            if plan.a_of[v] != NONE && engine.bit(v) {
                one_a[plan.a_of[v] as usize] = v as u32;
                if plan.two_way {
                    one_b[plan.b_of[v] as usize] = v as u32;
                }
            }
        }
        let energy = engine.energy();
        MoveState {
            engine,
            one_a,
            one_b,
            energy,
            accepted: 0,
        }
    }

    /// Recomputes the engine's sums and the energy from the state (rounding never piles up).
    pub fn resync(&mut self) {
        self.engine.resync();
        self.energy = self.engine.energy();
    }

    /// One sweep (n proposals) at inverse temperature `beta`. Inlined into the callers' AVX2
    /// bodies (`with_avx2!`), where the thresholds' fused multiply-adds are instructions.
    #[inline(always)]
    pub fn sweep(&mut self, plan: &MovePlan, rng: &mut Xoshiro128p, beta: f64) {
        let inv_beta = if beta > 0.0 { 1.0 / beta } else { f64::MAX };
        for _ in 0..plan.n {
            self.propose(plan, rng, beta, inv_beta);
        }
    }

    /// One proposal at a random variable (see the module header).
    #[inline(always)]
    fn propose(&mut self, plan: &MovePlan, rng: &mut Xoshiro128p, beta: f64, inv_beta: f64) {
        let r = rng.next_u32();
        let threshold = neg_ln_uniform(rng.next_u32()) as f64 * inv_beta;
        if plan.turns && r & 1 == 0 {
            // A turn: a random A group's 1 moves to another variable of the same (A, B) pair
            // (a piece turns in place). Uniform both ways, so it is reversible by itself; an
            // exchange picked at random below would find one only once in |A| tries.
            let ga = below(rng.next_u32(), plan.num_a()) as u32;
            let a = self.one_a[ga as usize];
            let gb = plan.b_of[a as usize];
            let cell = plan.intersection(ga, gb);
            let v = cell[below(rng.next_u32(), cell.len())].1;
            if v != a && self.attempt(&[a, v], threshold) {
                self.one_a[ga as usize] = v;
                self.one_b[gb as usize] = v;
            }
            return;
        }
        let v = below(rng.next_u32(), plan.n) as u32;
        let ga = plan.a_of[v as usize];
        if ga == NONE {
            self.attempt(&[v], threshold);
            return;
        }
        let a = self.one_a[ga as usize];
        if a == v {
            return;
        }
        if !plan.two_way {
            if self.attempt(&[a, v], threshold) {
                self.one_a[ga as usize] = v;
            }
            return;
        }
        let gb = plan.b_of[v as usize];
        let b = self.one_b[gb as usize];
        if a == b {
            // v shares both groups with the current 1: it moves in place (a piece turns).
            if self.attempt(&[a, v], threshold) {
                self.one_a[ga as usize] = v;
                self.one_b[gb as usize] = v;
            }
            return;
        }
        // Exchange: v takes a's A group and b's B group; w, in b's A group and a's B group,
        // takes the other two.
        let (a2, b1) = (plan.a_of[b as usize], plan.b_of[a as usize]);
        let cell = plan.intersection(a2, b1);
        let w = match cell.len() {
            0 => return,
            1 => cell[0].1,
            k => cell[below(rng.next_u32(), k)].1,
        };
        // Proposal ratio q_back / q_forth (forth: from v or from w; back: from a or from b).
        let bonus = if plan.uniform_cells {
            0.0
        } else {
            let forth_v = plan.intersection(ga, gb).len();
            let back_a = plan.intersection(ga, b1).len();
            let back_b = plan.intersection(a2, gb).len();
            let forth = 1.0 / cell.len() as f64 + 1.0 / forth_v as f64;
            let back = 1.0 / back_b as f64 + 1.0 / back_a as f64;
            if back == forth {
                0.0
            } else {
                (back / forth).ln() / beta.max(f64::MIN_POSITIVE)
            }
        };
        if self.attempt(&[a, b, v, w], threshold + bonus) {
            self.one_a[ga as usize] = v;
            self.one_b[gb as usize] = v;
            self.one_a[a2 as usize] = w;
            self.one_b[b1 as usize] = w;
        }
    }

    /// Makes `change` when its ΔE ≤ `threshold`; whether it did.
    #[inline(always)]
    fn attempt(&mut self, change: &[u32], threshold: f64) -> bool {
        match self.engine.try_change(change, threshold) {
            Some(de) => {
                self.energy += de;
                self.accepted += 1;
                true
            }
            None => false,
        }
    }
}

/// What a β range from the moves is for: the two differ in their cold end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sampler) enum RangeFor {
    /// An anneal, which must end frozen: its cold end freezes even the smallest uphill step.
    Annealing,
    /// A tempering ladder, whose coldest replica only has to find low states, not stay in
    /// them (the ladder keeps the best state it visits): its cold end leaves steps under an
    /// eighth of the median unfrozen.
    Tempering,
}

/// A β range for moves on this model, when none is given: from a random held state, proposals
/// accepted at β = 0 show the uphill steps a move can take (`range_from_uphill`).
pub(super) fn beta_range<E: Engine>(
    plan: &MovePlan,
    mut state: MoveState<E>,
    rng: &mut Xoshiro128p,
    used_for: RangeFor,
) -> (f64, f64) {
    let proposals = (plan.n * 4).clamp(2_000, 200_000);
    let mut uphill = Vec::with_capacity(proposals);
    let tolerance = crate::qubo::running_tolerance(state.energy);
    for _ in 0..proposals {
        let before = state.energy;
        state.propose(plan, rng, 0.0, f64::MAX);
        let de = state.energy - before;
        if de > tolerance {
            uphill.push(de);
        }
    }
    range_from_uphill(&mut uphill, used_for)
}

/// A ladder's cold end freezes uphill steps down to this share of the median step, not the
/// smaller ones (see `range_from_uphill`).
const TEMPERING_SMALLEST_STEP: f64 = 1.0 / 8.0;

/// The β range from a sample of uphill steps. Hot: the 90th percentile of them is accepted
/// half the time. Cold, for an anneal: the smallest is accepted 1 % of the time
/// (dwave-samplers' rule, on moves instead of flips); for a ladder, the smallest step of at
/// least an eighth of the median is. Numberlink's cell model has soft terms of 1/8
/// (`touch`), about 5 % of its uphill steps, against a median step near 4 and the next steps
/// 7/8 and up: freezing them put the cold end at β 37, where the coldest 4–5 replicas of 16
/// only repeated one another (swap rates 0.3–0.6) while the pair where paths form swapped 2–4 %
/// of the time. Measured on Janko p075 without presolve, one ladder on one core, seeds 1–6:
/// 27–56 s to the answer and 2 of 6 never within 60 s at β 0.08…37 (pilot-placed); 1.9–13 s
/// and 1 of 6 at 0.08…5.3 (the 7/8 step's). A percentile instead of the median's share was
/// tried and is not robust: the 10th percentile moved with the random start, and on p063 it
/// put the cold end at β 2.5, where no replica came near the answer.
fn range_from_uphill(uphill: &mut [f64], used_for: RangeFor) -> (f64, f64) {
    if uphill.is_empty() {
        return (0.1, 1.0);
    }
    uphill.sort_unstable_by(f64::total_cmp);
    let p90 = uphill[uphill.len() * 9 / 10];
    let coldest_step = match used_for {
        RangeFor::Annealing => uphill[0],
        RangeFor::Tempering => {
            let floor = uphill[uphill.len() / 2] * TEMPERING_SMALLEST_STEP;
            let first = uphill.partition_point(|&de| de < floor);
            uphill[first.min(uphill.len() - 1)]
        }
    };
    let hot = std::f64::consts::LN_2 / p90;
    let cold = (100f64).ln() / coldest_step;
    (hot, cold.max(hot))
}

#[cfg(test)]
mod tests;
