//! A ladder of replicas in SIMD lanes, on either kernel: the `Replicas` seam (the f32 CSR's
//! `CsrReplicas`, the structure's `GroupedReplicas`), the `Engine` a run sweeps on, the
//! `on_ladder!` dispatch by lane width, the swaps and their statistics.

use super::grouped::{LaneState, LaneTables, Sweep};
use super::kernel::{KernelModel, LaneArrays, LaneValue, inverse_beta, sweep_lanes};
use super::*;
use crate::rng::{LaneRng, Xoshiro128p};

/// Most replicas per ladder: one lane group of the kernel.
pub const MAX_REPLICAS: usize = 32;

/// What a ladder needs from a lane kernel: L replicas side by side, lane l swept at
/// 1/β = `inv_beta[l]`, energies in kernel units. Two kernels provide it: the f32 CSR
/// (`CsrReplicas`) and the structured one for models with one-hot groups and port links
/// (`GroupedReplicas`, which prices flips from counts and stores no couplings).
pub(super) trait Replicas<const L: usize> {
    /// One Metropolis sweep of every lane; with `count`, the flips accepted per lane.
    fn sweep(&mut self, inv_beta: &[f32; L], count: bool) -> [u32; L];
    /// Each lane's running energy (kernel units).
    fn energies(&self) -> &[f32; L];
    /// Lane `l`'s state as 0/1.
    fn state(&self, l: usize) -> Vec<u8>;
    /// Recomputes what accumulates rounding (fields, energies) from the states.
    fn resync(&mut self);
}

/// Random starting states for L lanes of n variables, and each lane's generator after
/// drawing them (lane l of `stream` uses read stream `stream · 64 + l`).
pub(super) fn random_starts<const L: usize>(
    n: usize,
    seed: u64,
    stream: u64,
) -> (Vec<Vec<u8>>, Vec<Xoshiro128p>) {
    (0..L)
        .map(|l| {
            let mut rng = Xoshiro128p::for_read(seed, stream * 64 + l as u64);
            let x = (0..n).map(|_| (rng.next_u32() >> 31) as u8).collect();
            (x, rng)
        })
        .unzip()
}

/// Replicas on the CSR lane kernel (`kernel::sweep_lanes`), in f32 or in i16 where the model
/// is integral (`KernelModel::<i16>::integral`; the same decisions either way).
pub(super) struct CsrReplicas<'a, const L: usize, T: LaneValue = f32> {
    m: &'a KernelModel<T>,
    field: LaneArrays<T, L>,
    sign: Vec<[T; L]>,
    energy: [f32; L],
    rng: LaneRng<L>,
}

impl<'a, const L: usize, T: LaneValue> CsrReplicas<'a, L, T> {
    pub(super) fn new(m: &'a KernelModel<T>, seed: u64, stream: u64) -> Self {
        let (starts, rngs) = random_starts::<L>(m.n, seed, stream);
        let minus = T::default().sub(T::ONE);
        let mut sign = vec![[T::ONE; L]; m.n];
        for (l, x) in starts.iter().enumerate() {
            for (s, &b) in sign.iter_mut().zip(x) {
                s[l] = if b != 0 { minus } else { T::ONE };
            }
        }
        let states: [[u32; 4]; L] = std::array::from_fn(|l| rngs[l].state());
        let mut r = CsrReplicas {
            m,
            field: LaneArrays::filled(m.n, [T::default(); L]),
            sign,
            energy: [0f32; L],
            rng: LaneRng::from_states(&states),
        };
        r.resync();
        r
    }
}

impl<const L: usize, T: LaneValue> Replicas<L> for CsrReplicas<'_, L, T> {
    #[inline(always)]
    fn sweep(&mut self, inv_beta: &[f32; L], count: bool) -> [u32; L] {
        let (m, field, sign) = (self.m, &mut self.field[..], &mut self.sign[..]);
        if count {
            sweep_lanes::<L, true, T>(m, inv_beta, field, sign, &mut self.rng, &mut self.energy)
        } else {
            sweep_lanes::<L, false, T>(m, inv_beta, field, sign, &mut self.rng, &mut self.energy)
        }
    }

    fn energies(&self) -> &[f32; L] {
        &self.energy
    }

    fn state(&self, lane: usize) -> Vec<u8> {
        self.sign
            .iter()
            .map(|s| (s[lane] < T::default()) as u8)
            .collect()
    }

    /// Fields and energies recomputed from the states (in f64, stored as T).
    fn resync(&mut self) {
        for l in 0..L {
            let (f, e) = self.m.fields(&self.state(l));
            for (row, v) in self.field.iter_mut().zip(f) {
                row[l] = v;
            }
            self.energy[l] = e as f32;
        }
    }
}

/// Replicas on the structured kernel (`sampler/grouped.rs`), in the model's own units.
pub(super) struct GroupedReplicas<'a, const L: usize> {
    tables: &'a LaneTables,
    model: &'a dyn Model,
    lanes: LaneState<L>,
}

impl<'a, const L: usize> GroupedReplicas<'a, L> {
    pub(super) fn new(
        tables: &'a LaneTables,
        model: &'a dyn Model,
        seed: u64,
        stream: u64,
    ) -> Self {
        let (starts, rngs) = random_starts::<L>(tables.num_variables(), seed, stream);
        let energies: Vec<f64> = starts.iter().map(|x| model.energy(x)).collect();
        GroupedReplicas {
            tables,
            model,
            lanes: LaneState::new(tables, &starts, &rngs, &energies),
        }
    }
}

impl<const L: usize> Replicas<L> for GroupedReplicas<'_, L>
where
    LaneState<L>: Sweep<L>,
{
    #[inline(always)]
    fn sweep(&mut self, inv_beta: &[f32; L], count: bool) -> [u32; L] {
        self.lanes.sweep(self.tables, inv_beta);
        let flips = std::mem::replace(&mut self.lanes.flips, [0.0; L]);
        if count {
            flips.map(|f| f as u32)
        } else {
            [0; L]
        }
    }

    fn energies(&self) -> &[f32; L] {
        &self.lanes.energy
    }

    fn state(&self, lane: usize) -> Vec<u8> {
        self.lanes.state(lane)
    }

    /// Counts are exact (small integers in f32); only the running energies drift.
    fn resync(&mut self) {
        let energies: Vec<f64> = (0..L)
            .map(|l| self.model.energy(&self.lanes.state(l)))
            .collect();
        self.lanes.set_energies(&energies);
    }
}

/// The kernel a run's ladders sweep on: the f32 CSR, or the structure of a model that has
/// one (`Model::grouped`), which needs no stored couplings.
#[derive(Clone, Copy)]
pub(in crate::sampler) enum Engine<'a> {
    Csr(&'a KernelModel),
    /// The CSR in i16, for integral models (`KernelModel::<i16>::integral`).
    Csr16(&'a KernelModel<i16>),
    Grouped(&'a LaneTables),
}

impl Engine<'_> {
    /// Kernel units per model unit (energies and 1/β are multiplied by it).
    pub(super) fn scale(&self) -> f64 {
        match self {
            Engine::Csr(m) => m.scale,
            Engine::Csr16(m) => m.scale,
            Engine::Grouped(_) => 1.0,
        }
    }

    pub(super) fn num_variables(&self) -> usize {
        match self {
            Engine::Csr(m) => m.n,
            Engine::Csr16(m) => m.n,
            Engine::Grouped(t) => t.num_variables(),
        }
    }

    /// The kernel's name in a run's info.
    pub(super) fn name(&self) -> &'static str {
        match self {
            Engine::Csr(_) => "lanes",
            Engine::Csr16(_) => "lanes16",
            Engine::Grouped(_) => "grouped",
        }
    }

    /// A kernel energy in the model's own units.
    pub(super) fn unscaled(&self, energy: f32) -> f64 {
        energy as f64 / self.scale()
    }
}

/// Calls `$run::<L, _>(ladder, $args…)` (bindings of those names) with a new ladder of `$beta` (kernel units) on
/// `$engine`, on the narrowest lane group that holds it (8, 16 or 32 lanes), inside a function
/// compiled for AVX2 when the CPU has it (the arithmetic, and so the result, is the same
/// either way). The ladder's random streams come from `$seed` and `$stream`.
macro_rules! on_ladder {
    ($run:ident($engine:expr, $model:expr, $beta:expr, $seed:expr, $stream:expr
        $(, $arg:ident: $ty:ty)* $(,)?) -> $ret:ty) => {{
        let (engine, model, beta, seed, stream) = ($engine, $model, $beta, $seed, $stream);
        with_avx2!(by_width(
            engine: Engine<'_>,
            model: &dyn Model,
            beta: Vec<f64>,
            seed: u64,
            stream: u64,
            $($arg: $ty),*
        ) -> $ret {
            match (engine, beta.len()) {
                (Engine::Csr(m), 0..=8) => {
                    let r = $crate::sampler::replicas::CsrReplicas::<8>::new(m, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Csr(m), 9..=16) => {
                    let r = $crate::sampler::replicas::CsrReplicas::<16>::new(m, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Csr(m), _) => {
                    let r = $crate::sampler::replicas::CsrReplicas::<32>::new(m, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Csr16(m), 0..=8) => {
                    let r = $crate::sampler::replicas::CsrReplicas::<8, i16>::new(m, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Csr16(m), 9..=16) => {
                    let r = $crate::sampler::replicas::CsrReplicas::<16, i16>::new(m, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Csr16(m), _) => {
                    let r = $crate::sampler::replicas::CsrReplicas::<32, i16>::new(m, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Grouped(t), 0..=8) => {
                    let r = $crate::sampler::replicas::GroupedReplicas::<8>::new(t, model, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Grouped(t), 9..=16) => {
                    let r = $crate::sampler::replicas::GroupedReplicas::<16>::new(t, model, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
                (Engine::Grouped(t), _) => {
                    let r = $crate::sampler::replicas::GroupedReplicas::<32>::new(t, model, seed, stream);
                    $run(Ladder::new(r, beta, seed, stream) $(, $arg)*)
                }
            }
        })
    }};
}

/// One ladder: its replicas in lanes, with the swap bookkeeping.
pub(super) struct Ladder<const L: usize, R: Replicas<L>> {
    replicas: R,
    swap_rng: Xoshiro128p,
    /// β per temperature, hot to cold, in kernel units (model β ÷ scale).
    pub(super) beta: Vec<f64>,
    pub(super) inv_beta: [f32; L],
    pub(super) lane_of_temp: Vec<usize>,
    pub(super) temp_of_lane: [usize; L],
}

/// Swap statistics per neighbouring pair (t, t+1): attempts and the summed acceptance
/// probability (lower variance than counting accepted swaps).
#[derive(Clone, Debug, Default)]
pub(super) struct SwapStats {
    pub(super) attempts: Vec<u64>,
    pub(super) acceptance: Vec<f64>,
    /// Accepted single flips per temperature.
    pub(super) flips: Vec<u64>,
    /// Sweeps counted.
    pub(super) sweeps: u64,
}

impl SwapStats {
    pub(super) fn new(pairs: usize) -> Self {
        SwapStats {
            attempts: vec![0; pairs],
            acceptance: vec![0.0; pairs],
            flips: vec![0; pairs + 1],
            sweeps: 0,
        }
    }

    pub(super) fn merge(&mut self, other: &SwapStats) {
        for (a, b) in self.attempts.iter_mut().zip(&other.attempts) {
            *a += b;
        }
        for (a, b) in self.acceptance.iter_mut().zip(&other.acceptance) {
            *a += b;
        }
        for (a, b) in self.flips.iter_mut().zip(&other.flips) {
            *a += b;
        }
        self.sweeps += other.sweeps;
    }

    /// Accepted flips per variable and sweep, per temperature.
    pub(super) fn flip_rates(&self, n: usize) -> Vec<f64> {
        let sweeps = self.sweeps.max(1);
        self.flips
            .iter()
            .map(|&f| f as f64 / (sweeps as f64 * n.max(1) as f64))
            .collect()
    }

    /// Mean acceptance per pair (1 where no swap was tried).
    pub(super) fn rates(&self) -> Vec<f64> {
        self.attempts
            .iter()
            .zip(&self.acceptance)
            .map(|(&n, &a)| if n == 0 { 1.0 } else { a / n as f64 })
            .collect()
    }
}

impl<const L: usize, R: Replicas<L>> Ladder<L, R> {
    /// A ladder of `beta` (kernel units, hot to cold, at most L values) over `replicas`;
    /// spare lanes run at the coldest.
    pub(super) fn new(replicas: R, beta: Vec<f64>, seed: u64, stream: u64) -> Self {
        let r = beta.len();
        let mut ladder = Ladder {
            replicas,
            swap_rng: Xoshiro128p::for_read(seed ^ 0x5eed_5a4b, stream),
            beta: Vec::new(),
            inv_beta: [0f32; L],
            lane_of_temp: (0..r).collect(),
            temp_of_lane: std::array::from_fn(|l| l.min(r - 1)),
        };
        ladder.set_betas(beta);
        ladder
    }

    /// New β values for the same temperature slots (the replicas keep their order).
    pub(super) fn set_betas(&mut self, beta: Vec<f64>) {
        self.beta = beta;
        for l in 0..L {
            self.inv_beta[l] = inverse_beta(self.beta[self.temp_of_lane[l]] as f32);
        }
    }

    pub(super) fn state(&self, lane: usize) -> Vec<u8> {
        self.replicas.state(lane)
    }

    pub(super) fn resync(&mut self) {
        self.replicas.resync();
    }

    /// One Metropolis sweep of every replica; with `COUNT`, adds each temperature's accepted
    /// flips to `flips`.
    #[inline(always)]
    pub(super) fn sweep<const COUNT: bool>(&mut self, flips: &mut [u64]) {
        let accepted = self.replicas.sweep(&self.inv_beta, COUNT);
        if COUNT {
            for (f, &lane) in flips.iter_mut().zip(&self.lane_of_temp) {
                *f += accepted[lane] as u64;
            }
        }
    }

    /// Swap attempts between the pairs (t, t+1) with t ≡ parity (mod 2).
    pub(super) fn exchange(&mut self, parity: usize, stats: &mut SwapStats) {
        let r = self.beta.len();
        let mut t = parity;
        while t + 1 < r {
            let (a, b) = (self.lane_of_temp[t], self.lane_of_temp[t + 1]);
            let energy = self.replicas.energies();
            let delta = (self.beta[t] - self.beta[t + 1]) * (energy[a] as f64 - energy[b] as f64);
            let p = if delta >= 0.0 { 1.0 } else { delta.exp() };
            stats.attempts[t] += 1;
            stats.acceptance[t] += p;
            // A 53-bit uniform in [0, 1).
            let u = ((self.swap_rng.next_u32() as u64) << 21 ^ (self.swap_rng.next_u32() as u64))
                as f64
                / (1u64 << 53) as f64;
            if u < p {
                self.lane_of_temp.swap(t, t + 1);
                self.temp_of_lane[a] = t + 1;
                self.temp_of_lane[b] = t;
                self.inv_beta.swap(a, b);
            }
            t += 2;
        }
    }

    /// The lane with the lowest energy, and that energy (kernel units).
    pub(super) fn lowest(&self) -> (usize, f32) {
        let energy = self.replicas.energies();
        let mut best = (0, energy[0]);
        for (l, &e) in energy.iter().enumerate().skip(1) {
            if e < best.1 {
                best = (l, e);
            }
        }
        best
    }
}
