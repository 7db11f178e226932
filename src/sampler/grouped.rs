//! The lane kernel for structured models (`qubo::grouped`): 32 reads side by side in SIMD
//! lanes, each flip's energy change computed from sums (per group Σ cx, per port, per port and
//! label) and the variable's few explicit couplings, so a sweep costs O(variables + explicit
//! couplings) whatever the number of couplings the structure spells out — the full Eternity II
//! placement QUBO (3.4·10⁸ couplings) anneals from a few MB, ADC 2018's largest Numberlink
//! (1.4·10⁸) from a few hundred.
//!
//! Invariant: for every lane, `in_group`, `at_port` and `with_label` are the sums of that
//! lane's `on` state. Every variable shares its indices across lanes, so each step is a
//! vertical lane operation; updates are applied branch-free (a lane that did not flip adds 0).
//! Counts are small integers held exactly in f32, and so are group sums whose coefficients are
//! small integers (every encoder's); other coefficients drift by f32 rounding, which moves
//! acceptance decisions only (energies are recomputed exactly from the model).

use super::kernel::{LaneArrays, with_avx2};
use crate::qubo::grouped::GroupedKernel;
use crate::rng::{LaneRng, Xoshiro128p, neg_ln_uniform_times};

// Reads per lane group in annealing (tempering runs 8, 16 or 32 replicas side by side).
pub(super) use super::lanes::LANES;
/// Variables whose thresholds are drawn together.
const BLOCK: usize = 64;

/// The kernel's tables in f32.
pub(super) struct LaneTables {
    n: usize,
    linear: Vec<f32>,
    groups: Vec<[u32; 2]>,
    coef: Vec<[f32; 2]>,
    twice_weight: Vec<f32>,
    own: Vec<[(u32, u32); 4]>,
    other: Vec<[(u32, u32); 4]>,
    num_groups: usize,
    num_ports: usize,
    num_labels: usize,
    diff: f32,
    same_minus_diff: f32,
    pair_start: Vec<u32>,
    pair_cols: Vec<u32>,
    pair_vals: Vec<f32>,
}

impl LaneTables {
    pub fn new(k: &GroupedKernel) -> Self {
        LaneTables {
            n: k.linear.len(),
            linear: k.linear.iter().map(|&v| v as f32).collect(),
            groups: k.groups.clone(),
            coef: k.coef.iter().map(|c| c.map(|v| v as f32)).collect(),
            twice_weight: k.twice_weight.iter().map(|&v| v as f32).collect(),
            own: k.own.clone(),
            other: k.other.clone(),
            num_groups: k.num_groups,
            num_ports: k.num_ports,
            num_labels: k.num_labels,
            diff: k.diff as f32,
            same_minus_diff: k.same_minus_diff as f32,
            pair_start: k.pair_start.clone(),
            pair_cols: k.pair_cols.clone(),
            pair_vals: k.pair_vals.iter().map(|&v| v as f32).collect(),
        }
    }

    /// Bytes of the state of one group of `lanes` lanes.
    pub fn state_bytes(&self, lanes: usize) -> u64 {
        let arrays = self.n + self.num_groups + self.num_ports * (1 + self.num_labels) + BLOCK;
        (arrays as u64).saturating_mul(4 * lanes as u64)
    }

    /// Bytes of the tables themselves (per variable: linear, groups and coefficients, own and
    /// other ports, row start; per explicit entry: column and value).
    pub fn bytes(&self) -> u64 {
        crate::budget::bytes_of(&[self.n, 4 + 8 + 8 + 32 + 32 + 4])
            .saturating_add(crate::budget::bytes_of(&[self.pair_cols.len(), 8]))
    }

    /// Variables.
    pub fn num_variables(&self) -> usize {
        self.n
    }
}

/// One group of L lanes' state.
pub(super) struct LaneState<const L: usize> {
    on: LaneArrays<f32, L>,
    in_group: LaneArrays<f32, L>,
    at_port: LaneArrays<f32, L>,
    with_label: LaneArrays<f32, L>,
    rng: LaneRng<L>,
    threshold: Vec<[f32; L]>,
    /// Each lane's energy, kept up to date by the accepted changes (f32 and drifting: for
    /// progress and swap decisions; exact energies come from the model).
    pub energy: [f32; L],
    /// Flips accepted per lane since the last reset (the pilot's flip rates).
    pub flips: [f32; L],
}

impl<const L: usize> LaneState<L> {
    /// Lanes starting from the given states (0/1 per variable) and generator states.
    pub fn new(t: &LaneTables, states: &[Vec<u8>], rngs: &[Xoshiro128p], energies: &[f64]) -> Self {
        let rng_states: [[u32; 4]; L] = std::array::from_fn(|l| rngs[l].state());
        let mut s = LaneState {
            on: LaneArrays::filled(t.n, [0.0; L]),
            in_group: LaneArrays::filled(t.num_groups, [0.0; L]),
            at_port: LaneArrays::filled(t.num_ports, [0.0; L]),
            with_label: LaneArrays::filled(t.num_ports * t.num_labels, [0.0; L]),
            rng: LaneRng::from_states(&rng_states),
            threshold: vec![[0.0; L]; BLOCK],
            energy: std::array::from_fn(|l| energies.get(l).copied().unwrap_or(0.0) as f32),
            flips: [0.0; L],
        };
        for (l, x) in states.iter().enumerate() {
            for (v, &b) in x.iter().enumerate() {
                if b != 0 {
                    s.on[v][l] = 1.0;
                    for (&g, &c) in t.groups[v].iter().zip(&t.coef[v]) {
                        s.in_group[g as usize][l] += c;
                    }
                    for &(p, pl) in &t.own[v] {
                        s.at_port[p as usize][l] += 1.0;
                        s.with_label[pl as usize][l] += 1.0;
                    }
                }
            }
        }
        s
    }

    /// Lane `l`'s state as 0/1.
    pub fn state(&self, l: usize) -> Vec<u8> {
        self.on.iter().map(|v| (v[l] > 0.5) as u8).collect()
    }

    /// Sets the lanes' running energies (after recomputing them exactly).
    pub fn set_energies(&mut self, energies: &[f64]) {
        for (e, &v) in self.energy.iter_mut().zip(energies) {
            *e = v as f32;
        }
    }
}

/// One Metropolis sweep of every lane, lane l at 1/β = `inv_beta[l]`. Implemented for the
/// widths the samplers use (8, 16, 32), each compiled for AVX2 where the CPU has it: the
/// run-time switch needs a concrete width.
pub(super) trait Sweep<const L: usize> {
    fn sweep(&mut self, t: &LaneTables, inv_beta: &[f32; L]);
}

macro_rules! sweep_for_widths {
    ($($w:literal),*) => {$(
        impl Sweep<$w> for LaneState<$w> {
            fn sweep(&mut self, t: &LaneTables, inv_beta: &[f32; $w]) {
                // Separate `&mut` slices (not fields of one struct): the compiler then knows
                // they do not overlap, and the lane loops vectorise.
                let LaneState { on, in_group, at_port, with_label, rng, threshold, energy, flips } =
                    self;
                let arrays = &mut Arrays {
                    on: &mut on[..],
                    in_group: &mut in_group[..],
                    at_port: &mut at_port[..],
                    with_label: &mut with_label[..],
                    threshold: &mut threshold[..],
                };
                with_avx2!(width(
                    t: &LaneTables,
                    arrays: &mut Arrays<'_, $w>,
                    rng: &mut LaneRng<$w>,
                    energy: &mut [f32; $w],
                    flips: &mut [f32; $w],
                    inv_beta: &[f32; $w],
                ) -> () {
                    let Arrays { on, in_group, at_port, with_label, threshold } = arrays;
                    sweep_lanes::<$w>(
                        t, on, in_group, at_port, with_label, rng, threshold, energy, flips,
                        inv_beta,
                    )
                })
            }
        }
    )*};
}
sweep_for_widths!(8, 16, 32);

/// A lane group's per-variable arrays, borrowed apart.
struct Arrays<'a, const L: usize> {
    on: &'a mut [[f32; L]],
    in_group: &'a mut [[f32; L]],
    at_port: &'a mut [[f32; L]],
    with_label: &'a mut [[f32; L]],
    threshold: &'a mut [[f32; L]],
}

/// The sweep itself; every array is its own argument (see `Sweep`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn sweep_lanes<const L: usize>(
    t: &LaneTables,
    on: &mut [[f32; L]],
    in_group: &mut [[f32; L]],
    at_port: &mut [[f32; L]],
    with_label: &mut [[f32; L]],
    rng: &mut LaneRng<L>,
    threshold: &mut [[f32; L]],
    energy: &mut [f32; L],
    flips: &mut [f32; L],
    inv_beta: &[f32; L],
) {
    for block in (0..t.n).step_by(BLOCK) {
        let end = (block + BLOCK).min(t.n);
        rng.fill(&mut threshold[..end - block], |r, l| {
            neg_ln_uniform_times(r, inv_beta[l])
        });
        for v in block..end {
            let x = on[v];
            let mut field = [t.linear[v]; L];
            for (&g, &c) in t.groups[v].iter().zip(&t.coef[v]) {
                let (wc, s) = (t.twice_weight[g as usize] * c, &in_group[g as usize]);
                for l in 0..L {
                    field[l] += wc * (s[l] - c * x[l]);
                }
            }
            let row = t.pair_start[v] as usize..t.pair_start[v + 1] as usize;
            for (&j, &q) in t.pair_cols[row.clone()].iter().zip(&t.pair_vals[row]) {
                let xj = &on[j as usize];
                for l in 0..L {
                    field[l] += q * xj[l];
                }
            }
            for &(q, ql) in &t.other[v] {
                let (a, b) = (&at_port[q as usize], &with_label[ql as usize]);
                for l in 0..L {
                    field[l] += t.diff * a[l] + t.same_minus_diff * b[l];
                }
            }
            let thr = &threshold[v - block];
            let mut d = [0.0f32; L];
            for l in 0..L {
                let dir = 1.0 - 2.0 * x[l];
                let de = field[l] * dir;
                let accept = de <= thr[l];
                d[l] = if accept { dir } else { 0.0 };
                energy[l] += if accept { de } else { 0.0 };
                flips[l] += if accept { 1.0 } else { 0.0 };
            }
            let xv = &mut on[v];
            for l in 0..L {
                xv[l] = x[l] + d[l];
            }
            for (&g, &c) in t.groups[v].iter().zip(&t.coef[v]) {
                let s = &mut in_group[g as usize];
                for l in 0..L {
                    s[l] += c * d[l];
                }
            }
            for &(p, pl) in &t.own[v] {
                let a = &mut at_port[p as usize];
                for l in 0..L {
                    a[l] += d[l];
                }
                let b = &mut with_label[pl as usize];
                for l in 0..L {
                    b[l] += d[l];
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qubo::grouped::{GroupedState, NONE};
    use crate::qubo::{GroupedModel, Model};

    /// Two cells of two placements each, one link: small enough to check counts by hand.
    fn tiny() -> GroupedModel {
        GroupedModel::new(
            vec![[0, 2], [1, 2], [0, 3], [1, 3]],
            vec![3.0, 3.0, 3.0, 3.0],
            vec![
                [(0, 5), (NONE, 0), (NONE, 0), (NONE, 0)],
                [(0, 6), (NONE, 0), (NONE, 0), (NONE, 0)],
                [(1, 5), (NONE, 0), (NONE, 0), (NONE, 0)],
                [(1, 5), (NONE, 0), (NONE, 0), (NONE, 0)],
            ],
            &[(0, 1)],
            2,
            -1.0,
            1.0,
        )
    }

    #[test]
    fn squares_with_coefficients_and_explicit_couplings_keep_their_sums() {
        // Numberlink's shape: a one-hot, a path count (Σ edges − 2x)² and a touch coupling.
        use crate::qubo::grouped::Square;
        let g = GroupedModel::from_terms(
            5,
            0.5,
            vec![0.0, 0.3, 0.0, -0.2, 0.0],
            vec![
                Square {
                    weight: 1.0,
                    target: 1.0,
                    terms: vec![(0, 1.0), (1, 1.0)],
                },
                Square {
                    weight: 2.0,
                    target: 0.0,
                    terms: vec![(2, 1.0), (3, 1.0), (0, -2.0)],
                },
            ],
            vec![(1, 4, 0.25), (2, 4, -1.0)],
        );
        let k = g.kernel();
        let t = LaneTables::new(&k);
        let starts: Vec<Vec<u8>> = (0..LANES)
            .map(|l| (0..5).map(|v| ((l >> v) & 1) as u8).collect())
            .collect();
        let rngs: Vec<Xoshiro128p> = (0..LANES as u64)
            .map(|l| Xoshiro128p::for_read(2, l))
            .collect();
        let energies: Vec<f64> = starts.iter().map(|x| g.energy(x)).collect();
        for (x, &e) in starts.iter().zip(&energies) {
            assert!((GroupedState::energy_of(&k, x) - e).abs() < 1e-9, "{x:?}");
        }
        let mut s = LaneState::<LANES>::new(&t, &starts, &rngs, &energies);
        for sweep in 0..40 {
            s.sweep(&t, &[3.0 / (1.0 + sweep as f32); LANES]);
            for l in 0..LANES {
                let x = s.state(l);
                let want = GroupedState::new(&k, &x);
                for (gi, c) in s.in_group.iter().enumerate().take(k.num_groups - 1) {
                    assert_eq!(c[l] as f64, want.in_group[gi], "lane {l} group {gi}");
                }
                assert!((s.energy[l] as f64 - g.energy(&x)).abs() < 1e-4, "lane {l}");
            }
        }
    }

    #[test]
    fn lane_counts_stay_the_counts_of_the_lane_states() {
        let g = tiny();
        let k = g.kernel();
        let t = LaneTables::new(&k);
        let starts: Vec<Vec<u8>> = (0..LANES)
            .map(|l| (0..4).map(|v| ((l >> v) & 1) as u8).collect())
            .collect();
        let rngs: Vec<Xoshiro128p> = (0..LANES as u64)
            .map(|l| Xoshiro128p::for_read(1, l))
            .collect();
        let energies: Vec<f64> = starts.iter().map(|x| g.energy(x)).collect();
        let mut s = LaneState::<LANES>::new(&t, &starts, &rngs, &energies);
        for sweep in 0..50 {
            s.sweep(&t, &[2.0 / (1.0 + sweep as f32); LANES]);
            for l in 0..LANES {
                let x = s.state(l);
                let want = GroupedState::new(&k, &x);
                for (gi, c) in s.in_group.iter().enumerate().take(k.num_groups - 1) {
                    assert_eq!(c[l] as f64, want.in_group[gi], "lane {l} group {gi}");
                }
                for (p, c) in s.at_port.iter().enumerate().take(2) {
                    assert_eq!(c[l] as i32, want.at_port[p]);
                }
            }
        }
        // Cold sweeps end in one of the two tilings (x0 + x3, labels agree: −1; x1 + x2,
        // labels differ: +1 — a local minimum for single flips), most lanes in the ground one;
        // each lane's running energy is its state's.
        for _ in 0..50 {
            s.sweep(&t, &[0.01; LANES]);
        }
        let mut ground = 0;
        for l in 0..LANES {
            let e = g.energy(&s.state(l));
            assert!(e == -1.0 || e == 1.0, "lane {l}: {:?} at {e}", s.state(l));
            assert_eq!(s.energy[l] as f64, e, "lane {l}: the running energy");
            ground += (e == -1.0) as usize;
        }
        assert!(
            ground > LANES / 2,
            "{ground} of {LANES} lanes at the ground"
        );
    }
}
