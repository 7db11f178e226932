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

/// One Metropolis sweep of one read over all variables (`field`: its local fields, `sign`: +1
/// at x = 0 and −1 at x = 1): i flips iff ΔE ≤ −ln(u)/β, with u drawn for variable
/// `block + 8t + w` as draw t of the block from generator w. Returns ΔE summed over the flips.
#[inline(always)]
pub(super) fn sweep_rows<T: LaneValue, R: Copy + Default + Into<T>>(
    rows: &DenseRows<R>,
    inv_beta: f32,
    field: &mut [T],
    sign: &mut [T],
    rng: &mut LaneRng<STREAMS>,
) -> f32 {
    const DRAWS: usize = BLOCK / STREAMS;
    let n = rows.n;
    let mut drawn = [[0f32; STREAMS]; DRAWS];
    let mut threshold = [T::default(); BLOCK];
    let mut accept = [0u8; BLOCK];
    let mut delta = 0f32;
    for block in (0..n).step_by(BLOCK) {
        let len = (block + BLOCK).min(n) - block;
        rng.fill(&mut drawn[..len.div_ceil(STREAMS)], |r, _| {
            neg_ln_uniform_times(r, inv_beta)
        });
        for (t, &d) in threshold.iter_mut().zip(drawn.as_flattened()) {
            *t = T::threshold(d);
        }
        let f = &mut field[..];
        let mut from = 0;
        // Flags for the block's remaining variables, then the first flip among them; after a
        // flip the fields past it have changed, so the flags are recomputed from there.
        while from < len {
            let (lo, hi) = (block + from, block + len);
            for (a, ((&fi, &si), &ti)) in accept[from..len].iter_mut().zip(
                f[lo..hi]
                    .iter()
                    .zip(&sign[lo..hi])
                    .zip(&threshold[from..len]),
            ) {
                *a = (fi.mul(si) <= ti) as u8;
            }
            let Some(k) = first_set(&accept[from..len]) else {
                break;
            };
            let i = lo + k;
            let d = sign[i];
            delta += f[i].mul(d).to_f32();
            sign[i] = d.sub(d.add(d));
            let row = rows.row(i);
            if d == T::ONE {
                for (fj, &w) in f.iter_mut().zip(row) {
                    *fj = fj.add(w.into());
                }
            } else {
                for (fj, &w) in f.iter_mut().zip(row) {
                    *fj = fj.sub(w.into());
                }
            }
            from += k + 1;
        }
    }
    delta
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
    fn sample<T: LaneValue, R: Copy + Default + Into<T>>(
        m: &StoredModel,
        km: &KernelModel<T>,
        rows: &DenseRows<R>,
        beta: f64,
    ) -> f64 {
        let inv_beta = inverse_beta((beta / km.scale) as f32);
        let states = (0..20_000).map(|read| {
            let mut start = Xoshiro128p::for_read(3, read as u64);
            let x: Vec<u8> = (0..6).map(|_| (start.next_u32() >> 31) as u8).collect();
            let (mut field, e0) = km.fields(&x);
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
                    sample(&m, &km, &rows, beta)
                }
                Some(km) => {
                    assert!(DenseRows::of(&km, |w| i8::try_from(w).ok()).is_none());
                    sample(&m, &km, &DenseRows::of(&km, Some).unwrap(), beta)
                }
                None => {
                    let km = KernelModel::new(&csr, 1.0);
                    sample(&m, &km, &DenseRows::of(&km, Some).unwrap(), beta)
                }
            };
            assert!(
                distance < 0.04,
                "scale {scale}: total variation {distance:.4}"
            );
        }
    }
}
