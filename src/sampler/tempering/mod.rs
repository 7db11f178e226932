//! Parallel tempering (`pt`): replica exchange over a ladder of inverse temperatures. Each
//! read is one ladder of up to 32 replicas held side by side in the lane kernel's SIMD lanes
//! (one β per lane); after every sweep, neighbouring temperatures try to swap with the
//! Metropolis rule min(1, exp((β_t − β_{t+1})(E_t − E_{t+1}))). A swap exchanges the lanes'
//! β values, not their states, so it costs O(1). Reads are independent ladders, run in parallel.
//!
//! The ladder decides everything, so by default it is placed by a pilot run (see `pilot`): the
//! cold end freezes the smallest energy gap (dwave-samplers' cold β), the hot end is chosen
//! where the replicas still move freely, and the β values between are moved until every
//! neighbouring pair swaps at about the same rate. A read returns the lowest-energy state any
//! of its replicas visited. With a target energy (`RunControl::target_energy`, which `solve`
//! and the GUI set to a valid solution's energy) each ladder stops as soon as it reaches it, so
//! `num_reads` ladders give a sample set (a histogram, a success share), not one read; ladders
//! not started before the timeout are not returned (like cancelled ones), so the valid fraction
//! counts only ladders that had their chance, and `info` says how many were cut.
//!
//! Invariants: `lane_of_temp` and `temp_of_lane` are inverse permutations of the ladder's
//! replicas, and lane l's β is `beta[temp_of_lane[l]]`; the f32 energies and fields are
//! recomputed from the states every `RESYNC_SWEEPS` sweeps, so rounding never accumulates.
//! Without a timeout a seed gives the same samples at any thread count.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::control::ProgressTracker;
use super::grouped::LaneTables;
use super::kernel::{KernelModel, run_bytes, with_avx2};
use super::moves::ladder::Temper;
use super::moves::{MovePlan, MoveSet};
use super::precision::KernelScale;
use super::schedule::default_beta_range;
use super::{
    RunControl, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry, build_from_json,
};
use crate::budget::{bytes_of, check_memory};
use crate::params::{ParamDefault, ParamSpec, ParamType};
use crate::qubo::{Csr, Model};

use super::pilot::{PilotPlan, adapt_ladder, geometric};
mod moves;

pub(in crate::sampler) use super::ending::Ending;
pub(in crate::sampler) use super::replicas::Engine;
use super::replicas::{Ladder, Replicas, SwapStats};

/// The registry entry: `pt` and its parameters.
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "pt",
    summary: "parallel tempering: replica exchange over an adaptive β ladder, replicas in SIMD lanes",
    params: PARAMS,
    build: build_from_json::<ParallelTempering>,
    runs_on: super::RunsOn::ThisMachine,
    plots: &[super::SamplerPlot::Ladder],
    effort: Some("num_sweeps"),
};

pub use super::replicas::MAX_REPLICAS;

const PARAMS: &[ParamSpec] = &[
    ParamSpec::num_reads(
        100_000,
        16,
        "independent ladders, each returning the lowest-energy state it visited (each \
               runs until it reaches the target energy, its sweeps or the timeout)",
    ),
    ParamSpec {
        name: "num_replicas",
        ty: ParamType::Int {
            min: 2,
            max: MAX_REPLICAS as u64,
        },
        default: ParamDefault::Int(16),
        help: "temperatures per ladder (8, 16 or 32 fill the SIMD lanes exactly)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "num_sweeps",
        ty: ParamType::Int {
            min: 0,
            max: 1_000_000_000,
        },
        default: ParamDefault::Auto(
            "10 000; with a target energy, until it is reached (or the timeout)",
        ),
        help: "sweeps per ladder (every replica sweeps once, then neighbours try to swap)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "beta_range",
        ty: ParamType::FloatPair {
            min: 0.0,
            max: 1e12,
        },
        default: ParamDefault::Auto("chosen by the pilot run (adaptive) or dwave-samplers' range"),
        help: "hottest and coldest inverse temperature β of the ladder",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "ladder",
        ty: ParamType::Choice(&["adaptive", "geometric"]),
        default: ParamDefault::Word("adaptive"),
        help: "adaptive: a pilot run places the β values for even swap rates; \
               geometric: evenly spaced log β over beta_range",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "pilot_sweeps",
        ty: ParamType::Int {
            min: 0,
            max: 10_000_000,
        },
        default: ParamDefault::Int(2000),
        help: "sweeps of the pilot run that places an adaptive ladder",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "timeout_ms",
        ty: ParamType::Int {
            min: 1,
            max: 86_400_000,
        },
        default: ParamDefault::Auto("none; 60 000 with a target energy"),
        help: "milliseconds for the whole run, pilot included (results then depend on the \
               machine's speed)",
        alias: Some("timeout"),
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Auto("random, recorded in the result"),
        "seed: the same seed gives the same samples at any thread count (without a timeout)",
    ),
    super::moves::MOVES_PARAM,
    super::moves::HOLD_PARAM,
];

/// How the ladder's β values are placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LadderType {
    /// Placed by a pilot run for even swap rates.
    #[default]
    Adaptive,
    /// Evenly spaced log β over the range.
    Geometric,
}

/// Parallel tempering's parameters (see `PARAMS`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ParallelTempering {
    /// Independent ladders.
    pub num_reads: usize,
    /// Temperatures per ladder.
    pub num_replicas: usize,
    /// Sweeps per ladder; `None`: 10 000, or until the target energy when one is set.
    pub num_sweeps: Option<usize>,
    /// (hot β, cold β); `None`: chosen from the model.
    pub beta_range: Option<[f64; 2]>,
    /// Adaptive or geometric placement.
    pub ladder: LadderType,
    /// Sweeps of the pilot run (adaptive ladders only).
    pub pilot_sweeps: usize,
    /// Milliseconds for the whole run; `None`: no limit (60 s with a target energy).
    #[serde(alias = "timeout")]
    pub timeout_ms: Option<u64>,
    /// `None` draws a seed (recorded in the result's info).
    pub seed: Option<u64>,
    /// Single flips, or moves that hold the model's exactly-one groups.
    pub moves: MoveSet,
    /// The families the moves hold, by name (`moves::HOLD_PARAM`); `None`: as `moves` chooses.
    pub hold: Option<String>,
}

impl Default for ParallelTempering {
    fn default() -> Self {
        ParallelTempering {
            num_reads: 16,
            num_replicas: 16,
            num_sweeps: None,
            beta_range: None,
            ladder: LadderType::Adaptive,
            pilot_sweeps: 2000,
            timeout_ms: None,
            seed: None,
            moves: MoveSet::Auto,
            hold: None,
        }
    }
}

/// Sweeps without a target energy, by default.
const DEFAULT_SWEEPS: usize = 10_000;
/// Time limit of a run when a target energy is set and no timeout is given.
const DEFAULT_TARGET_TIMEOUT_MS: u64 = 60_000;
/// Proposals per round of the pilot that places a ladder of moves (see `sample_moves`).
const MOVES_PILOT_PROPOSALS: usize = 20_000_000;
/// Rounds of the pilot run (each ends by re-placing the β values).
const PILOT_ROUNDS: usize = 4;
/// The fewest sweeps a pilot round of flips measures on (it measures its second half).
const FLIP_PILOT_LEAST_ROUND: usize = 8;
/// The fewest sweeps a pilot round of moves measures on (swap rates need two).
const MOVES_PILOT_LEAST_ROUND: usize = 2;
/// Sweeps between recomputations of fields and energies from the states.
const RESYNC_SWEEPS: usize = 1024;

/// Share of the time limit the pilot may take: past it the ladder as placed so far is used, so
/// reads always get most of the time (ADC 2018 Q2's full pilot took minutes).
const PILOT_TIME_SHARE: f64 = 0.25;
/// Variable updates the pilot does at most over all its rounds (replicas × variables × sweeps):
/// about 5 s on one core at the lane kernel's 5 ns per update. Sudoku and Numberlink models are
/// far below it; ADC 2018 Q2 (1.35·10⁶ variables, 16 replicas) gets 46 sweeps instead of 2000.
const PILOT_UPDATE_BUDGET: f64 = 1e9;

/// A finished ladder.
struct ReadResult {
    state: Vec<u8>,
    sweeps: usize,
    reached_target: bool,
    timed_out: bool,
    /// Ended because another ladder reached the target (`Ending::at_first_target`).
    cut_at_first_target: bool,
    swaps: SwapStats,
}

/// What every ladder of a run shares.
struct Job<'a> {
    model: &'a dyn Model,
    engine: Engine<'a>,
    beta: &'a [f64],
    num_sweeps: usize,
    target: Option<f64>,
    seed: u64,
    tracker: &'a ProgressTracker<'a>,
    /// The time limit, the first target and the ladders never started.
    ending: &'a Ending,
}

impl Job<'_> {
    /// One ladder; `None` when cancelled. Inlined into `on_ladder!`'s AVX2 body (see `adapt`).
    #[inline(always)]
    fn run<const L: usize, R: Replicas<L>>(&self, mut ladder: Ladder<L, R>) -> Option<ReadResult> {
        let mut swaps = SwapStats::new(self.beta.len().saturating_sub(1));
        let (lane, e) = ladder.lowest();
        let mut best = (e, ladder.state(lane));
        // A cheap f32 pre-check in kernel units; the exact check is in f64 on the model.
        let target_k = self.target.map(|t| {
            let k = t * self.engine.scale();
            k + 1e-3 * k.abs().max(1.0)
        });
        let mut reached_target = self.reached(&best.1);
        let mut timed_out = false;
        let mut cut_at_first_target = false;
        let mut sweeps = 0;
        let mut reported = 0;
        while sweeps < self.num_sweeps && !reached_target {
            ladder.sweep::<true>(&mut swaps.flips);
            swaps.sweeps += 1;
            ladder.exchange(sweeps % 2, &mut swaps);
            sweeps += 1;
            if sweeps.is_multiple_of(RESYNC_SWEEPS) {
                ladder.resync();
            }
            let (lane, e) = ladder.lowest();
            if e < best.0 {
                best = (e, ladder.state(lane));
                if target_k.is_some_and(|t| (e as f64) <= t) {
                    reached_target = self.reached(&best.1);
                }
            }
            if self.tracker.is_cancelled() {
                return None;
            }
            if self.ending.past_deadline() {
                timed_out = true;
                break;
            }
            if self.ending.others_done() {
                cut_at_first_target = true;
                break;
            }
            if self.tracker.wants_reports() && sweeps.is_multiple_of(self.tracker.every()) {
                self.tracker
                    .add((sweeps - reported) as u64, self.engine.unscaled(best.0));
                self.tracker
                    .offer(self.engine.unscaled(best.0), || best.1.clone());
                reported = sweeps;
            }
        }
        if reached_target {
            self.ending.reached_target();
        }
        if self.tracker.wants_reports() {
            self.tracker
                .add((sweeps - reported) as u64, self.engine.unscaled(best.0));
            self.tracker
                .offer(self.engine.unscaled(best.0), || best.1.clone());
        }
        self.tracker.read_done();
        Some(ReadResult {
            state: best.1,
            sweeps,
            reached_target,
            timed_out,
            cut_at_first_target,
            swaps,
        })
    }

    /// Whether `x` is at (or below) the target energy, exactly.
    fn reached(&self, x: &[u8]) -> bool {
        self.target.is_some_and(|t| {
            let e = self.model.energy(x);
            crate::qubo::reaches_target(e, t)
        })
    }
}

/// When the pilot must end: its share of the time limit (none without one).
fn pilot_deadline(t0: Instant, time_limit: Option<Duration>) -> Option<Instant> {
    time_limit.map(|d| t0 + d.mul_f64(PILOT_TIME_SHARE))
}

/// Runs one ladder (read `read`) unless the run ended before it started (time limit, or the
/// first target when the run ends there).
fn run_ladder(job: &Job, read: usize) -> Option<ReadResult> {
    if !job.ending.may_start() {
        return None;
    }
    #[inline(always)] // into on_ladder!'s AVX2 body
    fn run<const L: usize, R: Replicas<L>>(ladder: Ladder<L, R>, job: &Job) -> Option<ReadResult> {
        job.run(ladder)
    }
    on_ladder!(run(job.engine, job.model, job.beta.to_vec(), job.seed, read as u64,
        job: &Job) -> Option<ReadResult>)
}

impl ParallelTempering {
    /// Sweeps per ladder and the time limit of a run started at `t0`: its own (given whether
    /// a target energy is set), cut to the caller's deadline.
    fn stopping(&self, control: &RunControl, t0: Instant) -> (usize, Option<Duration>) {
        let (sweeps, own) = self.own_stopping(control.target_energy.is_some());
        (sweeps, control.time_limit_from(t0, own))
    }

    /// Sweeps per ladder and the run's own time limit, given whether a target energy is set.
    fn own_stopping(&self, has_target: bool) -> (usize, Option<Duration>) {
        let sweeps = self.num_sweeps.unwrap_or(if has_target {
            usize::MAX
        } else {
            DEFAULT_SWEEPS
        });
        let timeout = self
            .timeout_ms
            .or(has_target.then_some(DEFAULT_TARGET_TIMEOUT_MS));
        (sweeps, timeout.map(Duration::from_millis))
    }

    /// Sweeps of each pilot round: `pilot_sweeps` shared by the rounds, cut so the whole pilot
    /// does at most `PILOT_UPDATE_BUDGET` variable updates on a model of `n` variables (a
    /// round measures its second half, so it keeps at least 8).
    fn pilot_sweeps_per_round(&self, n: usize) -> usize {
        let per_sweep = (n.max(1) * self.num_replicas) as f64;
        let affordable = (PILOT_UPDATE_BUDGET / per_sweep / PILOT_ROUNDS as f64) as usize;
        (self.pilot_sweeps / PILOT_ROUNDS)
            .min(self.run_sweeps_per_round())
            .min(affordable.max(8))
    }

    /// Whether an adaptive ladder gets its pilot: not when the run's own sweeps are fewer
    /// than the pilot's rounds of `least_round` sweeps each (a 2-sweep run on a 24×24 edge
    /// board spent 30 s placing a ladder for 2 sweeps); such a run keeps the geometric ladder
    /// between its β ends, and says so (`ladder_from`).
    fn runs_pilot(&self, least_round: usize) -> bool {
        self.ladder == LadderType::Adaptive
            && self.pilot_sweeps >= PILOT_ROUNDS
            && self
                .num_sweeps
                .is_none_or(|s| s >= PILOT_ROUNDS * least_round)
    }

    /// Where the run's ladder came from, for its report.
    fn ladder_from(&self, piloted: bool) -> String {
        match (self.ladder, piloted) {
            (LadderType::Adaptive, true) => "pilot".into(),
            (LadderType::Adaptive, false) => format!(
                "geometric: {} sweeps are too few for a pilot",
                self.num_sweeps.unwrap_or(0)
            ),
            _ => "geometric".into(),
        }
    }

    /// A pilot round never sweeps more than the run's own sweeps spread over the rounds (at
    /// least 8): `--num-sweeps 2` on a 24×24 board once waited 57 s for a 2 000-sweep pilot.
    fn run_sweeps_per_round(&self) -> usize {
        self.num_sweeps
            .map_or(usize::MAX, |s| (s / PILOT_ROUNDS).max(8))
    }

    /// The progress total: every ladder's sweeps, or 0 when ladders run open-ended (until the
    /// target energy or the time limit).
    fn sweeps_total(&self, num_sweeps: usize) -> u64 {
        if num_sweeps == usize::MAX {
            0
        } else {
            (self.num_reads as u64).saturating_mul(num_sweeps as u64)
        }
    }

    fn validate(&self) -> Result<(), SampleError> {
        if !(2..=MAX_REPLICAS).contains(&self.num_replicas) {
            return Err(SampleError::param(
                "num_replicas",
                format!("must be 2 to {MAX_REPLICAS}"),
            ));
        }
        if let Some([a, b]) = self.beta_range
            && !(a.is_finite() && b.is_finite() && a > 0.0 && b >= a)
        {
            return Err(SampleError::param(
                "beta_range",
                format!("[{a}, {b}] must be two finite numbers with 0 < hot ≤ cold"),
            ));
        }
        Ok(())
    }

    /// Bytes a run holds at its peak: the kernel's model (`tables` for a structure; a CSR when
    /// the model has neither a CSR nor a structure), each thread's ladder, and the reads.
    fn memory_estimate(
        &self,
        model: &dyn Model,
        tables: Option<&LaneTables>,
        threads: usize,
    ) -> u64 {
        let n = model.num_variables();
        match tables {
            Some(tables) => bytes_of(&[threads, 1])
                .saturating_mul(tables.state_bytes(MAX_REPLICAS))
                .saturating_add(tables.bytes())
                .saturating_add(bytes_of(&[self.num_reads, n, 2])),
            None => {
                let per_thread = bytes_of(&[MAX_REPLICAS, n, 9]);
                run_bytes(model, threads, per_thread, self.num_reads)
            }
        }
    }
}

impl Sampler for ParallelTempering {
    fn name(&self) -> &'static str {
        "pt"
    }

    fn time_limit(&self, has_target: bool) -> Option<Duration> {
        self.own_stopping(has_target).1
    }

    fn params(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        self.validate()?;
        let n = model.num_variables();
        let plan = MovePlan::for_model(model, self.moves, self.hold.as_deref())?;
        if let Some(plan) = plan {
            return self.sample_moves(model, &plan, control, t0);
        }
        let threads = control.threads_for(self.num_reads);
        // The structured kernel when the model has a structure (it stores no couplings and
        // prices a flip from sums: its tables are the size of the structure, already held),
        // else the f32 CSR, built after the memory check.
        let tables = model.grouped().map(|g| LaneTables::new(&g.kernel()));
        check_memory(
            || {
                format!(
                    "parallel tempering of {} ladders of {} replicas on {n} variables with \
                     {threads} thread(s)",
                    self.num_reads, self.num_replicas
                )
            },
            self.memory_estimate(model, tables.as_ref(), threads),
        )?;
        // On the CSR: 16-bit lanes where the model is integral (the same decisions as f32).
        let (km, km16, warning) = match &tables {
            Some(_) => (None, None, None),
            None => {
                let csr = Csr::of_model(model);
                match KernelModel::integral(&csr) {
                    Some(km16) => (None, Some(km16), None),
                    None => {
                        let scale = KernelScale::for_f32(&csr);
                        (
                            Some(KernelModel::new(&csr, scale.factor)),
                            None,
                            scale.warning,
                        )
                    }
                }
            }
        };
        let engine = match (&km, &km16, &tables) {
            (Some(km), _, _) => Engine::Csr(km),
            (None, Some(km16), _) => Engine::Csr16(km16),
            (None, None, Some(t)) => Engine::Grouped(t),
            (None, None, None) => unreachable!("one kernel is always built"),
        };
        let seed = self.seed.unwrap_or_else(rand::random);
        let (hot, cold) = match self.beta_range {
            Some([a, b]) => (a, b),
            None => default_beta_range(model),
        };
        let mut beta: Vec<f64> = geometric(hot, cold, self.num_replicas)
            .into_iter()
            .map(|b| b / engine.scale())
            .collect();
        let target = control.target_energy;
        let (num_sweeps, time_limit) = self.stopping(control, t0);
        let mut pilot_cut_short = false;
        let piloted = self.runs_pilot(FLIP_PILOT_LEAST_ROUND);
        if piloted {
            let plan = PilotPlan {
                rounds: PILOT_ROUNDS,
                sweeps_per_round: self.pilot_sweeps_per_round(n),
                choose_ends: self.beta_range.is_none(),
                hot_rate: super::pilot::HOT_FLIP_RATE,
                rate_per: super::pilot::RatePer::Variable,
                seed,
                deadline: pilot_deadline(t0, time_limit),
            };
            match adapt_ladder(engine, model, beta.clone(), &plan, control) {
                Some((b, cut)) => (beta, pilot_cut_short) = (b, cut),
                None => return Ok(self.cancelled_before_sampling(model, seed)),
            }
        }
        let tracker = ProgressTracker::new(control, self.sweeps_total(num_sweeps))
            .with_reads_and_time(self.num_reads, t0, time_limit);
        let ending = Ending::new(
            time_limit.map(|d| t0 + d),
            target.is_some() && control.end_at_first_target,
        );
        let job = Job {
            model,
            engine,
            beta: &beta,
            num_sweeps,
            target,
            seed,
            tracker: &tracker,
            ending: &ending,
        };
        let t_sample = Instant::now();
        let finished: Vec<ReadResult> = control.install(self.num_reads, || {
            (0..self.num_reads)
                .into_par_iter()
                .filter_map(|read| run_ladder(&job, read))
                .collect()
        });
        let sampling_ns = t_sample.elapsed().as_nanos() as u64;
        let t_post = Instant::now();
        let mut swaps = SwapStats::new(beta.len() - 1);
        for r in &finished {
            swaps.merge(&r.swaps);
        }
        let sweeps: Vec<usize> = finished.iter().map(|r| r.sweeps).collect();
        let end = ending.reads_end(
            finished
                .iter()
                .map(|r| (r.reached_target, r.timed_out, r.cut_at_first_target)),
            time_limit,
            pilot_cut_short,
        );
        let (reads_at_target, timed_out) = (end.at_target, end.cut_by_time_limit);
        let mut params = self.params();
        if let Some(obj) = params.as_object_mut() {
            let betas: Vec<f64> = beta.iter().map(|b| b * engine.scale()).collect();
            obj.insert("beta_range".into(), serde_json::json!([hot, cold]));
            obj.insert("betas".into(), serde_json::json!(betas));
            obj.insert(
                "ladder_from".into(),
                serde_json::json!(self.ladder_from(piloted)),
            );
            obj.insert("swap_acceptance".into(), serde_json::json!(swaps.rates()));
            obj.insert("flip_rates".into(), serde_json::json!(swaps.flip_rates(n)));
            obj.insert("seed".into(), serde_json::json!(seed));
            obj.insert("kernel".into(), serde_json::json!(engine.name()));
            obj.insert("target_energy".into(), serde_json::json!(target));
            obj.insert("reads_at_target".into(), serde_json::json!(reads_at_target));
            obj.insert("reads_cut_short".into(), serde_json::json!(end.not_started));
            obj.insert("timed_out_reads".into(), serde_json::json!(timed_out));
            obj.insert("sweeps_per_read".into(), serde_json::json!(sweeps));
        }
        let num_reads = self.num_reads;
        // Ladders stopped because another reached the target had no fair chance: like ladders
        // never started, they are not reads (the report counts them).
        let states: Vec<Vec<u8>> = finished
            .into_iter()
            .filter(|r| !r.cut_at_first_target || r.reached_target)
            .map(|r| r.state)
            .collect();
        let info = SampleInfo {
            sampler: self.name().into(),
            params,
            num_reads_requested: num_reads,
            cancelled: states.len() < num_reads && control.is_cancelled(),
            seed: Some(seed),
            preprocessing_ns: (t_sample - t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: sweeps.iter().copied().max().unwrap_or(0),
            warnings: warning.into_iter().collect(),
            details: Default::default(),
            end,
            one_trial: false,
        };
        let mut set = SampleSet::from_states(model, states, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}

#[cfg(test)]
mod tests;
