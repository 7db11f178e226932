//! Simulated quantum annealing (`sqa`): discrete-time path-integral Monte Carlo of the
//! transverse-field Ising model H(s) = s·H_p + Γ(1 − s)·Σ_i σ^x_i, with OpenJij's parameters
//! (`beta`, `gamma`, `trotter`, `num_sweeps`, `schedule`) and dwave PIMC's `Gamma` as an alias.
//!
//! The Suzuki–Trotter decomposition turns each read into `trotter` = M classical copies
//! (slices) of the model on a ring, with Boltzmann weight
//!   exp(−(β·s/M)·Σ_k E_p(x^k) + K·Σ_{i,k} σ_i^k σ_i^{k+1}),  K = −½·ln tanh(β·Γ(1 − s)/M),
//! i.e. the J⊥ = −(1/2β)·ln tanh(βΓ/M) measured in units of 1/β. s runs from 0
//! (transverse field only: slices nearly independent) to 1 (problem only: slices locked
//! together); each sweep is one Metropolis pass over every variable of every slice. A read
//! returns its lowest-energy slice.
//!
//! Layout: reads in SIMD lanes (as in SA), slices as separate arrays, so the coupling to the
//! neighbouring slices is a vertical lane operation with no shuffles. (Slices in lanes would
//! suit one read alone; with many reads, reads in lanes keep every lane busy at any M.)
//!
//! Invariants: s is clamped to [0, 1] and K to a finite ceiling, so no number of sweeps can
//! produce NaN (OpenJij's accumulated schedule overshoots 1 at 10 000 sweeps); a read's
//! result does not depend on the lane group or thread that ran it.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::control::ProgressTracker;
use super::kernel::{BLOCK, KernelModel, LaneArrays, lowest, run_bytes, with_avx2};
use super::lanes::{LANES, sample_lane_groups};
use super::precision::KernelScale;
use super::{
    RunControl, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry, build_from_json,
};
use crate::budget::{bytes_of, check_memory};
use crate::params::{ParamDefault, ParamSpec, ParamType};
use crate::qubo::{Csr, Model};
use crate::rng::{LaneRng, Xoshiro128p, neg_ln_uniform};

/// The registry entry: `sqa` and its parameters (OpenJij's names and defaults).
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "sqa",
    summary: "simulated quantum annealing: path-integral Monte Carlo (OpenJij's parameters)",
    params: PARAMS,
    build: build_from_json::<QuantumAnnealing>,
    runs_on: super::RunsOn::ThisMachine,
    plots: &[super::SamplerPlot::QuantumSchedule],
    effort: Some("num_sweeps"),
};

/// Most Trotter slices.
pub const MAX_TROTTER: usize = 1024;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::num_reads(
        1_000_000,
        100,
        "independent anneals, each from random slices",
    ),
    ParamSpec {
        name: "num_sweeps",
        ty: ParamType::Int {
            min: 1,
            max: 10_000_000,
        },
        default: ParamDefault::Int(1000),
        help: "sweeps (one Metropolis pass over every variable of every slice) per read",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta",
        ty: ParamType::Float {
            min: 0.0,
            max: 1e12,
        },
        default: ParamDefault::Float(5.0),
        help: "inverse temperature β (fixed through the anneal, as in OpenJij)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "gamma",
        ty: ParamType::Float {
            min: 0.0,
            max: 1e12,
        },
        default: ParamDefault::Float(1.0),
        help: "transverse field Γ at s = 0",
        alias: Some("Gamma"),
        exposed: true,
    },
    ParamSpec {
        name: "trotter",
        ty: ParamType::Int {
            min: 1,
            max: MAX_TROTTER as u64,
        },
        default: ParamDefault::Int(4),
        help: "Trotter slices M per read",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "schedule",
        ty: ParamType::Choice(&["linear", "quartic", "custom"]),
        default: ParamDefault::Word("linear"),
        help: "how s goes from 0 to 1: linear, quartic (Morita–Nishimori), or the s_schedule list",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "s_schedule",
        ty: ParamType::FloatList { min: 0.0, max: 1.0 },
        default: ParamDefault::Auto("none; only with schedule = custom"),
        help: "explicit s values in [0, 1], spread evenly over num_sweeps",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Auto("random, recorded in the result"),
        "seed: the same seed gives the same samples at any thread count",
    ),
];

/// How s moves from 0 to 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SqaSchedule {
    /// s = t.
    #[default]
    Linear,
    /// s = t⁴(35 − 84t + 70t² − 20t³): flat at both ends (Morita & Nishimori 2008).
    Quartic,
    /// The `s_schedule` list.
    Custom,
}

/// Simulated quantum annealing's parameters (see `PARAMS`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct QuantumAnnealing {
    /// Independent anneals.
    pub num_reads: usize,
    /// Sweeps per read.
    pub num_sweeps: usize,
    /// Inverse temperature.
    pub beta: f64,
    /// Transverse field at s = 0 (dwave PIMC: `Gamma`).
    #[serde(alias = "Gamma")]
    pub gamma: f64,
    /// Slices per read.
    pub trotter: usize,
    /// Linear, quartic or custom.
    pub schedule: SqaSchedule,
    /// Explicit s values (with `schedule = custom`).
    pub s_schedule: Option<Vec<f64>>,
    /// `None` draws a seed (recorded in the result's info).
    pub seed: Option<u64>,
}

impl Default for QuantumAnnealing {
    fn default() -> Self {
        QuantumAnnealing {
            num_reads: 100,
            num_sweeps: 1000,
            beta: 5.0,
            gamma: 1.0,
            trotter: 4,
            schedule: SqaSchedule::Linear,
            s_schedule: None,
            seed: None,
        }
    }
}

/// Largest slice coupling K: reached when Γ(1 − s) → 0 (tanh of a tiny argument); e^(−2K) is
/// then far below any Metropolis draw, so the slices are locked, and K stays finite.
const MAX_COUPLING: f64 = 20.0;

/// The slice coupling K = −½·ln tanh(β·Γ_eff/M), finite and ≥ 0.
pub fn slice_coupling(beta: f64, gamma_eff: f64, trotter: usize) -> f64 {
    let x = beta * gamma_eff / trotter as f64;
    if x.is_nan() || x <= 0.0 {
        return MAX_COUPLING;
    }
    (-0.5 * x.tanh().ln()).clamp(0.0, MAX_COUPLING)
}

/// The schedule as the run sees it: s, the transverse field Γ(1 − s) and K at every sweep
/// (computed on the fly; the GUI plots the same numbers).
#[derive(Clone, Debug, PartialEq)]
pub struct SqaPlan {
    /// Sweeps per read.
    pub num_sweeps: usize,
    /// β.
    pub beta: f64,
    /// Γ at s = 0.
    pub gamma: f64,
    /// Slices.
    pub trotter: usize,
    /// The shape.
    pub shape: SqaSchedule,
    /// The custom list.
    pub custom: Vec<f64>,
}

impl SqaPlan {
    /// s at `sweep`, in [0, 1].
    pub fn s(&self, sweep: usize) -> f64 {
        let t = if self.num_sweeps <= 1 {
            1.0
        } else {
            sweep as f64 / (self.num_sweeps - 1) as f64
        };
        let s = match self.shape {
            SqaSchedule::Linear => t,
            SqaSchedule::Quartic => t.powi(4) * (35.0 - 84.0 * t + 70.0 * t * t - 20.0 * t * t * t),
            SqaSchedule::Custom => {
                let n = self.custom.len().max(1);
                let k = (sweep * n / self.num_sweeps.max(1)).min(n - 1);
                self.custom.get(k).copied().unwrap_or(1.0)
            }
        };
        s.clamp(0.0, 1.0)
    }

    /// (s, Γ(1 − s), K) at `sweep`.
    pub fn at(&self, sweep: usize) -> (f64, f64, f64) {
        let s = self.s(sweep);
        let field = self.gamma * (1.0 - s);
        (s, field, slice_coupling(self.beta, field, self.trotter))
    }
}

/// Everything the reads share.
struct Job<'a> {
    model: &'a KernelModel,
    plan: &'a SqaPlan,
    seed: u64,
    tracker: &'a ProgressTracker<'a>,
}

impl Job<'_> {
    /// Up to L reads, one per lane, each with M slices; `None` when cancelled.
    #[inline(always)]
    fn run_lanes<const L: usize>(&self, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
        let m = self.model;
        let (n, slices) = (m.n, self.plan.trotter);
        let spare = usize::MAX / 2;
        let mut states = [[0u32; 4]; L];
        let mut sign = vec![[1f32; L]; n * slices];
        for (l, st) in states.iter_mut().enumerate() {
            let read = reads.get(l).copied().unwrap_or(spare + l);
            let mut rng = Xoshiro128p::for_read(self.seed, read as u64);
            for row in sign.iter_mut() {
                row[l] = if rng.next_u32() >> 31 != 0 { -1.0 } else { 1.0 };
            }
            *st = rng.state();
        }
        let mut rng = LaneRng::<L>::from_states(&states);
        let mut field = LaneArrays::filled(n * slices, [0f32; L]);
        let mut energy = vec![[0f32; L]; slices];
        let mut x = vec![0u8; n];
        for k in 0..slices {
            for l in 0..L {
                for i in 0..n {
                    x[i] = (sign[k * n + i][l] < 0.0) as u8;
                }
                let (f, e) = m.fields(&x);
                for i in 0..n {
                    field[k * n + i][l] = f[i];
                }
                energy[k][l] = e as f32;
            }
        }
        let mut reported = 0;
        let num_sweeps = self.plan.num_sweeps;
        for sweep in 0..num_sweeps {
            let (s, _, coupling) = self.plan.at(sweep);
            // ΔS = (β·s/M)·ΔE_p + 2K·σ^k(σ^(k−1) + σ^(k+1)), in the kernel's units.
            let a = (self.plan.beta * s / slices as f64 / m.scale) as f32;
            let b = if slices > 1 {
                (2.0 * coupling) as f32
            } else {
                0.0
            };
            sweep_slices(
                m,
                slices,
                a,
                b,
                &mut field,
                &mut sign,
                &mut energy,
                &mut rng,
            );
            if self.tracker.is_cancelled() {
                return None;
            }
            let due = (sweep + 1).is_multiple_of(self.tracker.every()) || sweep + 1 == num_sweeps;
            if self.tracker.wants_reports() && due {
                // The lowest (slice, lane) over the live reads.
                let (k, (lane, best)) = energy
                    .iter()
                    .map(|e| lowest(&e[..reads.len()]))
                    .enumerate()
                    .fold(
                        (0, (0, f32::INFINITY)),
                        |b, c| if c.1.1 < b.1.1 { c } else { b },
                    );
                self.tracker.add(
                    ((sweep + 1 - reported) * reads.len()) as u64,
                    m.unscaled(best),
                );
                self.tracker.offer(m.unscaled(best), || {
                    (0..n)
                        .map(|i| (sign[k * n + i][lane] < 0.0) as u8)
                        .collect()
                });
                reported = sweep + 1;
            }
        }
        // Each read's lowest-energy slice, chosen on exact energies.
        Some(
            (0..reads.len())
                .map(|l| {
                    (0..slices)
                        .map(|k| {
                            let x: Vec<u8> =
                                (0..n).map(|i| (sign[k * n + i][l] < 0.0) as u8).collect();
                            let (_, e) = m.fields(&x);
                            (e, x)
                        })
                        .min_by(|a, b| a.0.total_cmp(&b.0))
                        .map(|(_, x)| x)
                        .unwrap_or_default()
                })
                .collect(),
        )
    }
}

/// One sweep over every slice: flip variable i of slice k in lane l iff
/// a·ΔE_p + b·σ(σ_prev + σ_next) ≤ −ln u (σ products are sign products: σ = −sign).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn sweep_slices<const L: usize>(
    m: &KernelModel,
    slices: usize,
    a: f32,
    b: f32,
    field: &mut [[f32; L]],
    sign: &mut [[f32; L]],
    energy: &mut [[f32; L]],
    rng: &mut LaneRng<L>,
) {
    let n = m.n;
    let mut threshold = [[0f32; L]; BLOCK];
    for (k, e) in energy.iter_mut().enumerate().take(slices) {
        let prev = (k + slices - 1) % slices * n;
        let next = (k + 1) % slices * n;
        let base = k * n;
        for block in (0..n).step_by(BLOCK) {
            let end = (block + BLOCK).min(n);
            rng.fill(&mut threshold[..end - block], |r, _| neg_ln_uniform(r));
            for i in block..end {
                let f = field[base + i];
                let s = sign[base + i];
                let (sp, sn) = (sign[prev + i], sign[next + i]);
                let thr = &threshold[i - block];
                let mut d = [0f32; L];
                let mut any = 0u32;
                for l in 0..L {
                    let de = f[l] * s[l];
                    let action = a * de + b * s[l] * (sp[l] + sn[l]);
                    let accept = action <= thr[l];
                    d[l] = if accept { s[l] } else { 0.0 };
                    e[l] += if accept { de } else { 0.0 };
                    any |= accept as u32;
                }
                let si = &mut sign[base + i];
                for l in 0..L {
                    si[l] = s[l] - 2.0 * d[l];
                }
                if any != 0 {
                    let (lo, hi) = (m.start[i], m.start[i + 1]);
                    for (&j, &w) in m.cols[lo..hi].iter().zip(&m.vals[lo..hi]) {
                        let fj = &mut field[base + j as usize];
                        for l in 0..L {
                            fj[l] += w * d[l];
                        }
                    }
                }
            }
        }
    }
}

/// A lane group of reads, on AVX2 when present (same arithmetic either way).
fn run_lane_group(job: &Job, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
    with_avx2!(by_width(job: &Job, reads: &[usize]) -> Option<Vec<Vec<u8>>> {
        match reads.len() {
            0..=8 => job.run_lanes::<8>(reads),
            9..=16 => job.run_lanes::<16>(reads),
            _ => job.run_lanes::<LANES>(reads),
        }
    })
}

impl QuantumAnnealing {
    /// The schedule these parameters describe.
    pub fn plan(&self) -> SqaPlan {
        SqaPlan {
            num_sweeps: self.num_sweeps,
            beta: self.beta,
            gamma: self.gamma,
            trotter: self.trotter,
            shape: self.schedule,
            custom: self.s_schedule.clone().unwrap_or_default(),
        }
    }

    fn validate(&self) -> Result<(), SampleError> {
        if !(self.beta.is_finite() && self.beta >= 0.0) {
            return Err(SampleError::param("beta", "must be a finite number ≥ 0"));
        }
        if !(self.gamma.is_finite() && self.gamma >= 0.0) {
            return Err(SampleError::param("gamma", "must be a finite number ≥ 0"));
        }
        if !(1..=MAX_TROTTER).contains(&self.trotter) {
            return Err(SampleError::param(
                "trotter",
                format!("must be 1 to {MAX_TROTTER}"),
            ));
        }
        match (self.schedule, &self.s_schedule) {
            (SqaSchedule::Custom, None) => Err(SampleError::param(
                "s_schedule",
                "is required with schedule = custom",
            )),
            (SqaSchedule::Custom, Some(list)) if list.is_empty() => {
                Err(SampleError::param("s_schedule", "is empty"))
            }
            (SqaSchedule::Custom, Some(list)) => match list
                .iter()
                .find(|v| !(v.is_finite() && (0.0..=1.0).contains(*v)))
            {
                Some(bad) => Err(SampleError::param(
                    "s_schedule",
                    format!("{bad} is not in [0, 1]"),
                )),
                None => Ok(()),
            },
            (_, Some(_)) => Err(SampleError::param(
                "s_schedule",
                "is only used with schedule = custom",
            )),
            _ => Ok(()),
        }
    }

    /// Bytes at the peak: the kernel's model (and a CSR when the model has none), each
    /// thread's slices (fields and signs for 32 lanes × M slices) and the reads.
    fn memory_estimate(&self, model: &dyn Model, threads: usize) -> u64 {
        let n = model.num_variables();
        let per_thread = bytes_of(&[LANES, n, self.trotter, 8]);
        run_bytes(model, threads, per_thread, self.num_reads)
    }
}

impl Sampler for QuantumAnnealing {
    fn name(&self) -> &'static str {
        "sqa"
    }

    fn params(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        self.validate()?;
        let n = model.num_variables();
        let work_units = self.num_reads.div_ceil(LANES);
        let threads = control.threads_for(work_units);
        check_memory(
            || {
                format!(
                    "simulated quantum annealing of {} reads × {} slices on {n} variables with \
                     {threads} thread(s)",
                    self.num_reads, self.trotter
                )
            },
            self.memory_estimate(model, threads),
        )?;
        let csr = Csr::of_model(model);
        let scale = KernelScale::for_f32(&csr);
        let km = KernelModel::new(&csr, scale.factor);
        let plan = self.plan();
        let seed = self.seed.unwrap_or_else(rand::random);
        let num_reads = self.num_reads;
        let tracker = ProgressTracker::new(
            control,
            (num_reads as u64).saturating_mul(plan.num_sweeps as u64),
        );
        let job = Job {
            model: &km,
            plan: &plan,
            seed,
            tracker: &tracker,
        };
        let t_sample = Instant::now();
        let finished: Vec<(usize, Vec<u8>)> = control.install(work_units, || {
            sample_lane_groups(
                num_reads,
                || tracker.is_cancelled(),
                |reads| run_lane_group(&job, reads),
            )
        });
        let sampling_ns = t_sample.elapsed().as_nanos() as u64;
        let t_post = Instant::now();
        let states: Vec<Vec<u8>> = finished.into_iter().map(|(_, x)| x).collect();
        let mut params = self.params();
        if let Some(obj) = params.as_object_mut() {
            obj.insert("seed".into(), serde_json::json!(seed));
        }
        let info = SampleInfo {
            sampler: self.name().into(),
            params,
            num_reads_requested: num_reads,
            cancelled: states.len() < num_reads && control.is_cancelled(),
            seed: Some(seed),
            preprocessing_ns: (t_sample - t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: plan.num_sweeps,
            warnings: scale.warning.into_iter().collect(),
            details: Default::default(),
            end: Default::default(),
            one_trial: false,
        };
        let mut set = SampleSet::from_states(model, states, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}

#[cfg(test)]
mod tests;
