//! Moves for `MOVE_LANES` reads at once on a stored model's rows (SA's runs under one-hot and
//! two-way moves): every lane proposes at the same variable v, drawn at random for all lanes,
//! so v's fields are one vector load, its row one vector update and its couplings one row
//! scattered once for all lanes. The rest of a move — each lane's own current 1s, their fields
//! and rows — is per lane, in fields laid out lane by lane (`field[i][l]`): f32, or i16 where
//! the model's coefficients are integers (after a power of two) and small enough that every
//! move's ΔE fits (`MoveRows::new`) — half the bytes per row update, and the fields of a
//! full Sudoku model fit in L1. Both take the same decisions (a test holds them to it).
//!
//! Each lane's chain is still `MoveState::propose`'s random-scan chain: v is uniform and drawn
//! independently of the lane's state, so each read's proposals stay reversible on their own
//! and a read samples the same distribution; lanes only share which v comes next. Because they
//! share it, a read's path depends on its lane group: groups are fixed blocks of
//! `MOVE_LANES` consecutive reads (never cut by thread count), so a seed gives the same reads
//! on any number of threads.
//!
//! Invariant: `field[i][l]` = linear_i + Σ_j Q_ij·x_j of lane l over every j outside i's own
//! group where that group is proposed by member masks (`LaneRows::masked`), over every j
//! elsewhere (recomputed in f64 every `RESYNC_SWEEPS`); `sign[i][l]` = +1 when x_i = 0 and −1
//! when x_i = 1; `one_a[g][l]` the variable at 1 in held group g of family A in lane l (`one_b`
//! for family B).
//!
//! Why a masked group's own couplings stay out: a held group has exactly one 1, u, so with
//! f the full field, f_v = f'_v + Q_vu and f_u = f'_u, and moving the 1 from u to v costs
//! f_v − f_u − Q_vu = f'_v − f'_u. The rows then skip the group's members, which on
//! Numberlink's cells (one variable per layer) is about half of a cell variable's row.

use super::{CsrEngine, Engine, MoveCsr, MovePlan, NONE, below};
use crate::rng::{LaneRng, Xoshiro128p, neg_ln_uniform_times};
use crate::sampler::kernel::{BLOCK, LaneArrays, LaneValue, inverse_beta, lowest};

/// Reads per lane group under moves: the shared part of a proposal (v's field, row and
/// couplings) is spread over 16 reads, and a run of 100 reads wastes at most 12 lanes.
pub(in crate::sampler) const MOVE_LANES: usize = 16;

/// Sweeps between recomputations of fields and energies from the state (f32 rounding never
/// piles up).
const RESYNC_SWEEPS: usize = 256;

/// Whether a plan's moves run in lanes: one-hot and two-way moves without turns (every
/// (A, B) intersection is one variable, as in Sudoku's cells × row-digits) and without the
/// assignment step; the others stay one read at a time.
pub(in crate::sampler) fn applies(plan: &MovePlan) -> bool {
    !plan.assignment && !plan.turns
}

/// Held groups of at most this many variables are proposed by member masks: each member's
/// field is one vector over the lanes, taken where the member is the lane's 1, and the lanes
/// turning one member off share one vector row update. Larger groups gather per lane (a mask
/// per member would cost more than the 16 gathers it saves).
const MASK_MEMBERS: usize = 32;

/// A masked group of more than this many members reads each lane's f'_u from its own 1
/// (16 loads) instead of one vector per member.
const GATHER_FROM: usize = 6;

/// A number moves in lanes compute in: f32 for any model, i16 where `MoveRows::new` found
/// every move's ΔE an integer within ±`I16_MOVE_LIMIT` after its power of two.
pub(in crate::sampler) trait MoveValue: LaneValue {
    /// The ΔE of a lane without a move: above every threshold (`THRESHOLD_CAP`).
    const NO_MOVE: Self;
    /// Thresholds (f32, scaled) are capped here: below `NO_MOVE` and at or above every ΔE a
    /// move can have, so the cap changes no decision. ΔE is compared in f32 (exact: integers
    /// within ±32 766 in i16), which is cheaper than converting each threshold to i16.
    const THRESHOLD_CAP: f32;
}

impl MoveValue for f32 {
    /// NaN compares false with every threshold, even β = 0's infinite one.
    const NO_MOVE: f32 = f32::NAN;
    const THRESHOLD_CAP: f32 = f32::INFINITY;
}

impl MoveValue for i16 {
    const NO_MOVE: i16 = i16::MAX;
    const THRESHOLD_CAP: f32 = I16_MOVE_LIMIT as f32;
}

/// Largest |ΔE| (scaled) the i16 lanes admit for a move: below `i16::MAX`, which marks lanes
/// without a move.
const I16_MOVE_LIMIT: i16 = i16::MAX - 1;

/// The rows for moves in lanes, in the type the lanes compute in: what `Layout::lane_rows`
/// builds once per run and the callers dispatch on.
pub(in crate::sampler) enum MoveRows {
    F32(LaneRows<f32>),
    I16(LaneRows<i16>),
}

/// Which number type a run's moves in lanes compute in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sampler) enum LaneType {
    /// i16 where the model allows it, else f32.
    Auto,
    F32,
    /// i16 or nothing (`MoveRows::new` returns `None` for a model it cannot hold).
    I16,
}

impl MoveRows {
    /// The rows in the type asked for: i16 (`Auto`, `I16`) when a power of two up to 64 makes
    /// every coefficient an integer and every move's ΔE stays within ±`I16_MOVE_LIMIT`;
    /// `None` only for `I16` on a model that does not allow it.
    pub fn new(plan: &MovePlan, m: &MoveCsr, want: LaneType) -> Option<Self> {
        Self::with_limits(plan, m, want, MASK_MEMBERS, GATHER_FROM)
    }

    /// `new` with the member-mask limits of `LaneRows::with_limits`.
    pub fn with_limits(
        plan: &MovePlan,
        m: &MoveCsr,
        want: LaneType,
        limit: usize,
        gather_from: usize,
    ) -> Option<Self> {
        let scale = match want {
            LaneType::F32 => None,
            _ => i16_scale(plan, m),
        };
        match (want, scale) {
            (LaneType::I16, None) => None,
            (_, Some(s)) => Some(MoveRows::I16(LaneRows::with_limits(
                plan,
                m,
                limit,
                gather_from,
                s,
            ))),
            (_, None) => Some(MoveRows::F32(LaneRows::with_limits(
                plan,
                m,
                limit,
                gather_from,
                1.0,
            ))),
        }
    }

    /// The kernel's name in reports.
    pub fn kernel(&self) -> &'static str {
        match self {
            MoveRows::F32(_) => "csr-lanes",
            MoveRows::I16(_) => "csr-lanes16",
        }
    }
}

/// The power of two that makes the model's coefficients integers with every move's ΔE within
/// ±`I16_MOVE_LIMIT`, if any. With F the largest |linear_i| + Σ_j |Q_ij| (a bound on any
/// field, and on any one coupling), a one-hot move's ΔE, f_v − f_u − Q_vu, is within 3F; a
/// two-way exchange's, four fields and six couplings, within 10F. Every partial sum of those
/// terms stays within the same bound, so the i16 arithmetic never wraps.
fn i16_scale(plan: &MovePlan, m: &MoveCsr) -> Option<f64> {
    let scale = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]
        .into_iter()
        .find(|&s| m.coefficients().all(|v| (v * s).fract() == 0.0))?;
    let terms = if plan.two_way { 10.0 } else { 3.0 };
    let widest = (0..m.num_variables())
        .map(|i| m.linear(i).abs() + m.row(i).1.iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    (terms * widest * scale <= I16_MOVE_LIMIT as f64).then_some(scale)
}

/// The rows for the lanes' field updates in the lanes' type, times `scale` (the pair lookups
/// read `MoveCsr`'s f64 and scale them), and which variables' groups are proposed by member
/// masks; their rows leave out their own group's members (see the module header).
pub(in crate::sampler) struct LaneRows<T> {
    start: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<T>,
    /// What every coefficient, field, ΔE and threshold is multiplied by (a power of two; 1 in
    /// f32).
    scale: f64,
    /// Per variable: whether it is held in a group of at most the mask limit's size, in a
    /// one-hot plan (two-way moves gather per lane).
    masked: Vec<bool>,
    /// Masked groups of more than this many members read each lane's own 1 (`GATHER_FROM`).
    gather_from: usize,
}

impl<T: MoveValue> LaneRows<T> {
    /// Rows whose groups of at most `limit` variables are proposed by member masks, those of
    /// more than `gather_from` reading each lane's own 1 (tests take 0 for the per-lane
    /// gathers everywhere), times `scale` (`MoveRows::with_limits` chose the type and scale).
    fn with_limits(
        plan: &MovePlan,
        m: &MoveCsr,
        limit: usize,
        gather_from: usize,
        scale: f64,
    ) -> Self {
        let n = m.num_variables();
        let mut masked = vec![false; n];
        if !plan.two_way {
            for g in 0..plan.num_a() as u32 {
                let members = plan.members(g);
                if members.len() <= limit {
                    for &(_, v) in members {
                        masked[v as usize] = true;
                    }
                }
            }
        }
        let own_group = |i: usize, j: u32| masked[i] && plan.a_of[j as usize] == plan.a_of[i];
        let mut start = Vec::with_capacity(n + 1);
        let (mut cols, mut vals) = (Vec::new(), Vec::new());
        start.push(0);
        for i in 0..n {
            let (c, v) = m.row(i);
            for (&j, &q) in c.iter().zip(v) {
                if !own_group(i, j) {
                    cols.push(j);
                    vals.push(T::from_f64(q * scale));
                }
            }
            start.push(cols.len());
        }
        // The per-lane row updates index fields by these columns without bounds checks.
        assert!(
            cols.iter().all(|&j| (j as usize) < n),
            "CSR column out of range"
        );
        LaneRows {
            start,
            cols,
            vals,
            scale,
            masked,
            gather_from,
        }
    }

    #[inline(always)]
    fn row(&self, i: usize) -> (&[u32], &[T]) {
        let r = self.start[i]..self.start[i + 1];
        (&self.cols[r.clone()], &self.vals[r])
    }
}

/// The lanes where `lanes[l]` holds, as a bit mask (bit l for lane l), a shift and an or per
/// lane, which LLVM compiles to vector shifts. (A multiply gathering eight bools from a u64
/// measured no better, and an SSE2 movemask forced the array through memory: 60 % slower.)
#[inline(always)]
fn mask_of<const L: usize>(lanes: &[bool; L]) -> u32 {
    let mut bits = 0u32;
    for (l, &b) in lanes.iter().enumerate() {
        bits |= (b as u32) << l;
    }
    bits
}

/// −1 in the lanes' type (the sign of a variable at 1, and a row taken away).
#[inline(always)]
fn minus_one<T: LaneValue>() -> T {
    T::default().sub(T::ONE)
}

/// A move one lane accepted: the variables it turns off (`a`, and `b` for an exchange) and
/// the one it turns on besides v (`w`), NONE where absent.
#[derive(Clone, Copy)]
struct LaneMove {
    a: u32,
    b: u32,
    w: u32,
}

/// L reads under moves in T (see the module header).
pub(in crate::sampler) struct LaneMoves<'a, T: MoveValue, const L: usize> {
    plan: &'a MovePlan,
    m: &'a MoveCsr,
    rows: &'a LaneRows<T>,
    field: LaneArrays<T, L>,
    sign: Vec<[T; L]>,
    one_a: Vec<[u32; L]>,
    one_b: Vec<[u32; L]>,
    /// Running energy per lane, times the rows' scale (accepted ΔE added up; exact after
    /// every resync).
    energy: [f32; L],
    /// v's couplings, scattered by column (zero elsewhere).
    scratch: Vec<T>,
    /// Per-lane generators (each lane's own stream) and the group's shared one (which v).
    rng: LaneRng<L>,
    shared: Xoshiro128p,
    sweeps: usize,
    /// Accepted proposals since the counter was last cleared, all lanes together.
    pub accepted: u64,
}

impl<'a, T: MoveValue, const L: usize> LaneMoves<'a, T, L> {
    /// Lanes from per-lane starts (generator and a state that holds the plan's groups) and the
    /// group's shared generator.
    pub fn new(
        plan: &'a MovePlan,
        m: &'a MoveCsr,
        rows: &'a LaneRows<T>,
        starts: Vec<(Xoshiro128p, Vec<u8>)>,
        shared: Xoshiro128p,
    ) -> Self {
        let n = plan.n;
        let states: [[u32; 4]; L] = std::array::from_fn(|l| starts[l].0.state());
        let mut lanes = LaneMoves {
            plan,
            m,
            rows,
            field: LaneArrays::filled(n, [T::default(); L]),
            sign: vec![[T::ONE; L]; n],
            one_a: vec![[NONE; L]; plan.num_a()],
            one_b: vec![[NONE; L]; plan.num_b],
            energy: [0.0; L],
            scratch: vec![T::default(); n],
            rng: LaneRng::from_states(&states),
            shared,
            sweeps: 0,
            accepted: 0,
        };
        for (l, (_, x)) in starts.iter().enumerate() {
            for (v, _) in x.iter().enumerate().filter(|(_, b)| **b != 0) {
                lanes.sign[v][l] = minus_one();
                if plan.a_of[v] != NONE {
                    lanes.one_a[plan.a_of[v] as usize][l] = v as u32;
                    if plan.two_way {
                        lanes.one_b[plan.b_of[v] as usize][l] = v as u32;
                    }
                }
            }
        }
        lanes.resync();
        lanes
    }

    /// Lane l's state as 0/1.
    pub fn state(&self, l: usize) -> Vec<u8> {
        self.sign
            .iter()
            .map(|s| (s[l] < T::default()) as u8)
            .collect()
    }

    /// Lane l's running energy.
    pub fn energy(&self, l: usize) -> f64 {
        self.energy[l] as f64 / self.rows.scale
    }

    /// Recomputes every lane's fields and energy from its state, in f64.
    pub fn resync(&mut self) {
        for l in 0..L {
            let engine = CsrEngine::new(self.m, self.state(l));
            for (i, f) in engine.fields().iter().enumerate() {
                // A masked group's own 1 leaves its members' fields (the module header).
                let own = if self.rows.masked[i] {
                    let one = self.one_a[self.plan.a_of[i] as usize][l];
                    if one as usize == i {
                        0.0
                    } else {
                        self.m.pair(i as u32, one)
                    }
                } else {
                    0.0
                };
                self.field[i][l] = T::from_f64((*f - own) * self.rows.scale);
            }
            self.energy[l] = (engine.energy() * self.rows.scale) as f32;
        }
    }

    /// The lowest running energy among the first `live` lanes and that lane.
    pub fn lowest(&self, live: usize) -> (usize, f64) {
        let (l, e) = lowest(&self.energy[..live]);
        (l, e as f64 / self.rows.scale)
    }

    /// One sweep (n proposals) at inverse temperature `beta` in every lane. Inlined, with
    /// `sweep_at`, into the callers' AVX2 bodies (`with_avx2!`): a call out of them would compile
    /// the lanes without AVX2 and FMA.
    #[inline(always)]
    pub fn sweep(&mut self, beta: f64) {
        self.sweep_at(&[inverse_beta(beta as f32); L]);
    }

    /// One sweep (n proposals), lane l at inverse temperature 1/`inv_beta[l]` (a tempering
    /// ladder's replicas side by side).
    #[inline(always)]
    pub fn sweep_at(&mut self, inv_beta: &[f32; L]) {
        let n = self.plan.n;
        // Thresholds in the scaled units of the fields (a power of two: exact).
        let scaled: [f32; L] = std::array::from_fn(|l| inv_beta[l] * self.rows.scale as f32);
        let mut threshold = [[0f32; L]; BLOCK];
        let mut at = [0u32; BLOCK];
        for block in (0..n).step_by(BLOCK) {
            let len = (block + BLOCK).min(n) - block;
            self.rng.fill(&mut threshold[..len], |r, l| {
                neg_ln_uniform_times(r, scaled[l]).min(T::THRESHOLD_CAP)
            });
            for v in &mut at[..len] {
                *v = below(self.shared.next_u32(), n) as u32;
            }
            for k in 0..len {
                let v = at[k] as usize;
                if self.plan.a_of[v] == NONE {
                    self.flip(v, &threshold[k]);
                } else if self.rows.masked[v] {
                    self.propose_masked(v, &threshold[k]);
                } else {
                    self.propose(v, &threshold[k]);
                }
            }
        }
        self.sweeps += 1;
        if self.sweeps.is_multiple_of(RESYNC_SWEEPS) {
            self.resync();
        }
    }

    /// A free variable flips where ΔE ≤ the lane's threshold (as the flip kernel does).
    #[inline(always)]
    fn flip(&mut self, v: usize, threshold: &[f32; L]) {
        let (f, s) = (self.field[v], self.sign[v]);
        let mut d = [T::default(); L];
        let mut accepting = 0u32;
        for l in 0..L {
            let de = f[l].mul(s[l]);
            let accept = de.to_f32() <= threshold[l];
            d[l] = if accept { s[l] } else { T::default() };
            self.energy[l] += if accept { de.to_f32() } else { 0.0 };
            accepting |= (accept as u32) << l;
        }
        if accepting == 0 {
            return;
        }
        self.accepted += accepting.count_ones() as u64;
        for l in 0..L {
            self.sign[v][l] = s[l].sub(d[l].add(d[l]));
        }
        self.add_row(v, &d);
    }

    /// Adds `d[l]`·row i to every lane's fields.
    #[inline(always)]
    fn add_row(&mut self, i: usize, d: &[T; L]) {
        let (cols, vals) = self.rows.row(i);
        for (&j, &q) in cols.iter().zip(vals) {
            // SAFETY: `LaneRows::with_limits` checked every column is < n = field.len().
            let fj = unsafe { self.field.get_unchecked_mut(j as usize) };
            for l in 0..L {
                fj[l] = fj[l].add(q.mul(d[l]));
            }
        }
    }

    /// Adds `d`·row i to lane l's fields only, and flips i's sign there.
    #[inline(always)]
    fn add_row_lane(&mut self, i: u32, l: usize, d: T) {
        let (cols, vals) = self.rows.row(i as usize);
        for (&j, &q) in cols.iter().zip(vals) {
            // SAFETY: `LaneRows::with_limits` checked every column is < n = field.len().
            let fj = unsafe { self.field.get_unchecked_mut(j as usize) };
            fj[l] = fj[l].add(q.mul(d));
        }
        let s = &mut self.sign[i as usize][l];
        *s = T::default().sub(*s);
    }

    /// One-hot in a small group (`MASK_MEMBERS`): `propose`'s move, with ΔE = f'_v − f'_u
    /// (fields without the group's own couplings, see the module header) for u the lane's 1 —
    /// one vector per member kept where u is the lane's 1 in a group of at most `GATHER_FROM`,
    /// each lane's own f'_u above that — and the lanes turning u off updated by one vector
    /// row where more than one does.
    #[inline(always)]
    fn propose_masked(&mut self, v: usize, threshold: &[f32; L]) {
        let ga = self.plan.a_of[v] as usize;
        let members = self.plan.members(ga as u32);
        let fv = self.field[v];
        let one = self.one_a[ga];
        let mut de = [T::NO_MOVE; L];
        if members.len() <= self.rows.gather_from {
            for &(_, u) in members {
                let fu = &self.field[u as usize];
                for l in 0..L {
                    let change = fv[l].sub(fu[l]);
                    de[l] = if one[l] == u && u as usize != v {
                        change
                    } else {
                        de[l]
                    };
                }
            }
        } else {
            for l in 0..L {
                let u = one[l];
                let change = fv[l].sub(self.field[u as usize][l]);
                de[l] = if u as usize == v { T::NO_MOVE } else { change };
            }
        }
        // Per-lane decisions as an array (the blends below vectorise on it; bit tests of a
        // mask would go lane by lane), and as a mask for the row updates.
        let accept: [bool; L] = std::array::from_fn(|l| de[l].to_f32() <= threshold[l]);
        let accepting = mask_of(&accept);
        if accepting == 0 {
            return;
        }
        self.accepted += accepting.count_ones() as u64;
        let d: [T; L] = std::array::from_fn(|l| if accept[l] { T::ONE } else { T::default() });
        // Whole arrays written back, not lane by lane under a condition (which compiles to
        // masked stores, slow on some CPUs).
        let (sign_v, energy) = (self.sign[v], self.energy);
        // (ΔE chosen in T first: lanes without a move hold NO_MOVE, NaN in f32.)
        let change: [T; L] = std::array::from_fn(|l| if accept[l] { de[l] } else { T::default() });
        self.energy = std::array::from_fn(|l| energy[l] + change[l].to_f32());
        self.one_a[ga] = std::array::from_fn(|l| if accept[l] { v as u32 } else { one[l] });
        self.sign[v] = std::array::from_fn(|l| sign_v[l].sub(d[l].add(d[l])));
        self.add_row(v, &d);
        self.add_rows_by(&one, &accept);
    }

    /// Turns u = `var[l]` off in each lane where `lanes[l]` (u is its 1 there): row u taken
    /// from those lanes' fields by one vector update for the lanes that share a u, a scalar
    /// one for a lane alone (at low temperature a proposal's accepting lanes share one or two
    /// such variables, not a group's worth), and u's sign back to +1.
    #[inline(always)]
    fn add_rows_by(&mut self, var: &[u32; L], lanes: &[bool; L]) {
        let mut rest = *lanes;
        let mut left = mask_of(&rest);
        while left != 0 {
            let u = var[left.trailing_zeros() as usize];
            let same: [bool; L] = std::array::from_fn(|l| rest[l] && var[l] == u);
            rest = std::array::from_fn(|l| rest[l] && !same[l]);
            let bits = mask_of(&same);
            left &= !bits;
            if bits.is_power_of_two() {
                self.add_row_lane(u, bits.trailing_zeros() as usize, minus_one());
            } else {
                let by: [T; L] =
                    std::array::from_fn(|l| if same[l] { minus_one() } else { T::default() });
                self.add_row(u as usize, &by);
                let sign_u = self.sign[u as usize];
                self.sign[u as usize] =
                    std::array::from_fn(|l| if same[l] { T::ONE } else { sign_u[l] });
            }
        }
    }

    /// A held v becomes its group's 1 in every lane where the move's ΔE ≤ the lane's
    /// threshold (see `MoveState::propose`). Without turns an intersection holds at most one
    /// variable, so a two-way move from a ≠ v is always an exchange, with w the one variable
    /// shared by b's A group and a's B group. The lane loops avoid branches on the lane's
    /// state (half the lanes accepting at random would mispredict every other one): lanes
    /// without a move get ΔE = NaN (never ≤ a threshold, not even β = 0's infinite one), and the accepting lanes are gathered into a list first.
    #[inline(always)]
    fn propose(&mut self, v: usize, threshold: &[f32; L]) {
        let plan = self.plan;
        let ga = plan.a_of[v] as usize;
        let gb = plan.b_of[v] as usize;
        let (cols, vals) = self.rows.row(v);
        for (&j, &q) in cols.iter().zip(vals) {
            self.scratch[j as usize] = q;
        }
        let fv = self.field[v];
        let one_a = self.one_a[ga];
        let mut moves = [LaneMove {
            a: NONE,
            b: NONE,
            w: NONE,
        }; L];
        let mut de = [T::NO_MOVE; L];
        let scale = self.rows.scale;
        if plan.two_way {
            let one_b = self.one_b[gb];
            for l in 0..L {
                let (a, b) = (one_a[l], one_b[l]);
                // Exchange: v takes a's A group and b's B group; w takes b's A group and
                // a's B group (v itself where there is no move: a = v, or no such w).
                let cell = plan.intersection(plan.a_of[b as usize], plan.b_of[a as usize]);
                let w = cell.first().map_or(v as u32, |t| t.1);
                let (fa, fb, fw) = (
                    self.field[a as usize][l],
                    self.field[b as usize][l],
                    self.field[w as usize][l],
                );
                let (qva, qvb, qvw) = (
                    self.scratch[a as usize],
                    self.scratch[b as usize],
                    self.scratch[w as usize],
                );
                let others = self.m.pair(a, b) - self.m.pair(w, a) - self.m.pair(w, b);
                let change = fv[l]
                    .add(fw)
                    .sub(fa)
                    .sub(fb)
                    .add(qvw)
                    .sub(qva)
                    .sub(qvb)
                    .add(T::from_f64(others * scale));
                let real = a as usize != v && w as usize != v;
                de[l] = if real { change } else { T::NO_MOVE };
                moves[l] = LaneMove { a, b, w };
            }
        } else {
            for l in 0..L {
                let a = one_a[l];
                let change = fv[l]
                    .sub(self.field[a as usize][l])
                    .sub(self.scratch[a as usize]);
                de[l] = if a as usize != v { change } else { T::NO_MOVE };
                moves[l].a = a;
            }
        }
        for &j in cols {
            self.scratch[j as usize] = T::default();
        }
        let mut d = [T::default(); L];
        let mut accepting = [0u8; L];
        let mut count = 0;
        for l in 0..L {
            let accept = de[l].to_f32() <= threshold[l];
            d[l] = if accept { T::ONE } else { T::default() };
            accepting[count] = l as u8;
            count += accept as usize;
        }
        if count == 0 {
            return;
        }
        self.accepted += count as u64;
        self.add_row(v, &d);
        for &l in &accepting[..count] {
            let l = l as usize;
            let mv = moves[l];
            self.energy[l] += de[l].to_f32();
            self.sign[v][l] = minus_one();
            self.add_row_lane(mv.a, l, minus_one());
            self.one_a[ga][l] = v as u32;
            if plan.two_way {
                self.one_b[gb][l] = v as u32;
                self.add_row_lane(mv.b, l, minus_one());
                self.add_row_lane(mv.w, l, T::ONE);
                self.one_a[plan.a_of[mv.b as usize] as usize][l] = mv.w;
                self.one_b[plan.b_of[mv.a as usize] as usize][l] = mv.w;
            }
        }
    }
}
