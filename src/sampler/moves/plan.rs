//! Which groups a run's moves hold, and how (`MovePlan`): the exactly-one families chosen or
//! named, the two-way pairing between them, and the sentence a run reports about them.

use super::*;

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
pub(in crate::sampler) struct MovePlan {
    pub(super) n: usize,
    /// Per variable: its held group of family A (NONE: a free variable, flipped alone).
    pub(super) a_of: Vec<u32>,
    /// Per variable: its group of family B (two-way only).
    pub(super) b_of: Vec<u32>,
    /// Per A group: its members as (B group, variable), sorted (a CSR by A group).
    pub(super) a_start: Vec<u32>,
    pub(super) a_list: Vec<(u32, u32)>,
    /// Per B group: its members as (A group, variable), sorted (built for the assignment
    /// step only, which may re-solve B groups instead of A groups).
    pub(super) b_start: Vec<u32>,
    pub(super) b_list: Vec<(u32, u32)>,
    pub(super) num_b: usize,
    pub(super) two_way: bool,
    /// Two-way moves with the exact assignment step between sweeps.
    pub(super) assignment: bool,
    /// Two-way: per (A group, B group), where its members lie in `a_list` (`lo`, `hi`), when
    /// the table is small enough (else a binary search in the A group's members).
    pub(super) cells: Vec<(u32, u32)>,
    /// Two-way: every non-empty intersection has the same size, so the proposal ratio is 1.
    pub(super) uniform_cells: bool,
    /// Two-way: some intersection holds several variables (a piece's rotations in a cell), so
    /// half the proposals turn a group's 1 in place (see `MoveState::propose`).
    pub(super) turns: bool,
    /// The held families' names, for reports.
    pub(super) held: Vec<String>,
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
        let (two_way, assignment) = flags(b, set);
        let mut plan = MovePlan {
            n,
            a_of,
            b_of,
            a_start,
            a_list,
            b_start: Vec::new(),
            b_list: Vec::new(),
            num_b,
            two_way,
            assignment,
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
        kind_name(self.two_way, self.assignment)
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

    pub(super) fn num_a(&self) -> usize {
        self.a_start.len() - 1
    }

    /// Members of A group `a`.
    pub(super) fn members(&self, a: u32) -> &[(u32, u32)] {
        &self.a_list[self.a_start[a as usize] as usize..self.a_start[a as usize + 1] as usize]
    }

    /// Members of B group `b` as (A group, variable) (plans with the assignment step only).
    pub(super) fn members_b(&self, b: u32) -> &[(u32, u32)] {
        &self.b_list[self.b_start[b as usize] as usize..self.b_start[b as usize + 1] as usize]
    }

    /// Members of A group `a` that are in B group `b`.
    #[inline(always)]
    pub(super) fn intersection(&self, a: u32, b: u32) -> &[(u32, u32)] {
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
    pub(super) fn random_matching(&self, rng: &mut Xoshiro128p) -> Option<Vec<u32>> {
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
        //
        // Families with no two that form a permutation (Numberlink's cells, each on one path,
        // beside its endpoints' edges) have their widest held by one-hot moves: a flip there
        // must pass through a cell on no path or on two, while a move changes its path in one
        // step and the edge terms judge it.
        // Measured on 2 cores, PT, Janko puzzles without presolve, 60 s each: 10×10 (the first
        // 16) 14 solved against 7 with flips, 9×9 16 of 16 (median 4.4 s) against 15 (12 s).
        MoveSet::Auto => match (groups.two_way, groups.widest()) {
            (Some([a, b]), _) if mean_group_size(groups, a) >= AUTO_MIN_GROUP => (a, Some(b)),
            (None, Some(a)) => (a, None),
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
    let (two_way, assignment) = flags(b, set);
    Ok(Some(sentence(&held, two_way, assignment)))
}

/// Whether the held families make two-way moves (a second family, B) and the assignment step
/// (two-way under `MoveSet::Assignment`).
fn flags(b: Option<usize>, set: MoveSet) -> (bool, bool) {
    (b.is_some(), b.is_some() && set == MoveSet::Assignment)
}

/// The moves' name in reports (`params.moves`).
fn kind_name(two_way: bool, assignment: bool) -> &'static str {
    match (assignment, two_way) {
        (true, _) => "assignment",
        (false, true) => "two-way",
        (false, false) => "one-hot",
    }
}

/// Which moves `set` makes on a model with these groups ("one-hot", "two-way" or
/// "assignment", as `MovePlan::kind` names them), or `None` for single flips: what `bench`
/// checks before timing a moves row whose moves the model cannot make.
pub fn kind_for(
    groups: Option<&OneHotGroups>,
    set: MoveSet,
    hold: Option<&str>,
    n: usize,
) -> Result<Option<&'static str>, HoldError> {
    Ok(held(groups, set, hold, n)?.map(|(_, (_, b))| {
        let (two_way, assignment) = flags(b, set);
        kind_name(two_way, assignment)
    }))
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
pub(in crate::sampler) fn record(info: &mut crate::sampler::SampleInfo, plan: &MovePlan) {
    if let Some(obj) = info.params.as_object_mut() {
        obj.insert("moves".into(), serde_json::json!(plan.kind()));
        obj.insert("held_groups".into(), serde_json::json!(plan.held()));
    }
    info.details
        .insert("moves".into(), serde_json::json!(plan.describe()));
}
