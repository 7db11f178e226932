//! Runs under moves, for SA and PT: the model's layout (a stored model's sorted rows, or its
//! structure), the starts, and one read (or lane group) of annealing; tempering's ladders are
//! in `ladder`. The samplers keep their own parameters, memory checks and `SampleInfo`; what
//! happens per read lives here.

use super::assignment::{self, Assignment, Scratch};
use super::lanes::{self, LaneMoves, LaneRows, LaneType, MOVE_LANES, MoveRows, MoveValue};
use super::{CsrEngine, Engine, GroupedEngine, MoveCsr, MovePlan, MoveState, NONE};
use crate::qubo::Model;
use crate::qubo::grouped::GroupedKernel;
use crate::rng::Xoshiro128p;
use crate::sampler::SampleError;
use crate::sampler::control::ProgressTracker;
use crate::sampler::kernel::with_avx2;
use crate::sampler::schedule::Schedule;

/// Mixed into the seed for a lane group's shared generator (which variable comes next), so it
/// never repeats a read's own stream.
pub(super) const SHARED_SALT: u64 = 0x6c61_6e65_7376;

/// Sweeps between recomputations of sums and energies from the state.
pub(super) const RESYNC_SWEEPS: usize = 256;

/// The model in the layout the engines read: the structure when the model has one (sums, no
/// stored couplings), else sorted CSR rows.
pub(in crate::sampler) enum EngineLayout {
    Csr(MoveCsr),
    /// The structure's kernel, its held groups' pair weights zeroed (see `held_groups`), and
    /// whether every group is held (the engine then keeps no group sums at all).
    Grouped(GroupedKernel, bool),
}

/// What a run under moves reads: the model's layout, and for `moves = assignment` which held
/// groups are coupled beyond the families.
pub(in crate::sampler) struct Layout {
    pub engine: EngineLayout,
    pub assignment: Option<Assignment>,
}

impl Layout {
    pub fn new(model: &dyn Model, plan: &MovePlan) -> Self {
        let engine = match model.grouped() {
            Some(g) => {
                let mut k = g.kernel();
                let all_held = held_groups(&mut k, plan);
                EngineLayout::Grouped(k, all_held)
            }
            None => EngineLayout::Csr(MoveCsr::new(model)),
        };
        let assignment = plan.assigns().then(|| coupled_groups(&engine, plan));
        Layout { engine, assignment }
    }

    /// What the run's moves were, in `info` (see `moves::record`), with the assignment
    /// step's counts when it ran.
    pub fn record(&self, info: &mut crate::sampler::SampleInfo, plan: &MovePlan) {
        super::record(info, plan);
        if let Some(a) = &self.assignment {
            info.details
                .insert("assignment".into(), serde_json::json!(a.describe(plan)));
        }
    }

    /// Bytes the layout and `threads` read states take (before building).
    pub fn bytes(model: &dyn Model, threads: usize) -> u64 {
        let n = model.num_variables();
        let per_state = crate::budget::bytes_of(&[n, 9]);
        let layout = match (model.grouped(), model.csr()) {
            (Some(g), _) => g.bytes(),
            (None, Some(csr)) => MoveCsr::bytes(n, csr.num_entries()),
            (None, None) => {
                crate::qubo::Csr::bytes_to_build(model).saturating_add(MoveCsr::bytes(n, n))
            }
        };
        // A ladder holds up to 32 replicas per thread.
        layout.saturating_add(per_state.saturating_mul(32 * threads as u64))
    }

    /// The stored model's rows for moves in lanes of `want`, when the plan's moves take them
    /// (see `lanes::applies`) and the model fits the type (`MoveRows::new`): build once per
    /// run.
    pub fn lane_rows(&self, plan: &MovePlan, want: LaneType) -> Option<MoveRows> {
        match &self.engine {
            EngineLayout::Csr(m) if lanes::applies(plan) => MoveRows::new(plan, m, want),
            _ => None,
        }
    }

    /// Which layout, for `info`.
    pub fn name(&self) -> &'static str {
        match self.engine {
            EngineLayout::Csr(_) => "csr",
            EngineLayout::Grouped(..) => "grouped",
        }
    }
}

/// The assignment step's table: which groups of each held family share a coupling other than
/// through the families (which the step keeps one-hot), and the family whose groups are less
/// coupled as the one it re-solves. Both families are tried under a cap on distinct pairs that
/// grows fourfold until one fits, so a family coupled everywhere (an edge board's pieces: any
/// two may meet) is dropped after a few pairs: on a 24×24 board, collecting all of its pairs
/// took 15 s.
fn coupled_groups(engine: &EngineLayout, plan: &MovePlan) -> Assignment {
    let (num_a, num_b) = (plan.num_a(), plan.num_b);
    let mut limit = 4 * num_a.max(num_b).max(64);
    loop {
        let by_a = coupled_pairs(engine, plan, false, limit);
        let by_b = coupled_pairs(engine, plan, true, limit);
        // The families are equally many groups (a permutation), so fewer pairs is fewer per
        // group.
        match (by_a, by_b) {
            (Some(a), Some(b)) if b.len() < a.len() => {
                return Assignment::from_pairs(true, num_b, b.into_iter());
            }
            (Some(a), _) => return Assignment::from_pairs(false, num_a, a.into_iter()),
            (None, Some(b)) => return Assignment::from_pairs(true, num_b, b.into_iter()),
            (None, None) if limit < MOST_COUPLED_PAIRS => limit *= 4,
            // Both families' groups are coupled nearly everywhere: the step finds no set.
            (None, None) => return Assignment::from_pairs(false, num_a, std::iter::empty()),
        }
    }
}

/// Most distinct coupled pairs one family's table holds.
const MOST_COUPLED_PAIRS: usize = 1 << 22;

/// Distinct pairs of groups, up to a limit.
struct PairSet {
    pairs: std::collections::HashSet<(u32, u32)>,
    limit: usize,
}

impl PairSet {
    /// Adds the pair (either order); false once past the limit.
    fn add(&mut self, a: u32, b: u32) -> bool {
        if a != b {
            self.pairs.insert((a.min(b), a.max(b)));
        }
        self.pairs.len() <= self.limit
    }
}

fn coupled_pairs(
    engine: &EngineLayout,
    plan: &MovePlan,
    by_b: bool,
    limit: usize,
) -> Option<Vec<(u32, u32)>> {
    let (set_of, other_of) = if by_b {
        (&plan.b_of, &plan.a_of)
    } else {
        (&plan.a_of, &plan.b_of)
    };
    let g = |v: u32| set_of[v as usize];
    // Two variables of one group of the other family are never both on: their term never
    // counts.
    let counts = |u: u32, v: u32, q: f64| {
        q != 0.0 && g(u) != NONE && g(v) != NONE && other_of[u as usize] != other_of[v as usize]
    };
    let mut pairs = PairSet {
        pairs: std::collections::HashSet::new(),
        limit,
    };
    match engine {
        EngineLayout::Csr(m) => {
            for v in 0..plan.n as u32 {
                let (cols, vals) = m.row(v as usize);
                for (&u, &q) in cols.iter().zip(vals) {
                    if counts(u, v, q) && !pairs.add(g(v), g(u)) {
                        return None;
                    }
                }
            }
        }
        EngineLayout::Grouped(k, _) => {
            // Groups still weighted (the held ones were zeroed), by their members' groups.
            let spare = k.num_groups - 1;
            let mut members: Vec<Vec<u32>> = vec![Vec::new(); spare];
            for v in 0..plan.n as u32 {
                for &kg in &k.groups[v as usize] {
                    if (kg as usize) < spare && k.twice_weight[kg as usize] != 0.0 && g(v) != NONE {
                        members[kg as usize].push(g(v));
                    }
                }
            }
            for mut groups in members {
                groups.sort_unstable();
                groups.dedup();
                for (i, &a) in groups.iter().enumerate() {
                    for &b in &groups[i + 1..] {
                        if !pairs.add(a, b) {
                            return None;
                        }
                    }
                }
            }
            // Ports: the groups owning a port are coupled to the groups reading it (counted
            // by group, so a pair of one other-family group is not told apart here: that
            // only leaves a set smaller).
            let real_ports = k.num_ports - 2;
            let mut owners: Vec<Vec<u32>> = vec![Vec::new(); real_ports];
            let mut readers: Vec<Vec<u32>> = vec![Vec::new(); real_ports];
            for v in 0..plan.n as u32 {
                if g(v) == NONE {
                    continue;
                }
                for (&(p, _), &(q, _)) in k.own[v as usize].iter().zip(&k.other[v as usize]) {
                    if (p as usize) < real_ports {
                        owners[p as usize].push(g(v));
                    }
                    if (q as usize) < real_ports {
                        readers[q as usize].push(g(v));
                    }
                }
            }
            for (mut o, mut r) in owners.into_iter().zip(readers) {
                o.sort_unstable();
                o.dedup();
                r.sort_unstable();
                r.dedup();
                for &a in &o {
                    for &b in &r {
                        if !pairs.add(a, b) {
                            return None;
                        }
                    }
                }
            }
            for v in 0..plan.n as u32 {
                let row = k.pair_start[v as usize] as usize..k.pair_start[v as usize + 1] as usize;
                for (&u, &q) in k.pair_cols[row.clone()].iter().zip(&k.pair_vals[row]) {
                    if counts(u, v, q) && !pairs.add(g(v), g(u)) {
                        return None;
                    }
                }
            }
        }
    }
    Some(pairs.pairs.into_iter().collect())
}

/// Zeroes the pair weight of every kernel group that is a held group (the same members, one
/// coefficient for all): under moves its sum never changes, so its pair terms add nothing to
/// any ΔE, and with its x² and target terms still in the linear terms every energy stays exact
/// for states that hold it. Returns whether every group is held.
fn held_groups(k: &mut GroupedKernel, plan: &MovePlan) -> bool {
    let spare = k.num_groups - 1;
    // Per kernel group: members, the held A and B group its members share (NONE: none or
    // several), and its coefficient (NaN: not one for all).
    const MIXED: u32 = u32::MAX - 1;
    let mut count = vec![0usize; spare];
    let mut a_group = vec![super::NONE; spare];
    let mut b_group = vec![super::NONE; spare];
    let mut coef = vec![f64::NAN; spare];
    let mut first = vec![true; spare];
    for v in 0..plan.n {
        for (&g, &c) in k.groups[v].iter().zip(&k.coef[v]) {
            let g = g as usize;
            if g == spare {
                continue;
            }
            count[g] += 1;
            let (a, b) = (plan.a_of[v], plan.b_of[v]);
            if first[g] {
                first[g] = false;
                a_group[g] = a;
                b_group[g] = b;
                coef[g] = c;
            } else {
                if a_group[g] != a {
                    a_group[g] = MIXED;
                }
                if b_group[g] != b {
                    b_group[g] = MIXED;
                }
                if coef[g] != c {
                    coef[g] = f64::NAN;
                }
            }
        }
    }
    let mut b_size = vec![0usize; plan.num_b];
    for &b in &plan.b_of {
        if b != super::NONE {
            b_size[b as usize] += 1;
        }
    }
    let mut all = true;
    for g in 0..spare {
        let whole_a = a_group[g] < MIXED && plan.members(a_group[g]).len() == count[g];
        let whole_b = plan.two_way && b_group[g] < MIXED && b_size[b_group[g] as usize] == count[g];
        if (whole_a || whole_b) && !coef[g].is_nan() {
            k.twice_weight[g] = 0.0;
        } else if count[g] > 0 {
            all = false;
        }
    }
    all
}

/// Calls `$body` with `$make` bound to the engine constructor of `$layout` (a generic closure
/// per engine type, so the sweep is compiled for each).
macro_rules! with_engine {
    ($layout:expr, |$make:ident| $body:expr) => {
        match &$layout.engine {
            EngineLayout::Csr(m) => {
                let $make = |x: Vec<u8>| CsrEngine::new(m, x);
                $body
            }
            EngineLayout::Grouped(k, all_held) => {
                let $make = |x: Vec<u8>| GroupedEngine::new(k, *all_held, x);
                $body
            }
        }
    };
}
pub(super) use with_engine;

/// The start of read `read`: its generator and a state that holds the plan's groups (the
/// given one when it does; else a random one). `None` when no state can hold them.
pub(super) fn start(
    plan: &MovePlan,
    seed: u64,
    read: u64,
    given: Option<&Vec<u8>>,
) -> Option<(Xoshiro128p, Vec<u8>)> {
    let mut rng = Xoshiro128p::for_read(seed, read);
    let x = match given.filter(|x| plan.holds(x)) {
        Some(x) => x.clone(),
        None => plan.random_start(&mut rng)?,
    };
    Some((rng, x))
}

/// What a sampler checks and builds before a run under moves: the memory the layout and
/// `threads` read states (plus `num_reads` results) take, refused past the budget with
/// `describe`'s words; a state that holds the groups (refused when none exists); the layout.
pub(in crate::sampler) fn prepare(
    model: &dyn Model,
    plan: &MovePlan,
    num_reads: usize,
    threads: usize,
    seed: u64,
    describe: impl FnOnce() -> String,
) -> Result<Layout, SampleError> {
    let n = model.num_variables();
    let bytes =
        Layout::bytes(model, threads).saturating_add(crate::budget::bytes_of(&[num_reads, n]));
    crate::budget::check_memory(describe, bytes)?;
    if start(plan, seed, 0, None).is_none() {
        return Err(unholdable(plan));
    }
    Ok(Layout::new(model, plan))
}

/// The refusal when no state holds a plan's groups at once.
fn unholdable(plan: &MovePlan) -> SampleError {
    SampleError::ModelNotSupported(format!(
        "no assignment satisfies the {} groups at once, so {} moves have no state to start \
         from: choose moves = one-hot or flip",
        plan.held().join(" and "),
        plan.kind()
    ))
}

/// The β range for moves on the layout (see `moves::beta_range`), from a start of `seed`.
pub(in crate::sampler) fn beta_range(
    layout: &Layout,
    plan: &MovePlan,
    seed: u64,
    used_for: super::RangeFor,
) -> Result<(f64, f64), SampleError> {
    let (mut rng, x) = start(plan, seed ^ 0x6d6f_7665, 0, None).ok_or_else(|| unholdable(plan))?;
    Ok(with_engine!(layout, |make| {
        super::beta_range(plan, MoveState::new(plan, make(x)), &mut rng, used_for)
    }))
}

/// One annealing read under moves; its final state, or `None` when cancelled.
pub(in crate::sampler) struct Anneal<'a> {
    pub plan: &'a MovePlan,
    pub layout: &'a Layout,
    pub schedule: &'a Schedule,
    pub seed: u64,
    pub initial_states: &'a [Vec<u8>],
    pub tracker: &'a ProgressTracker<'a>,
}

impl Anneal<'_> {
    /// One lane group of reads (`MOVE_LANES` consecutive reads from a multiple of it; padding
    /// lanes run spare reads, dropped) under moves in lanes; their final states, or `None`
    /// when cancelled.
    pub fn lane_group(&self, rows: &MoveRows, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
        const L: usize = MOVE_LANES;
        let EngineLayout::Csr(m) = &self.layout.engine else {
            return None;
        };
        let spare = usize::MAX / 2;
        let starts = (0..L)
            .map(|l| {
                let read = reads.get(l).copied().unwrap_or(spare + l);
                start(
                    self.plan,
                    self.seed,
                    read as u64,
                    self.initial_states.get(read),
                )
            })
            .collect::<Option<Vec<_>>>()?;
        let group = (reads[0] / L) as u64;
        let shared = Xoshiro128p::for_read(self.seed ^ SHARED_SALT, group);
        let (job, live) = (self, reads.len());
        match rows {
            MoveRows::F32(rows) => with_avx2!(anneal32(
                job: &Anneal,
                rows: &LaneRows<f32>,
                m: &MoveCsr,
                starts: Vec<(Xoshiro128p, Vec<u8>)>,
                shared: Xoshiro128p,
                live: usize,
            ) -> Option<Vec<Vec<u8>>> {
                job.anneal_lanes(LaneMoves::new(job.plan, m, rows, starts, shared), live)
            }),
            MoveRows::I16(rows) => with_avx2!(anneal16(
                job: &Anneal,
                rows: &LaneRows<i16>,
                m: &MoveCsr,
                starts: Vec<(Xoshiro128p, Vec<u8>)>,
                shared: Xoshiro128p,
                live: usize,
            ) -> Option<Vec<Vec<u8>>> {
                job.anneal_lanes(LaneMoves::new(job.plan, m, rows, starts, shared), live)
            }),
        }
    }

    /// Anneals a lane group (inlined into `lane_group`'s AVX2 bodies); the first `live` lanes'
    /// final states, or `None` when cancelled.
    #[inline(always)]
    fn anneal_lanes<T: MoveValue>(
        &self,
        mut lanes: LaneMoves<T, MOVE_LANES>,
        live: usize,
    ) -> Option<Vec<Vec<u8>>> {
        let num_sweeps = self.schedule.num_sweeps();
        let t = self.tracker;
        let mut reported = 0;
        for s in 0..num_sweeps {
            lanes.sweep(self.schedule.beta(s));
            if t.is_cancelled() {
                return None;
            }
            if t.wants_reports() && ((s + 1).is_multiple_of(t.every()) || s + 1 == num_sweeps) {
                let (lane, best) = lanes.lowest(live);
                t.add(((s + 1 - reported) * live) as u64, best);
                t.offer(best, || lanes.state(lane));
                reported = s + 1;
            }
        }
        Some((0..live).map(|l| lanes.state(l)).collect())
    }

    pub fn read(&self, read: usize) -> Option<Vec<u8>> {
        let (rng, x) = start(
            self.plan,
            self.seed,
            read as u64,
            self.initial_states.get(read),
        )?;
        let job = self;
        with_avx2!(scalar(job: &Anneal, rng: Xoshiro128p, x: Vec<u8>) -> Option<Vec<u8>> {
            with_engine!(job.layout, |make| job.run(rng, make(x)))
        })
    }

    #[inline(always)]
    fn run<E: Engine>(&self, mut rng: Xoshiro128p, engine: E) -> Option<Vec<u8>> {
        let mut st = MoveState::new(self.plan, engine);
        let num_sweeps = self.schedule.num_sweeps();
        let mut reported = 0;
        let mut scratch = self
            .layout
            .assignment
            .as_ref()
            .map(|_| Scratch::new(self.plan));
        for s in 0..num_sweeps {
            st.sweep(self.plan, &mut rng, self.schedule.beta(s));
            if let (Some(a), Some(scratch)) = (&self.layout.assignment, &mut scratch) {
                for _ in 0..assignment::steps_per_sweep(self.plan) {
                    assignment::step(a, self.plan, &mut st, &mut rng, scratch);
                }
            }
            if (s + 1).is_multiple_of(RESYNC_SWEEPS) {
                st.resync();
            }
            if self.tracker.is_cancelled() {
                return None;
            }
            let t = self.tracker;
            if t.wants_reports() && ((s + 1).is_multiple_of(t.every()) || s + 1 == num_sweeps) {
                t.add((s + 1 - reported) as u64, st.energy);
                t.offer(st.energy, || st.engine.state());
                reported = s + 1;
            }
        }
        Some(st.engine.state())
    }
}
