//! The lane kernel shared by the Metropolis samplers (SA, parallel tempering): the model in
//! flat CSR form and one sweep over L replicas held side by side in SIMD lanes — in f32, or in
//! 16-bit integers for models whose coefficients allow it (`KernelModel::<i16>::integral`).
//!
//! Invariant: `field[i][l]` is linear_i + Σ_j Q_ij·x_j of lane l's state and `sign[i][l]` is
//! +1 when x_i = 0 and −1 when x_i = 1, so ΔE of flipping i is `field·sign`; a flip updates the
//! neighbours' fields in O(degree) and only when some lane accepted.

use crate::budget::bytes_of;
use crate::qubo::{Csr, Model};
use crate::rng::{LaneRng, neg_ln_uniform_times};

/// Defines `NAME(args) -> T { body }` and calls it, compiled twice — generic and with AVX2
/// enabled — and chosen at run time, so the binary stays portable while the lane loops
/// vectorise 8 wide where the CPU allows. The arithmetic is the same either way (no implicit
/// FMA contraction; explicit `mul_add`s are exactly rounded in both), and so is every result.
/// Use it as a whole function body; the arguments are passed by their names. What it calls
/// must be `#[inline(always)]` down to the sweep, or that part is compiled for baseline x86-64.
macro_rules! with_avx2 {
    ($name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block) => {{
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn $name($($arg: $ty),*) -> $ret $body
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("fma")
            {
                #[target_feature(enable = "avx2,fma")]
                #[allow(clippy::too_many_arguments)]
                fn avx2($($arg: $ty),*) -> $ret {
                    $name($($arg),*)
                }
                // SAFETY: the CPU supports AVX2 and FMA (checked just above).
                return unsafe { avx2($($arg),*) };
            }
        }
        $name($($arg),*)
    }};
}
pub(super) use with_avx2;

/// A number the lane kernel computes in: f32 for any model, or i16 where every coefficient
/// is an integer and every local field stays within ±32 767 (twice the lanes per vector, so a
/// dense row costs half). Decisions are the same in both (see `KernelModel::integral`).
pub(super) trait LaneValue: Copy + Default + PartialOrd + Send + Sync + 'static {
    /// +1, the sign of a variable at 0.
    const ONE: Self;
    /// Whether sums in this type are exact: the integral models' i16, whose every partial sum
    /// of a field stays within the bound `KernelModel::integral` checked, in any order.
    const EXACT: bool;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn to_f32(self) -> f32;
    /// A threshold t ≥ 0 (f32) as this type, so that for every ΔE of a model in this type,
    /// ΔE ≤ t exactly when ΔE ≤ `threshold(t)`.
    fn threshold(t: f32) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
}

impl LaneValue for f32 {
    const ONE: f32 = 1.0;
    const EXACT: bool = false;
    #[inline(always)]
    fn from_f64(v: f64) -> f32 {
        v as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self
    }
    #[inline(always)]
    fn threshold(t: f32) -> f32 {
        t
    }
    #[inline(always)]
    fn add(self, o: f32) -> f32 {
        self + o
    }
    #[inline(always)]
    fn sub(self, o: f32) -> f32 {
        self - o
    }
    #[inline(always)]
    fn mul(self, o: f32) -> f32 {
        self * o
    }
}

impl LaneValue for i16 {
    const ONE: i16 = 1;
    const EXACT: bool = true;
    #[inline(always)]
    fn from_f64(v: f64) -> i16 {
        v as i16
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self as f32
    }
    /// ΔE is an integer within ±32 767, so ΔE ≤ t iff ΔE ≤ ⌊t⌋, and any t above 32 767
    /// admits every ΔE (`as` truncates, which is ⌊⌋ for t ≥ 0, and saturates).
    #[inline(always)]
    fn threshold(t: f32) -> i16 {
        let t = t.clamp(0.0, I16_FIELD_LIMIT as f32);
        // SAFETY: thresholds are never NaN (`neg_ln_uniform_times` ends in `max(0.0)`), so t is
        // in [0, 32 767] and the truncation is defined; unlike `as`, it vectorises.
        (unsafe { t.to_int_unchecked::<i32>() }) as i16
    }
    // Wrapping ops only to keep the loops branch-free: `integral` bounds every field, so no
    // sum or product ever wraps.
    #[inline(always)]
    fn add(self, o: i16) -> i16 {
        self.wrapping_add(o)
    }
    #[inline(always)]
    fn sub(self, o: i16) -> i16 {
        self.wrapping_sub(o)
    }
    #[inline(always)]
    fn mul(self, o: i16) -> i16 {
        self.wrapping_mul(o)
    }
}

/// The model in the kernels' layout: flat CSR, every coefficient (and the offset) multiplied
/// by `scale` (a power of two, see `precision`); β is divided by it.
pub(super) struct KernelModel<T = f32> {
    pub n: usize,
    pub start: Vec<usize>,
    pub cols: Vec<u32>,
    pub vals: Vec<T>,
    pub lin: Vec<f64>,
    pub offset: f64,
    pub scale: f64,
}

/// Largest |local field| the i16 kernel admits (ΔE = ±field must fit, and −32 768 has no
/// negation).
const I16_FIELD_LIMIT: f64 = i16::MAX as f64;

/// Powers of two tried to make a model's coefficients integers (halves, quarters, … of 1/64).
const INTEGRAL_SCALES: [f64; 7] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];

/// The least power of two (`INTEGRAL_SCALES`) that makes every coefficient of `csr` an
/// integer, if any: what the integer kernels multiply a model by (and divide β by).
pub(super) fn integral_scale(csr: &Csr) -> Option<f64> {
    INTEGRAL_SCALES.into_iter().find(|&s| {
        csr.linear
            .iter()
            .chain(&csr.values)
            .all(|&v| (v * s).fract() == 0.0)
    })
}

impl KernelModel<f32> {
    pub fn new(csr: &Csr, scale: f64) -> Self {
        KernelModel::build(csr, scale)
    }
}

impl KernelModel<i16> {
    /// The model in 16-bit integers, when some power of two (`INTEGRAL_SCALES`) makes every
    /// coefficient an integer and keeps every local field, |linear_i| + Σ_j |Q_ij|, within
    /// ±32 767; else `None` (nothing is ever rounded). Its decisions equal the f32 kernel's:
    /// both compare the same ΔE (exact: integers below 2²⁴ in f32, times a power of two) with
    /// the same threshold −ln(u)/β scaled by a power of two, which f32 also does exactly.
    pub fn integral(csr: &Csr) -> Option<Self> {
        let scale = integral_scale(csr)?;
        fields_fit_i16(csr, scale).then(|| KernelModel::build(csr, scale))
    }
}

/// Whether every local field of `csr` times `scale`, |linear_i| + Σ_j |Q_ij|, is within i16.
fn fields_fit_i16(csr: &Csr, scale: f64) -> bool {
    (0..csr.num_variables()).all(|i| {
        let row: f64 = csr.values[csr.start[i]..csr.start[i + 1]]
            .iter()
            .map(|v| v.abs())
            .sum();
        (csr.linear[i].abs() + row) * scale <= I16_FIELD_LIMIT
    })
}

/// Whether `KernelModel::integral` holds `csr` with every coupling within ±127, so that its
/// dense rows are i8 (`DenseRows`), without building either.
pub(super) fn integral_in_i8(csr: &Csr) -> bool {
    integral_scale(csr).is_some_and(|s| {
        csr.values.iter().all(|v| (v * s).abs() <= i8::MAX as f64) && fields_fit_i16(csr, s)
    })
}

impl<T: LaneValue> KernelModel<T> {
    fn build(csr: &Csr, scale: f64) -> Self {
        let n = csr.num_variables();
        // The scalar kernel indexes fields by these columns without bounds checks.
        assert!(
            csr.cols.iter().all(|&j| (j as usize) < n),
            "CSR column out of range"
        );
        KernelModel {
            n,
            start: csr.start.clone(),
            cols: csr.cols.clone(),
            vals: csr.values.iter().map(|&v| T::from_f64(v * scale)).collect(),
            lin: csr.linear.iter().map(|&v| v * scale).collect(),
            offset: csr.offset * scale,
            scale,
        }
    }

    /// A kernel energy in the model's own units.
    pub fn unscaled(&self, energy: f32) -> f64 {
        energy as f64 / self.scale
    }

    /// Local fields linear_i + Σ_j Q_ij x_j (summed in f64, stored as T) and the energy.
    pub fn fields(&self, x: &[u8]) -> (Vec<T>, f64) {
        // Column by column: each variable at 1 adds its row to its neighbours' sums. Rows are
        // sorted and symmetric, so each sum still takes its terms in ascending j (the same
        // sums as row by row), without a branch on x_j that a random start mispredicts half
        // the time (9 % of a dense model's whole run). `above[i]` gathers the terms j > i,
        // which the energy counts once.
        let mut sum: Vec<f64> = self.lin.clone();
        let mut above = vec![0f64; self.n];
        for j in (0..self.n).filter(|&j| x[j] != 0) {
            let (lo, hi) = (self.start[j], self.start[j + 1]);
            let split = lo + self.cols[lo..hi].partition_point(|&i| (i as usize) < j);
            for (&i, &v) in self.cols[lo..split].iter().zip(&self.vals[lo..split]) {
                sum[i as usize] += v.to_f64();
                above[i as usize] += v.to_f64();
            }
            for (&i, &v) in self.cols[split..hi].iter().zip(&self.vals[split..hi]) {
                sum[i as usize] += v.to_f64();
            }
        }
        let mut energy = self.offset;
        for i in (0..self.n).filter(|&i| x[i] != 0) {
            energy += self.lin[i] + above[i];
        }
        (sum.into_iter().map(T::from_f64).collect(), energy)
    }
}

/// One cache line of bytes: the unit `LaneArrays` allocates in, so that its first variable
/// starts a line.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct CacheLine([u8; 64]);

/// n per-variable lane arrays (`[T; L]`, T an f32 or an i16) starting on a cache line: with 32
/// lanes of i16 one variable's fields are exactly one line, so a neighbour update touches one
/// line rather than two (a `Vec` of them starts wherever the allocator put it, 16 bytes in).
pub(super) struct LaneArrays<T, const L: usize> {
    lines: Vec<CacheLine>,
    n: usize,
    _lanes: std::marker::PhantomData<[T; L]>,
}

impl<T: LaneValue, const L: usize> LaneArrays<T, L> {
    /// n arrays of `value`.
    pub fn filled(n: usize, value: [T; L]) -> Self {
        let bytes = n * std::mem::size_of::<[T; L]>();
        let mut arrays = LaneArrays {
            lines: vec![CacheLine([0; 64]); bytes.div_ceil(64)],
            n,
            _lanes: std::marker::PhantomData,
        };
        arrays.fill(value);
        arrays
    }
}

impl<T: LaneValue, const L: usize> std::ops::Deref for LaneArrays<T, L> {
    type Target = [[T; L]];
    fn deref(&self) -> &[[T; L]] {
        // SAFETY: `lines` holds at least n·size_of::<[T; L]>() bytes, aligned to 64 (more than
        // T needs); T is f32 or i16 (`LaneValue`), for which every bit pattern is a value; the
        // borrow of `self` keeps the buffer alive and unaliased as long as the slice lives.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr() as *const [T; L], self.n) }
    }
}

impl<T: LaneValue, const L: usize> std::ops::DerefMut for LaneArrays<T, L> {
    fn deref_mut(&mut self) -> &mut [[T; L]] {
        // SAFETY: as in `deref`, with the exclusive borrow of `self`.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr() as *mut [T; L], self.n) }
    }
}

/// Peak bytes of a lane-kernel run: a CSR when the model has none, the kernel's f32 copy of
/// it, `per_thread` for each worker, and the finished reads with their sample rows.
pub(super) fn run_bytes(
    model: &dyn Model,
    threads: usize,
    per_thread: u64,
    num_reads: usize,
) -> u64 {
    let n = model.num_variables();
    let entries = model.csr().map_or(n, |c| c.num_entries());
    let kernel_model = bytes_of(&[n, 16]).saturating_add(bytes_of(&[entries, 8]));
    Csr::bytes_to_build(model)
        .saturating_add(kernel_model)
        .saturating_add(bytes_of(&[threads]).saturating_mul(per_thread))
        .saturating_add(bytes_of(&[num_reads, n, 2]))
}

/// The lowest of `energies` and its index (the first when tied; +∞ at 0 when empty).
pub(super) fn lowest(energies: &[f32]) -> (usize, f32) {
    energies.iter().copied().enumerate().fold(
        (0, f32::INFINITY),
        |b, (l, e)| if e < b.1 { (l, e) } else { b },
    )
}

/// Variables per block of precomputed thresholds: the random numbers do not depend on the
/// state, so they are drawn for a block at a time, off the sweep's dependency chain.
pub(super) const BLOCK: usize = 64;

/// f32 lanes in one AVX2 vector.
const VECTOR: usize = 8;

/// 1/β, with β = 0 (accept everything) mapped to a huge finite factor.
#[inline(always)]
pub(super) fn inverse_beta(beta: f32) -> f32 {
    if beta > 0.0 { 1.0 / beta } else { f32::MAX }
}

/// One Metropolis sweep over all variables, L replicas at once: flip i in lane l iff
/// ΔE ≤ −ln(u)/β_l (`inv_beta[l]` = 1/β_l: one β for every lane in SA, one per lane in
/// tempering). Returns the flips accepted per lane when `COUNT_FLIPS` (else zeros).
#[inline(always)]
pub(super) fn sweep_lanes<const L: usize, const COUNT_FLIPS: bool, T: LaneValue>(
    m: &KernelModel<T>,
    inv_beta: &[f32; L],
    field: &mut [[T; L]],
    sign: &mut [[T; L]],
    rng: &mut LaneRng<L>,
    energy: &mut [f32; L],
) -> [u32; L] {
    let mut threshold = [[0f32; L]; BLOCK];
    let mut flips = [0u32; L];
    for block in (0..m.n).step_by(BLOCK) {
        let end = (block + BLOCK).min(m.n);
        rng.fill(&mut threshold[..end - block], |r, l| {
            neg_ln_uniform_times(r, inv_beta[l])
        });
        for i in block..end {
            let f = field[i];
            let s = sign[i];
            let thr = &threshold[i - block];
            let mut d = [T::default(); L];
            let mut any = 0u32;
            // At L = 16 a plain 0..L loop came out as byte shuffles (16 lanes ran as slowly as
            // 32), so 16 goes in chunks of one AVX2 vector; at 32, chunks were 2.5× slower.
            // Measured on the 400-spin lattice; the chunking never changes a result.
            let chunk = if L == 16 { VECTOR } else { L };
            for c in (0..L).step_by(chunk) {
                for l in c..c + chunk {
                    // ΔE in f32 is exact for the i16 kernel (integers), so both compare alike.
                    let de = f[l].mul(s[l]).to_f32();
                    let accept = de <= thr[l];
                    d[l] = if accept { s[l] } else { T::default() };
                    energy[l] += if accept { de } else { 0.0 };
                    if COUNT_FLIPS {
                        flips[l] += accept as u32;
                    }
                    any |= accept as u32;
                }
            }
            let si = &mut sign[i];
            for l in 0..L {
                si[l] = s[l].sub(d[l].add(d[l]));
            }
            if any != 0 {
                let (lo, hi) = (m.start[i], m.start[i + 1]);
                for (&j, &w) in m.cols[lo..hi].iter().zip(&m.vals[lo..hi]) {
                    let fj = &mut field[j as usize];
                    for l in 0..L {
                        fj[l] = fj[l].add(w.mul(d[l]));
                    }
                }
            }
        }
    }
    flips
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<T: LaneValue + std::fmt::Debug + PartialEq, const L: usize>(n: usize, value: T) {
        let mut a = LaneArrays::<T, L>::filled(n, [value; L]);
        assert_eq!(a.len(), n);
        assert_eq!(a.as_ptr() as usize % 64, 0, "{L} lanes of {n}");
        assert!(a.iter().all(|v| *v == [value; L]));
        if n > 0 {
            a[n - 1][L - 1] = T::ONE;
            assert_eq!(a[n - 1][L - 1], T::ONE);
            assert_eq!(a[0][0], value, "a write lands in its own variable only");
        }
    }

    #[test]
    fn lane_arrays_start_on_a_cache_line_and_hold_every_variable() {
        // Sizes that fill whole lines, half lines and two lines per variable, and none at all.
        for n in [0, 1, 3, 729, 1290] {
            check::<i16, 32>(n, 7);
            check::<i16, 16>(n, -3);
            check::<i16, 8>(n, 5);
            check::<f32, 32>(n, 0.5);
            check::<f32, 8>(n, -2.0);
        }
    }
}
