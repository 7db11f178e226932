//! Moves for `MOVE_LANES` reads at once on a stored model's rows (SA's runs under one-hot and
//! two-way moves): every lane proposes at the same variable v, drawn at random for all lanes,
//! so v's fields are one vector load, its row one vector update and its couplings one row
//! scattered once for all lanes. The rest of a move — each lane's own current 1s, their fields
//! and rows — is per lane, in f32 fields laid out lane by lane (`field[i][l]`).
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
use crate::sampler::kernel::{BLOCK, LaneArrays, inverse_beta, lowest};

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

/// Whether lane l is in the lane mask `bits`.
#[inline(always)]
fn taken(bits: u32, l: usize) -> bool {
    (bits >> l) & 1 != 0
}

/// The rows in f32 for the lanes' field updates (the pair lookups read `MoveCsr`'s f64), and
/// which variables' groups are proposed by member masks; their rows leave out their own
/// group's members (see the module header).
pub(in crate::sampler) struct LaneRows {
    start: Vec<usize>,
    cols: Vec<u32>,
    vals: Vec<f32>,
    /// Per variable: whether it is held in a group of at most the mask limit's size, in a
    /// one-hot plan (two-way moves gather per lane).
    masked: Vec<bool>,
    /// Masked groups of more than this many members read each lane's own 1 (`GATHER_FROM`).
    gather_from: usize,
}

impl LaneRows {
    pub fn new(plan: &MovePlan, m: &MoveCsr) -> Self {
        Self::with_limits(plan, m, MASK_MEMBERS, GATHER_FROM)
    }

    /// Rows whose groups of at most `limit` variables are proposed by member masks, those of
    /// more than `gather_from` reading each lane's own 1 (tests take 0 for the per-lane
    /// gathers everywhere).
    pub fn with_limits(plan: &MovePlan, m: &MoveCsr, limit: usize, gather_from: usize) -> Self {
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
                    vals.push(q as f32);
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
            masked,
            gather_from,
        }
    }

    #[inline(always)]
    fn row(&self, i: usize) -> (&[u32], &[f32]) {
        let r = self.start[i]..self.start[i + 1];
        (&self.cols[r.clone()], &self.vals[r])
    }
}

/// A move one lane accepted: the variables it turns off (`a`, and `b` for an exchange) and
/// the one it turns on besides v (`w`), NONE where absent.
#[derive(Clone, Copy)]
struct LaneMove {
    a: u32,
    b: u32,
    w: u32,
}

/// L reads under moves (see the module header).
pub(in crate::sampler) struct LaneMoves<'a, const L: usize> {
    plan: &'a MovePlan,
    m: &'a MoveCsr,
    rows: &'a LaneRows,
    field: LaneArrays<f32, L>,
    sign: Vec<[f32; L]>,
    one_a: Vec<[u32; L]>,
    one_b: Vec<[u32; L]>,
    /// Running energy per lane (accepted ΔE added up; exact after every resync).
    pub energy: [f32; L],
    /// v's couplings, scattered by column (zero elsewhere).
    scratch: Vec<f32>,
    /// Per-lane generators (each lane's own stream) and the group's shared one (which v).
    rng: LaneRng<L>,
    shared: Xoshiro128p,
    sweeps: usize,
    /// Accepted proposals since the counter was last cleared, all lanes together.
    pub accepted: u64,
}

impl<'a, const L: usize> LaneMoves<'a, L> {
    /// Lanes from per-lane starts (generator and a state that holds the plan's groups) and the
    /// group's shared generator.
    pub fn new(
        plan: &'a MovePlan,
        m: &'a MoveCsr,
        rows: &'a LaneRows,
        starts: Vec<(Xoshiro128p, Vec<u8>)>,
        shared: Xoshiro128p,
    ) -> Self {
        let n = plan.n;
        let states: [[u32; 4]; L] = std::array::from_fn(|l| starts[l].0.state());
        let mut lanes = LaneMoves {
            plan,
            m,
            rows,
            field: LaneArrays::filled(n, [0.0; L]),
            sign: vec![[1.0; L]; n],
            one_a: vec![[NONE; L]; plan.num_a()],
            one_b: vec![[NONE; L]; plan.num_b],
            energy: [0.0; L],
            scratch: vec![0.0; n],
            rng: LaneRng::from_states(&states),
            shared,
            sweeps: 0,
            accepted: 0,
        };
        for (l, (_, x)) in starts.iter().enumerate() {
            for (v, _) in x.iter().enumerate().filter(|(_, b)| **b != 0) {
                lanes.sign[v][l] = -1.0;
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
        self.sign.iter().map(|s| (s[l] < 0.0) as u8).collect()
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
                self.field[i][l] = (*f - own) as f32;
            }
            self.energy[l] = engine.energy() as f32;
        }
    }

    /// The lowest running energy among the first `live` lanes and that lane.
    pub fn lowest(&self, live: usize) -> (usize, f32) {
        lowest(&self.energy[..live])
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
        let mut threshold = [[0f32; L]; BLOCK];
        let mut at = [0u32; BLOCK];
        for block in (0..n).step_by(BLOCK) {
            let len = (block + BLOCK).min(n) - block;
            self.rng.fill(&mut threshold[..len], |r, l| {
                neg_ln_uniform_times(r, inv_beta[l])
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
        let mut d = [0f32; L];
        let mut accepting = 0u32;
        for l in 0..L {
            let de = f[l] * s[l];
            let accept = de <= threshold[l];
            d[l] = if accept { s[l] } else { 0.0 };
            self.energy[l] += if accept { de } else { 0.0 };
            accepting |= (accept as u32) << l;
        }
        if accepting == 0 {
            return;
        }
        self.accepted += accepting.count_ones() as u64;
        for l in 0..L {
            self.sign[v][l] = s[l] - 2.0 * d[l];
        }
        self.add_row(v, &d);
    }

    /// Adds `d[l]`·row i to every lane's fields.
    #[inline(always)]
    fn add_row(&mut self, i: usize, d: &[f32; L]) {
        let (cols, vals) = self.rows.row(i);
        for (&j, &q) in cols.iter().zip(vals) {
            // SAFETY: `LaneRows::new` checked every column is < n = field.len().
            let fj = unsafe { self.field.get_unchecked_mut(j as usize) };
            for l in 0..L {
                fj[l] += q * d[l];
            }
        }
    }

    /// Adds `d`·row i to lane l's fields only.
    #[inline(always)]
    fn add_row_lane(&mut self, i: u32, l: usize, d: f32) {
        let (cols, vals) = self.rows.row(i as usize);
        for (&j, &q) in cols.iter().zip(vals) {
            // SAFETY: `LaneRows::new` checked every column is < n = field.len().
            unsafe { self.field.get_unchecked_mut(j as usize)[l] += q * d };
        }
        self.sign[i as usize][l] -= 2.0 * self.sign[i as usize][l];
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
        let mut de = [f32::NAN; L];
        if members.len() <= self.rows.gather_from {
            for &(_, u) in members {
                let fu = &self.field[u as usize];
                for l in 0..L {
                    let change = fv[l] - fu[l];
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
                let change = fv[l] - self.field[u as usize][l];
                de[l] = if u as usize == v { f32::NAN } else { change };
            }
        }
        let mut accepting = 0u32;
        for l in 0..L {
            accepting |= ((de[l] <= threshold[l]) as u32) << l;
        }
        if accepting == 0 {
            return;
        }
        self.accepted += accepting.count_ones() as u64;
        let d: [f32; L] = std::array::from_fn(|l| taken(accepting, l) as u32 as f32);
        for l in 0..L {
            let accept = taken(accepting, l);
            self.energy[l] += if accept { de[l] } else { 0.0 };
            self.one_a[ga][l] = if accept { v as u32 } else { one[l] };
            self.sign[v][l] = if accept { -1.0 } else { self.sign[v][l] };
        }
        self.add_row(v, &d);
        self.add_rows_by(&one, accepting, -1.0);
    }

    /// Adds `d`·row u to the fields of the lanes in `lanes` for each u = `var[l]` among them,
    /// turning u on (d = 1) or off (d = −1) there: one vector update for the lanes that share
    /// a u, a scalar one for a lane alone. At low temperature a proposal's accepting lanes
    /// share one or two such variables, not a group's worth.
    #[inline(always)]
    fn add_rows_by(&mut self, var: &[u32; L], lanes: u32, d: f32) {
        let mut rest = lanes;
        while rest != 0 {
            let u = var[rest.trailing_zeros() as usize];
            let mut same = 0u32;
            for (l, &x) in var.iter().enumerate() {
                same |= ((x == u) as u32) << l;
            }
            same &= rest;
            rest &= !same;
            if same.is_power_of_two() {
                self.add_row_lane(u, same.trailing_zeros() as usize, d);
            } else {
                let by: [f32; L] = std::array::from_fn(|l| if taken(same, l) { d } else { 0.0 });
                self.add_row(u as usize, &by);
                for (l, s) in self.sign[u as usize].iter_mut().enumerate() {
                    *s = if taken(same, l) { -d } else { *s };
                }
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
        let mut de = [f32::NAN; L];
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
                let change = fv[l] + fw - fa - fb + qvw - qva - qvb + others as f32;
                let real = a as usize != v && w as usize != v;
                de[l] = if real { change } else { f32::NAN };
                moves[l] = LaneMove { a, b, w };
            }
        } else {
            for l in 0..L {
                let a = one_a[l];
                let change = fv[l] - self.field[a as usize][l] - self.scratch[a as usize];
                de[l] = if a as usize != v { change } else { f32::NAN };
                moves[l].a = a;
            }
        }
        for &j in cols {
            self.scratch[j as usize] = 0.0;
        }
        let mut d = [0f32; L];
        let mut accepting = [0u8; L];
        let mut count = 0;
        for l in 0..L {
            let accept = de[l] <= threshold[l];
            d[l] = if accept { 1.0 } else { 0.0 };
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
            self.energy[l] += de[l];
            self.sign[v][l] = -1.0;
            self.add_row_lane(mv.a, l, -1.0);
            self.one_a[ga][l] = v as u32;
            if plan.two_way {
                self.one_b[gb][l] = v as u32;
                self.add_row_lane(mv.b, l, -1.0);
                self.add_row_lane(mv.w, l, 1.0);
                self.one_a[plan.a_of[mv.b as usize] as usize][l] = mv.w;
                self.one_b[plan.b_of[mv.a as usize] as usize][l] = mv.w;
            }
        }
    }
}
