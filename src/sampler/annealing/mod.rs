//! Simulated annealing with dwave-samplers' parameters (`num_reads`, `num_sweeps`,
//! `beta_range`, `beta_schedule_type`, `seed`, `initial_states`).
//!
//! Two kernels share one arithmetic: the scalar kernel anneals one read; the lane kernel anneals
//! L reads at once in SIMD lanes (f32 lane arrays, one xoshiro128+ per lane, the same schedule;
//! a neighbour row is updated only when some lane accepted). Each read draws the same random
//! numbers and does the same float operations in both, so a read's result is bit-identical
//! whichever kernel, lane width or thread ran it: seed → SampleSet, whatever the thread count.

use super::lanes::{LANES, sample_lane_groups};
use super::lanes8::{BYTE_LANES, ByteModel};
use super::pilot::RatePer;
use super::replicas::Engine;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::control::ProgressTracker;
use super::kernel::{KernelModel, integral_in_i8, lowest, run_bytes};
use super::moves::lanes::MOVE_LANES;
use super::moves::run::{Anneal, prepare};
use super::moves::{MovePlan, MoveSet};
use super::multispin::{MAX_DEGREE, SpinGlassBits, WORD_LANES};
use super::precision::KernelScale;
use super::schedule::{BetaScheduleType, ScheduleSpec};
use super::{
    RunControl, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry, build_from_json,
};
use crate::budget::{bytes_of, check_memory};
use crate::params::{ParamDefault, ParamSpec, ParamType};
use crate::qubo::{Csr, Model};
use crate::rng::Xoshiro128p;
use crate::sampler::rows::rows_bytes;

/// Which sweep kernel runs the reads. Results are identical but for `Lanes8`'s, `Multispin`'s
/// and `Dense`'s (the same Metropolis chains with other random numbers); speed differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kernel {
    /// Lanes for two reads or more (an 8-lane group already beats two scalar reads).
    #[default]
    Auto,
    /// One read at a time.
    Scalar,
    /// Up to 32 reads at once in SIMD lanes of f32.
    Lanes,
    /// Up to 32 reads at once in SIMD lanes of 16-bit integers (twice the lanes per vector):
    /// for models whose coefficients are integers (after a power of two up to 64) with every
    /// local field within ±32 767. `auto` takes it wherever it applies.
    Lanes16,
    /// Blocks of 64 reads in 8-bit lanes (`sampler::lanes8`), for models whose coefficients
    /// are integers (after a power of two up to 64) with every local field within ±127; its
    /// own random numbers, so reads differ from the other kernels' for a seed. `auto` takes it
    /// where it applies for more than 16 reads.
    Lanes8,
    /// 64 reads in the bits of one word per variable (`sampler::multispin`), for ±J models
    /// without fields; its own random numbers, so reads differ from the other kernels' for a
    /// seed. `auto` takes it wherever it applies.
    Multispin,
    /// For dense models: groups of reads in lanes while the sweeps accept much, then each read
    /// alone over every coefficient row stored whole (`sampler::rows`); its own random
    /// numbers. `auto` takes it where `rows_pay`.
    Dense,
}

/// Reads past which `auto` runs byte lanes where the model fits them: up to 16 reads the
/// 16-bit lanes' narrower groups (8 or 16 wide) cost less than 32 byte lanes.
const BYTES_FROM: usize = 16;

/// Largest dense rows `auto` builds for any number of reads (in bytes): rows that stay in a
/// last-level cache, so that a read alone can stream them.
const AUTO_ROWS_BYTES: u64 = 16 << 20;

/// Largest dense rows `auto` builds when there are reads for a whole group (in bytes): a group
/// goes over the rows a block at a time, every read through the block before the next, so a
/// block's rows stream in from memory once per group. (Measured on the 8×8 edge COO, 33 MB of
/// rows, 200 sweeps, one thread: 100 reads 12.6–12.8 ns per update against the 16-bit lanes'
/// 18.0–18.3; 8 reads 14.0 against 12.7.)
const AUTO_GROUP_ROWS_BYTES: u64 = 64 << 20;

/// Whether the dense-rows kernel beats the lanes on a model with `entries` CSR entries (both
/// triangles) over n variables, for `num_reads` reads: at least 128 neighbours per variable on
/// average and a tenth of all pairs coupled, with rows (counted in i8, the narrowest) that fit
/// `AUTO_ROWS_BYTES`, or `AUTO_GROUP_ROWS_BYTES` for a whole group of reads whose rows are i8
/// (`narrow`: measured there; wider rows would be 2–4 times the bytes). (Measured: the edge
/// 6×6 COO, 277 neighbours and 21 % of pairs, 1.6 MB of rows, runs 1.1–1.4× faster; the
/// sparse harness models have at most 30 neighbours.)
fn rows_pay(n: usize, entries: usize, num_reads: usize, narrow: bool) -> bool {
    let pairs = (n as f64) * (n as f64 - 1.0);
    let cap = if num_reads >= DENSE_GROUP && narrow {
        AUTO_GROUP_ROWS_BYTES
    } else {
        AUTO_ROWS_BYTES
    };
    n > 0 && entries >= 128 * n && entries as f64 >= 0.1 * pairs && rows_bytes(n, 1) <= cap
}

/// How SA chooses its β range when none is given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BetaRangeRule {
    /// A pilot run of tempering (`sampler::pilot::pilot_range`): from a little above where the model
    /// freezes to where it is frozen.
    #[default]
    Pilot,
    /// dwave-samplers' formula from the coefficients (`schedule::default_beta_range`).
    Dwave,
}

/// The registry entry: `sa` and its parameters (dwave-samplers' names, meanings and defaults).
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "sa",
    summary: "simulated annealing (dwave-samplers' parameters), SIMD lanes across reads (bytes on small integer models, the bits of a word on ±J glasses)",
    params: PARAMS,
    build: build_from_json::<SimulatedAnnealing>,
    runs_on: super::RunsOn::ThisMachine,
    plots: &[],
    effort: Some("num_sweeps"),
};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::num_reads(
        1_000_000,
        100,
        "independent anneals, each from a random state",
    ),
    ParamSpec {
        name: "num_sweeps",
        ty: ParamType::Int {
            min: 0,
            max: 10_000_000,
        },
        default: ParamDefault::Int(1000),
        help: "sweeps (one Metropolis pass over every variable) per read",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "num_sweeps_per_beta",
        ty: ParamType::Int {
            min: 1,
            max: 10_000_000,
        },
        default: ParamDefault::Int(1),
        help: "sweeps at each β value of the schedule",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta_range",
        ty: ParamType::FloatPair {
            min: 0.0,
            max: 1e12,
        },
        default: ParamDefault::Auto("by beta_range_rule"),
        help: "hot and cold inverse temperature β",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta_range_rule",
        ty: ParamType::Choice(&["pilot", "dwave"]),
        default: ParamDefault::Word("pilot"),
        help: "how an unset beta_range is chosen: pilot (a short tempering run finds where the \
               model freezes and starts a little above it) or dwave (dwave-samplers' formula)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta_schedule_type",
        ty: ParamType::Choice(&["geometric", "linear", "custom"]),
        default: ParamDefault::Word("geometric"),
        help: "how β moves from hot to cold (custom: the beta_schedule list)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta_schedule",
        ty: ParamType::FloatList {
            min: 0.0,
            max: 1e12,
        },
        default: ParamDefault::Auto("none; only with beta_schedule_type = custom"),
        help: "explicit β values, each held num_sweeps_per_beta sweeps",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Auto("random, recorded in the result"),
        "seed: the same seed gives the same samples at any thread count",
    ),
    ParamSpec {
        name: "kernel",
        ty: ParamType::Choice(&[
            "auto",
            "scalar",
            "lanes",
            "lanes16",
            "lanes8",
            "multispin",
            "dense",
        ]),
        default: ParamDefault::Word("auto"),
        help: "sweep kernel for single flips: identical results, only speed differs; lanes16 \
               (16-bit integer lanes, auto's choice where it applies) needs integer coefficients \
               (after a power of two up to 64) and local fields within ±32 767; lanes8 (64 \
               reads in 8-bit lanes, auto's choice for more than 16 reads where it applies, its \
               own random numbers) needs the same with local fields within ±127; multispin (64 \
               reads in the bits of a word, auto's choice where it applies, its own random \
               numbers) needs a ±J model without fields and degrees up to 63; dense (groups \
               of 32 reads in lanes while over 15 % of flips are accepted, then each read alone \
               over every coefficient row stored whole, n² numbers, a block of rows at a time \
               for the whole group; its own random numbers) is auto's choice for models with \
               ≥ 128 neighbours per variable, a tenth of all pairs coupled and rows within 16 \
               MiB, or 64 MiB from 32 reads; under one-hot \
               and two-way moves on a stored model, every kernel but scalar runs 16 reads side \
               by side (they share which variable each proposal is at), in 16-bit lanes where \
               every move's change of energy is an integer within ±32 766 after a power of two \
               (auto, lanes16; lanes keeps f32), and scalar one read at a time",
        alias: None,
        exposed: true,
    },
    super::moves::MOVES_PARAM,
    super::moves::HOLD_PARAM,
];

/// Simulated annealing's parameters (see `PARAMS` for their meaning and ranges).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimulatedAnnealing {
    /// Independent anneals.
    pub num_reads: usize,
    /// Sweeps per read.
    pub num_sweeps: usize,
    /// Sweeps at each β.
    pub num_sweeps_per_beta: usize,
    /// (hot β, cold β); `None` chooses it by `beta_range_rule`.
    pub beta_range: Option<[f64; 2]>,
    /// How an unset range is chosen.
    pub beta_range_rule: BetaRangeRule,
    /// Linear, geometric or custom.
    pub beta_schedule_type: BetaScheduleType,
    /// Explicit β per schedule step (with `beta_schedule_type = custom`).
    pub beta_schedule: Option<Vec<f64>>,
    /// `None` draws a seed (recorded in the result's info).
    pub seed: Option<u64>,
    /// Starting states for the first reads (0/1 per variable); the rest start at random.
    /// (Library only: not a CLI or GUI parameter.)
    pub initial_states: Option<Vec<Vec<u8>>>,
    /// Which kernel runs the reads.
    pub kernel: Kernel,
    /// Single flips, or moves that hold the model's exactly-one groups.
    pub moves: MoveSet,
    /// The families the moves hold, by name (`moves::HOLD_PARAM`); `None`: as `moves` chooses.
    pub hold: Option<String>,
}

impl Default for SimulatedAnnealing {
    fn default() -> Self {
        SimulatedAnnealing {
            num_reads: 100,
            num_sweeps: 1000,
            num_sweeps_per_beta: 1,
            beta_range: None,
            beta_range_rule: BetaRangeRule::Pilot,
            beta_schedule_type: BetaScheduleType::Geometric,
            beta_schedule: None,
            seed: None,
            initial_states: None,
            kernel: Kernel::Auto,
            moves: MoveSet::Auto,
            hold: None,
        }
    }
}

impl SimulatedAnnealing {
    /// The schedule part of the parameters.
    fn schedule_spec(&self) -> ScheduleSpec<'_> {
        ScheduleSpec {
            num_sweeps: self.num_sweeps,
            num_sweeps_per_beta: self.num_sweeps_per_beta,
            beta_range: self.beta_range,
            kind: self.beta_schedule_type,
            custom: self.beta_schedule.as_deref(),
        }
    }

    /// Bytes a run will hold at its peak: the kernel's copy of the model (and a CSR when the
    /// model has none), each thread's working state or the β-range pilot's replicas (whichever
    /// is larger: the pilot ends before the reads start), the reads and the schedule.
    fn memory_estimate(
        &self,
        model: &dyn Model,
        use_lanes: bool,
        dense: bool,
        threads: usize,
    ) -> u64 {
        let n = model.num_variables();
        // The rows, in at most 4 bytes a coefficient, beside the i16 copy of the CSR.
        let rows = if dense { rows_bytes(n, 4) } else { 0 };
        let per_thread = if use_lanes {
            // Fields and signs (f32 each), starting states, and the i16 copy of the model's
            // coefficients when the lanes run in 16-bit integers.
            let entries = model.csr().map_or(n, |c| c.num_entries());
            bytes_of(&[LANES, n, 9]).saturating_add(bytes_of(&[entries, 2]))
        } else {
            bytes_of(&[n, 9])
        };
        // The pilot's ladder: fields, signs and states of its replicas, on one thread (a
        // 5·10⁷-variable model's 16 replicas took 7 GB that the estimate did not count).
        let pilot = self
            .pilot_sweeps(&self.schedule_spec(), PILOT_REPLICAS, 1.0)
            .map_or(0, |_| bytes_of(&[PILOT_REPLICAS, n, 9]));
        let working = bytes_of(&[threads]).saturating_mul(per_thread).max(pilot);
        // The schedule is computed per sweep; only a custom list is stored.
        let schedule = bytes_of(&[self.beta_schedule.as_ref().map_or(0, Vec::len), 8]);
        run_bytes(model, 1, working, self.num_reads)
            .saturating_add(schedule)
            .saturating_add(rows)
    }

    fn validate(&self, n: usize) -> Result<(), SampleError> {
        self.schedule_spec().validate()?;
        for (k, s) in self.initial_states.iter().flatten().enumerate() {
            if s.len() != n {
                return Err(SampleError::param(
                    "initial_states",
                    format!("state {k} has {} values for {n} variables", s.len()),
                ));
            }
            if s.iter().any(|&b| b > 1) {
                return Err(SampleError::param(
                    "initial_states",
                    format!("state {k} has a value other than 0 or 1"),
                ));
            }
        }
        Ok(())
    }
}

/// How a run went, for its `SampleInfo`.
struct RunRecord {
    range: [f64; 2],
    /// Why the range is not the pilot's when the pilot rule was chosen.
    range_from: Option<String>,
    seed: u64,
    kernel: &'static str,
    num_sweeps: usize,
    t0: Instant,
    t_sample: Instant,
    warnings: Vec<String>,
}

impl SimulatedAnnealing {
    /// The empty result of a run cancelled before its first read.
    fn cancelled_before_sampling(&self, model: &dyn Model, seed: u64) -> SampleSet {
        let info =
            SampleInfo::cancelled_before_sampling(self.name(), self.params(), self.num_reads, seed);
        SampleSet::from_states(model, Vec::new(), info)
    }

    /// The result of a run: the states with their exact energies, and `info` recording the
    /// parameters as run (β range, seed, kernel) and the timing.
    fn finish(
        &self,
        model: &dyn Model,
        states: Vec<Vec<u8>>,
        control: &RunControl,
        run: RunRecord,
    ) -> SampleSet {
        let sampling_ns = run.t_sample.elapsed().as_nanos() as u64;
        let t_post = Instant::now();
        let mut params = self.params();
        if let Some(obj) = params.as_object_mut() {
            obj.insert("beta_range".into(), serde_json::json!(run.range));
            obj.insert("seed".into(), serde_json::json!(run.seed));
            obj.insert("kernel".into(), serde_json::json!(run.kernel));
            if let Some(why) = run.range_from {
                obj.insert("beta_range_from".into(), serde_json::json!(why));
            }
        }
        let info = SampleInfo {
            sampler: self.name().into(),
            params,
            num_reads_requested: self.num_reads,
            cancelled: states.len() < self.num_reads && control.is_cancelled(),
            seed: Some(run.seed),
            preprocessing_ns: (run.t_sample - run.t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: run.num_sweeps,
            warnings: run.warnings,
            details: Default::default(),
            end: Default::default(),
            one_trial: false,
        };
        let mut set = SampleSet::from_states(model, states, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        set
    }
}

impl Sampler for SimulatedAnnealing {
    fn name(&self) -> &'static str {
        "sa"
    }

    fn params(&self) -> serde_json::Value {
        let mut p = serde_json::to_value(self).unwrap_or_default();
        if let Some(obj) = p.as_object_mut() {
            // Starting states can be large; record how many there were.
            if let Some(states) = &self.initial_states {
                obj.insert(
                    "initial_states".into(),
                    serde_json::json!(format!("{} states", states.len())),
                );
            }
        }
        p
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let n = model.num_variables();
        self.validate(n)?;
        let plan = MovePlan::for_model(model, self.moves, self.hold.as_deref())?;
        if let Some(plan) = plan {
            return self.sample_moves(model, &plan, control, t0);
        }
        if self.kernel == Kernel::Auto
            && let Some(structure) = model.grouped()
        {
            return self.sample_grouped(model, structure, control, t0);
        }
        let dense = match self.kernel {
            Kernel::Dense => true,
            Kernel::Auto => model
                .csr()
                .is_some_and(|c| rows_pay(n, c.num_entries(), self.num_reads, integral_in_i8(c))),
            _ => false,
        };
        let use_lanes = match self.kernel {
            _ if dense => false,
            Kernel::Auto => self.num_reads >= 2,
            Kernel::Scalar | Kernel::Dense => false,
            Kernel::Lanes | Kernel::Lanes16 | Kernel::Lanes8 | Kernel::Multispin => true,
        };
        let work_units = if self.kernel == Kernel::Multispin {
            self.num_reads.div_ceil(WORD_LANES)
        } else if self.kernel == Kernel::Lanes8 {
            self.num_reads.div_ceil(BYTE_LANES)
        } else if dense {
            self.num_reads.div_ceil(DENSE_GROUP)
        } else if use_lanes {
            self.num_reads.div_ceil(LANES)
        } else {
            self.num_reads
        };
        let threads = control.threads_for(work_units);
        check_memory(
            || {
                format!(
                    "simulated annealing of {} reads on {n} variables with {threads} thread(s)",
                    self.num_reads
                )
            },
            self.memory_estimate(model, use_lanes || dense, dense, threads),
        )?;
        let csr = Csr::of_model(model);
        let scale = KernelScale::for_f32(&csr);
        let km = KernelModel::new(&csr, scale.factor);
        let spin_glass =
            match self.kernel {
                Kernel::Auto if use_lanes => SpinGlassBits::of(&csr).ok(),
                Kernel::Multispin => Some(SpinGlassBits::of(&csr).map_err(|e| {
                    SampleError::InvalidParameter {
                        name: "kernel",
                        message: format!(
                            "multispin needs a ±J model without fields (every coupling ±B for one \
                         B, no linear term in spin form, at most {MAX_DEGREE} neighbours), and \
                         this one is not: {}; use auto",
                            e.0
                        ),
                    }
                })?),
                _ => None,
            };
        let bytes = match self.kernel {
            Kernel::Lanes8 => Some(ByteModel::of(&csr).map_err(|why| {
                SampleError::InvalidParameter {
                    name: "kernel",
                    message: format!(
                        "lanes8 needs integer coefficients (after a power of two up to 64) with \
                         every local field within ±127, and this model's are not: {why}; use \
                         auto"
                    ),
                }
            })?),
            Kernel::Auto if use_lanes && spin_glass.is_none() && self.num_reads > BYTES_FROM => {
                ByteModel::of(&csr).ok()
            }
            _ => None,
        };
        let integral = match self.kernel {
            _ if spin_glass.is_some() || bytes.is_some() => None,
            Kernel::Auto if use_lanes || dense => KernelModel::integral(&csr),
            Kernel::Dense => KernelModel::integral(&csr),
            Kernel::Lanes16 => Some(KernelModel::integral(&csr).ok_or_else(|| {
                SampleError::InvalidParameter {
                    name: "kernel",
                    message: "lanes16 needs integer coefficients (after a power of two up to 64) \
                              with every local field within ±32 767, and this model's are not: \
                              use lanes"
                        .into(),
                }
            })?),
            _ => None,
        };
        let seed = self.seed.unwrap_or_else(rand::random);
        let Some((schedule, range, range_from)) = self.piloted_schedule(
            model,
            Engine::Csr(&km),
            PILOT_REPLICAS,
            RatePer::Variable,
            if dense {
                dense_pilot_cost(n, csr.num_entries())
            } else {
                1.0
            },
            seed,
            control,
        ) else {
            return Ok(self.cancelled_before_sampling(model, seed));
        };
        let num_sweeps = schedule.num_sweeps();
        let initial_states = self.initial_states.as_deref().unwrap_or(&[]);
        let num_reads = self.num_reads;
        let tracker = ProgressTracker::new(
            control,
            (num_reads as u64).saturating_mul(num_sweeps as u64),
        );
        let rows = dense.then(|| Rows::of(&km, integral.as_ref()));
        let job = Job {
            model: &km,
            integral: integral.as_ref(),
            schedule: &schedule,
            num_sweeps,
            seed,
            initial_states,
            tracker: &tracker,
        };
        let t_sample = Instant::now();
        let finished: Vec<(usize, Vec<u8>)> = control.install(work_units, || {
            if let Some(bits) = &spin_glass {
                sample_word_blocks(&job, bits, num_reads)
            } else if let Some(bytes) = &bytes {
                sample_byte_blocks(&job, bytes, num_reads)
            } else if let Some(rows) = &rows {
                (0..num_reads.div_ceil(DENSE_GROUP))
                    .into_par_iter()
                    .filter_map(|g| {
                        if tracker.is_cancelled() {
                            return None;
                        }
                        let reads: Vec<usize> =
                            (g * DENSE_GROUP..((g + 1) * DENSE_GROUP).min(num_reads)).collect();
                        let states = job.run_dense_group(rows, &reads)?;
                        Some(reads.into_iter().zip(states).collect::<Vec<_>>())
                    })
                    .flatten()
                    .collect()
            } else if use_lanes {
                sample_lane_groups(
                    num_reads,
                    || tracker.is_cancelled(),
                    |reads| run_lane_group(&job, reads),
                )
            } else {
                (0..num_reads)
                    .into_par_iter()
                    .filter_map(|k| {
                        if tracker.is_cancelled() {
                            return None;
                        }
                        job.run_scalar(k).map(|x| (k, x))
                    })
                    .collect()
            }
        });
        let states: Vec<Vec<u8>> = finished.into_iter().map(|(_, x)| x).collect();
        Ok(self.finish(
            model,
            states,
            control,
            RunRecord {
                range,
                range_from,
                seed,
                kernel: match (use_lanes, &integral) {
                    _ if spin_glass.is_some() => "multispin",
                    _ if bytes.is_some() => "lanes8",
                    _ if dense => rows.as_ref().map_or("dense", Rows::kernel_name),
                    (true, Some(_)) => "lanes16",
                    (true, None) => "lanes",
                    (false, _) => "scalar",
                },
                num_sweeps,
                t0,
                t_sample,
                warnings: scale.warning.into_iter().collect(),
            },
        ))
    }
}

/// A lane group's starting states and generators: read `group.start + l` in lane l (its
/// given initial state, else random), padding lanes past `group.end` running spare reads whose
/// results are dropped.
fn lane_starts(
    group: &std::ops::Range<usize>,
    lanes: usize,
    n: usize,
    seed: u64,
    initial_states: &[Vec<u8>],
) -> (Vec<Vec<u8>>, Vec<Xoshiro128p>) {
    let spare = usize::MAX / 2;
    (0..lanes)
        .map(|l| {
            let read = if group.start + l < group.end {
                group.start + l
            } else {
                spare + l
            };
            let mut rng = Xoshiro128p::for_read(seed, read as u64);
            let start = match initial_states.get(read) {
                Some(s) => s.clone(),
                None => (0..n).map(|_| (rng.next_u32() >> 31) as u8).collect(),
            };
            (start, rng)
        })
        .unzip()
}

mod paths;
mod range;
mod reads;
use range::{PILOT_REPLICAS, dense_pilot_cost};
pub(in crate::sampler) use range::{SA_COLD_FACTOR, SA_HOT_FLIP_RATE};
use reads::{DENSE_GROUP, Job, Rows, run_lane_group, sample_byte_blocks, sample_word_blocks};

#[cfg(test)]
mod tests;
