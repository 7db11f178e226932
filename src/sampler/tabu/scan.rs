//! Tabu's move choice: the lowest admissible gain over all variables, ties drawn at random —
//! one scan per move, so a move costs about n times this loop's step. In AVX2 where the CPU
//! has it (eight gains a step, no branch per variable); the rule written variable by variable
//! is the portable path and what the tests hold the vector scan to.

use super::{Walk, improvement};
use crate::rng::Xoshiro128p;

/// Tenures up to this are kept as a list of the last flips too, so a move masks its few tabu
/// variables in place and scans the gains alone (no tabu marks read per variable).
const LISTED_TENURE: usize = 64;

/// Which variables are tabu: the move count until which each one is (`until`), and for short
/// tenures the last `tenure` flips themselves, which are exactly the tabu variables.
pub(super) struct TabuList {
    until: Vec<usize>,
    tenure: usize,
    /// The last flips, ring-wise by move count; empty when the tenure is not listed.
    recent: Vec<u32>,
}

impl TabuList {
    pub fn new(n: usize, tenure: usize) -> Self {
        let listed = tenure <= LISTED_TENURE;
        TabuList {
            until: vec![0; n],
            tenure,
            recent: vec![u32::MAX; if listed { tenure } else { 0 }],
        }
    }

    /// No variable tabu (a new walk).
    pub fn clear(&mut self) {
        self.until.fill(0);
        self.recent.fill(u32::MAX);
    }

    /// Variable i flipped at move `moves`: tabu for the next `tenure` moves.
    #[inline(always)]
    pub fn mark(&mut self, i: usize, moves: usize) {
        self.until[i] = moves + 1 + self.tenure;
        if !self.recent.is_empty() {
            let slot = moves % self.recent.len();
            self.recent[slot] = i as u32;
        }
    }
}

/// The best admissible move: the lowest gain among variables not tabu, or a tabu one whose
/// flip beats the best energy (aspiration: energy + gain < best − improvement); ties broken
/// uniformly at random, as dwave-samplers' TabuSampler does: on models with few distinct
/// gains (±J spin glasses, penalty models) the lowest index among ties would steer every walk
/// the same way. `None` when every move is tabu and none aspires (tenure ≥ n).
#[inline(always)]
pub(super) fn choose(
    walk: &mut Walk,
    tabu: &TabuList,
    moves: usize,
    best: f64,
    rng: &mut Xoshiro128p,
) -> Option<usize> {
    let scan = Scan {
        moves,
        energy: walk.energy,
        limit: best - improvement(best),
    };
    if tabu.recent.is_empty() {
        return scan.choose::<true>(&walk.gain, &tabu.until, rng);
    }
    // The listed tabu variables that cannot aspire read +∞ for this scan (each once: a
    // variable flipped twice within the tenure is listed twice).
    let mut masked = [(0u32, 0f64); LISTED_TENURE];
    let mut count = 0;
    for &i in &tabu.recent {
        let Some(g) = walk.gain.get_mut(i as usize) else {
            continue; // an empty slot
        };
        if scan.admissible(*g, tabu.until[i as usize]) == f64::INFINITY && g.is_finite() {
            masked[count] = (i, *g);
            count += 1;
            *g = f64::INFINITY;
        }
    }
    let chosen = scan.choose::<false>(&walk.gain, &[], rng);
    for &(i, g) in masked[..count].iter().rev() {
        walk.gain[i as usize] = g;
    }
    chosen
}

/// One move's scan over the gains: what makes a move admissible.
struct Scan {
    moves: usize,
    energy: f64,
    /// A tabu move aspires when energy + gain < limit.
    limit: f64,
}

impl Scan {
    /// The gain of flipping a variable if that move is admissible, else +∞ (which no finite
    /// gain equals, so an inadmissible move is never lowest nor tied).
    #[inline(always)]
    fn admissible(&self, gain: f64, until: usize) -> f64 {
        if until <= self.moves || self.energy + gain < self.limit {
            gain
        } else {
            f64::INFINITY
        }
    }

    /// The move among `gain`, in AVX2 where the CPU has it: with TABU, `until` holds a tabu
    /// mark per gain; without, the caller has masked the barred moves (+∞) and `until` is not
    /// read.
    #[inline(always)]
    fn choose<const TABU: bool>(
        &self,
        gain: &[f64],
        until: &[usize],
        rng: &mut Xoshiro128p,
    ) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { self.choose_avx2::<TABU>(gain, until, rng) };
        }
        self.choose_in_order::<TABU>(gain, until, rng)
    }

    /// `admissible` where the scan reads tabu marks, else the gain as it stands.
    #[inline(always)]
    fn value<const TABU: bool>(&self, gain: &[f64], until: &[usize], i: usize) -> f64 {
        if TABU {
            self.admissible(gain[i], until[i])
        } else {
            gain[i]
        }
    }

    /// Of `ties` admissible moves with the lowest gain, one drawn uniformly: the how-manyth.
    #[inline(always)]
    fn draw(ties: usize, rng: &mut Xoshiro128p) -> usize {
        if ties > 1 {
            crate::sampler::moves::below(rng.next_u32(), ties)
        } else {
            0
        }
    }

    /// The rule itself, variable by variable; the vector scan must agree with it (tests).
    fn choose_in_order<const TABU: bool>(
        &self,
        gain: &[f64],
        until: &[usize],
        rng: &mut Xoshiro128p,
    ) -> Option<usize> {
        let (mut lowest, mut ties) = (f64::INFINITY, 0);
        for i in 0..gain.len() {
            let v = self.value::<TABU>(gain, until, i);
            if v < lowest {
                (lowest, ties) = (v, 1);
            } else if v == lowest {
                ties += 1;
            }
        }
        if lowest == f64::INFINITY {
            return None;
        }
        let skip = Self::draw(ties, rng);
        (0..gain.len())
            .filter(|&i| self.value::<TABU>(gain, until, i) == lowest)
            .nth(skip)
    }

    /// The same choice in AVX2, eight variables a step: a first pass keeps in each lane its
    /// lowest admissible gain and how many times it came, the lanes then give the lowest gain
    /// and its ties; a second pass counts tied lanes four at a time up to the drawn one.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn choose_avx2<const TABU: bool>(
        &self,
        gain: &[f64],
        until: &[usize],
        rng: &mut Xoshiro128p,
    ) -> Option<usize> {
        use std::arch::x86_64::*;
        const STEP: usize = 8;
        // The vector loads below read both slices up to n.
        assert!(!TABU || gain.len() == until.len(), "a tabu mark per gain");
        let n = gain.len();
        let whole = n - n % STEP;
        // Tabu iff until > moves; `until` counts moves, far below 2⁶³, so the signed compare
        // of 64-bit lanes is the unsigned one.
        let moves = _mm256_set1_epi64x(self.moves as i64);
        let energy = _mm256_set1_pd(self.energy);
        let limit = _mm256_set1_pd(self.limit);
        let infinity = _mm256_set1_pd(f64::INFINITY);
        let one = _mm256_set1_pd(1.0);
        // SAFETY (both loads): k + 4 ≤ n = gain.len(); `until` is read only with TABU, where it
        // is as long (asserted above).
        let admissible = |k: usize| unsafe {
            let g = _mm256_loadu_pd(gain.as_ptr().add(k));
            if !TABU {
                return g;
            }
            let u = _mm256_loadu_si256(until.as_ptr().add(k) as *const __m256i);
            let tabu = _mm256_castsi256_pd(_mm256_cmpgt_epi64(u, moves));
            let aspires = _mm256_cmp_pd::<_CMP_LT_OQ>(_mm256_add_pd(energy, g), limit);
            _mm256_blendv_pd(g, infinity, _mm256_andnot_pd(aspires, tabu))
        };
        let mut low = [infinity; 2];
        let mut ties = [_mm256_setzero_pd(); 2];
        for k in (0..whole).step_by(STEP) {
            for h in 0..2 {
                let v = admissible(k + 4 * h);
                let lower = _mm256_cmp_pd::<_CMP_LT_OQ>(v, low[h]);
                let tied = _mm256_and_pd(_mm256_cmp_pd::<_CMP_EQ_OQ>(v, low[h]), one);
                ties[h] = _mm256_blendv_pd(_mm256_add_pd(ties[h], tied), one, lower);
                low[h] = _mm256_min_pd(v, low[h]);
            }
        }
        let (mut lows, mut counts) = ([0f64; STEP], [0f64; STEP]);
        for h in 0..2 {
            // SAFETY: each store writes 4 of the 8 f64s.
            unsafe {
                _mm256_storeu_pd(lows.as_mut_ptr().add(4 * h), low[h]);
                _mm256_storeu_pd(counts.as_mut_ptr().add(4 * h), ties[h]);
            }
        }
        let rest = (whole..n).map(|i| self.value::<TABU>(gain, until, i));
        let lowest = rest.clone().chain(lows).fold(f64::INFINITY, f64::min);
        if lowest == f64::INFINITY {
            return None;
        }
        let in_lanes: f64 = (lows.iter().zip(&counts))
            .filter(|(l, _)| **l == lowest)
            .map(|(_, c)| c)
            .sum();
        let ties = in_lanes as usize + rest.filter(|&v| v == lowest).count();
        let mut skip = Self::draw(ties, rng);
        let target = _mm256_set1_pd(lowest);
        let mut k = 0;
        while k + 4 <= n {
            let hits = _mm256_movemask_pd(_mm256_cmp_pd::<_CMP_EQ_OQ>(admissible(k), target));
            let count = hits.count_ones() as usize;
            if skip < count {
                let mut bits = hits as u32;
                for _ in 0..skip {
                    bits &= bits - 1;
                }
                return Some(k + bits.trailing_zeros() as usize);
            }
            skip -= count;
            k += 4;
        }
        (k..n)
            .filter(|&i| self.value::<TABU>(gain, until, i) == lowest)
            .nth(skip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gains with many ties (small integers), tabu marks around the move count and an
    /// aspiration limit that some tabu moves pass.
    fn scan_case(n: usize, rng: &mut Xoshiro128p) -> (Scan, Vec<f64>, Vec<usize>) {
        let gain = (0..n).map(|_| (rng.next_u32() % 5) as f64 - 2.0).collect();
        let until = (0..n)
            .map(|_| 95 + (rng.next_u32() % 10) as usize)
            .collect();
        let scan = Scan {
            moves: 100,
            energy: 10.0,
            limit: 8.0 + (rng.next_u32() % 3) as f64,
        };
        (scan, gain, until)
    }

    #[test]
    fn the_vector_scan_chooses_what_the_rule_chooses() {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            let mut rng = Xoshiro128p::for_read(7, 0);
            let mut chose = 0;
            for case in 0..4000 {
                // Lengths 0 to 40: every remainder of the vector steps, and empty.
                let (scan, gain, until) = scan_case(case % 41, &mut rng);
                // The same stream for both, so that they draw the same tie.
                let mut draws = Xoshiro128p::for_read(case as u64, 1);
                let expected = scan.choose_in_order::<true>(&gain, &until, &mut draws.clone());
                // SAFETY: the CPU supports AVX2 (checked above).
                let got = unsafe { scan.choose_avx2::<true>(&gain, &until, &mut draws) };
                assert_eq!(got, expected, "case {case}: {gain:?} {until:?}");
                chose += expected.is_some() as usize;
            }
            // Most cases have a move; some (all tabu, none aspiring) have none.
            assert!(chose > 3500 && chose < 4000, "{chose}");
            return;
        }
        eprintln!("no AVX2 here: the vector scan is not compiled into this run");
    }

    #[test]
    fn ties_are_drawn_uniformly_among_admissible_moves_only() {
        // Variables 0–9 all have gain −1; 2, 5 and 7 are tabu and cannot aspire, so each of
        // the other seven should come about 1/7 of the time, and those three never.
        let gain = vec![-1.0; 10];
        let mut until = vec![0usize; 10];
        for i in [2, 5, 7] {
            until[i] = 50;
        }
        let scan = Scan {
            moves: 10,
            energy: 0.0,
            limit: -5.0,
        };
        let mut rng = Xoshiro128p::for_read(3, 0);
        let mut seen = [0usize; 10];
        for _ in 0..7000 {
            seen[scan.choose::<true>(&gain, &until, &mut rng).unwrap()] += 1;
        }
        for (i, &k) in seen.iter().enumerate() {
            if [2, 5, 7].contains(&i) {
                assert_eq!(k, 0, "tabu variable {i} chosen");
            } else {
                assert!((850..1150).contains(&k), "variable {i}: {k} of 7000");
            }
        }
        // A tabu move that beats the best aspires, and being lowest it is the only choice.
        let mut gain = gain;
        gain[5] = -9.0;
        assert_eq!(scan.choose::<true>(&gain, &until, &mut rng), Some(5));
    }

    #[test]
    fn masking_the_listed_tabu_variables_chooses_what_the_marks_choose() {
        let mut rng = Xoshiro128p::for_read(11, 0);
        for case in 0..3000u64 {
            let n = 1 + case as usize % 40;
            let tenure = 1 + case as usize % 9;
            let (scan, gain, _) = scan_case(n, &mut rng);
            let mut tabu = TabuList::new(n, tenure);
            // A walk's history: a random variable flipped at each of the last 30 moves.
            let moves = 30;
            for m in 0..moves {
                tabu.mark(rng.next_u32() as usize % n, m);
            }
            let mut walk = Walk {
                x: vec![0; n],
                gain: gain.clone(),
                sign: vec![1.0; n],
                energy: scan.energy,
            };
            let best = scan.limit + improvement(scan.limit);
            let mut draws = Xoshiro128p::for_read(case, 2);
            let by_marks = Scan {
                moves,
                energy: scan.energy,
                limit: best - improvement(best),
            }
            .choose_in_order::<true>(&gain, &tabu.until, &mut draws.clone());
            let listed = choose(&mut walk, &tabu, moves, best, &mut draws);
            assert_eq!(listed, by_marks, "case {case}");
            assert_eq!(
                walk.gain, gain,
                "case {case}: the masked gains are put back"
            );
        }
    }
}
