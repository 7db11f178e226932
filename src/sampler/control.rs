//! `RunControl`: what a caller (CLI, GUI job, test) can do to a running sampler — cancel it,
//! watch its progress, choose its thread count.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A progress report: work done so far and the best energy seen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Progress {
    /// Sweeps completed, summed over reads (for exact enumeration: states visited).
    pub sweeps_done: u64,
    /// Total sweeps the run will do, summed over reads; 0 when open-ended (each read runs
    /// until it reaches the target energy or the time limit).
    pub sweeps_total: u64,
    /// Lowest energy observed so far (approximate while annealing).
    pub best_energy: Option<f64>,
    /// What the run is doing: its pilot (choosing the β range or ladder) or its reads.
    pub phase: Phase,
    /// Reads finished so far (0 where the sampler does not count them as they end).
    pub reads_done: u64,
    /// Reads asked for (0: not counted).
    pub reads_total: u64,
    /// Seconds since the run started.
    pub elapsed_s: f64,
    /// The run's time limit in seconds, when it has one.
    pub time_limit_s: Option<f64>,
}

impl Progress {
    /// How far the run has come (0–1) and what it is doing, in words: the window's progress bar
    /// and the CLI's read this one description. An open-ended run is measured by its reads and
    /// its time limit, never by a sweep total it does not have.
    pub fn describe(&self) -> (f32, String) {
        let of = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f32 / b as f32 };
        let time = self.time_limit_s.map(|limit| {
            (
                (self.elapsed_s / limit.max(1e-9)) as f32,
                format!(" · {:.0} s of at most {:.0} s", self.elapsed_s, limit),
            )
        });
        let (time_fraction, time_text) = time.unwrap_or((0.0, String::new()));
        let best = self
            .best_energy
            .map_or("—".to_string(), |e| format!("{e:.4}"));
        let reads = if self.reads_total > 0 {
            format!(" · {} of {} reads done", self.reads_done, self.reads_total)
        } else {
            String::new()
        };
        let (fraction, text) = match (self.phase, self.sweeps_total) {
            (Phase::Pilot, total) => (
                of(self.sweeps_done, total),
                format!(
                    "choosing the β range: pilot, {} / {total} sweeps{time_text}",
                    self.sweeps_done
                ),
            ),
            (Phase::Sampling, 0) => (
                of(self.reads_done, self.reads_total).max(time_fraction),
                format!(
                    "{} sweeps, best energy {best}{reads}{time_text}",
                    self.sweeps_done
                ),
            ),
            (Phase::Sampling, total) => (
                of(self.sweeps_done, total).max(time_fraction),
                format!(
                    "{} / {total} sweeps, best energy {best}{reads}{time_text}",
                    self.sweeps_done
                ),
            ),
        };
        (fraction.clamp(0.0, 1.0), text)
    }
}

/// The part of a run a progress report is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Phase {
    /// A short pilot that chooses the β range or ladder; its sweeps are not the reads'.
    Pilot,
    /// The reads themselves.
    #[default]
    Sampling,
}

type Observer = dyn Fn(&Progress) + Send + Sync;

/// The lowest-energy state a run has offered so far, shared with whoever watches the run: the
/// GUI decodes it into a partial board with its score while a long run goes on. Samplers
/// offer their best state at their progress reports; the state is only copied when its energy
/// beats the one held (checked without locking), so watching costs a run almost nothing.
#[derive(Clone)]
pub struct BestState {
    energy_bits: Arc<AtomicU64>,
    slot: Arc<Mutex<Option<Snapshot>>>,
}

/// A state offered by a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Its energy as the sampler tracks it (running sums: approximate).
    pub energy: f64,
    /// The state, 0/1 per variable.
    pub state: Vec<u8>,
    /// Counts the snapshots taken, so a watcher knows when to decode again.
    pub version: u64,
}

impl Default for BestState {
    fn default() -> Self {
        BestState {
            energy_bits: Arc::new(AtomicU64::new(f64::INFINITY.to_bits())),
            slot: Arc::new(Mutex::new(None)),
        }
    }
}

impl BestState {
    /// An empty slot.
    pub fn new() -> Self {
        Self::default()
    }

    /// The best state so far, if any was offered.
    pub fn get(&self) -> Option<Snapshot> {
        self.slot.lock().ok()?.clone()
    }

    /// The number of the latest snapshot (0: none yet).
    pub fn version(&self) -> u64 {
        self.slot
            .lock()
            .ok()
            .and_then(|s| s.as_ref().map(|s| s.version))
            .unwrap_or(0)
    }

    /// Keeps `state()` if `energy` is below the best held.
    fn offer(&self, energy: f64, state: impl FnOnce() -> Vec<u8>) {
        let held = f64::from_bits(self.energy_bits.load(Ordering::Relaxed));
        if energy.partial_cmp(&held) != Some(std::cmp::Ordering::Less) {
            return;
        }
        let x = state();
        if let Ok(mut slot) = self.slot.lock()
            && slot.as_ref().is_none_or(|s| energy < s.energy)
        {
            let version = slot.as_ref().map_or(1, |s| s.version + 1);
            *slot = Some(Snapshot {
                energy,
                state: x,
                version,
            });
            self.energy_bits.store(energy.to_bits(), Ordering::Relaxed);
        }
    }
}

/// A job on a remote service, as the sampler reports it while it runs: enough to resume
/// polling it or cancel it after the program is closed and opened again (the token is not part
/// of it: it comes from the environment or the config file each time).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RemoteJob {
    /// The sampler's registry name (`dwave-hybrid`).
    pub sampler: String,
    /// The service's base URL.
    pub endpoint: String,
    /// The solver it runs on.
    pub solver: String,
    /// The service's id for the job (give it back as `problem_id` to resume).
    pub problem_id: String,
    /// The last status seen (`uploading`, `PENDING`, `IN_PROGRESS`, `COMPLETED`, …).
    pub status: String,
}

/// Where a remote sampler reports its job (shared with the GUI, which stores it).
pub type RemoteJobSlot = Arc<Mutex<Option<RemoteJob>>>;

/// How a run is steered from outside: cancellation, a progress observer and the thread count.
#[derive(Clone)]
pub struct RunControl {
    cancel: Arc<AtomicBool>,
    observer: Option<Arc<Observer>>,
    /// Call the observer every this many sweeps (per worker).
    pub progress_every_sweeps: usize,
    /// Worker threads; `None` uses all cores.
    pub threads: Option<usize>,
    /// An energy at which a read may stop: reaching it cannot be improved on (the puzzle's
    /// valid-solution energy when weights are ≥ 0). Samplers that search open-endedly
    /// (tempering) stop a read there; the others ignore it.
    pub target_energy: Option<f64>,
    /// End the whole run when its first read reaches `target_energy` (reads under way stop
    /// with their best states, the others do not start): what `solve` asks by default, whose
    /// question is the answer rather than a success share.
    pub end_at_first_target: bool,
    /// Where the run offers its best state at progress reports (see `BestState`).
    pub best_state: Option<BestState>,
    /// Where a remote sampler reports its job and status (see `RemoteJob`).
    pub remote_job: Option<RemoteJobSlot>,
    /// When a caller's time budget ends: samplers with a time limit (PT, tabu) stop by then
    /// whatever their own limit says. `solve`'s cut rounds share one `--timeout-ms` this way.
    pub deadline: Option<Instant>,
}

impl Default for RunControl {
    fn default() -> Self {
        RunControl {
            cancel: Arc::new(AtomicBool::new(false)),
            observer: None,
            progress_every_sweeps: 100,
            threads: None,
            target_energy: None,
            end_at_first_target: false,
            best_state: None,
            remote_job: None,
            deadline: None,
        }
    }
}

impl RunControl {
    /// No observer, not cancelled, all cores.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the worker thread count (`None`: all cores).
    pub fn with_threads(mut self, threads: Option<usize>) -> Self {
        self.threads = threads;
        self
    }

    /// Sets the energy at which a read may stop (ignored unless finite).
    pub fn with_target_energy(mut self, target: Option<f64>) -> Self {
        self.target_energy = target.filter(|t| t.is_finite());
        self
    }

    /// Sets the instant by which a time-limited run ends (see `deadline`).
    pub fn with_deadline(mut self, deadline: Option<Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// `limit` counted from `t0`, cut to what is left before the caller's deadline.
    pub fn time_limit_from(&self, t0: Instant, limit: Option<Duration>) -> Option<Duration> {
        let left = self.deadline.map(|d| d.saturating_duration_since(t0));
        match (limit, left) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Ends the run at its first read at the target energy (see `end_at_first_target`).
    pub fn ending_at_first_target(mut self, on: bool) -> Self {
        self.end_at_first_target = on;
        self
    }

    /// Calls `f` from the worker threads every `every_sweeps` sweeps.
    pub fn with_observer(
        mut self,
        every_sweeps: usize,
        f: impl Fn(&Progress) + Send + Sync + 'static,
    ) -> Self {
        self.progress_every_sweeps = every_sweeps.max(1);
        self.observer = Some(Arc::new(f));
        self
    }

    /// Hands `progress` to the observer, if any: for callers that drive several runs (a sweep
    /// reports points done) and speak to the same observer.
    pub fn notify(&self, progress: &Progress) {
        if let Some(obs) = &self.observer {
            obs(progress);
        }
    }

    /// Asks a remote sampler to report its job (id, status) to `slot`.
    pub fn with_remote_job(mut self, slot: RemoteJobSlot) -> Self {
        self.remote_job = Some(slot);
        self
    }

    /// Records a remote job's state (no-op without a slot).
    pub fn report_remote_job(&self, job: &RemoteJob) {
        if let Some(slot) = &self.remote_job
            && let Ok(mut held) = slot.lock()
        {
            *held = Some(job.clone());
        }
    }

    /// Asks the run to offer its best state to `slot` at its progress reports (which need an
    /// observer: see `with_observer`).
    pub fn with_best_state(mut self, slot: BestState) -> Self {
        self.best_state = Some(slot);
        self
    }

    /// Whether progress reports go somewhere (runs offer their best state only then).
    pub fn has_observer(&self) -> bool {
        self.observer.is_some()
    }

    /// A handle another thread can use to cancel the run.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Asks the run to stop; samplers return the reads completed so far.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::Relaxed);
    }

    /// Whether `cancel` was called (here or through `cancel_flag`).
    pub fn is_cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    /// The threads a run of `work_units` independent pieces uses: the request (all cores when
    /// unset), never more than the cores nor than the pieces of work.
    pub fn threads_for(&self, work_units: usize) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.threads
            .unwrap_or(cores)
            .min(cores)
            .min(work_units)
            .max(1)
    }

    /// Runs `f` on a rayon pool of `threads_for(work_units)` threads (the global pool when that
    /// is all of them).
    pub(crate) fn install<R: Send>(&self, work_units: usize, f: impl FnOnce() -> R + Send) -> R {
        let threads = self.threads_for(work_units);
        if threads == rayon::current_num_threads() {
            return f();
        }
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(f),
            Err(_) => f(),
        }
    }
}

/// Progress shared by a run's workers: counters they add to, and the observer they call.
pub(crate) struct ProgressTracker<'a> {
    control: &'a RunControl,
    sweeps_done: AtomicU64,
    sweeps_total: u64,
    best_bits: AtomicU64,
    phase: Phase,
    reads_done: AtomicU64,
    reads_total: u64,
    started: Instant,
    time_limit: Option<Duration>,
}

impl<'a> ProgressTracker<'a> {
    /// A tracker of `sweeps_total` sweeps (0: open-ended).
    pub fn new(control: &'a RunControl, sweeps_total: u64) -> Self {
        ProgressTracker {
            control,
            sweeps_done: AtomicU64::new(0),
            sweeps_total,
            best_bits: AtomicU64::new(f64::INFINITY.to_bits()),
            phase: Phase::Sampling,
            reads_done: AtomicU64::new(0),
            reads_total: 0,
            started: Instant::now(),
            time_limit: None,
        }
    }

    /// Counts `reads_total` reads as they end (`read_done`), and reports time against
    /// `time_limit`, counted from `started` (the run's start, pilot included).
    pub fn with_reads_and_time(
        mut self,
        reads_total: usize,
        started: Instant,
        time_limit: Option<Duration>,
    ) -> Self {
        self.reads_total = reads_total as u64;
        self.started = started;
        self.time_limit = time_limit;
        self
    }

    /// One more read has ended.
    pub fn read_done(&self) {
        self.reads_done.fetch_add(1, Ordering::Relaxed);
        self.add(0, f64::INFINITY);
    }

    /// A tracker of a pilot's sweeps (reported as `Phase::Pilot`, energies not shown).
    pub fn pilot(control: &'a RunControl, sweeps_total: u64) -> Self {
        ProgressTracker {
            phase: Phase::Pilot,
            ..Self::new(control, sweeps_total)
        }
    }

    pub fn is_cancelled(&self) -> bool {
        self.control.is_cancelled()
    }

    pub fn every(&self) -> usize {
        self.control.progress_every_sweeps.max(1)
    }

    pub fn wants_reports(&self) -> bool {
        self.control.observer.is_some()
    }

    /// Offers a state of `energy` (model units) as the run's best so far; `state` is called
    /// only when someone watches and the energy beats the best held.
    pub fn offer(&self, energy: f64, state: impl FnOnce() -> Vec<u8>) {
        if let Some(slot) = &self.control.best_state {
            slot.offer(energy, state);
        }
    }

    /// Adds work done and an energy seen; calls the observer.
    pub fn add(&self, sweeps: u64, energy: f64) {
        let done = self.sweeps_done.fetch_add(sweeps, Ordering::Relaxed) + sweeps;
        let mut cur = self.best_bits.load(Ordering::Relaxed);
        while energy < f64::from_bits(cur) {
            match self.best_bits.compare_exchange_weak(
                cur,
                energy.to_bits(),
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(actual) => cur = actual,
            }
        }
        if let Some(obs) = &self.control.observer {
            let best = f64::from_bits(self.best_bits.load(Ordering::Relaxed));
            obs(&Progress {
                sweeps_done: done,
                sweeps_total: self.sweeps_total,
                best_energy: best.is_finite().then_some(best),
                phase: self.phase,
                reads_done: self.reads_done.load(Ordering::Relaxed),
                reads_total: self.reads_total,
                elapsed_s: self.started.elapsed().as_secs_f64(),
                time_limit_s: self.time_limit.map(|d| d.as_secs_f64()),
            });
        }
    }
}
