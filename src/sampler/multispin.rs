//! Multi-spin coding (Isakov, Zintchenko, Rønnow & Troyer, Comput. Phys. Commun. 2015): 64
//! reads of a ±J model without fields in the 64 bits of one word per variable, for SA.
//!
//! Such a model has one coupling magnitude B and linear terms that cancel in spin form
//! (a_i = −½ Σ_j Q_ij), so flipping variable i changes the energy by (B/2)·(d_i − 2·g_i), where
//! g_i counts i's *good* bonds — those with t_ij = σ_ij·s_i·s_j = +1 (s = 1 − 2x). A bond is good
//! in lane l iff bit l of `x_i ^ x_j ^ positive_ij` is set, so one word operation judges a bond
//! in all 64 reads, and a bit-sliced counter (one word per binary digit) adds them up: a visit
//! costs O(degree) word operations for 64 reads, with no fields to keep up to date.
//!
//! Acceptance keeps every read an independent Metropolis chain: lane l flips with probability
//! exactly P(m_l)/2³², where P(m) = ⌊exp(−β·B/2·m)·2³²⌋ for the lane's level m = d − 2g > 0
//! (levels m ≤ 0 always flip). Each lane compares its own 32-bit uniform with its threshold,
//! most significant bit first, drawing one random word (a fresh bit for every lane) per step
//! until every lane is decided — about seven words per visit, as in a comparison of 64 numbers
//! a lane is decided by its first differing bit. Reads differ from the other kernels' for a seed
//! (their own random numbers); energies are recomputed exactly from the final states.

use crate::qubo::Csr;
use crate::rng::{WORD_STREAMS, WordRng, splitmix64};

/// Reads per word.
pub(super) const WORD_LANES: usize = 64;

/// Binary digits of the good-bond counter: degrees up to 63.
const MAX_PLANES: usize = 6;

/// The largest degree the kernel takes.
pub const MAX_DEGREE: usize = (1 << MAX_PLANES) - 1;

/// Levels m = d − 2g > 0 a visit can face: g = 0 … ⌈d/2⌉ − 1.
const MAX_LEVELS: usize = MAX_DEGREE.div_ceil(2);

/// Why a model is not a ±J model without fields (for an explicit `kernel = multispin`).
#[derive(Debug, Clone, PartialEq)]
pub struct NotSpinGlass(pub String);

/// A ±J model without fields in the kernel's layout: rows of neighbour indices, each shifted
/// left by one with the low bit set where the coupling is positive.
pub(super) struct SpinGlassBits {
    pub n: usize,
    start: Vec<u32>,
    bonds: Vec<u32>,
    /// B/2: the energy of one level.
    half_b: f64,
    /// The model's energy with every bond bad, and the energy one good bond adds (B/2):
    /// E = bad_energy + B/2·G over all edges (each counted once).
    bad_energy: f64,
    max_degree: usize,
}

impl SpinGlassBits {
    /// The model in bits, when every coupling is ±B for one B > 0, no variable has more than
    /// `MAX_DEGREE` neighbours, and every linear term is −½ Σ_j Q_ij (no field in spin form, to
    /// 10⁻¹² of B per bond: the sum's own rounding, nothing a model could mean).
    pub fn of(csr: &Csr) -> Result<Self, NotSpinGlass> {
        let n = csr.num_variables();
        let b = csr.values.first().map_or(0.0, |v| v.abs());
        if !(b > 0.0 && b.is_finite()) {
            return Err(NotSpinGlass("the model has no couplings".into()));
        }
        if u32::try_from(2 * n + 1).is_err() {
            return Err(NotSpinGlass(format!("{n} variables is too many")));
        }
        // The sweep indexes states by these without bounds checks.
        if let Some(j) = csr.cols.iter().find(|&&j| j as usize >= n) {
            return Err(NotSpinGlass(format!("neighbour {j} is out of range")));
        }
        if let Some(v) = csr.values.iter().find(|v| v.abs() != b) {
            return Err(NotSpinGlass(format!(
                "its couplings are not all ±{b} (one is {v})"
            )));
        }
        let mut start = Vec::with_capacity(n + 1);
        let mut bonds = Vec::with_capacity(csr.cols.len());
        let mut max_degree = 0;
        let mut positive_bonds = 0usize;
        start.push(0);
        for i in 0..n {
            let row = csr.start[i]..csr.start[i + 1];
            let degree = row.len();
            if degree > MAX_DEGREE {
                return Err(NotSpinGlass(format!(
                    "variable {i} has {degree} neighbours (at most {MAX_DEGREE})"
                )));
            }
            max_degree = max_degree.max(degree);
            let positive = csr.values[row.clone()].iter().filter(|&&v| v > 0.0).count();
            positive_bonds += positive;
            let field = csr.linear[i] + b / 2.0 * (2.0 * positive as f64 - degree as f64);
            if field.abs() > 1e-12 * b * degree.max(1) as f64 {
                return Err(NotSpinGlass(format!(
                    "variable {i} has a field (linear term {} where a field-free ±{b} model \
                     has {})",
                    csr.linear[i],
                    csr.linear[i] - field
                )));
            }
            for k in row {
                bonds.push(csr.cols[k] << 1 | u32::from(csr.values[k] > 0.0));
            }
            start.push(bonds.len() as u32);
        }
        // In the all-zero state a bond is good iff it is positive (t = σ); there
        // E = offset = bad_energy + B/2·(positive edges).
        let bad_energy = csr.offset - b / 2.0 * (positive_bonds / 2) as f64;
        Ok(SpinGlassBits {
            n,
            start,
            bonds,
            half_b: b / 2.0,
            bad_energy,
            max_degree,
        })
    }

    /// The acceptance thresholds at inverse temperature β.
    pub fn thresholds(&self, beta: f64) -> Thresholds {
        let mut t = Thresholds {
            below: [0; MAX_DEGREE + 1],
            always: [false; MAX_DEGREE + 1],
        };
        for m in 1..=self.max_degree {
            let p = (-beta * self.half_b * m as f64).exp();
            t.always[m] = p >= 1.0;
            // Exact for p < 1 (p·2³² < 2³²); where p = 1 the cast saturates, and `always`
            // keeps the level from being compared at all.
            t.below[m] = (p * 4_294_967_296.0) as u32;
        }
        t
    }

    /// One sequential Metropolis sweep of W blocks of 64 lanes side by side (block k in
    /// `x[i][k]`, drawing from `bits[k]`). A block's result does not depend on W: each draws
    /// only its own words and uses as many as it would alone. (Callers compile it inside
    /// `with_avx2!`, where the W-word loops vectorise.)
    #[inline(always)]
    pub fn sweep<const W: usize>(
        &self,
        x: &mut [[u64; W]],
        t: &Thresholds,
        bits: &mut [RandomWords; W],
    ) {
        let m = self;
        {
            // The counter's digits P (2^P > every degree) and the positive levels K = ⌈d/2⌉
            // a visit can face, as constants so the loops over them unroll.
            match m.max_degree {
                0..=1 => m.sweep_planes::<W, 1, 1>(x, t, bits),
                2 => m.sweep_planes::<W, 2, 1>(x, t, bits),
                3 => m.sweep_planes::<W, 2, 2>(x, t, bits),
                4 => m.sweep_planes::<W, 3, 2>(x, t, bits),
                5..=6 => m.sweep_planes::<W, 3, 3>(x, t, bits),
                7 => m.sweep_planes::<W, 3, 4>(x, t, bits),
                8 => m.sweep_planes::<W, 4, 4>(x, t, bits),
                9..=12 => m.sweep_planes::<W, 4, 6>(x, t, bits),
                13..=15 => m.sweep_planes::<W, 4, 8>(x, t, bits),
                16..=31 => m.sweep_planes::<W, 5, 16>(x, t, bits),
                _ => m.sweep_planes::<W, MAX_PLANES, MAX_LEVELS>(x, t, bits),
            }
        }
    }

    /// A sweep with a `P`-digit good-bond counter (2^P > every degree) and room for `K`
    /// positive levels (g < d/2 ≤ K).
    #[inline(always)]
    fn sweep_planes<const W: usize, const P: usize, const K: usize>(
        &self,
        x: &mut [[u64; W]],
        t: &Thresholds,
        bits: &mut [RandomWords; W],
    ) {
        assert_eq!(x.len(), self.n);
        for i in 0..self.n {
            let (lo, hi) = (self.start[i] as usize, self.start[i + 1] as usize);
            let degree = hi - lo;
            let xi = x[i];
            let mut count = [[0u64; W]; P];
            for &bond in &self.bonds[lo..hi] {
                let positive = 0u64.wrapping_sub(u64::from(bond & 1));
                // SAFETY: `of` checked every neighbour index is < n = x.len().
                let xj = unsafe { x.get_unchecked((bond >> 1) as usize) };
                let mut carry: [u64; W] = std::array::from_fn(|k| xi[k] ^ xj[k] ^ positive);
                for digit in &mut count {
                    for k in 0..W {
                        let next = digit[k] & carry[k];
                        digit[k] ^= carry[k];
                        carry[k] = next;
                    }
                }
            }
            // Lanes at each level g < d/2 (m = d − 2g > 0) and their thresholds; levels past
            // d/2, or where every lane flips (β = 0), keep no lanes. `all_set`/`any_set`: the
            // threshold bits every / some occupied level has.
            let mut at_level = [[0u64; W]; K];
            let mut below = [0u32; K];
            let mut undecided = [0u64; W];
            let (mut all_set, mut any_set) = (!0u32, 0u32);
            for g in 0..K.min(degree.div_ceil(2)) {
                let mut lanes = [!0u64; W];
                for (p, digit) in count.iter().enumerate() {
                    let complement = if g >> p & 1 == 1 { 0 } else { !0u64 };
                    for k in 0..W {
                        lanes[k] &= digit[k] ^ complement;
                    }
                }
                let m = degree - 2 * g;
                let live = 0u64.wrapping_sub(u64::from(!t.always[m]));
                let mut any = 0;
                for k in 0..W {
                    lanes[k] &= live;
                    undecided[k] |= lanes[k];
                    any |= lanes[k];
                }
                let occupied = 0u32.wrapping_sub(u32::from(any != 0));
                at_level[g] = lanes;
                below[g] = t.below[m];
                all_set &= t.below[m] | !occupied;
                any_set |= t.below[m] & occupied;
            }
            // Lanes not at a positive level flip; the rest compare a uniform u with their
            // threshold bit by bit: u < P is decided at the first bit where they differ. Over
            // the leading bits where every occupied level's threshold agrees, a lane's
            // threshold bit is that common bit, with no need to look up its level.
            let positive = undecided;
            let mut flip: [u64; W] = std::array::from_fn(|k| !undecided[k]);
            let common = (all_set ^ any_set).leading_zeros() as usize;
            // A visit uses at most 32 words per block, one per threshold bit.
            let words = bits.each_mut().map(|b| b.take_32());
            let mut used = [0usize; W];
            let mut step = 0;
            let mut decide = |step: usize, p: &[u64; W], undecided: &mut [u64; W]| {
                for k in 0..W {
                    used[k] += usize::from(undecided[k] != 0);
                    let decided = undecided[k] & (words[k][step] ^ p[k]);
                    flip[k] |= decided & p[k];
                    undecided[k] &= !decided;
                }
            };
            let pending = |u: &[u64; W]| u.iter().fold(0, |a, &w| a | w) != 0;
            while step < common && pending(&undecided) {
                let set = 0u64.wrapping_sub(u64::from(any_set >> (31 - step) & 1));
                decide(
                    step,
                    &std::array::from_fn(|k| positive[k] & set),
                    &mut undecided,
                );
                step += 1;
            }
            while step < 32 && pending(&undecided) {
                let mut p = [0u64; W];
                for g in 0..K {
                    let set = 0u64.wrapping_sub(u64::from(below[g] >> (31 - step) & 1));
                    for k in 0..W {
                        p[k] |= at_level[g][k] & set;
                    }
                }
                decide(step, &p, &mut undecided);
                step += 1;
            }
            for (b, n) in bits.iter_mut().zip(used) {
                b.used(n);
            }
            x[i] = std::array::from_fn(|k| xi[k] ^ flip[k]);
        }
    }

    /// Every lane's energy in block `block`: E = bad_energy + B/2·G, G the lane's good bonds
    /// (each edge once), counted bit-sliced.
    pub fn energies<const W: usize>(&self, x: &[[u64; W]], block: usize) -> [f64; WORD_LANES] {
        let mut count = [0u64; 32];
        for i in 0..self.n {
            let (lo, hi) = (self.start[i] as usize, self.start[i + 1] as usize);
            for &bond in &self.bonds[lo..hi] {
                let j = (bond >> 1) as usize;
                if j <= i {
                    continue;
                }
                let positive = 0u64.wrapping_sub(u64::from(bond & 1));
                let mut carry = x[i][block] ^ x[j][block] ^ positive;
                for digit in &mut count {
                    if carry == 0 {
                        break;
                    }
                    let next = *digit & carry;
                    *digit ^= carry;
                    carry = next;
                }
            }
        }
        std::array::from_fn(|l| {
            let good: u64 = count
                .iter()
                .enumerate()
                .map(|(p, digit)| (digit >> l & 1) << p)
                .sum();
            self.bad_energy + self.half_b * good as f64
        })
    }
}

/// Acceptance at one β: for each level m, `below[m]` = ⌊exp(−β·B/2·m)·2³²⌋, or `always[m]`
/// where that probability is 1 (β = 0).
pub(super) struct Thresholds {
    below: [u32; MAX_DEGREE + 1],
    always: [bool; MAX_DEGREE + 1],
}

/// Lane `lane` of block `block`, as a state.
pub(super) fn lane_state<const W: usize>(x: &[[u64; W]], block: usize, lane: usize) -> Vec<u8> {
    x.iter().map(|w| (w[block] >> lane & 1) as u8).collect()
}

/// Block `block`'s words from up to 64 lanes' starting states: a lane's given state, or
/// random bits from the block's own words where it has none (`None`, or past `states.len()`).
pub(super) fn set_block<const W: usize>(
    x: &mut [[u64; W]],
    block: usize,
    states: &[Option<&[u8]>],
    bits: &mut RandomWords,
) {
    for (i, word) in x.iter_mut().enumerate() {
        let mut w = bits.next();
        for (l, s) in states.iter().enumerate() {
            if let Some(s) = s {
                w = w & !(1 << l) | u64::from(s[i] & 1) << l;
            }
        }
        word[block] = w;
    }
}

/// Random words for the acceptance bits, drawn eight streams at a time into a buffer so
/// the generator runs off the sweep's dependency chain.
pub(super) struct RandomWords {
    rng: WordRng,
    buffer: [[u64; WORD_STREAMS]; BUFFER_ROWS],
    next: usize,
}

/// Rows of `RandomWords`' buffer (2 KiB).
const BUFFER_ROWS: usize = 32;

impl RandomWords {
    /// The words of the block of 64 reads whose first is `first` in a run seeded with
    /// `seed` (fixed blocks of reads, so any thread count gives the same reads).
    pub fn for_block(seed: u64, first: usize) -> Self {
        let mut state = seed ^ (first as u64).wrapping_mul(0xD134_2543_DE82_EF95);
        RandomWords {
            rng: WordRng::new(splitmix64(&mut state)),
            buffer: [[0; WORD_STREAMS]; BUFFER_ROWS],
            next: BUFFER_ROWS * WORD_STREAMS,
        }
    }

    /// Kept out of line so the sweep's loops stay small.
    #[inline(never)]
    fn refill(&mut self) {
        self.rng.fill(&mut self.buffer);
        self.next = 0;
    }

    /// The next random word.
    #[inline(always)]
    pub fn next(&mut self) -> u64 {
        let w = self.take_32()[0];
        self.used(1);
        w
    }

    /// The next 32 words, of which the caller then marks how many it `used` (the rest come
    /// again). Refills when fewer than 32 are left, dropping those: unused words are
    /// independent of everything drawn, so dropping them changes no distribution.
    #[inline(always)]
    pub fn take_32(&mut self) -> &[u64; 32] {
        if self.next + 32 > BUFFER_ROWS * WORD_STREAMS {
            self.refill();
        }
        let flat = self.buffer.as_flattened();
        flat[self.next..self.next + 32]
            .try_into()
            .expect("32 words")
    }

    /// Marks `k` ≤ 32 words of the last `take_32` as used.
    #[inline(always)]
    pub fn used(&mut self, k: usize) {
        self.next += k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qubo::{Coupling, Ising, Model, Qubo, StoredModel};
    use std::collections::HashMap;

    /// A ±J model without fields: a ring of `n` spins with chords, signs from `seed`,
    /// couplings ±`j` (so B = 4j in the QUBO).
    fn glass(n: usize, j: f64, seed: u64) -> StoredModel {
        let mut state = seed;
        let mut couplings = Vec::new();
        for a in 0..n {
            for b in [(a + 1) % n, (a + 3) % n] {
                if a < b
                    && !couplings
                        .iter()
                        .any(|c: &Coupling| (c.i, c.j) == (a as u32, b as u32))
                {
                    let sign = if splitmix64(&mut state) & 1 == 0 {
                        1.0
                    } else {
                        -1.0
                    };
                    couplings.push(Coupling {
                        i: a as u32,
                        j: b as u32,
                        value: sign * j,
                    });
                }
            }
        }
        couplings.sort_by_key(|c| (c.i, c.j));
        let ising = Ising {
            h: vec![0.0; n],
            j: couplings,
            offset: 1.25,
        };
        StoredModel::new(Qubo::from_ising(&ising).unwrap())
    }

    fn all_states(n: usize) -> Vec<Vec<u8>> {
        (0..1u32 << n)
            .map(|k| (0..n).map(|i| (k >> i & 1) as u8).collect())
            .collect()
    }

    #[test]
    fn only_pm_j_models_without_fields_are_taken() {
        let m = glass(10, 0.5, 1);
        let bits = SpinGlassBits::of(m.csr().unwrap()).expect("a ±J glass");
        assert_eq!(bits.half_b, 1.0);
        let refused = |q: Qubo| SpinGlassBits::of(&q.csr()).map(|_| ()).unwrap_err().0;
        // A field: the linear terms of a ±J model, and one more.
        let w = refused(Qubo::new(vec![-1.0, -1.5], vec![(0, 1, 2.0)], 0.0).unwrap());
        assert!(w.contains("variable 1 has a field"), "{w}");
        let w = refused(Qubo::new(vec![0.0; 3], vec![(0, 1, 1.0), (1, 2, 2.0)], 0.0).unwrap());
        assert!(w.contains("not all ±1"), "{w}");
        assert!(refused(Qubo::new(vec![0.0; 2], vec![], 0.0).unwrap()).contains("no couplings"));
        // 65 variables, all coupled: degree 64.
        let n = 65;
        let mut couplings = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                couplings.push((a, b, 2.0));
            }
        }
        let lin = vec![-(n as f64 - 1.0); n];
        let w = refused(Qubo::new(lin, couplings, 0.0).unwrap());
        assert!(w.contains("64 neighbours"), "{w}");
    }

    #[test]
    fn lane_energies_are_the_model_energies() {
        let m = glass(12, 0.75, 2);
        let bits = SpinGlassBits::of(m.csr().unwrap()).unwrap();
        let mut words = [RandomWords::for_block(3, 0), RandomWords::for_block(3, 64)];
        let mut x = vec![[0u64; 2]; m.num_variables()];
        for (k, w) in words.iter_mut().enumerate() {
            set_block(&mut x, k, &[], w);
        }
        for k in 0..2 {
            let energies = bits.energies(&x, k);
            for (l, e) in energies.iter().enumerate() {
                let exact = m.energy(&lane_state(&x, k, l));
                assert!(
                    (e - exact).abs() < 1e-9,
                    "block {k} lane {l}: {e} vs {exact}"
                );
            }
        }
    }

    #[test]
    fn every_lane_samples_the_boltzmann_distribution() {
        let m = glass(6, 0.5, 5);
        let n = m.num_variables();
        let bits = SpinGlassBits::of(m.csr().unwrap()).unwrap();
        let states = all_states(n);
        // Hot (thresholds share leading ones) and cold (leading zeros).
        for beta in [0.15, 1.0] {
            let weights: Vec<f64> = states.iter().map(|x| (-beta * m.energy(x)).exp()).collect();
            let z: f64 = weights.iter().sum();
            let expected: HashMap<Vec<u8>, f64> = states
                .iter()
                .cloned()
                .zip(weights.iter().map(|w| w / z))
                .collect();
            let mut words = [RandomWords::for_block(9, 0), RandomWords::for_block(9, 64)];
            let mut x = vec![[0u64; 2]; n];
            for (k, w) in words.iter_mut().enumerate() {
                set_block(&mut x, k, &[], w);
            }
            let t = bits.thresholds(beta);
            let mut counts: Vec<HashMap<Vec<u8>, u64>> = vec![HashMap::new(); 128];
            let sweeps = 20_000;
            for _ in 0..sweeps {
                bits.sweep(&mut x, &t, &mut words);
                for (c, counts) in counts.iter_mut().enumerate() {
                    *counts.entry(lane_state(&x, c / 64, c % 64)).or_default() += 1;
                }
            }
            let tv = |c: &HashMap<Vec<u8>, u64>| -> f64 {
                let total: u64 = c.values().sum();
                expected
                    .iter()
                    .map(|(x, p)| (c.get(x).copied().unwrap_or(0) as f64 / total as f64 - p).abs())
                    .sum::<f64>()
                    / 2.0
            };
            let mut all: HashMap<Vec<u8>, u64> = HashMap::new();
            for (c, counts) in counts.iter().enumerate() {
                let distance = tv(counts);
                assert!(
                    distance < 0.1,
                    "β {beta} lane {c}: total variation {distance:.4}"
                );
                for (x, k) in counts {
                    *all.entry(x.clone()).or_default() += k;
                }
            }
            let distance = tv(&all);
            assert!(
                distance < 0.01,
                "β {beta}: total variation {distance:.4} over all lanes"
            );
        }
    }

    #[test]
    fn a_block_runs_the_same_at_any_width() {
        let m = glass(20, 1.0, 4);
        let bits = SpinGlassBits::of(m.csr().unwrap()).unwrap();
        let run = |blocks: &[usize], width: usize| -> Vec<Vec<u64>> {
            fn go<const W: usize>(b: &SpinGlassBits, blocks: &[usize]) -> Vec<Vec<u64>> {
                let mut words: [RandomWords; W] =
                    std::array::from_fn(|k| RandomWords::for_block(11, 64 * blocks[k]));
                let mut x = vec![[0u64; W]; b.n];
                for (k, w) in words.iter_mut().enumerate() {
                    set_block(&mut x, k, &[], w);
                }
                for s in 0..200 {
                    b.sweep(&mut x, &b.thresholds(0.05 * s as f64), &mut words);
                }
                (0..W).map(|k| x.iter().map(|w| w[k]).collect()).collect()
            }
            match width {
                1 => go::<1>(&bits, blocks),
                2 => go::<2>(&bits, blocks),
                _ => go::<4>(&bits, blocks),
            }
        };
        let wide = run(&[0, 1, 2, 3], 4);
        assert_eq!(run(&[0, 1], 2), wide[..2]);
        assert_eq!(run(&[2], 1), wide[2..3]);
        assert_ne!(wide[0], wide[1]);
    }
}
