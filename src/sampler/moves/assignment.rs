//! The exact large-neighbourhood step (`moves = assignment`): between sweeps, a set S of groups
//! of one held family that touch one another only through the two held families is emptied and
//! refilled by the best assignment of the other family's groups they held, solved exactly
//! (Hungarian method, `pathfinding`).
//!
//! Why it is exact: with S's 1s turned off, a variable v of group a ∈ S changes the energy by
//! its field f(v), and no two groups of S are coupled except through the families (whose terms
//! are constant while both stay one-hot), so refilling S costs Σ f(chosen). The cheapest refill
//! is the linear assignment of S's groups to the other family's groups they held, each pair
//! priced at its cheapest variable (a piece at its best turn) — Schaus & Deville's move for
//! Eternity II ("price every free piece in every freed cell"), generic over any model whose
//! moves are two-way. S grows from a random group through the groups that hold a B group its
//! members could take, so the freed B groups can change hands (a whole Sudoku row; non-adjacent
//! cells of the same class on an edge board).
//!
//! Statistics: the step is a zero-temperature move (applied when ΔE ≤ 0, exactly priced), not a
//! Metropolis proposal: SA takes one after every sweep of each read, PT after every round on
//! its coldest replica only, so the other replicas keep sampling their own temperature.

use std::sync::atomic::{AtomicU64, Ordering};

use pathfinding::kuhn_munkres::kuhn_munkres_min;
use pathfinding::matrix::Matrix;

use super::{Engine, MovePlan, MoveState, NONE, below};
use crate::rng::Xoshiro128p;

/// Most groups one step re-solves (the Hungarian method is cubic in it).
pub const MOST_GROUPS: usize = 64;

/// Steps after each sweep: one per 4 096 variables, so the steps cost a fraction of the sweep
/// (a step of 55 groups prices ~12 000 variables and solves a 55×55 assignment, ~0.3 ms, where
/// a sweep of Eternity II's ~160 000 variables takes ~25 ms). Measured on Eternity II, PT
/// 60 s: one step per round 391/480, 50 steps 408, 200 steps 408 (two-way alone 396).
pub(in crate::sampler) fn steps_per_sweep(plan: &MovePlan) -> usize {
    plan.n.div_ceil(4096).max(1)
}

/// Groups coupled beyond the held families, and the step's counters.
///
/// The step re-solves groups of one family (the *set* family) and refills them from the other
/// family's groups they free. Which family is the set family is chosen by the model: the one
/// whose groups are less coupled (edge matching: cells, as any two pieces may meet).
pub(in crate::sampler) struct Assignment {
    /// The set family is family B (else A).
    by_b: bool,
    /// Per set-family group: the groups of its family it shares a coupling with (other than
    /// through the held families), as CSR.
    start: Vec<u32>,
    adjacent: Vec<u32>,
    /// Steps taken and steps that lowered the energy, over every read.
    pub steps: AtomicU64,
    pub improved: AtomicU64,
    /// Groups re-solved, summed over the steps.
    pub groups: AtomicU64,
}

impl Assignment {
    /// From the pairs (g, g') of set-family groups that are coupled (either order, repeats
    /// allowed); `by_b`: the set family is family B.
    pub fn from_pairs(by_b: bool, num_a: usize, pairs: impl Iterator<Item = (u32, u32)>) -> Self {
        let mut edges: Vec<(u32, u32)> = pairs
            .filter(|(a, b)| a != b)
            .flat_map(|(a, b)| [(a, b), (b, a)])
            .collect();
        edges.sort_unstable();
        edges.dedup();
        let mut start = vec![0u32; num_a + 1];
        for &(a, _) in &edges {
            start[a as usize + 1] += 1;
        }
        for a in 0..num_a {
            start[a + 1] += start[a];
        }
        Assignment {
            by_b,
            start,
            adjacent: edges.into_iter().map(|e| e.1).collect(),
            steps: AtomicU64::new(0),
            improved: AtomicU64::new(0),
            groups: AtomicU64::new(0),
        }
    }

    fn adjacent(&self, a: u32) -> &[u32] {
        &self.adjacent[self.start[a as usize] as usize..self.start[a as usize + 1] as usize]
    }

    /// Groups in the set family.
    fn set_groups(&self, plan: &MovePlan) -> usize {
        if self.by_b { plan.num_b } else { plan.num_a() }
    }

    /// Members of set-family group `g`, as (other family's group, variable).
    fn members<'p>(&self, plan: &'p MovePlan, g: u32) -> &'p [(u32, u32)] {
        if self.by_b {
            plan.members_b(g)
        } else {
            plan.members(g)
        }
    }

    /// The set-family group and the other family's group of variable `v`.
    fn groups_of(&self, plan: &MovePlan, v: u32) -> (u32, u32) {
        let (a, b) = (plan.a_of[v as usize], plan.b_of[v as usize]);
        if self.by_b { (b, a) } else { (a, b) }
    }

    /// Variables in set-family group `g` and other-family group `h`.
    fn meet<'p>(&self, plan: &'p MovePlan, g: u32, h: u32) -> &'p [(u32, u32)] {
        if self.by_b {
            plan.intersection(h, g)
        } else {
            plan.intersection(g, h)
        }
    }

    /// The variable that is 1 in set-family group `g`, and in other-family group `h`.
    fn one_of_set<E>(&self, st: &MoveState<E>, g: u32) -> u32 {
        if self.by_b {
            st.one_b[g as usize]
        } else {
            st.one_a[g as usize]
        }
    }

    fn one_of_other<E>(&self, st: &MoveState<E>, h: u32) -> u32 {
        if self.by_b {
            st.one_a[h as usize]
        } else {
            st.one_b[h as usize]
        }
    }

    /// The step's counters in words, for `info.details`.
    pub fn describe(&self, plan: &MovePlan) -> String {
        let steps = self.steps.load(Ordering::Relaxed);
        let improved = self.improved.load(Ordering::Relaxed);
        let groups = self.groups.load(Ordering::Relaxed);
        format!(
            "{} exact assignment steps of {} {} groups on average, {} lowered the energy",
            crate::io::number_text(steps as f64),
            crate::io::number_text((groups as f64 / steps.max(1) as f64 * 10.0).round() / 10.0),
            plan.held()
                .get(usize::from(self.by_b))
                .map_or("", String::as_str),
            crate::io::number_text(improved as f64)
        )
    }
}

/// One read's working memory for the step (no allocation per step once warm).
pub(in crate::sampler) struct Scratch {
    mark: u32,
    seen: Vec<u32>,
    blocked: Vec<u32>,
    set: Vec<u32>,
    olds: Vec<u32>,
    freed: Vec<u32>,
    ons: Vec<u32>,
    price: Vec<f64>,
    best: Vec<u32>,
}

impl Scratch {
    pub fn new(plan: &MovePlan) -> Self {
        let groups = plan.num_a().max(plan.num_b);
        Scratch {
            mark: 0,
            seen: vec![0; groups],
            blocked: vec![0; groups],
            set: Vec::new(),
            olds: Vec::new(),
            freed: Vec::new(),
            ons: Vec::new(),
            price: Vec::new(),
            best: Vec::new(),
        }
    }
}

impl Scratch {
    /// The set-family groups the last step re-solved.
    #[cfg(test)]
    pub fn last_set(&self) -> &[u32] {
        &self.set
    }
}

/// One step on `st`; the ΔE it applied (≤ 0), or `None` when it changed nothing.
pub(in crate::sampler) fn step<E: Engine>(
    asg: &Assignment,
    plan: &MovePlan,
    st: &mut MoveState<E>,
    rng: &mut Xoshiro128p,
    s: &mut Scratch,
) -> Option<f64> {
    if asg.set_groups(plan) < 2 || !plan.two_way {
        return None;
    }
    grow(asg, plan, st, rng, s);
    let k = s.set.len();
    if k < 2 {
        return None;
    }
    asg.steps.fetch_add(1, Ordering::Relaxed);
    asg.groups.fetch_add(k as u64, Ordering::Relaxed);
    s.olds.clear();
    s.olds.extend(s.set.iter().map(|&g| asg.one_of_set(st, g)));
    s.freed.clear();
    s.freed
        .extend(s.olds.iter().map(|&v| asg.groups_of(plan, v).1));
    let off = st.engine.delta(&s.olds);
    st.engine.apply(&s.olds);
    // Price every (group, freed B group) pair at its cheapest variable.
    s.price.clear();
    s.best.clear();
    for &g in &s.set {
        for &h in &s.freed {
            let mut cheapest = (f64::INFINITY, NONE);
            for &(_, v) in asg.meet(plan, g, h) {
                let f = st.engine.delta(&[v]);
                if f < cheapest.0 {
                    cheapest = (f, v);
                }
            }
            s.price.push(cheapest.0);
            s.best.push(cheapest.1);
        }
    }
    let chosen = solve(&s.price, k);
    s.ons.clear();
    if let Some(chosen) = chosen {
        s.ons
            .extend(chosen.iter().enumerate().map(|(i, &j)| s.best[i * k + j]));
    }
    let unchanged = s.ons.is_empty() || s.ons == s.olds;
    let total = if unchanged {
        f64::INFINITY
    } else {
        off + st.engine.delta(&s.ons)
    };
    if total > crate::qubo::running_tolerance(st.energy) {
        st.engine.apply(&s.olds);
        return None;
    }
    st.engine.apply(&s.ons);
    for &v in &s.ons {
        st.one_a[plan.a_of[v as usize] as usize] = v;
        st.one_b[plan.b_of[v as usize] as usize] = v;
    }
    st.energy += total;
    if total < 0.0 {
        asg.improved.fetch_add(1, Ordering::Relaxed);
    }
    Some(total)
}

/// Fills `s.set` with up to `MOST_GROUPS` mutually uncoupled A groups, grown from a random
/// one through the groups holding a B group that a member of the set could take.
fn grow<E: Engine>(
    asg: &Assignment,
    plan: &MovePlan,
    st: &MoveState<E>,
    rng: &mut Xoshiro128p,
    s: &mut Scratch,
) {
    s.mark = s.mark.wrapping_add(1);
    if s.mark == 0 {
        s.seen.fill(0);
        s.blocked.fill(0);
        s.mark = 1;
    }
    let mark = s.mark;
    s.set.clear();
    let first = below(rng.next_u32(), asg.set_groups(plan)) as u32;
    let take = |a: u32, s: &mut Scratch| {
        s.set.push(a);
        for &x in asg.adjacent(a) {
            s.blocked[x as usize] = mark;
        }
    };
    s.seen[first as usize] = mark;
    take(first, s);
    let mut next = 0;
    let mut visits = 0;
    while next < s.set.len() && s.set.len() < MOST_GROUPS && visits < 16 * MOST_GROUPS {
        let a = s.set[next];
        next += 1;
        let members = asg.members(plan, a);
        let offset = below(rng.next_u32(), members.len());
        for i in 0..members.len() {
            let h = members[(offset + i) % members.len()].0;
            let holder = asg.one_of_other(st, h);
            if holder == NONE {
                continue;
            }
            let a2 = asg.groups_of(plan, holder).0;
            if s.seen[a2 as usize] == mark {
                continue;
            }
            s.seen[a2 as usize] = mark;
            visits += 1;
            if s.blocked[a2 as usize] == mark {
                continue;
            }
            take(a2, s);
            if s.set.len() == MOST_GROUPS {
                break;
            }
        }
    }
}

/// The cheapest assignment of rows to columns of the k×k `price` (infinite: not allowed), as
/// the column of each row; `None` when none is allowed everywhere.
fn solve(price: &[f64], k: usize) -> Option<Vec<usize>> {
    let largest = price
        .iter()
        .filter(|p| p.is_finite())
        .fold(0.0f64, |m, p| m.max(p.abs()));
    // Integer prices for the Hungarian method: 2⁴⁰ steps over the largest price, so the
    // rounding is far below any energy gap; the applied ΔE is priced exactly afterwards.
    let scale = if largest > 0.0 {
        (1u64 << 40) as f64 / largest
    } else {
        1.0
    };
    let forbidden = 1i64 << 52;
    let weights: Vec<i64> = price
        .iter()
        .map(|&p| {
            if p.is_finite() {
                (p * scale).round() as i64
            } else {
                forbidden
            }
        })
        .collect();
    let matrix = Matrix::from_vec(k, k, weights).ok()?;
    let (_, columns) = kuhn_munkres_min(&matrix);
    columns
        .iter()
        .enumerate()
        .all(|(i, &j)| price[i * k + j].is_finite())
        .then_some(columns)
}
