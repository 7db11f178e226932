//! Random numbers, below the QUBO core and the samplers: SplitMix64 (seeds, test data, random
//! models), xoshiro128+ (one state per read, laid out in lanes for the multi-replica kernels) and a
//! branch-free −ln(u) for Metropolis threshold compares.
//!
//! The scalar and lane kernels draw the same numbers for the same read and do the same float
//! operations, so a read's result does not depend on which kernel (or thread) ran it.

/// SplitMix64: seeds per-read generators from (seed, read index).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// xoshiro128+ state for read `read` of a run seeded with `seed`.
pub fn read_state(seed: u64, read: u64) -> [u32; 4] {
    let mut sm = seed ^ read.wrapping_mul(0xD134_2543_DE82_EF95);
    let a = splitmix64(&mut sm);
    let b = splitmix64(&mut sm);
    let s = [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32];
    if s == [0; 4] { [1, 2, 3, 4] } else { s }
}

/// One xoshiro128+ step on a state held in four words.
#[inline(always)]
pub fn step(s0: &mut u32, s1: &mut u32, s2: &mut u32, s3: &mut u32) -> u32 {
    let out = s0.wrapping_add(*s3);
    let t = *s1 << 9;
    *s2 ^= *s0;
    *s3 ^= *s1;
    *s1 ^= *s2;
    *s0 ^= *s3;
    *s2 ^= t;
    *s3 = s3.rotate_left(11);
    out
}

/// A single read's generator.
#[derive(Clone)]
pub struct Xoshiro128p([u32; 4]);

impl Xoshiro128p {
    /// The generator of read `read` of a run seeded with `seed` (independent of the thread count).
    pub fn for_read(seed: u64, read: u64) -> Self {
        Xoshiro128p(read_state(seed, read))
    }
    /// The next 32 random bits.
    #[inline(always)]
    pub fn next_u32(&mut self) -> u32 {
        let [a, b, c, d] = &mut self.0;
        step(a, b, c, d)
    }
    /// The four state words (to seed a lane of `LaneRng`).
    pub fn state(&self) -> [u32; 4] {
        self.0
    }
}

/// L generators side by side (structure of arrays, so the step vectorises).
pub struct LaneRng<const L: usize> {
    s0: [u32; L],
    s1: [u32; L],
    s2: [u32; L],
    s3: [u32; L],
}

impl<const L: usize> LaneRng<L> {
    /// L generators from their states, one per lane.
    pub fn from_states(states: &[[u32; 4]; L]) -> Self {
        LaneRng {
            s0: std::array::from_fn(|l| states[l][0]),
            s1: std::array::from_fn(|l| states[l][1]),
            s2: std::array::from_fn(|l| states[l][2]),
            s3: std::array::from_fn(|l| states[l][3]),
        }
    }

    /// Fills `out[t][l] = f(draw t of lane l, l)`, eight lanes (one AVX2 vector) at a time so
    /// the generator state stays in registers. L must be a multiple of 8.
    #[inline(always)]
    pub fn fill(&mut self, out: &mut [[f32; L]], f: impl Fn(u32, usize) -> f32) {
        const W: usize = 8;
        debug_assert!(L.is_multiple_of(W));
        for c in (0..L).step_by(W) {
            let mut s0: [u32; W] = std::array::from_fn(|w| self.s0[c + w]);
            let mut s1: [u32; W] = std::array::from_fn(|w| self.s1[c + w]);
            let mut s2: [u32; W] = std::array::from_fn(|w| self.s2[c + w]);
            let mut s3: [u32; W] = std::array::from_fn(|w| self.s3[c + w]);
            for row in out.iter_mut() {
                for w in 0..W {
                    row[c + w] = f(step(&mut s0[w], &mut s1[w], &mut s2[w], &mut s3[w]), c + w);
                }
            }
            self.s0[c..c + W].copy_from_slice(&s0);
            self.s1[c..c + W].copy_from_slice(&s1);
            self.s2[c..c + W].copy_from_slice(&s2);
            self.s3[c..c + W].copy_from_slice(&s3);
        }
    }
}

/// Streams of `WordRng`: two AVX2 vectors of 64-bit words.
pub const WORD_STREAMS: usize = 8;

/// Eight xoshiro256++ generators side by side (structure of arrays, so a step vectorises),
/// for kernels that consume random *bits* by the word: xoshiro256++ has no weak low bits,
/// unlike the + scramblers.
pub struct WordRng {
    s: [[u64; WORD_STREAMS]; 4],
}

impl WordRng {
    /// Eight streams seeded from `seed` by SplitMix64.
    pub fn new(seed: u64) -> Self {
        let mut state = seed;
        let mut s = [[0u64; WORD_STREAMS]; 4];
        for stream in 0..WORD_STREAMS {
            for word in &mut s {
                word[stream] = splitmix64(&mut state);
            }
            if (0..4).all(|w| s[w][stream] == 0) {
                s[0][stream] = 1;
            }
        }
        WordRng { s }
    }

    /// Fills `out` with random words: row t holds draw t of each stream. On AVX2 the streams
    /// step four to a vector (LLVM does not vectorise the 64-bit rotations on its own); the
    /// words are the same either way.
    pub fn fill(&mut self, out: &mut [[u64; WORD_STREAMS]]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { self.fill_avx2(out) };
            return;
        }
        self.fill_scalar(out);
    }

    fn fill_scalar(&mut self, out: &mut [[u64; WORD_STREAMS]]) {
        let [mut s0, mut s1, mut s2, mut s3] = self.s;
        for row in out.iter_mut() {
            for w in 0..WORD_STREAMS {
                row[w] = s0[w]
                    .wrapping_add(s3[w])
                    .rotate_left(23)
                    .wrapping_add(s0[w]);
                let t = s1[w] << 17;
                s2[w] ^= s0[w];
                s3[w] ^= s1[w];
                s1[w] ^= s2[w];
                s0[w] ^= s3[w];
                s2[w] ^= t;
                s3[w] = s3[w].rotate_left(45);
            }
        }
        self.s = [s0, s1, s2, s3];
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn fill_avx2(&mut self, out: &mut [[u64; WORD_STREAMS]]) {
        use std::arch::x86_64::*;
        // SAFETY (every load and store below): unaligned 32-byte accesses within arrays of
        // eight u64 (bytes 0..32 and 32..64).
        unsafe {
            let load = |a: &[u64; WORD_STREAMS], half: usize| {
                _mm256_loadu_si256(a.as_ptr().add(4 * half) as *const __m256i)
            };
            for half in 0..2 {
                let (mut s0, mut s1, mut s2, mut s3) = (
                    load(&self.s[0], half),
                    load(&self.s[1], half),
                    load(&self.s[2], half),
                    load(&self.s[3], half),
                );
                for row in out.iter_mut() {
                    let sum = _mm256_add_epi64(s0, s3);
                    let rotated =
                        _mm256_or_si256(_mm256_slli_epi64(sum, 23), _mm256_srli_epi64(sum, 41));
                    let word = _mm256_add_epi64(rotated, s0);
                    _mm256_storeu_si256(row.as_mut_ptr().add(4 * half) as *mut __m256i, word);
                    let t = _mm256_slli_epi64(s1, 17);
                    s2 = _mm256_xor_si256(s2, s0);
                    s3 = _mm256_xor_si256(s3, s1);
                    s1 = _mm256_xor_si256(s1, s2);
                    s0 = _mm256_xor_si256(s0, s3);
                    s2 = _mm256_xor_si256(s2, t);
                    s3 = _mm256_or_si256(_mm256_slli_epi64(s3, 45), _mm256_srli_epi64(s3, 19));
                }
                for (k, v) in [s0, s1, s2, s3].into_iter().enumerate() {
                    _mm256_storeu_si256(self.s[k].as_mut_ptr().add(4 * half) as *mut __m256i, v);
                }
            }
        }
    }

    /// Stream `k`'s state, in the byte order of a xoshiro256++ seed (for tests).
    pub fn seed_bytes(&self, k: usize) -> [u8; 32] {
        let mut bytes = [0u8; 32];
        for (w, word) in self.s.iter().enumerate() {
            bytes[8 * w..8 * w + 8].copy_from_slice(&word[k].to_le_bytes());
        }
        bytes
    }
}

// log2(1 + t) ≈ t·(C1 + C2·t + C3·t² + C4·t³ + C5·t⁴) on [0, 1), max error 2.9e-5
// (least-squares fit). The acceptance probability is then exp(−βΔE) to a relative 2e-5.
const C1: f32 = 1.441_825_9;
const C2: f32 = -0.708_682_8;
const C3: f32 = 0.415_424_4;
const C4: f32 = -0.194_425_9;
const C5: f32 = 0.045_887_01;

/// −ln(u) for u = (top 23 bits of r + ½) / 2²³ ∈ (0, 1): an exponential variate, so that
/// "accept iff β·ΔE ≤ −ln u" is Metropolis with no `exp`.
#[inline(always)]
pub fn neg_ln_uniform(r: u32) -> f32 {
    neg_ln_uniform_times(r, 1.0)
}

/// `neg_ln_uniform(r)·factor` (factor ≥ 0, typically 1/β) with the factor folded into the
/// last multiply: what the sweep kernels compare ΔE with. Branch-free and without float→int
/// casts (which saturate in Rust and block vectorisation). The kernels draw these in long
/// vector loops, so the operation count is the cost: u is read off one int→float conversion,
/// the fit runs in Estrin's order with fused multiply-adds (exactly rounded, so every build
/// and CPU gives the same numbers).
#[inline(always)]
pub fn neg_ln_uniform_times(r: u32, factor: f32) -> f32 {
    // u = (2k + 1)/2²⁴ with k = r >> 9. 2k + 1 < 2²⁴ converts exactly, and the division by
    // 2²⁴ only moves the exponent: log2 u = (exponent of 2k + 1) − 24 + log2(mantissa).
    let v = ((r >> 8) | 1) as i32 as f32;
    let bits = v.to_bits();
    let exponent = ((bits >> 23) as i32 - (127 + 24)) as f32;
    let t = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000) - 1.0;
    let t2 = t * t;
    let fit = t2.mul_add(C5.mul_add(t2, C4.mul_add(t, C3)), C2.mul_add(t, C1));
    let log2_u = t.mul_add(fit, exponent);
    // The fit can rise a hair above zero just under u = 1; a flip with ΔE = 0 must still pass.
    (log2_u * (-std::f32::consts::LN_2 * factor)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neg_ln_is_accurate_and_never_negative() {
        for r in [0u32, 1 << 9, 12345 << 9, 0x7fff_ffff, u32::MAX, 0xdead_beef] {
            let u = (((r >> 9) as f64) + 0.5) / 8_388_608.0;
            let exact = -u.ln();
            let got = neg_ln_uniform(r) as f64;
            assert!(got >= 0.0);
            assert!(
                (got - exact).abs() < 5e-5 * (1.0 + exact),
                "r={r}: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn word_streams_are_xoshiro256_plus_plus() {
        use rand::{Rng, SeedableRng};
        let mut words = WordRng::new(7);
        let seeds: Vec<[u8; 32]> = (0..WORD_STREAMS).map(|k| words.seed_bytes(k)).collect();
        let mut out = [[0u64; WORD_STREAMS]; 5];
        words.fill(&mut out);
        // The portable steps continue the same streams (the vector ones ran where the CPU
        // has AVX2).
        let mut more = [[0u64; WORD_STREAMS]; 3];
        words.fill_scalar(&mut more);
        for (k, seed) in seeds.into_iter().enumerate() {
            let mut reference = rand::rngs::Xoshiro256PlusPlus::from_seed(seed);
            for row in out.iter().chain(&more) {
                assert_eq!(row[k], reference.next_u64(), "stream {k}");
            }
        }
        // The streams differ from each other.
        assert!((1..WORD_STREAMS).all(|k| out[0][k] != out[0][0]));
    }

    #[test]
    fn lanes_draw_what_single_generators_draw() {
        let states: [[u32; 4]; 8] = std::array::from_fn(|l| read_state(7, l as u64));
        let mut lanes = LaneRng::<8>::from_states(&states);
        let mut singles: Vec<_> = (0..8).map(|l| Xoshiro128p::for_read(7, l)).collect();
        for _ in 0..3 {
            let mut out = [[0f32; 8]; 50];
            lanes.fill(&mut out, |r, _| r as f32);
            for row in &out {
                for l in 0..8 {
                    assert_eq!(row[l], singles[l].next_u32() as f32);
                }
            }
        }
    }
}
