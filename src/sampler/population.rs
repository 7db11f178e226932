//! Population annealing (Hukushima & Iba 2003; Machta, PRE 82, 2010; Wang, Machta & Katzgraber,
//! PRE 92, 013303, 2015): a population of R replicas is cooled through K temperatures. At each
//! new β the population is resampled in proportion to its Boltzmann reweighting
//! exp(−(β_k − β_{k−1})·E), then every replica does its share of Metropolis sweeps at β_k. The
//! final population is the sample set — a Boltzmann sample at the coldest β as R grows — so,
//! unlike SA's independent reads, replicas share ancestors. The report counts the surviving
//! families (distinct ancestors of the first population): a handful out of R says the
//! population collapsed onto few lines and the sample is poorly equilibrated (raise the sweeps
//! per temperature or the temperatures).
//!
//! Sweeps run on the shared lane kernel (`sweep_lanes`), 32 replicas to a lane group, the
//! groups in parallel. Resampling is systematic (one uniform number, exactly R offspring, in
//! order), and each replica's random stream is seeded by (seed, step, replica): a seed gives the
//! same sample set whatever the thread count.

use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::control::ProgressTracker;
use super::kernel::{KernelModel, LaneArrays, inverse_beta, sweep_lanes, with_avx2};
use super::lanes::LANES;
use super::pilot::{RatePer, geometric, pilot_range};
use super::precision::KernelScale;
use super::replicas::Engine;
use super::schedule::{BetaScheduleType, ScheduleSpec};
use super::{
    RunControl, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry, build_from_json,
};
use crate::budget::{bytes_of, check_memory};
use crate::params::{ParamDefault, ParamSpec, ParamType};
use crate::qubo::{Csr, Model};
use crate::rng::{LaneRng, Xoshiro128p};

/// The registry's description of population annealing.
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "pa",
    summary: "population annealing: a population cooled step by step, resampled by its \
              Boltzmann weights at each temperature; the final population is the sample set",
    params: PARAMS,
    build: build_from_json::<PopulationAnnealing>,
    runs_on: super::RunsOn::ThisMachine,
    plots: &[],
    effort: Some("num_sweeps"),
};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::num_reads(
        1_000_000,
        1000,
        "the population: replicas cooled together, each a read of the result",
    ),
    ParamSpec {
        name: "num_sweeps",
        ty: ParamType::Int {
            min: 1,
            max: 10_000_000,
        },
        default: ParamDefault::Int(1000),
        help: "sweeps per replica over the whole schedule, shared out among the temperatures",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "num_temperatures",
        ty: ParamType::Int {
            min: 1,
            max: 100_000,
        },
        default: ParamDefault::Int(100),
        help: "β steps from hot to cold (geometric), each followed by resampling; at most \
               num_sweeps are used",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta_range",
        ty: ParamType::FloatPair {
            min: 0.0,
            max: 1e12,
        },
        default: ParamDefault::Auto("SA's pilot: from a little above where the model freezes"),
        help: "hot and cold inverse temperature β",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Auto("random, recorded in the result"),
        "seed: the same seed gives the same samples at any thread count",
    ),
];

/// Population annealing's parameters (see `PARAMS`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PopulationAnnealing {
    /// Replicas in the population (= reads).
    pub num_reads: usize,
    /// Sweeps per replica over the whole schedule.
    pub num_sweeps: usize,
    /// β steps.
    pub num_temperatures: usize,
    /// (hot β, cold β); `None`: SA's pilot range.
    pub beta_range: Option<[f64; 2]>,
    /// `None` draws a seed (recorded in the result's info).
    pub seed: Option<u64>,
}

impl Default for PopulationAnnealing {
    fn default() -> Self {
        PopulationAnnealing {
            num_reads: 1000,
            num_sweeps: 1000,
            num_temperatures: 100,
            beta_range: None,
            seed: None,
        }
    }
}

/// The random stream of replica `r` at step `k` (distinct from every read stream SA uses).
fn stream(k: usize, r: usize) -> u64 {
    (1 << 62) | ((k as u64) << 32) | r as u64
}

/// The resampling stream.
const RESAMPLE_STREAM: u64 = (1 << 62) - 1;

/// A lane group's replicas after a step: each state with its (kernel-tracked) energy.
type Replicas = Vec<(Vec<u8>, f64)>;

/// One temperature step for a lane group: its replicas' states in, `sweeps` sweeps at `beta`
/// (kernel units), states and kernel energies out. `None` when cancelled.
struct Step<'a> {
    model: &'a KernelModel,
    beta: f32,
    sweeps: usize,
    seed: u64,
    k: usize,
    tracker: &'a ProgressTracker<'a>,
}

impl Step<'_> {
    #[inline(always)]
    fn run<const L: usize>(&self, first: usize, states: &[Vec<u8>]) -> Option<Replicas> {
        let m = self.model;
        let rng_states: [[u32; 4]; L] = std::array::from_fn(|l| {
            Xoshiro128p::for_read(self.seed, stream(self.k, first + l)).state()
        });
        let mut rng = LaneRng::<L>::from_states(&rng_states);
        // Fields and energies in the lanes (one pass over the rows, like one sweep): a step
        // starts from resampled states, and building each replica's fields alone cost as much
        // as several sweeps.
        let mut sign = vec![[1f32; L]; m.n];
        for (l, x) in states.iter().enumerate() {
            for (i, &b) in x.iter().enumerate() {
                if b != 0 {
                    sign[i][l] = -1.0;
                }
            }
        }
        let mut field = LaneArrays::filled(m.n, [0f32; L]);
        let mut energy = [m.offset as f32; L];
        for i in 0..m.n {
            let mut f = [m.lin[i] as f32; L];
            for k in m.start[i]..m.start[i + 1] {
                let (w, sj) = (m.vals[k], &sign[m.cols[k] as usize]);
                for l in 0..L {
                    f[l] += w * (0.5 - 0.5 * sj[l]);
                }
            }
            // E = offset + Σ_i x_i·(linear_i + field_i)/2 (each coupling once).
            for l in 0..L {
                if sign[i][l] < 0.0 {
                    energy[l] += 0.5 * (m.lin[i] as f32 + f[l]);
                }
            }
            field[i] = f;
        }
        let inv = [inverse_beta(self.beta); L];
        let mut reported = 0;
        for s in 0..self.sweeps {
            sweep_lanes::<L, false, f32>(m, &inv, &mut field, &mut sign, &mut rng, &mut energy);
            if self.tracker.is_cancelled() {
                return None;
            }
            if self.tracker.wants_reports()
                && ((s + 1).is_multiple_of(self.tracker.every()) || s + 1 == self.sweeps)
            {
                let (lane, best) = super::kernel::lowest(&energy[..states.len()]);
                self.tracker
                    .add(((s + 1 - reported) * states.len()) as u64, m.unscaled(best));
                self.tracker.offer(m.unscaled(best), || {
                    sign.iter().map(|v| (v[lane] < 0.0) as u8).collect()
                });
                reported = s + 1;
            }
        }
        Some(
            (0..states.len())
                .map(|l| {
                    let x = sign.iter().map(|v| (v[l] < 0.0) as u8).collect();
                    (x, m.unscaled(energy[l]))
                })
                .collect(),
        )
    }
}

/// Runs one lane group on AVX2 where the CPU has it, at the narrowest width that holds it.
fn run_group(step: &Step, first: usize, states: &[Vec<u8>]) -> Option<Replicas> {
    with_avx2!(by_width(step: &Step, first: usize, states: &[Vec<u8>]) -> Option<Replicas> {
        match states.len() {
            0..=8 => step.run::<8>(first, states),
            9..=16 => step.run::<16>(first, states),
            _ => step.run::<LANES>(first, states),
        }
    })
}

/// Systematic resampling: replica i gets offspring in proportion to exp(−Δβ·(E_i − E_min)),
/// exactly `weights.len()` in all, in order; returns each offspring's parent.
pub(crate) fn resample(energies: &[f64], delta_beta: f64, u: f64) -> Vec<usize> {
    let r = energies.len();
    let lowest = energies.iter().copied().fold(f64::INFINITY, f64::min);
    let weights: Vec<f64> = energies
        .iter()
        .map(|&e| (-delta_beta * (e - lowest)).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut parents = Vec::with_capacity(r);
    let mut cumulative = 0.0;
    let mut i = 0;
    for j in 0..r {
        let target = (u + j as f64) / r as f64 * total;
        while i + 1 < r && cumulative + weights[i] <= target {
            cumulative += weights[i];
            i += 1;
        }
        parents.push(i);
    }
    parents
}

impl PopulationAnnealing {
    /// Sweeps of each step: `num_sweeps` shared out as evenly as integers allow over
    /// min(num_temperatures, num_sweeps) steps.
    fn steps(&self) -> Vec<usize> {
        let k = self.num_temperatures.clamp(1, self.num_sweeps.max(1));
        (0..k)
            .map(|s| self.num_sweeps * (s + 1) / k - self.num_sweeps * s / k)
            .collect()
    }

    fn memory_estimate(&self, model: &dyn Model, threads: usize) -> u64 {
        let n = model.num_variables();
        // Two generations of the population, each thread's lane group, the kernel's model.
        let population = bytes_of(&[self.num_reads, n, 2]);
        let per_thread = bytes_of(&[LANES, n, 9]);
        super::kernel::run_bytes(model, threads, per_thread, 0).saturating_add(population)
    }
}

impl Sampler for PopulationAnnealing {
    fn name(&self) -> &'static str {
        "pa"
    }

    fn params(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let n = model.num_variables();
        // The range obeys SA's rules for a geometric schedule (one check for both samplers).
        ScheduleSpec {
            num_sweeps: self.num_sweeps,
            num_sweeps_per_beta: 1,
            beta_range: self.beta_range,
            kind: BetaScheduleType::Geometric,
            custom: None,
        }
        .validate()?;
        let r = self.num_reads;
        let threads = control.threads_for(r.div_ceil(LANES));
        check_memory(
            || format!("population annealing of {r} replicas on {n} variables"),
            self.memory_estimate(model, threads),
        )?;
        let csr = Csr::of_model(model);
        let scale = KernelScale::for_f32(&csr);
        let km = KernelModel::new(&csr, scale.factor);
        let seed = self.seed.unwrap_or_else(rand::random);
        let cancelled = |seed| SampleSet {
            num_variables: n,
            rows: Vec::new(),
            info: SampleInfo::cancelled_before_sampling(self.name(), self.params(), r, seed),
        };
        let (hot, cold) = match self.beta_range {
            Some([hot, cold]) => (hot, cold),
            None => {
                let sweeps = (r * self.num_sweeps / 64).clamp(100, 1000);
                let Some((hot, cold)) = pilot_range(
                    model,
                    Engine::Csr(&km),
                    16,
                    sweeps,
                    super::annealing::SA_HOT_FLIP_RATE,
                    RatePer::Variable,
                    seed,
                    control,
                ) else {
                    return Ok(cancelled(seed));
                };
                (hot, cold * super::annealing::SA_COLD_FACTOR)
            }
        };
        let steps = self.steps();
        let betas = geometric(hot, cold, steps.len());
        let total: usize = steps.iter().sum();
        let tracker = ProgressTracker::new(control, (r as u64).saturating_mul(total as u64));
        let t_sample = Instant::now();
        let mut population: Vec<Vec<u8>> = (0..r)
            .map(|i| {
                let mut rng = Xoshiro128p::for_read(seed, stream(usize::MAX >> 34, i));
                (0..n).map(|_| (rng.next_u32() >> 31) as u8).collect()
            })
            .collect();
        let mut energies: Vec<f64> = vec![0.0; r];
        let mut families: Vec<usize> = (0..r).collect();
        let mut resampler = Xoshiro128p::for_read(seed, RESAMPLE_STREAM);
        for (k, &sweeps) in steps.iter().enumerate() {
            if k > 0 {
                let u = resampler.next_u32() as f64 / (u32::MAX as f64 + 1.0);
                let parents = resample(&energies, betas[k] - betas[k - 1], u);
                population = parents.iter().map(|&p| population[p].clone()).collect();
                families = parents.iter().map(|&p| families[p]).collect();
            }
            let step = Step {
                model: &km,
                beta: (betas[k] / km.scale) as f32,
                sweeps,
                seed,
                k,
                tracker: &tracker,
            };
            let done: Option<Vec<Replicas>> = control.install(r.div_ceil(LANES), || {
                population
                    .par_chunks(LANES)
                    .enumerate()
                    .map(|(g, states)| run_group(&step, g * LANES, states))
                    .collect()
            });
            let Some(done) = done else {
                return Ok(cancelled(seed));
            };
            (population, energies) = done.into_iter().flatten().unzip();
        }
        let sampling_ns = t_sample.elapsed().as_nanos() as u64;
        let mut distinct = families.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let mut params = self.params();
        if let Some(obj) = params.as_object_mut() {
            obj.insert("beta_range".into(), serde_json::json!([hot, cold]));
            obj.insert("seed".into(), serde_json::json!(seed));
            obj.insert("num_temperatures".into(), serde_json::json!(steps.len()));
        }
        let mut details = serde_json::Map::new();
        details.insert(
            "population".into(),
            format!(
                "{r} replicas through {} temperatures ({}–{} sweeps each); {} of {r} families \
                 survive",
                steps.len(),
                steps.iter().min().unwrap_or(&0),
                steps.iter().max().unwrap_or(&0),
                distinct.len()
            )
            .into(),
        );
        let mut warnings: Vec<String> = scale.warning.into_iter().collect();
        if r >= 20 && distinct.len() * 20 < r {
            warnings.push(format!(
                "only {} of {r} families survive the resampling: the population collapsed onto \
                 few lines and is poorly equilibrated; raise num_sweeps or num_temperatures",
                distinct.len()
            ));
        }
        let info = SampleInfo {
            sampler: self.name().into(),
            params,
            num_reads_requested: r,
            cancelled: false,
            seed: Some(seed),
            preprocessing_ns: (t_sample - t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: total,
            warnings,
            details,
            end: Default::default(),
            one_trial: true,
        };
        let t_post = Instant::now();
        let mut set = SampleSet::from_states(model, population, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qubo::{Qubo, StoredModel};

    #[test]
    fn systematic_resampling_keeps_the_size_and_follows_the_weights() {
        // Equal energies: every replica once.
        assert_eq!(resample(&[1.0; 5], 2.0, 0.3), vec![0, 1, 2, 3, 4]);
        // Weights 1 : e⁻¹⁰ ≈ 0: the low one takes every place.
        assert_eq!(resample(&[0.0, 10.0], 1.0, 0.5), vec![0, 0]);
        // Weights 1 : ⅓ : ⅓ : ⅓ (total 2) over 4 places: the first gets 2, the rest 2 together.
        let third = 3f64.ln();
        let parents = resample(&[0.0, third, third, third], 1.0, 0.5);
        assert_eq!(parents.len(), 4);
        assert_eq!(parents.iter().filter(|&&p| p == 0).count(), 2);
        assert!(
            parents.windows(2).all(|w| w[0] <= w[1]),
            "in order: {parents:?}"
        );
    }

    /// The final population of a long run at the coldest β matches the Boltzmann distribution
    /// there (exact enumeration of a 5-variable model), within sampling noise.
    #[test]
    fn the_final_population_is_a_boltzmann_sample() {
        let q = Qubo::new(
            vec![0.5, -0.3, 0.2, -0.6, 0.1],
            vec![
                (0, 1, -0.8),
                (1, 2, 0.7),
                (2, 3, -0.5),
                (3, 4, 0.9),
                (0, 4, -0.4),
                (1, 3, 0.3),
            ],
            0.0,
        )
        .unwrap();
        let m = StoredModel::new(q.clone());
        let beta = 2.0;
        let pa = PopulationAnnealing {
            num_reads: 20_000,
            num_sweeps: 40,
            num_temperatures: 20,
            beta_range: Some([0.1, beta]),
            seed: Some(5),
        };
        let set = pa.sample(&m, &RunControl::new()).unwrap();
        assert_eq!(set.num_reads(), 20_000);
        let weights: Vec<f64> = (0..32u32)
            .map(|s| {
                let x: Vec<u8> = (0..5).map(|i| (s >> i & 1) as u8).collect();
                (-beta * q.energy(&x).unwrap()).exp()
            })
            .collect();
        let z: f64 = weights.iter().sum();
        let mut distance = 0.0;
        for (s, w) in weights.iter().enumerate() {
            let x: Vec<u8> = (0..5).map(|i| (s >> i & 1) as u8).collect();
            let seen = set
                .rows
                .iter()
                .find(|row| row.sample == x)
                .map_or(0, |row| row.num_occurrences);
            distance += (seen as f64 / 20_000.0 - w / z).abs() / 2.0;
        }
        assert!(distance < 0.03, "total variation {distance}");
        assert!(
            set.info.details["population"]
                .as_str()
                .unwrap()
                .contains("families survive")
        );
    }

    /// Two minima behind a barrier that single flips cannot cross once cold (a ferromagnetic
    /// chain, all 0 or all 1, the latter 0.6 lower): independent anneals freeze in whichever they
    /// fell into, while resampling moves the population to the Boltzmann ratio e^(−β·0.6)
    /// between them.
    #[test]
    fn resampling_weighs_minima_that_flips_cannot_reach() {
        let n = 6;
        let (j, h) = (3.0, -0.1);
        let mut linear = vec![h; n];
        let mut couplings = Vec::new();
        for i in 0..n - 1 {
            linear[i] += j;
            linear[i + 1] += j;
            couplings.push((i, i + 1, -2.0 * j));
        }
        let m = StoredModel::new(Qubo::new(linear, couplings, 0.0).unwrap());
        let beta = 5.0;
        let set = PopulationAnnealing {
            num_reads: 20_000,
            num_sweeps: 80,
            num_temperatures: 40,
            beta_range: Some([0.05, beta]),
            seed: Some(9),
        }
        .sample(&m, &RunControl::new())
        .unwrap();
        let share = |bit: u8| {
            set.rows
                .iter()
                .filter(|r| r.sample.iter().all(|&b| b == bit))
                .map(|r| r.num_occurrences)
                .sum::<usize>() as f64
                / 20_000.0
        };
        let zeros_over_ones = (-beta * 0.6f64).exp();
        let want_ones = 1.0 / (1.0 + zeros_over_ones);
        assert!(
            (share(1) - want_ones).abs() < 0.02 && (share(0) - (1.0 - want_ones)).abs() < 0.02,
            "all ones {:.3}, all zeros {:.3}; Boltzmann {want_ones:.3}",
            share(1),
            share(0)
        );
    }
}
