//! The dense-rows kernel, for models with hundreds of neighbours per variable (a constraint
//! spelled out over many variables, max-cut on a dense graph): every coefficient row stored
//! whole (n × n, in the narrowest type that holds it, i8 where it can) and each read swept on
//! its own. A flip adds one contiguous row to the read's fields — a vector add over n with no
//! column indices — and the next flip is found by comparing a block of fields with a block of
//! thresholds at once. The lane kernel instead updates every lane's fields at every neighbour
//! whenever any lane flips, which on a dense model is most visits (at 4 % acceptance, 16
//! lanes flip something at half of them). While most flips are accepted the lanes win (one
//! pass over a row serves every lane), so SA's dense kernel (`annealing/reads.rs`,
//! `dense_group`) sweeps a group of reads in lanes first and hands each read to these rows once
//! a sweep's acceptance falls under `ROWS_BELOW`.
//!
//! Each read draws from eight generators of its own (`rows_rng`), so that a block's thresholds
//! come out in variable order; reads therefore differ from the other kernels' for a seed (the
//! same Metropolis chains with other random numbers), and depend only on the seed, the read and
//! its group (fixed by read index), not on the thread count.

use crate::rng::{LaneRng, Xoshiro128p, neg_ln_uniform_times};
use crate::sampler::kernel::{BLOCK, KernelModel, LaneValue};

/// Generators per read: one AVX2 vector of draws gives eight consecutive variables.
const STREAMS: usize = 8;

/// A model's coefficients as full rows, in a type R the kernel's type T widens from.
pub(super) struct DenseRows<R> {
    n: usize,
    coefficients: Vec<R>,
}

impl<R: Copy + Default> DenseRows<R> {
    /// The rows of `m` (its CSR spread out; the diagonal stays zero: linear terms live in the
    /// fields), or `None` when `narrow` refuses a coefficient.
    pub fn of<T: LaneValue>(m: &KernelModel<T>, narrow: impl Fn(T) -> Option<R>) -> Option<Self> {
        let n = m.n;
        let mut coefficients = vec![R::default(); n * n];
        for i in 0..n {
            for k in m.start[i]..m.start[i + 1] {
                coefficients[i * n + m.cols[k] as usize] = narrow(m.vals[k])?;
            }
        }
        Some(DenseRows { n, coefficients })
    }

    #[inline(always)]
    fn row(&self, i: usize) -> &[R] {
        &self.coefficients[i * self.n..(i + 1) * self.n]
    }
}

impl<R: Copy + Default> DenseRows<R> {
    /// Local fields linear_i + Σ_j Q_ij x_j of state `x` and its energy, from the rows: each
    /// variable at 1 adds its whole row, a vector add without column indices (the CSR's
    /// column scatter, `KernelModel::fields`, took a fifth of a 200-sweep run on the 8×8 edge
    /// model). Only in an exact type (`LaneValue::EXACT`, the integral i16 model): there every
    /// partial sum lies within |linear_i| + Σ_j |Q_ij|, which `KernelModel::integral` keeps
    /// within i16, so the sums equal `KernelModel::fields`' whatever their order. (Inlined
    /// into the kernel's AVX2 body: the widening adds are 16 a vector there.)
    #[inline(always)]
    pub fn fields<T: LaneValue>(&self, m: &KernelModel<T>, x: &[u8]) -> (Vec<T>, f64)
    where
        R: Into<T>,
    {
        assert!(
            T::EXACT,
            "row-wise fields are only exact in an integral type"
        );
        let mut fields: Vec<T> = m.lin.iter().map(|&v| T::from_f64(v)).collect();
        for j in (0..self.n).filter(|&j| x[j] != 0) {
            for (f, &w) in fields.iter_mut().zip(self.row(j)) {
                *f = f.add(w.into());
            }
        }
        // Σ over the ones of linear_i + field_i counts every linear term and every coupled
        // pair of ones twice (integers: exact in f64).
        let twice: f64 = (0..self.n)
            .filter(|&i| x[i] != 0)
            .map(|i| m.lin[i] + fields[i].to_f64())
            .sum();
        (fields, m.offset + twice / 2.0)
    }
}

impl DenseRows<i8> {
    /// The largest coefficient in size.
    pub fn largest(&self) -> u8 {
        self.coefficients
            .iter()
            .map(|w| w.unsigned_abs())
            .max()
            .unwrap_or(0)
    }
}

/// Bytes of the rows of an n-variable model in a type of `size` bytes.
pub(super) fn rows_bytes(n: usize, size: usize) -> u64 {
    crate::budget::bytes_of(&[n, n, size])
}

/// Read `read`'s generators for its sweeps (its starting state comes from its usual generator,
/// `Xoshiro128p::for_read`, as in every kernel).
pub(super) fn rows_rng(seed: u64, read: usize) -> LaneRng<STREAMS> {
    const SALT: u64 = 0x6a09_e667_f3bc_c908;
    let states: [[u32; 4]; STREAMS] = std::array::from_fn(|w| {
        Xoshiro128p::for_read(seed ^ SALT, (read * STREAMS + w) as u64).state()
    });
    LaneRng::from_states(&states)
}

/// A read's local fields as the rows kernel keeps them: whole (`Vec<T>`), or split into a
/// 16-bit base and 8-bit changes (`SplitFields`) where the rows' coefficients are small.
pub(super) trait RowFields<T: LaneValue, R> {
    /// `out[k]` = 1 iff variable `lo + k` would flip at threshold `limit[k]`: its ΔE (field
    /// times sign) is at most the limit.
    fn flags(&self, lo: usize, sign: &[T], limit: &[T], out: &mut [u8]);
    /// Variable i's local field.
    fn field(&self, i: usize) -> T;
    /// Adds a flipped variable's row to every field (`d` = +1: the variable went to 1), or
    /// subtracts it (`d` = −1).
    fn add_row(&mut self, row: &[R], d: T);
}

impl<T: LaneValue, R: Copy + Into<T>> RowFields<T, R> for Vec<T> {
    #[inline(always)]
    fn flags(&self, lo: usize, sign: &[T], limit: &[T], out: &mut [u8]) {
        let hi = lo + out.len();
        for (a, ((&fi, &si), &t)) in out
            .iter_mut()
            .zip(self[lo..hi].iter().zip(&sign[lo..hi]).zip(limit))
        {
            *a = (fi.mul(si) <= t) as u8;
        }
    }

    #[inline(always)]
    fn field(&self, i: usize) -> T {
        self[i]
    }

    #[inline(always)]
    fn add_row(&mut self, row: &[R], d: T) {
        if d == T::ONE {
            for (fj, &w) in self.iter_mut().zip(row) {
                *fj = fj.add(w.into());
            }
        } else {
            for (fj, &w) in self.iter_mut().zip(row) {
                *fj = fj.sub(w.into());
            }
        }
    }
}

/// Local fields as a 16-bit base plus an 8-bit change per variable, for rows whose
/// coefficients are at most 127 / `room` in size: a flip adds its row to the changes (32 per
/// AVX2 vector, no widening) and only every `room` flips are the changes folded into the base,
/// so a flip moves half the bytes. Exact: after at most `room` flips no change can pass ±127,
/// and base + change is the whole field, which the integral model keeps within i16.
pub(super) struct SplitFields {
    base: Vec<i16>,
    change: Vec<i8>,
    /// Flips in `change` since it was last folded into `base`.
    pending: u32,
    room: u32,
}

impl SplitFields {
    /// Whole fields to split ones, for rows that allow `room` flips between folds.
    pub fn new(field: Vec<i16>, room: u32) -> Self {
        let change = vec![0; field.len()];
        SplitFields {
            base: field,
            change,
            pending: 0,
            room,
        }
    }

    /// The flips between folds that rows whose largest coefficient is `largest` in size allow.
    pub fn room(largest: u8) -> u32 {
        (i8::MAX as u8 / largest.max(1)) as u32
    }
}

impl RowFields<i16, i8> for SplitFields {
    #[inline(always)]
    fn flags(&self, lo: usize, sign: &[i16], limit: &[i16], out: &mut [u8]) {
        let hi = lo + out.len();
        for (a, (((&b, &c), &si), &t)) in out.iter_mut().zip(
            self.base[lo..hi]
                .iter()
                .zip(&self.change[lo..hi])
                .zip(&sign[lo..hi])
                .zip(limit),
        ) {
            *a = (b.wrapping_add(c as i16).wrapping_mul(si) <= t) as u8;
        }
    }

    #[inline(always)]
    fn field(&self, i: usize) -> i16 {
        self.base[i].wrapping_add(self.change[i] as i16)
    }

    #[inline(always)]
    fn add_row(&mut self, row: &[i8], d: i16) {
        if self.pending == self.room {
            for (b, c) in self.base.iter_mut().zip(&mut self.change) {
                *b = b.wrapping_add(*c as i16);
                *c = 0;
            }
            self.pending = 0;
        }
        self.pending += 1;
        if d == 1 {
            for (c, &w) in self.change.iter_mut().zip(row) {
                *c = c.wrapping_add(w);
            }
        } else {
            for (c, &w) in self.change.iter_mut().zip(row) {
                *c = c.wrapping_sub(w);
            }
        }
    }
}

/// One Metropolis sweep of one read over all variables (`fields`: its local fields, `sign`:
/// +1 at x = 0 and −1 at x = 1): i flips iff ΔE ≤ −ln(u)/β, with u drawn for variable
/// `block + 8t + w` as draw t of the block from generator w. Returns ΔE summed over the flips.
/// (The kernel itself goes block by block, `RowSweep::block`; tests sweep a read whole.)
#[cfg(test)]
pub(super) fn sweep_rows<T: LaneValue, R: Copy + Default, F: RowFields<T, R>>(
    rows: &DenseRows<R>,
    inv_beta: f32,
    fields: &mut F,
    sign: &mut [T],
    rng: &mut LaneRng<STREAMS>,
) -> f32 {
    let sweep = RowSweep::new(inv_beta);
    (0..rows.n)
        .step_by(BLOCK)
        .map(|block| sweep.block(rows, block, fields, sign, rng))
        .sum()
}

/// One sweep's temperature, for `RowSweep::block`: a group of reads goes over the rows block
/// by block, every read through a block before the next, so that the block's rows (64 × n
/// numbers) serve all of them from cache instead of streaming in once per read.
pub(super) struct RowSweep<T> {
    inv_beta: f32,
    /// The largest threshold any draw can give, once per block entry: u ≥ 2⁻²⁴, and the fit
    /// of log2 u never goes under the exponent of the smallest u (r = 0), so no ΔE above
    /// this can ever flip.
    highest: [T; BLOCK],
}

impl<T: LaneValue> RowSweep<T> {
    #[inline(always)]
    pub fn new(inv_beta: f32) -> Self {
        RowSweep {
            inv_beta,
            highest: [T::threshold(neg_ln_uniform_times(0, inv_beta)); BLOCK],
        }
    }

    /// The sweep's step over variables `block..block + BLOCK` of one read (a whole sweep is
    /// every block in order). Returns ΔE summed over the flips.
    #[inline(always)]
    pub fn block<R: Copy + Default, F: RowFields<T, R>>(
        &self,
        rows: &DenseRows<R>,
        block: usize,
        fields: &mut F,
        sign: &mut [T],
        rng: &mut LaneRng<STREAMS>,
    ) -> f32 {
        const DRAWS: usize = BLOCK / STREAMS;
        let len = (block + BLOCK).min(rows.n) - block;
        let mut accept = [0u8; BLOCK];
        // A block where every ΔE is past `highest` cannot flip (and its fields do not change
        // until something flips), so it draws nothing: in cold sweeps most blocks end here.
        fields.flags(block, sign, &self.highest[..len], &mut accept[..len]);
        if first_set(&accept[..len]).is_none() {
            return 0.0;
        }
        let mut drawn = [[0f32; STREAMS]; DRAWS];
        rng.fill(&mut drawn[..len.div_ceil(STREAMS)], |r, _| {
            neg_ln_uniform_times(r, self.inv_beta)
        });
        let mut threshold = [T::default(); BLOCK];
        for (t, &d) in threshold.iter_mut().zip(drawn.as_flattened()) {
            *t = T::threshold(d);
        }
        let mut delta = 0f32;
        let mut from = 0;
        // Flags for the block's remaining variables, then the first flip among them; after a
        // flip the fields past it have changed, so the flags are recomputed from there.
        while from < len {
            let lo = block + from;
            fields.flags(lo, sign, &threshold[from..len], &mut accept[from..len]);
            let Some(k) = first_set(&accept[from..len]) else {
                break;
            };
            let i = lo + k;
            let d = sign[i];
            delta += fields.field(i).mul(d).to_f32();
            sign[i] = d.sub(d.add(d));
            fields.add_row(rows.row(i), d);
            from += k + 1;
        }
        delta
    }
}

/// The index of the first nonzero flag, eight at a time.
#[inline(always)]
fn first_set(flags: &[u8]) -> Option<usize> {
    let mut chunks = flags.chunks_exact(8);
    for (c, chunk) in chunks.by_ref().enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().expect("chunks of 8"));
        if word != 0 {
            return Some(c * 8 + word.trailing_zeros() as usize / 8);
        }
    }
    let done = flags.len() - chunks.remainder().len();
    chunks
        .remainder()
        .iter()
        .position(|&a| a != 0)
        .map(|k| done + k)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::qubo::{Model, Qubo, StoredModel};
    use crate::sampler::kernel::inverse_beta;
    use std::convert::identity as whole;

    /// Six variables, every pair coupled, coefficients `scale` × small integers: the
    /// Boltzmann distribution is enumerable.
    pub(crate) fn six_dense(scale: f64) -> StoredModel {
        let linear = [1.0, -2.0, 0.0, 3.0, -1.0, 2.0].map(|v| v * scale).to_vec();
        let couplings: Vec<(usize, usize, f64)> = (0..6usize)
            .flat_map(|i| (i + 1..6).map(move |j| (i, j, ((i * 5 + j * 3) % 7) as f64 - 3.0)))
            .map(|(i, j, v)| (i, j, v * scale))
            .collect();
        StoredModel::new(Qubo::new(linear, couplings, 0.0).unwrap())
    }

    /// Total variation between weighted states of `m` and its Boltzmann distribution at β.
    pub(crate) fn boltzmann_distance(
        m: &StoredModel,
        beta: f64,
        states: impl Iterator<Item = (Vec<u8>, f64)>,
    ) -> f64 {
        let n = m.num_variables();
        let mut seen = vec![0f64; 1 << n];
        for (x, w) in states {
            let k: usize = x.iter().enumerate().map(|(v, &b)| (b as usize) << v).sum();
            seen[k] += w;
        }
        let total: f64 = seen.iter().sum();
        let weights: Vec<f64> = (0..1usize << n)
            .map(|k| {
                let x: Vec<u8> = (0..n).map(|v| ((k >> v) & 1) as u8).collect();
                (-beta * m.energy(&x)).exp()
            })
            .collect();
        let z: f64 = weights.iter().sum();
        seen.iter()
            .zip(&weights)
            .map(|(s, w)| (s / total - w / z).abs())
            .sum::<f64>()
            / 2.0
    }

    /// 20 000 reads of 40 sweeps at β from random starts; checks every sweep's returned ΔE
    /// against the recomputed energy, and returns the final states' distance from Boltzmann.
    fn sample<T: LaneValue, R: Copy + Default, F: RowFields<T, R>>(
        m: &StoredModel,
        km: &KernelModel<T>,
        rows: &DenseRows<R>,
        fields_of: impl Fn(Vec<T>) -> F,
        beta: f64,
    ) -> f64 {
        let inv_beta = inverse_beta((beta / km.scale) as f32);
        let states = (0..20_000).map(|read| {
            let mut start = Xoshiro128p::for_read(3, read as u64);
            let x: Vec<u8> = (0..6).map(|_| (start.next_u32() >> 31) as u8).collect();
            let (field, e0) = km.fields(&x);
            let mut field = fields_of(field);
            let mut sign: Vec<T> = x
                .iter()
                .map(|&b| {
                    if b != 0 {
                        T::default().sub(T::ONE)
                    } else {
                        T::ONE
                    }
                })
                .collect();
            let mut rng = rows_rng(3, read);
            let mut energy = e0;
            for _ in 0..40 {
                energy += sweep_rows(rows, inv_beta, &mut field, &mut sign, &mut rng) as f64;
            }
            let x: Vec<u8> = sign.iter().map(|&s| (s < T::default()) as u8).collect();
            assert!(
                (energy / km.scale - m.energy(&x)).abs() < 1e-3,
                "read {read}"
            );
            (x, 1.0)
        });
        boltzmann_distance(m, beta, states)
    }

    #[test]
    fn a_sweep_over_the_rows_samples_the_boltzmann_distribution_in_every_number_type() {
        // A wrong row, a flag not recomputed after a flip or a skipped variable moves the
        // histogram far past the sampling noise (about 0.02 at 20 000 reads over 64 states).
        for (scale, beta) in [(1.0, 0.7), (60.0, 0.7 / 60.0), (0.3, 0.7 / 0.3)] {
            let m = six_dense(scale);
            let csr = m.qubo.csr();
            let distance = match KernelModel::integral(&csr) {
                Some(km) if scale == 1.0 => {
                    let rows = DenseRows::of(&km, |w| i8::try_from(w).ok()).expect("fits i8");
                    // Room for 2 flips between folds: a sweep folds several times.
                    let split = |f| SplitFields::new(f, SplitFields::room(rows.largest() * 20));
                    let split_distance = sample(&m, &km, &rows, split, beta);
                    assert!(
                        split_distance < 0.04,
                        "split fields: total variation {split_distance:.4}"
                    );
                    sample(&m, &km, &rows, whole, beta)
                }
                Some(km) => {
                    assert!(DenseRows::of(&km, |w| i8::try_from(w).ok()).is_none());
                    sample(&m, &km, &DenseRows::of(&km, Some).unwrap(), whole, beta)
                }
                None => {
                    let km = KernelModel::new(&csr, 1.0);
                    sample(&m, &km, &DenseRows::of(&km, Some).unwrap(), whole, beta)
                }
            };
            assert!(
                distance < 0.04,
                "scale {scale}: total variation {distance:.4}"
            );
        }
    }

    /// n variables, every pair (i > j) coupled by (i·a + j·b) mod 63 − 31, linear terms
    /// i mod `lin` − `lin`/2 and the offset: a complete integral model whose rows fit i8.
    fn complete_model(n: usize, (a, b): (usize, usize), lin: usize, offset: f64) -> StoredModel {
        let terms =
            (0..n).flat_map(|i| (0..i).map(move |j| (i, j, ((i * a + j * b) % 63) as f64 - 31.0)));
        let linear = (0..n)
            .map(|i| (i % lin) as f64 - (lin / 2) as f64)
            .collect();
        StoredModel::new(Qubo::new(linear, terms, offset).unwrap())
    }

    #[test]
    fn fields_from_the_rows_equal_the_csr_fields_in_an_integral_model() {
        // Every pair coupled by −31…31 and odd linear terms, an offset: the rows' vector adds
        // must give the CSR's f64 sums exactly, and the energy the model's own.
        let n = 150;
        let m = complete_model(n, (29, 13), 11, 2.5);
        let km = KernelModel::integral(&m.qubo.csr()).expect("integers");
        let rows = DenseRows::of(&km, |w| i8::try_from(w).ok()).expect("fits i8");
        let wide = DenseRows::of(&km, Some).expect("i16 holds i16");
        for read in 0..20 {
            let mut start = Xoshiro128p::for_read(9, read);
            let x: Vec<u8> = (0..n).map(|_| (start.next_u32() >> 31) as u8).collect();
            let (csr_fields, csr_energy) = km.fields(&x);
            for (fields, energy) in [rows.fields(&km, &x), wide.fields(&km, &x)] {
                assert_eq!(fields, csr_fields, "read {read}");
                assert_eq!(energy, csr_energy, "read {read}");
            }
            assert!((csr_energy / km.scale - m.energy(&x)).abs() < 1e-9);
        }
    }

    #[test]
    fn split_fields_follow_the_same_chain_as_whole_fields() {
        // 200 variables, every pair coupled by −31…31 (room for 4 flips between folds), from
        // hot to cold: the 8-bit changes wrap if a fold comes late, and a fold that loses a
        // change moves every later decision. Both must give the same flips, sweep by sweep.
        let n = 200;
        let m = complete_model(n, (31, 17), 9, 0.0);
        let km = KernelModel::integral(&m.qubo.csr()).expect("integers");
        let rows = DenseRows::of(&km, |w| i8::try_from(w).ok()).expect("fits i8");
        assert_eq!(SplitFields::room(rows.largest()), 4);
        for read in 0..4 {
            let mut start = Xoshiro128p::for_read(5, read);
            let x: Vec<u8> = (0..n).map(|_| (start.next_u32() >> 31) as u8).collect();
            let (field, _) = km.fields(&x);
            let signs: Vec<i16> = x.iter().map(|&b| 1 - 2 * b as i16).collect();
            let (mut whole, mut split) = (field.clone(), SplitFields::new(field, 4));
            let (mut whole_sign, mut split_sign) = (signs.clone(), signs);
            let (mut whole_rng, mut split_rng) =
                (rows_rng(5, read as usize), rows_rng(5, read as usize));
            for s in 0..60 {
                let inv_beta = inverse_beta(0.002 * 1.1f32.powi(s));
                let a = sweep_rows(&rows, inv_beta, &mut whole, &mut whole_sign, &mut whole_rng);
                let b = sweep_rows(&rows, inv_beta, &mut split, &mut split_sign, &mut split_rng);
                assert_eq!((a, &whole_sign), (b, &split_sign), "read {read}, sweep {s}");
            }
            let fields: Vec<i16> = (0..n).map(|i| split.field(i)).collect();
            assert_eq!(fields, whole);
        }
    }
}
