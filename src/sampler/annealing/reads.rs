//! One simulated-annealing read, or a lane group of them, on the CSR kernels: what the sweeps
//! of `SimulatedAnnealing::sample` run (the scalar kernel, and the lanes in f32 or i16).

use crate::rng::{LaneRng, Xoshiro128p, neg_ln_uniform_times};
use crate::sampler::control::ProgressTracker;
use crate::sampler::kernel::{
    BLOCK, KernelModel, LaneArrays, LaneValue, inverse_beta, lowest, sweep_lanes, with_avx2,
};
use crate::sampler::lanes::LANES;
use crate::sampler::lanes8::{self, BYTE_LANES, ByteModel};
use crate::sampler::multispin::{RandomWords, SpinGlassBits, WORD_LANES, lane_state, set_block};
use crate::sampler::rows::{DenseRows, RowFields, RowSweep, SplitFields, rows_rng};
use crate::sampler::schedule::Schedule;

/// Everything a read needs besides its index: model, schedule, seed, starting states.
pub(super) struct Job<'a> {
    pub(super) model: &'a KernelModel,
    /// The model in 16-bit integers, when the lanes run on it.
    pub(super) integral: Option<&'a KernelModel<i16>>,
    pub(super) schedule: &'a Schedule,
    pub(super) num_sweeps: usize,
    pub(super) seed: u64,
    pub(super) initial_states: &'a [Vec<u8>],
    pub(super) tracker: &'a ProgressTracker<'a>,
}

impl Job<'_> {
    /// The read's generator and starting state.
    fn start(&self, read: usize) -> (Xoshiro128p, Vec<u8>) {
        let mut rng = Xoshiro128p::for_read(self.seed, read as u64);
        let x = match self.initial_states.get(read) {
            Some(s) => s.clone(),
            None => (0..self.model.n)
                .map(|_| (rng.next_u32() >> 31) as u8)
                .collect(),
        };
        (rng, x)
    }

    fn report_due(&self, sweep: usize) -> bool {
        self.tracker.wants_reports()
            && ((sweep + 1).is_multiple_of(self.tracker.every()) || sweep + 1 == self.num_sweeps)
    }

    /// The kernel's β at `sweep`: the schedule's, divided by the model's scale (see
    /// `precision`), in f32.
    #[inline(always)]
    fn beta(&self, sweep: usize) -> f32 {
        (self.schedule.beta(sweep) / self.model.scale) as f32
    }

    /// One read on the scalar kernel; `None` when cancelled.
    pub(super) fn run_scalar(&self, read: usize) -> Option<Vec<u8>> {
        // With AVX2 and FMA where the CPU has them: the thresholds' fit uses `mul_add`.
        let job = self;
        with_avx2!(scalar_read(job: &Job, read: usize) -> Option<Vec<u8>> {
            job.scalar_read(read)
        })
    }

    #[inline(always)]
    fn scalar_read(&self, read: usize) -> Option<Vec<u8>> {
        let m = self.model;
        let (mut rng, x) = self.start(read);
        let (mut field, e0) = m.fields(&x);
        let mut energy = e0 as f32;
        let mut sign: Vec<f32> = x.iter().map(|&b| if b != 0 { -1.0 } else { 1.0 }).collect();
        let mut reported = 0;
        let mut draws = [0u32; BLOCK];
        let mut threshold = [0f32; BLOCK];
        for s in 0..self.num_sweeps {
            let inv_beta = inverse_beta(self.beta(s));
            for block in (0..m.n).step_by(BLOCK) {
                let end = (block + BLOCK).min(m.n);
                // Draw serially, then take logarithms in a loop that vectorises.
                for r in &mut draws[..end - block] {
                    *r = rng.next_u32();
                }
                for (t, &r) in threshold.iter_mut().zip(&draws[..end - block]) {
                    *t = neg_ln_uniform_times(r, inv_beta);
                }
                for i in block..end {
                    let de = field[i] * sign[i];
                    if de <= threshold[i - block] {
                        let d = sign[i];
                        sign[i] = d - 2.0 * d;
                        energy += de;
                        let (lo, hi) = (m.start[i], m.start[i + 1]);
                        for (&j, &w) in m.cols[lo..hi].iter().zip(&m.vals[lo..hi]) {
                            // SAFETY: KernelModel::new checked every column is < n = field.len().
                            unsafe { *field.get_unchecked_mut(j as usize) += w * d };
                        }
                    }
                }
            }
            if self.tracker.is_cancelled() {
                return None;
            }
            if self.report_due(s) {
                self.tracker
                    .add((s + 1 - reported) as u64, m.unscaled(energy));
                self.tracker.offer(m.unscaled(energy), || {
                    sign.iter().map(|&v| (v < 0.0) as u8).collect()
                });
                reported = s + 1;
            }
        }
        Some(sign.iter().map(|&v| (v < 0.0) as u8).collect())
    }

    /// Up to L reads on the lane kernel over `m` (the f32 model, or its i16 twin: the same
    /// decisions either way); padding lanes run spare reads whose results are dropped. `None`
    /// when cancelled.
    #[inline(always)]
    fn run_lanes<const L: usize, T: LaneValue>(
        &self,
        m: &KernelModel<T>,
        reads: &[usize],
    ) -> Option<Vec<Vec<u8>>> {
        let spare = usize::MAX / 2;
        let starts: Vec<(Xoshiro128p, Vec<u8>)> = (0..L)
            .map(|l| self.start(reads.get(l).copied().unwrap_or(spare + l)))
            .collect();
        let rng_states: [[u32; 4]; L] = std::array::from_fn(|l| starts[l].0.state());
        let mut rng = LaneRng::<L>::from_states(&rng_states);
        let (mut field, mut sign, mut energy) = lanes_from(
            m.n,
            std::array::from_fn(|l| starts[l].1.as_slice()),
            starts.iter().map(|(_, x)| m.fields(x)).collect(),
        );
        let zero = T::default();
        let mut reported = 0;
        for s in 0..self.num_sweeps {
            let beta = (self.schedule.beta(s) / m.scale) as f32;
            sweep_lanes::<L, false, T>(
                m,
                &[inverse_beta(beta); L],
                &mut field,
                &mut sign,
                &mut rng,
                &mut energy,
            );
            if self.tracker.is_cancelled() {
                return None;
            }
            if self.report_due(s) {
                let (lane, best) = lowest(&energy[..reads.len()]);
                self.tracker
                    .add(((s + 1 - reported) * reads.len()) as u64, m.unscaled(best));
                self.tracker.offer(m.unscaled(best), || {
                    sign.iter().map(|v| (v[lane] < zero) as u8).collect()
                });
                reported = s + 1;
            }
        }
        Some(
            (0..reads.len())
                .map(|l| sign.iter().map(|v| (v[l] < zero) as u8).collect())
                .collect(),
        )
    }
}

/// A model's dense rows for `sampler::rows`: in i16 fields where the model's integral twin
/// exists (rows in i8 when every coefficient fits, with fields split into a base and 8-bit
/// changes when every coefficient is within ±`SPLIT_LARGEST`), else in f32.
pub(super) enum Rows {
    F32(DenseRows<f32>),
    I16(DenseRows<i16>),
    I8(DenseRows<i8>),
    /// i8 rows of small coefficients, and the flips the 8-bit changes hold between folds.
    Split(DenseRows<i8>, u32),
}

/// The largest coefficient for split fields: 127 / 31 = 4 flips between folds, the fewest
/// that still pay (a fold costs about what a flip on whole fields does).
const SPLIT_LARGEST: u8 = 31;

impl Rows {
    pub(super) fn of(model: &KernelModel, integral: Option<&KernelModel<i16>>) -> Rows {
        match integral {
            Some(m) => match DenseRows::of(m, |w| i8::try_from(w).ok()) {
                Some(rows) => match rows.largest() {
                    largest if largest <= SPLIT_LARGEST => {
                        Rows::Split(rows, SplitFields::room(largest))
                    }
                    _ => Rows::I8(rows),
                },
                None => Rows::I16(DenseRows::of(m, Some).expect("i16 holds i16")),
            },
            None => Rows::F32(DenseRows::of(model, Some).expect("f32 holds f32")),
        }
    }

    /// The kernel's name in a run's record: `dense8` with split fields (8-bit changes),
    /// `dense16` in 16-bit fields, else `dense`.
    pub(super) fn kernel_name(&self) -> &'static str {
        match self {
            Rows::F32(_) => "dense",
            Rows::I16(_) | Rows::I8(_) => "dense16",
            Rows::Split(..) => "dense8",
        }
    }
}

impl Job<'_> {
    /// A group of up to `DENSE_GROUP` reads on the dense-rows kernel, on AVX2 where the CPU
    /// has it; `None` when cancelled.
    pub(super) fn run_dense_group(&self, rows: &Rows, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
        let job = self;
        with_avx2!(by_type(job: &Job, rows: &Rows, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
            use std::convert::identity as whole;
            // The group's lane width for each kind of rows and fields: a short last group runs
            // narrower lanes (its width depends only on num_reads).
            macro_rules! by_width {
                ($m:expr, $r:expr, $fields:expr) => {
                    match reads.len() {
                        0..=8 => job.dense_group::<8, _, _, _>($m, $r, reads, $fields),
                        9..=16 => job.dense_group::<16, _, _, _>($m, $r, reads, $fields),
                        _ => job.dense_group::<DENSE_GROUP, _, _, _>($m, $r, reads, $fields),
                    }
                };
            }
            match (rows, job.integral) {
                (Rows::Split(r, room), Some(m)) => by_width!(m, r, |f| SplitFields::new(f, *room)),
                (Rows::I8(r), Some(m)) => by_width!(m, r, whole),
                (Rows::I16(r), Some(m)) => by_width!(m, r, whole),
                (Rows::F32(r), _) => by_width!(job.model, r, whole),
                (_, None) => unreachable!("16-bit rows are built from the integral model"),
            }
        })
    }

    /// The reads of one group: side by side in lanes while the sweeps accept much (a lane
    /// pass over a row serves every lane that flips), then each read alone over the dense rows
    /// from the first sweep whose acceptance falls under `ROWS_BELOW` (`sampler::rows`). The
    /// switch depends on the group's own flips, and groups are fixed by read index, so a seed
    /// gives the same reads at any thread count.
    #[inline(always)]
    fn dense_group<
        const L: usize,
        T: LaneValue,
        R: Copy + Default + Into<T>,
        F: RowFields<T, R>,
    >(
        &self,
        m: &KernelModel<T>,
        rows: &DenseRows<R>,
        reads: &[usize],
        fields_of: impl Fn(Vec<T>) -> F,
    ) -> Option<Vec<Vec<u8>>> {
        let n = m.n;
        let spare = usize::MAX / 2;
        let read_of = |l: usize| reads.get(l).copied().unwrap_or(spare + l);
        let mut rng = LaneRng::<L>::from_states(&std::array::from_fn(|l| {
            lanes_phase_state(self.seed, read_of(l))
        }));
        let starts: Vec<Vec<u8>> = (0..L).map(|l| self.start(read_of(l)).1).collect();
        // Integral models start from the rows (a vector add per variable at 1, exact there; a
        // loop, not a closure, so that it compiles inside the AVX2 body).
        let mut start_fields = Vec::with_capacity(L);
        for x in &starts {
            start_fields.push(if T::EXACT {
                rows.fields(m, x)
            } else {
                m.fields(x)
            });
        }
        let (mut field, mut sign, mut energy) = lanes_from(
            m.n,
            std::array::from_fn(|l| starts[l].as_slice()),
            start_fields,
        );
        let zero = T::default();
        let live = reads.len();
        let mut reported = 0;
        let mut s = 0;
        let mut report = |s: usize, energy: &[f32; L], state: &dyn Fn(usize) -> Vec<u8>| {
            if self.report_due(s) {
                let (lane, best) = lowest(&energy[..live]);
                self.tracker
                    .add(((s + 1 - reported) * live) as u64, m.unscaled(best));
                self.tracker.offer(m.unscaled(best), || state(lane));
                reported = s + 1;
            }
        };
        while s < self.num_sweeps {
            let beta = (self.schedule.beta(s) / m.scale) as f32;
            let flips = sweep_lanes::<L, true, T>(
                m,
                &[inverse_beta(beta); L],
                &mut field,
                &mut sign,
                &mut rng,
                &mut energy,
            );
            if self.tracker.is_cancelled() {
                return None;
            }
            report(s, &energy, &|l| {
                sign.iter().map(|v| (v[l] < zero) as u8).collect()
            });
            s += 1;
            let accepted: u32 = flips.iter().sum();
            if (accepted as f64) < ROWS_BELOW * (L * n) as f64 {
                break;
            }
        }
        // Each live read alone from here on, its fields and signs contiguous.
        let mut row_field: Vec<F> = (0..live)
            .map(|l| fields_of(field.iter().map(|f| f[l]).collect()))
            .collect();
        let mut row_sign: Vec<Vec<T>> = (0..live)
            .map(|l| sign.iter().map(|v| v[l]).collect())
            .collect();
        drop((field, sign));
        let mut rngs: Vec<_> = (0..live).map(|l| rows_rng(self.seed, read_of(l))).collect();
        let state_of = |signs: &[T]| signs.iter().map(|&v| (v < zero) as u8).collect::<Vec<u8>>();
        while s < self.num_sweeps {
            let sweep = RowSweep::new(inverse_beta((self.schedule.beta(s) / m.scale) as f32));
            for block in (0..n).step_by(BLOCK) {
                for l in 0..live {
                    energy[l] += sweep.block(
                        rows,
                        block,
                        &mut row_field[l],
                        &mut row_sign[l],
                        &mut rngs[l],
                    );
                }
            }
            if self.tracker.is_cancelled() {
                return None;
            }
            report(s, &energy, &|l| state_of(&row_sign[l]));
            s += 1;
        }
        Some(row_sign.iter().map(|v| state_of(v)).collect())
    }
}

/// The lane layout of L starting states of n variables, given each one's fields and energy:
/// fields, signs (+1 at x = 0, −1 at x = 1) and energies.
#[inline(always)]
#[allow(clippy::type_complexity)] // the three arrays a lane sweep takes
fn lanes_from<const L: usize, T: LaneValue>(
    n: usize,
    starts: [&[u8]; L],
    fields: Vec<(Vec<T>, f64)>,
) -> (LaneArrays<T, L>, Vec<[T; L]>, [f32; L]) {
    let mut field = LaneArrays::filled(n, [T::default(); L]);
    let mut sign = vec![[T::ONE; L]; n];
    let mut energy = [0f32; L];
    for (l, (x, (f, e))) in starts.iter().zip(fields).enumerate() {
        for i in 0..n {
            field[i][l] = f[i];
            if x[i] != 0 {
                sign[i][l] = T::default().sub(T::ONE);
            }
        }
        energy[l] = e as f32;
    }
    (field, sign, energy)
}

/// Reads per dense-rows group: 32 lanes while the group sweeps side by side (as the lanes do).
pub(super) const DENSE_GROUP: usize = 32;

/// The acceptance (flips per variable and read in one sweep) under which a dense group leaves
/// the lanes for the rows. Measured on the edge 6×6 COO model: the lanes win at high
/// acceptance (β 0.02–0.05: 19 against 32 ns per update), the rows at low (β 0.1–0.2, about
/// 12 %: 13 against 19; β 1.2–5: 1.6 against 1.8); over a piloted run, switching at 10 % and
/// at 20 % both beat staying in lanes.
const ROWS_BELOW: f64 = 0.15;

/// Read `read`'s generator in a dense group's lanes phase (its rows phase has `rows_rng`).
fn lanes_phase_state(seed: u64, read: usize) -> [u32; 4] {
    const SALT: u64 = 0xbb67_ae85_84ca_a73b;
    Xoshiro128p::for_read(seed ^ SALT, read as u64).state()
}

/// Runs a lane group of up to 32 reads, on AVX2 when the CPU has it (runtime dispatch keeps
/// the binary portable; the arithmetic, and so the result, is the same either way: see
/// `with_avx2!`), in i16 when the job has the model's integral twin. A short group (the
/// remainder of num_reads) gets a narrower kernel.
pub(super) fn run_lane_group(job: &Job, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
    with_avx2!(by_width(job: &Job, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
        match (job.integral, reads.len()) {
            (Some(m), 0..=8) => job.run_lanes::<8, i16>(m, reads),
            (Some(m), 9..=16) => job.run_lanes::<16, i16>(m, reads),
            (Some(m), _) => job.run_lanes::<LANES, i16>(m, reads),
            (None, 0..=8) => job.run_lanes::<8, f32>(job.model, reads),
            (None, 9..=16) => job.run_lanes::<16, f32>(job.model, reads),
            (None, _) => job.run_lanes::<LANES, f32>(job.model, reads),
        }
    })
}

/// Every read of a multi-spin run on the current thread pool (call inside
/// `RunControl::install`): fixed blocks of 64 reads (any thread count gives the same reads), up
/// to four side by side in AVX2 words where a thread has that many. Blocks not yet begun are
/// skipped after a cancel.
pub(super) fn sample_word_blocks(
    job: &Job,
    model: &SpinGlassBits,
    num_reads: usize,
) -> Vec<(usize, Vec<u8>)> {
    use rayon::prelude::*;
    let blocks = num_reads.div_ceil(WORD_LANES);
    let width = match blocks / rayon::current_num_threads().max(1) {
        0..=1 => 1,
        2..=3 => 2,
        _ => 4,
    };
    (0..blocks)
        .collect::<Vec<_>>()
        .chunks(width)
        .map(<[usize]>::to_vec)
        .collect::<Vec<_>>()
        .into_par_iter()
        .filter_map(|group| {
            if job.tracker.is_cancelled() {
                return None;
            }
            run_word_blocks(job, model, &group, num_reads)
        })
        .flatten()
        .collect()
}

/// `run_word_group` for up to four blocks, as wide as `blocks` needs (three run as four, one
/// padding), on AVX2 when the CPU has it (the same reads either way).
fn run_word_blocks(
    job: &Job,
    model: &SpinGlassBits,
    blocks: &[usize],
    num_reads: usize,
) -> Option<Vec<(usize, Vec<u8>)>> {
    with_avx2!(by_width(
        job: &Job,
        model: &SpinGlassBits,
        blocks: &[usize],
        num_reads: usize,
    ) -> Option<Vec<(usize, Vec<u8>)>> {
        match blocks.len() {
            0..=1 => run_word_group::<1>(job, model, blocks, num_reads),
            2 => run_word_group::<2>(job, model, blocks, num_reads),
            _ => run_word_group::<4>(job, model, blocks, num_reads),
        }
    })
}

/// The reads of `blocks` (blocks of 64 consecutive reads, up to W of them) multi-spin coded
/// side by side (`sampler::multispin`), block k in bit-word k; padding blocks past
/// `blocks.len()` and lanes past `num_reads` run spare reads whose results are dropped. A
/// read's result depends only on the seed and its block, not on W. `None` when cancelled.
#[inline(always)]
fn run_word_group<const W: usize>(
    job: &Job,
    model: &SpinGlassBits,
    blocks: &[usize],
    num_reads: usize,
) -> Option<Vec<(usize, Vec<u8>)>> {
    let spare = usize::MAX / (2 * WORD_LANES);
    let reads_of = |k: usize| match blocks.get(k) {
        Some(&b) => b * WORD_LANES..((b + 1) * WORD_LANES).min(num_reads),
        None => 0..0,
    };
    let mut bits: [RandomWords; W] = std::array::from_fn(|k| {
        let block = blocks.get(k).copied().unwrap_or(spare + k);
        RandomWords::for_block(job.seed, block * WORD_LANES)
    });
    let mut x = vec![[0u64; W]; model.n];
    for (k, b) in bits.iter_mut().enumerate() {
        let starts: Vec<Option<&[u8]>> = reads_of(k)
            .map(|r| job.initial_states.get(r).map(Vec::as_slice))
            .collect();
        set_block(&mut x, k, &starts, b);
    }
    let live: usize = (0..W).map(|k| reads_of(k).len()).sum();
    let mut reported = 0;
    for s in 0..job.num_sweeps {
        model.sweep(&mut x, &model.thresholds(job.schedule.beta(s)), &mut bits);
        if job.tracker.is_cancelled() {
            return None;
        }
        if job.report_due(s) {
            let (mut best, mut at) = (f64::INFINITY, (0, 0));
            for k in 0..blocks.len() {
                let energies = model.energies(&x, k);
                for (l, &e) in energies[..reads_of(k).len()].iter().enumerate() {
                    if e < best {
                        (best, at) = (e, (k, l));
                    }
                }
            }
            job.tracker.add(((s + 1 - reported) * live) as u64, best);
            job.tracker.offer(best, || lane_state(&x, at.0, at.1));
            reported = s + 1;
        }
    }
    Some(
        (0..blocks.len())
            .flat_map(|k| {
                let first = reads_of(k).start;
                reads_of(k).map(move |r| (k, r - first, r))
            })
            .map(|(k, l, r)| (r, lane_state(&x, k, l)))
            .collect(),
    )
}

/// Every read of a byte-lanes run (`sampler::lanes8`) on the current thread pool (call inside
/// `RunControl::install`): fixed blocks of 64 consecutive reads, so any thread count gives the
/// same reads; a last block of up to 32 reads runs 32 wide. Blocks not yet begun are skipped
/// after a cancel.
pub(super) fn sample_byte_blocks(
    job: &Job,
    model: &ByteModel,
    num_reads: usize,
) -> Vec<(usize, Vec<u8>)> {
    use rayon::prelude::*;
    (0..num_reads.div_ceil(BYTE_LANES))
        .into_par_iter()
        .filter_map(|block| {
            if job.tracker.is_cancelled() {
                return None;
            }
            let reads = block * BYTE_LANES..((block + 1) * BYTE_LANES).min(num_reads);
            if reads.len() <= BYTE_LANES / 2 {
                run_byte_block::<1>(job, model, reads)
            } else {
                run_byte_block::<2>(job, model, reads)
            }
        })
        .flatten()
        .collect()
}

/// `reads` in 32·V byte lanes; padding lanes hold spare starts that never move.
/// `None` when cancelled.
fn run_byte_block<const V: usize>(
    job: &Job,
    model: &ByteModel,
    reads: std::ops::Range<usize>,
) -> Option<Vec<(usize, Vec<u8>)>> {
    const SALT: u64 = 0x3c6e_f372_fe94_f82b;
    let spare = usize::MAX / 2;
    let starts: Vec<Vec<u8>> = (reads.start..reads.start + 32 * V)
        .map(|r| job.start(if r < reads.end { r } else { spare + r }).1)
        .collect();
    let starts: Vec<&[u8]> = starts.iter().map(Vec::as_slice).collect();
    let (mut field, mut x) = model.lanes_from::<V>(&starts);
    let mut bits = RandomWords::for_block(job.seed ^ SALT, reads.start);
    let live = reads.len();
    // Spare lanes stay at their starts: a block of 36 reads sweeps at the cost of 36, not 64.
    let lanes = if live == BYTE_LANES {
        !0
    } else {
        (1u64 << live) - 1
    };
    let mut reported = 0;
    for s in 0..job.num_sweeps {
        let table = model.thresholds(job.schedule.beta(s));
        model.sweep::<V>(&mut field, &mut x, lanes, &table, &mut bits);
        if job.tracker.is_cancelled() {
            return None;
        }
        if job.report_due(s) {
            let energies = model.energies::<V>(&field, &x);
            let (lane, best) = energies[..live].iter().copied().enumerate().fold(
                (0, f64::INFINITY),
                |b, (l, e)| if e < b.1 { (l, e) } else { b },
            );
            job.tracker.add(((s + 1 - reported) * live) as u64, best);
            job.tracker.offer(best, || lanes8::lane_state(&x, lane));
            reported = s + 1;
        }
    }
    Some(
        reads
            .clone()
            .map(|r| (r, lanes8::lane_state(&x, r - reads.start)))
            .collect(),
    )
}
