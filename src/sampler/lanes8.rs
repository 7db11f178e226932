//! Byte lanes: 64 SA reads side by side in 8-bit local fields, two AVX2 vectors per variable
//! (a last block of up to 32 reads in one), for models whose coefficients are small integers
//! (after a power of two) with every local field within ±127 — the full Sudoku model and most
//! puzzle penalties.
//!
//! Against the 16-bit lanes, three things change, each measured on the full Sudoku:
//! - a flip updates a neighbour's field in 32 reads with one `vpaddb`, half the vectors of
//!   16-bit fields. The change is ±Q_ij or 0 per read, so no multiply: one `vpsignb` per run
//!   of equal coefficients in the row (rows are sorted into runs; the full Sudoku model has
//!   two coefficients, so 28 neighbours in two runs), 12 % faster than one per neighbour;
//! - the fields of a 729-variable model take 46 KB for 64 reads and the states one bit per
//!   read (the 16-bit fields and signs of 32 reads took 93 KB);
//! - acceptance needs no logarithm. Read l with ΔE = d > 0 flips iff its 32-bit uniform
//!   u < P(d) = ⌊exp(−β·d)·2³²⌋, compared most significant bit first as in `multispin`: one
//!   random word bit per read and step, until every read is decided (about eight steps for 64
//!   reads). A read's threshold bit at a step is one byte-shuffle lookup by its level d
//!   (`AcceptTable`), so the cost does not grow with the number of distinct levels.
//!
//! 64 reads per block rather than 32 share each visit's fixed costs (the ΔE, the steps, the
//! branches): 1.30 against 1.81 ns per update on the full Sudoku.
//!
//! Every read is an exact Metropolis chain (P(d) within 2⁻³² of exp(−β·d)). The random numbers
//! are the kernel's own, so reads differ from the other kernels' for a seed (starting states do
//! not); fields are exact integers, and energies are recomputed from the final states.

use crate::qubo::Csr;
use crate::sampler::kernel::integral_scale;
use crate::sampler::multispin::RandomWords;

/// Reads per block: two AVX2 vectors of bytes.
pub(super) const BYTE_LANES: usize = 64;

/// Largest |local field| the kernel admits: ΔE = ±field must fit in an i8 (and −128 has no
/// negation).
const BYTE_FIELD_LIMIT: f64 = i8::MAX as f64;

/// One variable's local fields in 32 reads: one AVX2 vector.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
pub(super) struct ByteLanes(pub [i8; 32]);

/// One variable's fields in a block's 32·V reads, a cache line to itself (the two vectors of a
/// 64-read row in one line: a neighbour update stores to one line, not two).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Row<const V: usize>(pub [ByteLanes; V]);

impl<const V: usize> Default for Row<V> {
    fn default() -> Self {
        Row([ByteLanes::default(); V])
    }
}

/// Why a model does not fit byte lanes (for an explicit `kernel = lanes8`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct NotSmallIntegers(pub String);

/// The model in the kernel's layout: CSR rows with i8 couplings, everything multiplied by
/// `scale` (a power of two; β is divided by it).
pub(super) struct ByteModel {
    pub n: usize,
    /// CSR rows, each sorted by coefficient so that equal coefficients sit in runs.
    start: Vec<u32>,
    cols: Vec<u32>,
    vals: Vec<i8>,
    /// Row i's runs of equal coefficients are `runs[run_start[i]..run_start[i + 1]]`.
    run_start: Vec<u32>,
    runs: Vec<Run>,
    lin: Vec<i32>,
    offset: f64,
    pub scale: f64,
    /// The largest level a flip can face: max_i |linear_i| + Σ_j |Q_ij| (≤ 127).
    max_level: usize,
}

/// Acceptance at one β for `ByteModel::sweep`: `steps[b]` holds bit 31 − b of every level's
/// threshold P(d), bit d & 7 of byte d >> 3 (16 bytes, twice: `vpshufb` looks up within each
/// 128-bit half); `always` where every flip is taken (β = 0).
pub(super) struct AcceptTable {
    steps: [ByteLanes; 32],
    /// The leading zero bits of each level's threshold: P(d) falls with d, so over those of
    /// the least level present every read's threshold bit is 0, with no lookup.
    zeros: [u8; 128],
    always: bool,
}

/// Entries of a row sharing one coefficient, up to entry `end` (exclusive) of `cols`: a flip
/// computes their change once per vector. (Puzzle penalties have few distinct coefficients,
/// two in the full Sudoku model, so a row is a few long runs.)
#[derive(Clone, Copy)]
struct Run {
    value: i8,
    end: u32,
}

impl ByteModel {
    /// The model in bytes, when a power of two makes every coefficient an integer and keeps
    /// every local field, |linear_i| + Σ_j |Q_ij|, within ±127; else why not. Nothing is
    /// rounded.
    pub fn of(csr: &Csr) -> Result<Self, NotSmallIntegers> {
        let n = csr.num_variables();
        let scale = integral_scale(csr).ok_or_else(|| {
            NotSmallIntegers(
                "its coefficients are not integers after a power of two up to 64".into(),
            )
        })?;
        if u32::try_from(csr.cols.len()).is_err() || u32::try_from(n).is_err() {
            return Err(NotSmallIntegers(format!(
                "{n} variables with {} couplings is too many",
                csr.cols.len()
            )));
        }
        // The sweep indexes fields by these without bounds checks.
        if let Some(j) = csr.cols.iter().find(|&&j| j as usize >= n) {
            return Err(NotSmallIntegers(format!("neighbour {j} is out of range")));
        }
        let mut max_level = 0.0f64;
        for i in 0..n {
            let row = csr.start[i]..csr.start[i + 1];
            let reach = (csr.linear[i].abs()
                + csr.values[row].iter().map(|v| v.abs()).sum::<f64>())
                * scale;
            if reach > BYTE_FIELD_LIMIT {
                return Err(NotSmallIntegers(format!(
                    "variable {i}'s local field reaches ±{reach} in the kernel's units (at most \
                     ±127)"
                )));
            }
            max_level = max_level.max(reach);
        }
        let mut cols = Vec::with_capacity(csr.cols.len());
        let mut vals = Vec::with_capacity(csr.cols.len());
        let mut run_start = Vec::with_capacity(n + 1);
        let mut runs: Vec<Run> = Vec::new();
        for i in 0..n {
            run_start.push(runs.len() as u32);
            let mut row: Vec<(i8, u32)> = (csr.start[i]..csr.start[i + 1])
                .map(|k| ((csr.values[k] * scale) as i8, csr.cols[k]))
                .collect();
            row.sort_unstable();
            for (value, j) in row {
                if runs.len() == run_start[i] as usize || runs.last().unwrap().value != value {
                    runs.push(Run { value, end: 0 });
                }
                cols.push(j);
                vals.push(value);
                runs.last_mut().unwrap().end = cols.len() as u32;
            }
        }
        run_start.push(runs.len() as u32);
        Ok(ByteModel {
            n,
            start: csr.start.iter().map(|&s| s as u32).collect(),
            cols,
            vals,
            run_start,
            runs,
            lin: csr.linear.iter().map(|&v| (v * scale) as i32).collect(),
            offset: csr.offset * scale,
            scale,
            max_level: max_level as usize,
        })
    }

    /// The acceptance table at the model's inverse temperature `beta` (in its own units).
    pub fn thresholds(&self, beta: f64) -> AcceptTable {
        let mut t = AcceptTable {
            steps: [ByteLanes::default(); 32],
            zeros: [32; 128],
            always: false,
        };
        let beta = beta / self.scale;
        if beta <= 0.0 {
            t.always = true;
            return t;
        }
        // P(d) = exp(−β)^d, by products: within ~d ulps of exp(−β·d), far below 2⁻³².
        let one = (-beta).exp();
        let mut p = 1.0f64;
        for d in 1..=self.max_level {
            p *= one;
            // The cast floors; where p rounds to 1 (β near 0) it saturates at 2³² − 1.
            let below = (p * 4_294_967_296.0) as u32;
            t.zeros[d] = below.leading_zeros() as u8;
            let (byte, bit) = (d >> 3, 1u8 << (d & 7));
            let mut rest = below;
            while rest != 0 {
                let b = rest.leading_zeros() as usize;
                t.steps[b].0[byte] |= bit as i8;
                t.steps[b].0[16 + byte] |= bit as i8;
                rest &= !(1u32 << (31 - b));
            }
        }
        t
    }

    /// Fields and states (bit l of `x[i]` is read l's x_i) of 32·V starting states.
    pub fn lanes_from<const V: usize>(&self, starts: &[&[u8]]) -> (Vec<Row<V>>, Vec<u64>) {
        assert_eq!(starts.len(), 32 * V);
        let mut field = vec![Row::<V>::default(); self.n];
        let mut x = vec![0u64; self.n];
        for (l, s) in starts.iter().enumerate() {
            for i in 0..self.n {
                let mut f = self.lin[i];
                for k in self.start[i] as usize..self.start[i + 1] as usize {
                    f += i32::from(self.vals[k]) * i32::from(s[self.cols[k] as usize] & 1);
                }
                field[i].0[l / 32].0[l % 32] = f as i8;
                x[i] |= u64::from(s[i] & 1) << l;
            }
        }
        (field, x)
    }

    /// Every read's energy in the model's units: E = offset + Σ_i x_i·(linear_i + field_i)/2.
    pub fn energies<const V: usize>(&self, field: &[Row<V>], x: &[u64]) -> Vec<f64> {
        let mut twice = vec![0i64; 32 * V];
        for i in 0..self.n {
            for (l, t) in twice.iter_mut().enumerate() {
                if x[i] >> l & 1 == 1 {
                    *t += i64::from(self.lin[i]) + i64::from(field[i].0[l / 32].0[l % 32]);
                }
            }
        }
        twice
            .into_iter()
            .map(|t| (self.offset + t as f64 / 2.0) / self.scale)
            .collect()
    }

    /// One sequential Metropolis sweep of the reads in the lanes set in `live` (of 32·V; the
    /// other lanes, a last block's spares, never flip and so cost no updates), on AVX2 where
    /// the CPU has it (the decisions, and so the reads, are the same either way).
    pub fn sweep<const V: usize>(
        &self,
        field: &mut [Row<V>],
        x: &mut [u64],
        live: u64,
        t: &AcceptTable,
        bits: &mut RandomWords,
    ) {
        assert!(field.len() == self.n && x.len() == self.n && (V == 1 || V == 2));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { self.sweep_avx2(field, x, live, t, bits) };
            return;
        }
        self.sweep_portable(field, x, live, t, bits);
    }

    /// Step `step`'s random bits, one per read: a word's halves for 32 reads, a word for 64.
    #[inline(always)]
    fn draw<const V: usize>(words: &[u64; 32], step: usize) -> u64 {
        if V == 1 {
            words[step >> 1] >> ((step & 1) * 32) & 0xffff_ffff
        } else {
            words[step]
        }
    }

    /// Words of `RandomWords` used by `steps` steps.
    #[inline(always)]
    fn words_used<const V: usize>(steps: usize) -> usize {
        if V == 1 { steps.div_ceil(2) } else { steps }
    }

    /// `sweep` one read at a time, for CPUs without AVX2 (and as the tests' reference).
    pub(super) fn sweep_portable<const V: usize>(
        &self,
        field: &mut [Row<V>],
        x: &mut [u64],
        live: u64,
        t: &AcceptTable,
        bits: &mut RandomWords,
    ) {
        let lanes = 32 * V;
        for i in 0..self.n {
            let xi = x[i];
            let f = |l: usize| field[i].0[l / 32].0[l % 32];
            // (Arrays for the widest block, so the sweep allocates nothing.)
            let sign: [i8; BYTE_LANES] = std::array::from_fn(|l| 1 - 2 * (xi >> l & 1) as i8);
            let de: [i8; BYTE_LANES] = std::array::from_fn(|l| f(l % lanes) * sign[l]);
            let pending = (0..lanes).fold(0u64, |m, l| m | u64::from(de[l] > 0) << l) & live;
            let mut accept = !pending & live;
            if pending != 0 && t.always {
                accept = live;
            } else if pending != 0 {
                let words = bits.take_32();
                let mut undecided = pending;
                let mut step = 0;
                while undecided != 0 && step < 32 {
                    let r = Self::draw::<V>(words, step);
                    let table = &t.steps[step].0;
                    let set = (0..lanes).fold(0u64, |m, l| {
                        let d = de[l].max(0) as usize;
                        m | u64::from(table[d >> 3] as u8 >> (d & 7) & 1) << l
                    });
                    let differ = undecided & (r ^ set);
                    accept |= differ & set;
                    undecided &= !differ;
                    step += 1;
                }
                bits.used(Self::words_used::<V>(step));
            }
            if accept != 0 {
                x[i] = xi ^ accept;
                let (lo, hi) = (self.start[i] as usize, self.start[i + 1] as usize);
                for k in lo..hi {
                    let (j, w) = (self.cols[k] as usize, self.vals[k]);
                    for l in (0..lanes).filter(|l| accept >> l & 1 == 1) {
                        let v = &mut field[j].0[l / 32].0[l % 32];
                        *v = v.wrapping_add(w * sign[l]);
                    }
                }
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn sweep_avx2<const V: usize>(
        &self,
        field: &mut [Row<V>],
        x: &mut [u64],
        live: u64,
        t: &AcceptTable,
        bits: &mut RandomWords,
    ) {
        use std::arch::x86_64::*;
        // SAFETY (every load and store): `ByteLanes` is 32 bytes aligned to 32; `field` has n
        // rows of V of them (asserted by `sweep`) and every column is < n (checked by `of`).
        unsafe {
            let zero = _mm256_setzero_si256();
            let one = _mm256_set1_epi8(1);
            let seven = _mm256_set1_epi8(7);
            let low4 = _mm256_set1_epi8(0x0f);
            let all_levels = _mm256_set1_epi8(127);
            let low_bytes = _mm_set1_epi16(0xff);
            // Byte l's bit within its byte of a 32-bit mask, and which byte of the mask it is.
            let bit_of = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
            let spread = _mm256_setr_epi64x(
                0,
                0x0101_0101_0101_0101,
                0x0202_0202_0202_0202,
                0x0303_0303_0303_0303,
            );
            // 0xff in the bytes of vector v's reads set in `mask`.
            let expand = |mask: u64, v: usize| {
                let m = _mm256_set1_epi32((mask >> (32 * v)) as u32 as i32);
                let m = _mm256_shuffle_epi8(m, spread);
                _mm256_cmpeq_epi8(_mm256_and_si256(m, bit_of), bit_of)
            };
            let steps = t.steps.as_ptr() as *const __m256i;
            let fields = field.as_mut_ptr() as *mut __m256i;
            // Vectors per row, padding included.
            let stride = std::mem::size_of::<Row<V>>() / 32;
            for i in 0..self.n {
                let xi = *x.get_unchecked(i);
                let mut sign = [zero; V];
                let mut de = [zero; V];
                let mut pending = 0u64;
                for v in 0..V {
                    let f = _mm256_load_si256(fields.add(stride * i + v));
                    // +1 where x_i = 0, −1 where 1: ΔE = field·sign.
                    sign[v] = _mm256_or_si256(expand(xi, v), one);
                    de[v] = _mm256_sign_epi8(f, sign[v]);
                    let up = _mm256_movemask_epi8(_mm256_cmpgt_epi8(de[v], zero)) as u32;
                    pending |= u64::from(up) << (32 * v);
                }
                pending &= live;
                let mut accept = !pending & live;
                if pending != 0 && t.always {
                    accept = live;
                } else if pending != 0 {
                    let mut byte = [zero; V];
                    let mut bit = [zero; V];
                    let mut least = all_levels;
                    for v in 0..V {
                        let level = _mm256_max_epi8(de[v], zero);
                        byte[v] = _mm256_and_si256(_mm256_srli_epi16(level, 3), low4);
                        bit[v] = _mm256_shuffle_epi8(bit_of, _mm256_and_si256(level, seven));
                        let up = _mm256_cmpgt_epi8(de[v], zero);
                        least = _mm256_min_epu8(least, _mm256_blendv_epi8(all_levels, level, up));
                    }
                    // The least level of a pending read (the others' read as 127).
                    let least = {
                        let v = _mm_min_epu8(
                            _mm256_castsi256_si128(least),
                            _mm256_extracti128_si256(least, 1),
                        );
                        let v = _mm_and_si128(_mm_min_epu8(v, _mm_srli_epi16(v, 8)), low_bytes);
                        _mm_cvtsi128_si32(_mm_minpos_epu16(v)) as u16 as usize
                    };
                    let words = bits.take_32();
                    let mut undecided = pending;
                    let mut step = 0;
                    // Steps where every pending read's threshold bit is 0: a 1 in its uniform
                    // rejects it.
                    let zeros = usize::from(*t.zeros.get_unchecked(least));
                    while undecided != 0 && step < zeros {
                        undecided &= !Self::draw::<V>(words, step);
                        step += 1;
                    }
                    while undecided != 0 && step < 32 {
                        let r = Self::draw::<V>(words, step);
                        let row = _mm256_load_si256(steps.add(step));
                        let mut set = 0u64;
                        for v in 0..V {
                            let hit = _mm256_and_si256(_mm256_shuffle_epi8(row, byte[v]), bit[v]);
                            let on = _mm256_movemask_epi8(_mm256_cmpeq_epi8(hit, bit[v])) as u32;
                            set |= u64::from(on) << (32 * v);
                        }
                        let differ = undecided & (r ^ set);
                        accept |= differ & set;
                        undecided &= !differ;
                        step += 1;
                    }
                    bits.used(Self::words_used::<V>(step));
                }
                if accept != 0 {
                    *x.get_unchecked_mut(i) = xi ^ accept;
                    let change: [__m256i; V] =
                        std::array::from_fn(|v| _mm256_and_si256(expand(accept, v), sign[v]));
                    let mut k = self.start[i] as usize;
                    let runs = self.run_start[i] as usize..self.run_start[i + 1] as usize;
                    for run in self.runs.get_unchecked(runs) {
                        let w = _mm256_set1_epi8(run.value);
                        let d: [__m256i; V] =
                            std::array::from_fn(|v| _mm256_sign_epi8(w, change[v]));
                        let end = run.end as usize;
                        while k < end {
                            let j = *self.cols.get_unchecked(k) as usize;
                            for (v, d) in d.iter().enumerate() {
                                let p = fields.add(stride * j + v);
                                _mm256_store_si256(p, _mm256_add_epi8(_mm256_load_si256(p), *d));
                            }
                            k += 1;
                        }
                    }
                }
            }
        }
    }
}

/// Read `lane`'s state.
pub(super) fn lane_state(x: &[u64], lane: usize) -> Vec<u8> {
    x.iter().map(|w| (w >> lane & 1) as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qubo::{Model, Qubo, StoredModel};
    use crate::rng::splitmix64;

    /// n variables with integer linear terms and couplings in −range…range (times `unit`),
    /// each coupled to the next `per_row` variables round a ring.
    fn integer_model(n: usize, per_row: usize, range: i64, unit: f64, seed: u64) -> StoredModel {
        let mut state = seed;
        let mut draw = || {
            (splitmix64(&mut state) % (2 * range as u64 + 1)) as f64 * unit - range as f64 * unit
        };
        let linear = (0..n).map(|_| draw()).collect();
        let couplings: Vec<(usize, usize, f64)> = (0..n)
            .flat_map(|i| (1..=per_row).map(move |k| (i, (i + k) % n)))
            .filter(|(i, j)| i < j)
            .map(|(i, j)| (i, j, draw()))
            .collect();
        StoredModel::new(Qubo::new(linear, couplings, 0.75).unwrap())
    }

    fn bytes(m: &StoredModel) -> ByteModel {
        ByteModel::of(m.csr().unwrap()).unwrap()
    }

    /// Starting states for 32·V lanes: random bits.
    fn starts(n: usize, lanes: usize, seed: u64) -> Vec<Vec<u8>> {
        let mut state = seed;
        (0..lanes)
            .map(|_| (0..n).map(|_| (splitmix64(&mut state) & 1) as u8).collect())
            .collect()
    }

    #[test]
    fn only_small_integer_models_are_taken() {
        let halves = integer_model(30, 3, 5, 0.5, 1);
        assert_eq!(bytes(&halves).scale, 2.0);
        let refused = |m: &StoredModel| ByteModel::of(m.csr().unwrap()).map(|_| ()).unwrap_err().0;
        let why = refused(&integer_model(30, 3, 5, 1.0 / 3.0, 1));
        assert!(why.contains("not integers"), "{why}");
        // 40 neighbours of up to 9: fields past 127.
        let why = refused(&integer_model(60, 20, 9, 1.0, 2));
        assert!(
            why.contains("local field reaches") && why.contains("127"),
            "{why}"
        );
        // Exactly at the limit is taken: |−27| + 4·25 = 127.
        let edge = Qubo::new(
            vec![-27.0, 0.0, 0.0, 0.0, 0.0],
            (1..5).map(|j| (0, j, 25.0)),
            0.0,
        )
        .unwrap();
        assert!(ByteModel::of(&edge.csr()).is_ok());
    }

    /// Sweeps `live` lanes of 32·V at each β on AVX2 and portably: the same states, exact
    /// fields and energies, and the other lanes left as they started.
    fn run_both<const V: usize>(m: &StoredModel, betas: &[f64], live: u64) {
        let b = bytes(m);
        let s = starts(b.n, 32 * V, 5);
        let s: Vec<&[u8]> = s.iter().map(Vec::as_slice).collect();
        let (mut f1, mut x1) = b.lanes_from::<V>(&s);
        let (mut f2, mut x2) = (f1.clone(), x1.clone());
        let x0 = x1.clone();
        let (mut w1, mut w2) = (RandomWords::for_block(3, 0), RandomWords::for_block(3, 0));
        for &beta in betas {
            let t = b.thresholds(beta);
            b.sweep::<V>(&mut f1, &mut x1, live, &t, &mut w1);
            b.sweep_portable::<V>(&mut f2, &mut x2, live, &t, &mut w2);
            assert_eq!(x1, x2, "V {V} at β {beta}");
        }
        for (now, start) in x1.iter().zip(&x0) {
            assert_eq!((now ^ start) & !live, 0, "a lane outside {live:#x} moved");
        }
        // The fields are still exact, and so are the energies.
        let energies = b.energies::<V>(&f1, &x1);
        for (l, energy) in energies.iter().enumerate() {
            let state = lane_state(&x1, l);
            let (fresh, _) = b.lanes_from::<V>(&vec![state.as_slice(); 32 * V]);
            for i in 0..b.n {
                assert_eq!(
                    f1[i].0[l / 32].0[l % 32],
                    fresh[i].0[0].0[0],
                    "lane {l} field {i}"
                );
                assert_eq!(f1[i].0[l / 32].0[l % 32], f2[i].0[l / 32].0[l % 32]);
            }
            assert!((energy - m.energy(&state)).abs() < 1e-9, "lane {l}");
        }
        assert!(
            (1..32 * V).any(|l| live >> l & 1 == 1 && lane_state(&x1, l) != lane_state(&x1, 0)),
            "lanes should differ"
        );
    }

    #[test]
    fn the_avx2_sweep_makes_the_portable_sweeps_reads() {
        // β = 0 (every flip), hot, and cold (thresholds with leading zeros), in halves.
        let betas: Vec<f64> = (0..60).map(|s| 0.1 * s as f64).collect();
        for m in [
            integer_model(40, 4, 9, 1.0, 7),
            integer_model(33, 6, 5, 0.5, 8),
        ] {
            run_both::<1>(&m, &betas, 0xffff_ffff);
            run_both::<2>(&m, &betas, !0);
            // A last block's spare lanes stay put.
            run_both::<1>(&m, &betas, (1 << 20) - 1);
            run_both::<2>(&m, &betas, (1 << 36) - 1);
        }
    }

    #[test]
    fn every_lane_samples_the_boltzmann_distribution() {
        let m = integer_model(6, 2, 3, 1.0, 11);
        let b = bytes(&m);
        let n = b.n;
        for beta in [0.2, 1.0] {
            let weights: Vec<f64> = (0..1usize << n)
                .map(|k| {
                    let x: Vec<u8> = (0..n).map(|i| (k >> i & 1) as u8).collect();
                    (-beta * m.energy(&x)).exp()
                })
                .collect();
            let z: f64 = weights.iter().sum();
            let s = starts(n, 64, 13);
            let s: Vec<&[u8]> = s.iter().map(Vec::as_slice).collect();
            let (mut f, mut x) = b.lanes_from::<2>(&s);
            let mut words = RandomWords::for_block(17, 0);
            let t = b.thresholds(beta);
            let mut counts = vec![vec![0u64; 1 << n]; 64];
            let sweeps = 20_000;
            for _ in 0..sweeps {
                b.sweep::<2>(&mut f, &mut x, !0, &t, &mut words);
                for (l, c) in counts.iter_mut().enumerate() {
                    let k = (0..n).fold(0, |k, i| k | ((x[i] >> l & 1) as usize) << i);
                    c[k] += 1;
                }
            }
            let tv = |c: &[u64]| -> f64 {
                let total: u64 = c.iter().sum();
                c.iter()
                    .zip(&weights)
                    .map(|(&k, w)| (k as f64 / total as f64 - w / z).abs())
                    .sum::<f64>()
                    / 2.0
            };
            let mut all = vec![0u64; 1 << n];
            for (l, c) in counts.iter().enumerate() {
                let distance = tv(c);
                assert!(
                    distance < 0.1,
                    "β {beta} lane {l}: total variation {distance:.4}"
                );
                for (a, k) in all.iter_mut().zip(c) {
                    *a += k;
                }
            }
            let distance = tv(&all);
            assert!(
                distance < 0.01,
                "β {beta}: total variation {distance:.4} over all lanes"
            );
        }
    }
}
