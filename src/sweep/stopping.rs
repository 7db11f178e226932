//! When a sweep point has measured enough, and how a sweep's points share the cores.
//!
//! A point runs its sampler again and again (each run reseeded, up to `repeats`), pooling the
//! reads, and stops as soon as its answer is settled:
//! - **settled**: its valid fraction's Wilson interval is at most `ci_width` wide — and, when
//!   the sweep is judged by TTS99, its TTS99 interval's ends at most `tts_ratio` apart (0 of
//!   200 valid is a narrow share but no time at all, so it never settles on the width alone);
//! - **slower**: judged by TTS99, the low end of its TTS99 interval passed the best TTS99 any
//!   finished point measured: it cannot be the optimum;
//! - **budget**: its sampling time passed `budget_factor` × the lowest TTS99 any finished point
//!   measured (never less than `min_budget_s`): "not solved within k × the best" — a run in
//!   flight is cancelled at that moment (its finished reads count, its time too);
//! - **runs**: every run was done and the interval is still wider than `ci_width`.
//!
//! Points run side by side, one worker per core (one in all for a remote service's sampler: each
//! run is a job on an account), each point's runs on the cores left to it; the
//! queue is ordered coarse grid first (the ends and middles of each axis), so a best TTS99 is
//! known early. Until one is, a point runs in slices (`FIRST_SLICE_S`, doubling) and goes back
//! to the queue after each, so one slow point cannot hold a worker before there is anything to
//! compare it with; a slice ends between runs (a run cut short would lose every read).
//!
//! Invariant: a point never stops with an interval wider than `ci_width` unless its runs or its
//! budget ran out, and its `stop` says which.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::{Pool, SweepError, SweepPoint, wilson_interval};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::qubo::Weights;
use crate::sampler::{Progress, RunControl, Sampler};
use crate::solve::{Problem, solve};

/// When a point stops measuring.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StopRule {
    /// A point stops once its valid fraction's 95 % interval is at most this wide (0: never;
    /// every point then does all its runs).
    pub ci_width: f64,
    /// A point stops once its sampling time passes this multiple of the best TTS99 measured so
    /// far (0: never).
    pub budget_factor: f64,
    /// ... but never before this many seconds of sampling.
    pub min_budget_s: f64,
    /// When the sweep is judged by TTS99, a point settles only once its TTS99's 95 % interval
    /// spans at most this factor (0: the valid share's width alone). A folder written before
    /// the rule existed reads as 0, the rule it was measured with.
    #[serde(default)]
    pub tts_ratio: f64,
}

impl Default for StopRule {
    fn default() -> Self {
        StopRule {
            ci_width: DEFAULT_CI_WIDTH,
            budget_factor: DEFAULT_BUDGET_FACTOR,
            min_budget_s: DEFAULT_MIN_BUDGET_S,
            tts_ratio: DEFAULT_TTS_RATIO,
        }
    }
}

/// The default interval width at which a point is settled: 16 reads all valid (or all invalid)
/// give 0.19, so one run of tempering's 16 ladders settles a clear point.
pub const DEFAULT_CI_WIDTH: f64 = 0.2;
/// The default multiple of the best TTS99 a point may spend.
pub const DEFAULT_BUDGET_FACTOR: f64 = 50.0;
/// The default least budget of a point, in seconds.
pub const DEFAULT_MIN_BUDGET_S: f64 = 1.0;
/// The default spread of a settled TTS99 interval: its ends within a factor 3 (about a
/// dozen valid reads at a low share; 16 of 16 valid give 2.8).
pub const DEFAULT_TTS_RATIO: f64 = 3.0;
/// The first slice of a point that starts before any best TTS99 is known (then 2×, 4×, …).
const FIRST_SLICE_S: f64 = 2.0;
/// Sweeps between a run's checks of its budget (through the progress observer).
const CHECK_EVERY_SWEEPS: usize = 8;

impl StopRule {
    /// Every point does all its runs, as sweeps did before stopping rules.
    pub const NEVER: StopRule = StopRule {
        ci_width: 0.0,
        budget_factor: 0.0,
        min_budget_s: 0.0,
        tts_ratio: 0.0,
    };

    /// The rule's numbers described once: the window's widgets, the CLI's help and the
    /// validation below all read them (the window once offered ranges the CLI refused).
    pub const PARAMS: [ParamSpec; 4] = [
        ParamSpec {
            name: "ci_width",
            ty: ParamType::Float { min: 0.0, max: 1.0 },
            default: ParamDefault::Float(DEFAULT_CI_WIDTH),
            help: "a point is settled, and stops, once its valid fraction's 95 % interval is at \
                   most this wide (0: every point does all its runs)",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "budget_factor",
            ty: ParamType::Float { min: 0.0, max: 1e6 },
            default: ParamDefault::Float(DEFAULT_BUDGET_FACTOR),
            help: "a point stops once its sampling time passes this multiple of the best TTS99 \
                   measured so far: not solved within k × the best (0: never)",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "min_budget_s",
            ty: ParamType::Float {
                min: 0.0,
                max: 86_400.0,
            },
            default: ParamDefault::Float(DEFAULT_MIN_BUDGET_S),
            help: "no point stops at its budget before this many seconds of sampling",
            alias: None,
            exposed: true,
        },
        ParamSpec {
            name: "tts_ratio",
            ty: ParamType::Float { min: 0.0, max: 1e6 },
            default: ParamDefault::Float(DEFAULT_TTS_RATIO),
            help: "judged by TTS99, a point settles only once its TTS99's 95 % interval spans \
                   at most this factor, and stops early once that interval's low end passes \
                   the best TTS99 measured (0: the valid share's width alone; else at least 1)",
            alias: None,
            exposed: true,
        },
    ];

    /// The rule as parameter values (`PARAMS`' names).
    pub fn values(&self) -> ParamValues {
        crate::params::values_of(self)
    }

    /// The rule from parameter values, checked against `PARAMS`.
    pub fn from_values(values: &ParamValues) -> Result<StopRule, crate::params::ParamError> {
        crate::params::checked_from(&Self::PARAMS, values)
    }

    /// Checks the numbers against `PARAMS`; the message names the one that is wrong.
    pub fn validate(&self) -> Result<(), String> {
        let numbers = [
            self.ci_width,
            self.budget_factor,
            self.min_budget_s,
            self.tts_ratio,
        ];
        for (spec, v) in Self::PARAMS.iter().zip(numbers) {
            if let ParamType::Float { min, max } = spec.ty
                && !(v.is_finite() && (min..=max).contains(&v))
            {
                return Err(format!("{} {v}: a number from {min} to {max}", spec.name));
            }
        }
        if self.tts_ratio > 0.0 && self.tts_ratio < 1.0 {
            return Err(format!(
                "tts_ratio {}: 0 (off) or a factor of at least 1",
                self.tts_ratio
            ));
        }
        Ok(())
    }

    /// The seconds a point may spend when the best TTS99 so far is `best` (∞: none yet).
    fn budget_s(&self, best: f64) -> Option<f64> {
        (self.budget_factor > 0.0 && best.is_finite())
            .then(|| (self.budget_factor * best).max(self.min_budget_s))
    }

    /// Whether a point's share is known well enough from `valid` of `trials` independent
    /// trials; `by_tts`: the sweep is judged by TTS99, so its TTS99 must be known within
    /// `tts_ratio` too.
    fn settled(&self, valid: usize, trials: usize, by_tts: bool) -> bool {
        let [lo, hi] = wilson_interval(valid, trials);
        let share_known = trials > 0 && hi - lo <= self.ci_width;
        let time_known = !by_tts
            || self.tts_ratio == 0.0
            || reads_for_99(lo) / reads_for_99(hi) <= self.tts_ratio;
        share_known && time_known
    }

    /// Whether a point judged by TTS99, at `per_trial` a trial (in the judged unit: seconds or
    /// sweeps), is slower than a finished point whose TTS99 is at most `bound` with 95 %
    /// confidence: its own interval's low end (from the share's high end) is above that.
    fn slower(&self, valid: usize, trials: usize, per_trial: f64, bound: f64) -> bool {
        let high_share = wilson_interval(valid, trials)[1];
        self.tts_ratio > 0.0
            && trials > 0
            && bound.is_finite()
            && per_trial * reads_for_99(high_share) > bound
    }

    /// Words for a point's stop, for tables and tooltips.
    pub fn describe(&self, point: &SweepPoint) -> String {
        // The interval the rule judged: over trials where a run is one (populations).
        let [lo, hi] = match point.trials {
            Some([trials, hits]) => wilson_interval(hits, trials),
            None => point.success_ci95,
        };
        let width = hi - lo;
        match point.stop {
            StopReason::Settled => format!(
                "settled after {} run(s): interval {width:.2} ≤ {:.2}",
                point.runs, self.ci_width
            ),
            StopReason::Runs => format!(
                "all {} run(s) done; the interval is still {width:.2} wide",
                point.runs
            ),
            StopReason::Budget => format!(
                "not solved within {} × the best TTS99 ({:.3} s spent): budget ran out with \
                 the interval {width:.2} wide",
                self.budget_factor, point.sample_s
            ),
            StopReason::Slower => format!(
                "slower than the best TTS99 with 95 % confidence after {} run(s) ({} valid \
                 of {} reads): it cannot be the optimum",
                point.runs,
                (point.success_fraction * point.reads as f64).round(),
                point.reads
            ),
        }
    }
}

/// Reads a 99 % chance of one valid read needs at a valid share `p` (∞ at 0): TTS99 in reads.
/// The TTS99 interval's spread is the ratio of this at the share interval's two ends.
fn reads_for_99(p: f64) -> f64 {
    super::tts99(1.0, p).unwrap_or(f64::INFINITY)
}

/// Why a point stopped measuring.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// Its interval is narrow enough.
    Settled,
    /// It did every run it was given (the interval may still be wide).
    #[default]
    Runs,
    /// Its time passed the multiple of the best TTS99: the interval may still be wide.
    Budget,
    /// Judged by TTS99, it is slower than the best with 95 % confidence.
    Slower,
}

impl StopReason {
    /// The word the JSON and CSV use.
    pub fn name(self) -> &'static str {
        match self {
            StopReason::Settled => "settled",
            StopReason::Runs => "runs",
            StopReason::Budget => "budget",
            StopReason::Slower => "slower",
        }
    }
}

/// What the finished points set for the others, shared with the runs' observers: the lowest
/// TTS99 in seconds (budgets) and the lowest high end of a TTS99 interval in the judged unit
/// (a point above it is slower). f64 bits; ∞ while none.
#[derive(Clone)]
pub(super) struct BestTts {
    seconds: Arc<AtomicU64>,
    bound: Arc<AtomicU64>,
}

impl BestTts {
    /// Starting from `initial` seconds (`tune`'s current point: a candidate is judged
    /// against its TTS99, as estimate and bound alike).
    pub(super) fn new(initial: Option<f64>) -> Self {
        let bits = initial.unwrap_or(f64::INFINITY).to_bits();
        BestTts {
            seconds: Arc::new(AtomicU64::new(bits)),
            bound: Arc::new(AtomicU64::new(bits)),
        }
    }

    fn get(&self) -> f64 {
        f64::from_bits(self.seconds.load(Ordering::Relaxed))
    }

    fn bound(&self) -> f64 {
        f64::from_bits(self.bound.load(Ordering::Relaxed))
    }

    /// A finished point's figures, judged by `judged` (a time metric, or none).
    fn offer(&self, point: &SweepPoint, judged: Option<super::Metric>) {
        lower(&self.seconds, point.tts99_s);
        let high_end = match (judged, point.tts99_s, point.tts99_ci95[1]) {
            (Some(super::Metric::Tts99Sweeps), Some(t), Some(hi)) if t > 0.0 => {
                point.tts99_sweeps.map(|s| s * hi / t)
            }
            (Some(_), _, hi) => hi,
            (None, _, _) => None,
        };
        lower(&self.bound, high_end);
    }
}

/// Lowers a shared f64 (as bits) to `value` when that is finite and lower.
fn lower(cell: &AtomicU64, value: Option<f64>) {
    let Some(t) = value.filter(|t| t.is_finite()) else {
        return;
    };
    let mut cur = cell.load(Ordering::Relaxed);
    while t < f64::from_bits(cur) {
        match cell.compare_exchange_weak(cur, t.to_bits(), Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => break,
            Err(actual) => cur = actual,
        }
    }
}

/// One point being measured: its weights, the reads so far and what they cost.
pub(super) struct PointWork {
    pub(super) weights: Weights,
    pub(super) value: f64,
    pub(super) value2: Option<f64>,
    /// The sampler parameters a parameter axis sets here, and the samplers of its runs (one
    /// per repeat; empty: the runner's).
    params: std::collections::BTreeMap<String, serde_json::Value>,
    samplers: Vec<Box<dyn Sampler>>,
    pool: Pool,
    runs: usize,
    spend_s: f64,
    slices: u32,
}

/// What a stretch of work on a point ended with.
enum Slice {
    Done(StopReason),
    /// Paused before a best TTS99 was known: back to the queue.
    Paused,
    Cancelled,
}

/// What every point of one measurement shares.
pub(super) struct Runner<'a> {
    pub(super) problem: Problem<'a>,
    pub(super) sampler: &'a dyn Sampler,
    /// The sampler of run r (`None`: the given one).
    pub(super) reseeded: &'a [Option<Box<dyn Sampler>>],
    pub(super) stop: StopRule,
    /// Threads each point's runs use.
    pub(super) threads: usize,
    /// The time metric the points are judged by, if any (the stop rule's `tts_ratio` then
    /// applies, in its unit).
    pub(super) judged_by: Option<super::Metric>,
    /// The caller's control: cancelling it stops everything; its target energy is used.
    pub(super) control: &'a RunControl,
}

impl PointWork {
    pub(super) fn new(problem: Problem, weights: Weights, value: f64, value2: Option<f64>) -> Self {
        PointWork {
            pool: Pool::new(problem, &weights),
            weights,
            value,
            value2,
            params: Default::default(),
            samplers: Vec::new(),
            runs: 0,
            spend_s: 0.0,
            slices: 0,
        }
    }

    /// The point runs its own samplers (one per repeat), made with these parameters.
    pub(super) fn with_samplers(
        mut self,
        params: std::collections::BTreeMap<String, serde_json::Value>,
        samplers: Vec<Box<dyn Sampler>>,
    ) -> Self {
        self.params = params;
        self.samplers = samplers;
        self
    }

    /// The sampler of the point's run `r`.
    fn sampler<'s>(&'s self, runner: &'s Runner, r: usize) -> &'s dyn Sampler {
        match self.samplers.get(r) {
            Some(own) => own.as_ref(),
            None => runner.reseeded[r].as_deref().unwrap_or(runner.sampler),
        }
    }

    /// A read's sweeps over every copy of the model it holds: tempering's replicas, SQA's
    /// Trotter slices, so SA's and PT's TTS99 in sweeps compare as work done (`None`: the
    /// sampler has no `num_sweeps`).
    fn sweeps_per_read(&self, runner: &Runner) -> Option<f64> {
        let params = self.sampler(runner, 0).params();
        let number = |name: &str| params.get(name).and_then(serde_json::Value::as_f64);
        let copies = number("num_replicas")
            .or_else(|| number("trotter"))
            .unwrap_or(1.0);
        number("num_sweeps").map(|s| s * copies)
    }

    /// What a trial (a read, or a population's whole run) has cost so far in the unit the
    /// points are judged by.
    fn cost_per_trial(&self, runner: &Runner) -> Option<f64> {
        let trials = self.pool.trials.max(1) as f64;
        match runner.judged_by? {
            super::Metric::Tts99Sweeps => self
                .sweeps_per_read(runner)
                .map(|s| s * self.pool.reads as f64 / trials),
            _ => Some(self.spend_s / trials),
        }
    }

    /// The point's figures as they stand.
    pub(super) fn point(self, runner: &Runner, stop: StopReason) -> SweepPoint {
        let sweeps_per_read = self.sweeps_per_read(runner);
        let mut p = self.pool.point(
            runner.problem.encoding,
            &self.weights,
            self.value,
            self.value2,
            sweeps_per_read,
        );
        p.params = self.params;
        p.runs = self.runs;
        p.stop = stop;
        p.threads = runner.threads;
        p
    }
}

impl Runner<'_> {
    /// Runs the point until it stops, pauses (no best yet and its slice is spent, when
    /// `may_pause`) or the caller cancels.
    fn advance(
        &self,
        work: &mut PointWork,
        best: &BestTts,
        may_pause: bool,
    ) -> Result<Slice, SweepError> {
        let slice_start = work.spend_s;
        let slice_s = FIRST_SLICE_S * f64::from(1u32 << work.slices.min(20));
        loop {
            if self.control.is_cancelled() {
                return Ok(Slice::Cancelled);
            }
            // Judged over independent trials: reads, but a population's run is one trial (its
            // reads are correlated by resampling, so an interval over them is over-confident).
            let (valid, trials) = (work.pool.trial_hits, work.pool.trials);
            if self.stop.settled(valid, trials, self.judged_by.is_some()) {
                return Ok(Slice::Done(StopReason::Settled));
            }
            if work
                .cost_per_trial(self)
                .is_some_and(|c| self.stop.slower(valid, trials, c, best.bound()))
            {
                return Ok(Slice::Done(StopReason::Slower));
            }
            if work.runs >= self.reseeded.len() {
                return Ok(Slice::Done(StopReason::Runs));
            }
            if self
                .stop
                .budget_s(best.get())
                .is_some_and(|b| work.spend_s >= b)
            {
                return Ok(Slice::Done(StopReason::Budget));
            }
            let pausing = may_pause && self.stop.budget_factor > 0.0 && !best.get().is_finite();
            if pausing && work.spend_s - slice_start >= slice_s {
                work.slices += 1;
                return Ok(Slice::Paused);
            }
            let sampler = work.sampler(self, work.runs);
            // A slice ends between runs, never inside one: a run cut at its slice's end kept
            // none of its reads (they run side by side) and still used up a run, so a point
            // whose runs outlast a slice measured nothing at all.
            let control = self.run_control(work.spend_s, best);
            let out = solve(self.problem, &work.weights, sampler, &control)?;
            work.runs += 1;
            work.spend_s += out.timing.sample_s;
            work.pool.add(self.problem.encoding, &out);
        }
    }

    /// A control for one run of a point that had spent `spent_before_s`: the caller's target
    /// and threads, cancelled when the caller cancels or the point's budget is spent, checked
    /// every few sweeps. The best TTS99 may fall while the run goes on, so the budget is
    /// re-read each time.
    fn run_control(&self, spent_before_s: f64, best: &BestTts) -> RunControl {
        let control = RunControl::new()
            .with_threads(Some(self.threads))
            .with_target_energy(self.control.target_energy);
        let own = control.cancel_flag();
        let parent = self.control.cancel_flag();
        let best = best.clone();
        let stop = self.stop;
        let start = Instant::now();
        control.with_observer(CHECK_EVERY_SWEEPS, move |_| {
            let spent = spent_before_s + start.elapsed().as_secs_f64();
            let over_budget = stop.budget_s(best.get()).is_some_and(|b| spent >= b);
            if parent.load(Ordering::Relaxed) || over_budget {
                own.store(true, Ordering::Relaxed);
            }
        })
    }

    /// Measures one point to its stop (no pausing): `tune`'s points, judged against `best`.
    pub(super) fn measure(
        &self,
        mut work: PointWork,
        best: &BestTts,
    ) -> Result<Option<SweepPoint>, SweepError> {
        match self.advance(&mut work, best, false)? {
            Slice::Done(stop) => Ok(Some(work.point(self, stop))),
            Slice::Paused | Slice::Cancelled => Ok(None),
        }
    }
}

/// Measures every point, side by side on `workers` threads, coarse grid first; `on_point`
/// hears about each as it finishes (on the calling thread). Returns the points in the order
/// given; on cancel, the points finished so far.
pub(super) fn measure_all(
    runner: &Runner,
    works: Vec<PointWork>,
    order: Vec<usize>,
    workers: usize,
    mut on_point: impl FnMut(&SweepPoint),
) -> Result<Vec<SweepPoint>, SweepError> {
    let total = works.len();
    let slots: Vec<Mutex<Option<PointWork>>> =
        works.into_iter().map(|w| Mutex::new(Some(w))).collect();
    let queue = Mutex::new(order.into_iter().collect::<VecDeque<usize>>());
    let remaining = AtomicUsize::new(total);
    let abort = AtomicBool::new(false);
    let best = BestTts::new(None);
    let (tx, rx) = channel::<Result<(usize, SweepPoint), SweepError>>();
    let mut done: Vec<Option<SweepPoint>> = (0..total).map(|_| None).collect();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            let tx = tx.clone();
            let (slots, queue, remaining, abort, best) =
                (&slots, &queue, &remaining, &abort, &best);
            scope.spawn(move || {
                while remaining.load(Ordering::Relaxed) > 0 && !abort.load(Ordering::Relaxed) {
                    let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                    let Some(k) = next else {
                        // Another worker holds the last points; one may come back paused.
                        std::thread::sleep(std::time::Duration::from_millis(2));
                        continue;
                    };
                    let Some(mut work) = slots[k].lock().ok().and_then(|mut s| s.take()) else {
                        continue;
                    };
                    match runner.advance(&mut work, best, true) {
                        Ok(Slice::Done(stop)) => {
                            let point = work.point(runner, stop);
                            best.offer(&point, runner.judged_by);
                            remaining.fetch_sub(1, Ordering::Relaxed);
                            let _ = tx.send(Ok((k, point)));
                        }
                        Ok(Slice::Paused) => {
                            if let Ok(mut s) = slots[k].lock() {
                                *s = Some(work);
                            }
                            if let Ok(mut q) = queue.lock() {
                                q.push_back(k);
                            }
                        }
                        Ok(Slice::Cancelled) => abort.store(true, Ordering::Relaxed),
                        Err(e) => {
                            abort.store(true, Ordering::Relaxed);
                            let _ = tx.send(Err(SweepError::AtPoint {
                                weights: work.weights.describe(),
                                source: Box::new(e),
                            }));
                        }
                    }
                }
            });
        }
        drop(tx);
        let mut finished = 0;
        for message in rx {
            match message {
                Ok((k, point)) => {
                    finished += 1;
                    on_point(&point);
                    runner.control.notify(&Progress {
                        sweeps_done: finished,
                        sweeps_total: total as u64,
                        best_energy: None,
                        phase: crate::sampler::Phase::Sampling,
                        ..Default::default()
                    });
                    done[k] = Some(point);
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    Ok(done.into_iter().flatten().collect())
}

/// The order to measure a grid of `rows` × `cols` points (row-major indices) in: coarse first
/// — each axis's ends, then its middle, then the quarters… — so the chart fills in evenly and
/// a best TTS99 is found early.
pub(super) fn coarse_first(rows: usize, cols: usize) -> Vec<usize> {
    let (a, b) = (levels(rows), levels(cols));
    let mut order: Vec<usize> = (0..rows * cols).collect();
    order.sort_by_key(|&k| {
        let (i, j) = (k / cols.max(1), k % cols.max(1));
        (a[i].max(b[j]), a[i] + b[j], k)
    });
    order
}

/// For each index of an axis of `n` values, the round of bisection that first reaches it: the
/// ends are round 0, the middle round 1, the quarters round 2, …
fn levels(n: usize) -> Vec<u32> {
    let mut level = vec![u32::MAX; n];
    if n == 0 {
        return level;
    }
    level[0] = 0;
    level[n - 1] = 0;
    let mut spans = vec![(0, n - 1)];
    let mut round = 1;
    while !spans.is_empty() {
        let mut next = Vec::new();
        for (lo, hi) in spans {
            if hi - lo < 2 {
                continue;
            }
            let mid = (lo + hi) / 2;
            level[mid] = level[mid].min(round);
            next.push((lo, mid));
            next.push((mid, hi));
        }
        spans = next;
        round += 1;
    }
    level
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coarse_first_takes_the_corners_then_the_middles() {
        assert_eq!(levels(5), vec![0, 2, 1, 2, 0]);
        assert_eq!(levels(1), vec![0]);
        assert_eq!(levels(2), vec![0, 0]);
        let order = coarse_first(5, 4);
        assert_eq!(order.len(), 20);
        // The four corners first.
        let mut corners = order[..4].to_vec();
        corners.sort();
        assert_eq!(corners, vec![0, 3, 16, 19]);
        let mut all = order.clone();
        all.sort();
        assert_eq!(all, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn budgets_follow_the_best_and_never_fall_below_the_floor() {
        let rule = StopRule::default();
        assert_eq!(rule.budget_s(f64::INFINITY), None);
        assert_eq!(rule.budget_s(0.001), Some(DEFAULT_MIN_BUDGET_S));
        assert_eq!(rule.budget_s(1.0), Some(DEFAULT_BUDGET_FACTOR));
        assert_eq!(StopRule::NEVER.budget_s(1.0), None);
        // 16 of 16 settles at the default width; 8 of 16 does not.
        assert!(rule.settled(16, 16, false) && rule.settled(0, 16, false));
        assert!(!rule.settled(8, 16, false) && !rule.settled(0, 0, false));
        assert!(!StopRule::NEVER.settled(100, 100, false));
        // Judged by TTS99: 16 of 16 is known within 2.8 ×; none of 200 is no time at all; 2 of
        // 400 is a narrow share but a TTS99 known within ×10 only; 40 of 4 000 within ×1.9.
        assert!(rule.settled(16, 16, true));
        assert!(rule.settled(0, 200, false) && !rule.settled(0, 200, true));
        assert!(rule.settled(2, 400, false) && !rule.settled(2, 400, true));
        assert!(rule.settled(40, 4000, true));
        // None of 200 at 1 ms a read needs ≥ 0.24 s for 99 %: slower than a best whose TTS99
        // is at most 0.1 s, not than one at most 1 s; never with the rule off or no best yet.
        assert!(rule.slower(0, 200, 1e-3, 0.1));
        assert!(!rule.slower(0, 200, 1e-3, 1.0));
        assert!(!StopRule::NEVER.slower(0, 200, 1e-3, 0.1));
        assert!(!rule.slower(0, 200, 1e-3, f64::INFINITY));
        assert!(
            StopRule {
                ci_width: f64::NAN,
                ..rule
            }
            .validate()
            .is_err()
        );
        assert!(
            StopRule {
                budget_factor: -1.0,
                ..rule
            }
            .validate()
            .is_err()
        );
        assert!(rule.validate().is_ok());
        for bad in [0.5, -1.0, f64::INFINITY] {
            let rule = StopRule {
                tts_ratio: bad,
                ..rule
            };
            assert!(rule.validate().is_err(), "{bad}");
        }
    }
}
