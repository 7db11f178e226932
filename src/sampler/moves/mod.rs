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
pub(super) mod run;

pub(super) use engines::{CsrEngine, Engine, GroupedEngine, MoveCsr};

use serde::{Deserialize, Serialize};

use crate::qubo::OneHotGroups;
use crate::rng::{Xoshiro128p, neg_ln_uniform};

/// Which moves a Metropolis sampler makes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MoveSet {
    /// Two-way when the model has two families that form a permutation of wide groups (edge
    /// matching), else single flips (see `held_families` for the measurements).
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
           groups are wide (edge matching), else flip",
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

/// Why the families `hold` names cannot be held.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HoldError {
    /// The model has no exactly-one groups.
    #[error("the model has no exactly-one groups to hold")]
    NoGroups,
    /// A name that is no family of the model.
    #[error("the model has no family of exactly-one groups named '{name}' (it has: {known})")]
    Unknown {
        /// The name given.
        name: String,
        /// The model's families.
        known: String,
    },
    /// A family named twice.
    #[error("the family '{0}' is named twice")]
    Twice(String),
    /// Families named for single flips.
    #[error("moves = flip holds no families")]
    Flip,
    /// One-hot moves hold one family.
    #[error("one-hot moves hold one family, not {0}")]
    OneHotTakesOne(usize),
    /// Two-way moves hold two families.
    #[error("two-way moves hold two families, not {0}")]
    TwoWayTakesTwo(usize),
    /// Two families that do not form a permutation.
    #[error(
        "'{0}' and '{1}' do not form a permutation (two-way moves need as many groups in each \
         over the same variables, every variable in one group of each)"
    )]
    NotAPermutation(String, String),
}

/// `auto` takes two-way moves when the permutation's groups hold at least this many
/// variables on average (see `MovePlan::new`).
const AUTO_MIN_GROUP: usize = 32;

fn mean_group_size(groups: &OneHotGroups, family: usize) -> usize {
    let f = &groups.families[family];
    f.num_variables() / f.groups.len().max(1)
}

/// Which groups a run holds by moves, and the tables its proposals read.
#[derive(Clone, Debug)]
pub(super) struct MovePlan {
    n: usize,
    /// Per variable: its held group of family A (NONE: a free variable, flipped alone).
    a_of: Vec<u32>,
    /// Per variable: its group of family B (two-way only).
    b_of: Vec<u32>,
    /// Per A group: its members as (B group, variable), sorted (a CSR by A group).
    a_start: Vec<u32>,
    a_list: Vec<(u32, u32)>,
    /// Per B group: its members as (A group, variable), sorted (built for the assignment
    /// step only, which may re-solve B groups instead of A groups).
    b_start: Vec<u32>,
    b_list: Vec<(u32, u32)>,
    num_b: usize,
    two_way: bool,
    /// Two-way moves with the exact assignment step between sweeps.
    assignment: bool,
    /// Two-way: per (A group, B group), where its members lie in `a_list` (`lo`, `hi`), when
    /// the table is small enough (else a binary search in the A group's members).
    cells: Vec<(u32, u32)>,
    /// Two-way: every non-empty intersection has the same size, so the proposal ratio is 1.
    uniform_cells: bool,
    /// Two-way: some intersection holds several variables (a piece's rotations in a cell), so
    /// half the proposals turn a group's 1 in place (see `MoveState::propose`).
    turns: bool,
    /// The held families' names, for reports.
    held: Vec<String>,
}

/// Most (A group, B group) entries a plan tabulates (8 bytes each).
const MAX_CELL_TABLE: usize = 1 << 22;

impl MovePlan {
    /// The plan for `set` on a model of `n` variables with these groups; `None` for single
    /// flips (asked for, or nothing to hold). Asking for two-way without a permutation pair
    /// falls back to one-hot (and says so through `describe`). `hold` names the families
    /// (`HOLD_PARAM`); an error says why they cannot be held.
    pub fn new(
        groups: Option<&OneHotGroups>,
        set: MoveSet,
        hold: Option<&str>,
        n: usize,
    ) -> Result<Option<MovePlan>, HoldError> {
        let Some((groups, (a, b))) = held(groups, set, hold, n)? else {
            return Ok(None);
        };
        let fa = &groups.families[a];
        let mut a_of = vec![NONE; n];
        for (g, vars) in fa.groups.iter().enumerate() {
            for &v in vars {
                a_of[v as usize] = g as u32;
            }
        }
        let mut b_of = vec![NONE; n];
        let mut held = vec![fa.name.clone()];
        let mut num_b = 0;
        if let Some(b) = b {
            let fb = &groups.families[b];
            for (g, vars) in fb.groups.iter().enumerate() {
                for &v in vars {
                    b_of[v as usize] = g as u32;
                }
            }
            num_b = fb.groups.len();
            held.push(fb.name.clone());
        }
        let mut a_start = vec![0u32];
        let mut a_list = Vec::with_capacity(fa.num_variables());
        for vars in &fa.groups {
            let mut members: Vec<(u32, u32)> =
                vars.iter().map(|&v| (b_of[v as usize], v)).collect();
            members.sort_unstable();
            a_list.extend(members);
            a_start.push(a_list.len() as u32);
        }
        let mut plan = MovePlan {
            n,
            a_of,
            b_of,
            a_start,
            a_list,
            b_start: Vec::new(),
            b_list: Vec::new(),
            num_b,
            two_way: b.is_some(),
            assignment: b.is_some() && set == MoveSet::Assignment,
            cells: Vec::new(),
            uniform_cells: false,
            turns: false,
            held,
        };
        if plan.two_way {
            let mut sizes = Vec::new();
            for a in 0..plan.num_a() as u32 {
                let m = plan.members(a);
                let mut k = 0;
                while k < m.len() {
                    let len = m[k..].partition_point(|t| t.0 == m[k].0);
                    sizes.push(len);
                    k += len;
                }
            }
            plan.uniform_cells = sizes.windows(2).all(|w| w[0] == w[1]);
            plan.turns = sizes.iter().any(|&k| k > 1);
            if plan.assignment {
                let mut by_b: Vec<(u32, u32, u32)> = (0..n as u32)
                    .filter(|&v| plan.b_of[v as usize] != NONE)
                    .map(|v| (plan.b_of[v as usize], plan.a_of[v as usize], v))
                    .collect();
                by_b.sort_unstable();
                plan.b_start = vec![0; num_b + 1];
                for &(b, _, _) in &by_b {
                    plan.b_start[b as usize + 1] += 1;
                }
                for b in 0..num_b {
                    plan.b_start[b + 1] += plan.b_start[b];
                }
                plan.b_list = by_b.into_iter().map(|(_, a, v)| (a, v)).collect();
            }
            if plan.num_a().saturating_mul(num_b) <= MAX_CELL_TABLE {
                let mut cells = vec![(0u32, 0u32); plan.num_a() * num_b];
                for a in 0..plan.num_a() {
                    let base = plan.a_start[a];
                    let m = plan.members(a as u32);
                    let mut k = 0;
                    while k < m.len() {
                        let len = m[k..].partition_point(|t| t.0 == m[k].0);
                        cells[a * num_b + m[k].0 as usize] =
                            (base + k as u32, base + (k + len) as u32);
                        k += len;
                    }
                }
                plan.cells = cells;
            }
        }
        Ok(Some(plan))
    }

    /// The plan a sampler's `moves` and `hold` make on `model` (`new`), a refusal being an
    /// invalid `hold` parameter.
    pub fn for_model(
        model: &dyn crate::qubo::Model,
        set: MoveSet,
        hold: Option<&str>,
    ) -> Result<Option<MovePlan>, crate::sampler::SampleError> {
        MovePlan::new(model.one_hot(), set, hold, model.num_variables()).map_err(|e| {
            crate::sampler::SampleError::InvalidParameter {
                name: "hold",
                message: e.to_string(),
            }
        })
    }

    /// Which moves these are ("assignment", "two-way" or "one-hot").
    pub fn kind(&self) -> &'static str {
        match (self.assignment, self.two_way) {
            (true, _) => "assignment",
            (false, true) => "two-way",
            (false, false) => "one-hot",
        }
    }

    /// Whether runs take the exact assignment step between sweeps.
    pub fn assigns(&self) -> bool {
        self.assignment
    }

    /// The held families' names.
    pub fn held(&self) -> &[String] {
        &self.held
    }

    /// What the moves hold, in a sentence for reports.
    pub fn describe(&self) -> String {
        sentence(&self.held, self.two_way, self.assignment)
    }

    fn num_a(&self) -> usize {
        self.a_start.len() - 1
    }

    /// Members of A group `a`.
    fn members(&self, a: u32) -> &[(u32, u32)] {
        &self.a_list[self.a_start[a as usize] as usize..self.a_start[a as usize + 1] as usize]
    }

    /// Members of B group `b` as (A group, variable) (plans with the assignment step only).
    fn members_b(&self, b: u32) -> &[(u32, u32)] {
        &self.b_list[self.b_start[b as usize] as usize..self.b_start[b as usize + 1] as usize]
    }

    /// Members of A group `a` that are in B group `b`.
    #[inline(always)]
    fn intersection(&self, a: u32, b: u32) -> &[(u32, u32)] {
        if !self.cells.is_empty() {
            let (lo, hi) = self.cells[a as usize * self.num_b + b as usize];
            return &self.a_list[lo as usize..hi as usize];
        }
        let m = self.members(a);
        let lo = m.partition_point(|t| t.0 < b);
        let hi = lo + m[lo..].partition_point(|t| t.0 == b);
        &m[lo..hi]
    }

    /// Whether `x` satisfies every held group.
    pub fn holds(&self, x: &[u8]) -> bool {
        let mut in_a = vec![0u32; self.num_a()];
        let mut in_b = vec![0u32; self.num_b];
        for (v, &bit) in x.iter().enumerate() {
            if bit != 0 && self.a_of[v] != NONE {
                in_a[self.a_of[v] as usize] += 1;
                if self.two_way {
                    in_b[self.b_of[v] as usize] += 1;
                }
            }
        }
        in_a.iter().chain(&in_b).all(|&c| c == 1)
    }

    /// A random state that satisfies the held groups (free variables at random); `None` when
    /// the two families admit no joint assignment (no perfect matching).
    pub fn random_start(&self, rng: &mut Xoshiro128p) -> Option<Vec<u8>> {
        let mut x: Vec<u8> = (0..self.n)
            .map(|v| {
                let bit = (rng.next_u32() >> 31) as u8;
                if self.a_of[v] == NONE { bit } else { 0 }
            })
            .collect();
        if !self.two_way {
            for a in 0..self.num_a() as u32 {
                let m = self.members(a);
                x[m[below(rng.next_u32(), m.len())].1 as usize] = 1;
            }
            return Some(x);
        }
        let matched = self.random_matching(rng)?;
        for (a, &b) in matched.iter().enumerate() {
            let cell = self.intersection(a as u32, b);
            x[cell[below(rng.next_u32(), cell.len())].1 as usize] = 1;
        }
        Some(x)
    }

    /// A perfect matching of A groups to B groups along non-empty intersections, by
    /// augmenting paths (Kuhn) in a random order; `None` when there is none.
    fn random_matching(&self, rng: &mut Xoshiro128p) -> Option<Vec<u32>> {
        let num_a = self.num_a();
        if num_a != self.num_b {
            return None;
        }
        // Distinct B neighbours per A group, each list rotated at random.
        let adjacency: Vec<Vec<u32>> = (0..num_a as u32)
            .map(|a| {
                let mut bs: Vec<u32> = self.members(a).iter().map(|t| t.0).collect();
                bs.dedup();
                let k = below(rng.next_u32(), bs.len().max(1));
                bs.rotate_left(k);
                bs
            })
            .collect();
        let mut order: Vec<u32> = (0..num_a as u32).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, below(rng.next_u32(), i + 1));
        }
        let mut owner = vec![NONE; self.num_b];
        let mut seen = vec![0u32; self.num_b];
        for (round, &a) in order.iter().enumerate() {
            if !augment(a, &adjacency, &mut owner, &mut seen, round as u32 + 1) {
                return None;
            }
        }
        let mut matched = vec![NONE; num_a];
        for (b, &a) in owner.iter().enumerate() {
            matched[a as usize] = b as u32;
        }
        Some(matched)
    }
}

/// Family A, and B for two-way moves (indices into `OneHotGroups::families`).
type Held = (usize, Option<usize>);

/// The groups and the families `set` holds on them, or `hold` names; `None` for single flips
/// or a model without groups (an error when `hold` names families there).
fn held<'g>(
    groups: Option<&'g OneHotGroups>,
    set: MoveSet,
    hold: Option<&str>,
    n: usize,
) -> Result<Option<(&'g OneHotGroups, Held)>, HoldError> {
    // An empty text (a cleared field in the window) is unset.
    let hold = hold.map(str::trim).filter(|h| !h.is_empty());
    let Some(groups) = groups.filter(|g| !g.is_empty()) else {
        return match hold {
            Some(_) => Err(HoldError::NoGroups),
            None => Ok(None),
        };
    };
    Ok(held_families(groups, set, hold, n)?.map(|pair| (groups, pair)))
}

/// The families `set` holds on these groups (A, and B for two-way), or the families `hold`
/// names; `None` for single flips.
fn held_families(
    groups: &OneHotGroups,
    set: MoveSet,
    hold: Option<&str>,
    n: usize,
) -> Result<Option<(usize, Option<usize>)>, HoldError> {
    if let Some(hold) = hold {
        return named_families(groups, set, hold, n).map(Some);
    }
    let pair = match set {
        MoveSet::Flip => return Ok(None),
        MoveSet::OneHot => match groups.widest() {
            Some(a) => (a, None),
            None => return Ok(None),
        },
        MoveSet::TwoWay | MoveSet::Assignment => match (groups.two_way, groups.widest()) {
            (Some([a, b]), _) => (a, Some(b)),
            (None, Some(a)) => (a, None),
            (None, None) => return Ok(None),
        },
        // Moves pay where the groups are wide: a single flip then climbs a wall that a
        // move steps around, while small groups are crossed quickly by the SIMD flip
        // kernels (which are 10–15× cheaper per step). Measured on 2 cores: a random 8×8
        // edge board (groups of ~250 placements), PT 40 s: two-way 109/112 against 105
        // with flips; Euler96 #1, full Sudoku model (groups of 9), 16 PT ladders to the
        // target: flips 0.9 s, two-way 60 s (94 %). The exact assignment step on top is not
        // auto's choice: Eternity II, PT 60 s, 405–408/480 against 396–403 two-way alone, but
        // 423 after 10 min (two-way: 431 last round); random 8×8 boards 108–110/112 either
        // way; top95 #1–5 full model (rows re-solved) 0/5 either way. Sudoku's cells ×
        // box-digits pair (`hold = cell,box`) beats the default cells × row-digits (top95
        // #1–6, SA 100 × 5 000: 6/6 against 1/6 end one step above the ground) but flips get
        // there on 5/6 in a thirtieth of the time, so auto stays with flips for groups of 9.
        MoveSet::Auto => match groups.two_way {
            Some([a, b]) if mean_group_size(groups, a) >= AUTO_MIN_GROUP => (a, Some(b)),
            _ => return Ok(None),
        },
    };
    Ok(Some(pair))
}

/// The families a `hold` text names ("cell" or "cell,box"), checked against `set`: one name
/// for one-hot, two forming a permutation for two-way and assignment, either for auto.
fn named_families(
    groups: &OneHotGroups,
    set: MoveSet,
    hold: &str,
    n: usize,
) -> Result<(usize, Option<usize>), HoldError> {
    let names: Vec<&str> = hold.split(',').map(str::trim).collect();
    let mut found = Vec::new();
    for name in &names {
        match groups.family(name) {
            Some(k) if !found.contains(&k) => found.push(k),
            Some(_) => return Err(HoldError::Twice(name.to_string())),
            None => {
                return Err(HoldError::Unknown {
                    name: name.to_string(),
                    known: groups
                        .families
                        .iter()
                        .map(|f| f.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
        }
    }
    match (set, found.as_slice()) {
        (MoveSet::Flip, _) => Err(HoldError::Flip),
        (MoveSet::OneHot | MoveSet::Auto, &[a]) => Ok((a, None)),
        (MoveSet::OneHot, _) => Err(HoldError::OneHotTakesOne(found.len())),
        (MoveSet::TwoWay | MoveSet::Assignment | MoveSet::Auto, &[a, b]) => {
            if groups.is_permutation_pair(n, a, b) {
                Ok((a, Some(b)))
            } else {
                Err(HoldError::NotAPermutation(
                    names[0].to_string(),
                    names[1].to_string(),
                ))
            }
        }
        _ => Err(HoldError::TwoWayTakesTwo(found.len())),
    }
}

/// What `set` holds on a model with these groups, in the words reports use ("cell and row
/// groups held by two-way moves; …"), or `None` when it makes single flips: for the window's
/// solver panel before a run (cheap: no tables are built).
/// An error says why `hold`'s families cannot be held.
pub fn describe(
    groups: Option<&OneHotGroups>,
    set: MoveSet,
    hold: Option<&str>,
    n: usize,
) -> Result<Option<String>, HoldError> {
    let Some((groups, (a, b))) = held(groups, set, hold, n)? else {
        return Ok(None);
    };
    let mut held = vec![groups.families[a].name.clone()];
    held.extend(b.map(|b| groups.families[b].name.clone()));
    Ok(Some(sentence(
        &held,
        b.is_some(),
        b.is_some() && set == MoveSet::Assignment,
    )))
}

fn sentence(held: &[String], two_way: bool, assignment: bool) -> String {
    format!(
        "{} groups held by {} moves; their penalty terms are constant{}",
        held.join(" and "),
        if two_way { "two-way" } else { "one-hot" },
        if assignment {
            "; after every sweep up to 64 groups are re-solved exactly as an assignment problem"
        } else {
            ""
        }
    )
}

/// Kuhn's augmenting path from A group `a` (iterative, so large families cannot overflow the
/// stack): true when `a` got a B group.
fn augment(a: u32, adjacency: &[Vec<u32>], owner: &mut [u32], seen: &mut [u32], mark: u32) -> bool {
    // Stack of (A group, next neighbour index); `via[k]` = the B group frame k+1 came through.
    let mut stack: Vec<(u32, usize)> = vec![(a, 0)];
    let mut via: Vec<u32> = Vec::new();
    while let Some(&mut (x, ref mut next)) = stack.last_mut() {
        let neighbours = &adjacency[x as usize];
        if *next >= neighbours.len() {
            stack.pop();
            via.pop();
            continue;
        }
        let b = neighbours[*next];
        *next += 1;
        if seen[b as usize] == mark {
            continue;
        }
        seen[b as usize] = mark;
        if owner[b as usize] == NONE {
            // Flip the path: each frame's A group takes the B group it reached next.
            owner[b as usize] = x;
            for k in (0..via.len()).rev() {
                owner[via[k] as usize] = stack[k].0;
            }
            return true;
        }
        via.push(b);
        stack.push((owner[b as usize], 0));
    }
    false
}

/// Records in a run's `info` which moves ran and what they held (`params.moves`, the held
/// families in `params.held_groups`, the sentence in `details.moves`).
pub(super) fn record(info: &mut super::SampleInfo, plan: &MovePlan) {
    if let Some(obj) = info.params.as_object_mut() {
        obj.insert("moves".into(), serde_json::json!(plan.kind()));
        obj.insert("held_groups".into(), serde_json::json!(plan.held()));
    }
    info.details
        .insert("moves".into(), serde_json::json!(plan.describe()));
}

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

/// A β range for moves on this model, when none is given: from a random held state, proposals
/// accepted at β = 0 show the uphill steps a move can take. Hot: the 90th percentile of them
/// is accepted half the time; cold: the smallest is accepted 1 % of the time (dwave-samplers'
/// rule, on moves instead of flips).
pub(super) fn beta_range<E: Engine>(
    plan: &MovePlan,
    mut state: MoveState<E>,
    rng: &mut Xoshiro128p,
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
    if uphill.is_empty() {
        return (0.1, 1.0);
    }
    uphill.sort_unstable_by(f64::total_cmp);
    let p90 = uphill[uphill.len() * 9 / 10];
    let smallest = uphill[0];
    let hot = std::f64::consts::LN_2 / p90;
    let cold = (100f64).ln() / smallest;
    (hot, cold.max(hot))
}

#[cfg(test)]
mod tests;
