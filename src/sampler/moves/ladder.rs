//! Tempering ladders under moves (PT): a ladder's replicas, one `MoveState` each or side by
//! side in lanes (`lanes::LaneMoves`, per-lane β), swept and exchanged by one loop that keeps
//! the best state, the target, the time limit and the swap counts.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::assignment::{self, Scratch};
use super::lanes::{LaneMoves, MOVE_LANES, MoveRows, MoveValue};
use super::run::{EngineLayout, Layout, RESYNC_SWEEPS, SHARED_SALT, start, with_engine};
use super::{CsrEngine, Engine, GroupedEngine, MovePlan, MoveState};
use crate::qubo::Model;
use crate::rng::Xoshiro128p;
use crate::sampler::control::ProgressTracker;
use crate::sampler::kernel::with_avx2;

/// How a tempering ladder stops, shared by a run's ladders.
pub(in crate::sampler) struct Temper<'a> {
    pub plan: &'a MovePlan,
    pub layout: &'a Layout,
    pub model: &'a dyn Model,
    /// β per temperature, hot to cold.
    pub beta: &'a [f64],
    pub num_sweeps: usize,
    pub target: Option<f64>,
    /// The time limit and the first target, shared by the run's ladders.
    pub ending: &'a crate::sampler::ending::Ending,
    pub seed: u64,
    pub tracker: &'a ProgressTracker<'a>,
    /// Swaps tried and accepted per neighbouring pair, over every ladder.
    pub swaps: &'a SwapCounts,
    /// The rows for replicas side by side in lanes, when the run's moves take them
    /// (`Layout::lane_rows`).
    pub lane_rows: Option<&'a MoveRows>,
}

/// Replica-exchange counts per neighbouring pair of temperatures, shared by a run's ladders.
pub(in crate::sampler) struct SwapCounts {
    tried: Vec<AtomicUsize>,
    accepted: Vec<AtomicUsize>,
}

impl SwapCounts {
    /// Counts for a ladder of `temperatures`.
    pub fn new(temperatures: usize) -> Self {
        let zeros = || (1..temperatures).map(|_| AtomicUsize::new(0)).collect();
        SwapCounts {
            tried: zeros(),
            accepted: zeros(),
        }
    }

    /// Accepted over tried, per pair (1 where none was tried). Counted, not inferred from the
    /// sweeps: a pair is tried every other sweep, so an odd count of sweeps, or ladders that
    /// stop at different sweeps, would otherwise give rates above 1.
    pub fn rates(&self) -> Vec<f64> {
        self.tried
            .iter()
            .zip(&self.accepted)
            .map(|(t, a)| match t.load(Ordering::Relaxed) {
                0 => 1.0,
                t => a.load(Ordering::Relaxed) as f64 / t as f64,
            })
            .collect()
    }
}

/// A finished ladder: the lowest state it visited, its sweeps, and how it ended.
pub(in crate::sampler) struct LadderEnd {
    pub state: Vec<u8>,
    pub sweeps: usize,
    pub reached_target: bool,
    pub timed_out: bool,
    /// Ended because another ladder reached the target first.
    pub cut_at_first_target: bool,
}

/// A ladder's replicas, temperature by temperature (hot to cold), whatever holds them: one
/// `MoveState` per replica, or the replicas side by side in lanes.
trait Replicas {
    /// One sweep of every replica at its temperature's β (and, where the run has it, the
    /// assignment step on the coldest).
    fn sweep(&mut self, beta: &[f64]);
    /// The running energy of the replica at temperature t.
    fn energy(&self, t: usize) -> f64;
    /// Exchanges the states at temperatures t and t + 1.
    fn exchange(&mut self, t: usize);
    /// The state at temperature t.
    fn state(&self, t: usize) -> Vec<u8>;
}

/// One `MoveState` per replica, each with its own generator.
struct EachReplica<'a, E> {
    plan: &'a MovePlan,
    layout: &'a Layout,
    replicas: Vec<MoveState<E>>,
    rngs: Vec<Xoshiro128p>,
    scratch: Option<Scratch>,
    sweeps: usize,
}

impl<E: Engine> Replicas for EachReplica<'_, E> {
    #[inline(always)]
    fn sweep(&mut self, beta: &[f64]) {
        for (t, (st, rng)) in self.replicas.iter_mut().zip(&mut self.rngs).enumerate() {
            st.sweep(self.plan, rng, beta[t]);
        }
        if let (Some(a), Some(scratch)) = (&self.layout.assignment, &mut self.scratch) {
            let coldest = self.replicas.len() - 1;
            for _ in 0..assignment::steps_per_sweep(self.plan) {
                assignment::step(
                    a,
                    self.plan,
                    &mut self.replicas[coldest],
                    &mut self.rngs[coldest],
                    scratch,
                );
            }
        }
        self.sweeps += 1;
        if self.sweeps.is_multiple_of(RESYNC_SWEEPS) {
            self.replicas.iter_mut().for_each(MoveState::resync);
        }
    }
    fn energy(&self, t: usize) -> f64 {
        self.replicas[t].energy
    }
    fn exchange(&mut self, t: usize) {
        // Moves the structs (with their generators staying at their temperatures).
        self.replicas.swap(t, t + 1);
    }
    fn state(&self, t: usize) -> Vec<u8> {
        self.replicas[t].engine.state()
    }
}

/// The replicas side by side in lanes (`lanes::LaneMoves`); an exchange swaps the two lanes'
/// temperatures instead of their states.
struct SideBySide<'a, T: MoveValue> {
    lanes: LaneMoves<'a, T, MOVE_LANES>,
    /// The lane holding temperature t.
    lane_of: Vec<usize>,
}

impl<T: MoveValue> Replicas for SideBySide<'_, T> {
    #[inline(always)]
    fn sweep(&mut self, beta: &[f64]) {
        // Lanes past the ladder (padding) sweep at the coldest β; nothing reads them.
        let coldest = beta[beta.len() - 1];
        let mut inv_beta = [crate::sampler::kernel::inverse_beta(coldest as f32); MOVE_LANES];
        for (t, &l) in self.lane_of.iter().enumerate() {
            inv_beta[l] = crate::sampler::kernel::inverse_beta(beta[t] as f32);
        }
        self.lanes.sweep_at(&inv_beta);
    }
    fn energy(&self, t: usize) -> f64 {
        self.lanes.energy(self.lane_of[t])
    }
    fn exchange(&mut self, t: usize) {
        self.lane_of.swap(t, t + 1);
    }
    fn state(&self, t: usize) -> Vec<u8> {
        self.lanes.state(self.lane_of[t])
    }
}

impl Temper<'_> {
    /// Ladder `read`; `None` when cancelled. Its replicas run side by side in lanes when the
    /// run has lane rows and the ladder fits in them, else one at a time.
    pub fn ladder(&self, read: usize) -> Option<LadderEnd> {
        let r = self.beta.len();
        let mut starts = Vec::with_capacity(r);
        for t in 0..r {
            starts.push(start(self.plan, self.seed, (read * r + t) as u64, None)?);
        }
        if let (Some(rows), EngineLayout::Csr(m)) = (self.lane_rows, &self.layout.engine)
            && r <= MOVE_LANES
        {
            let spare = usize::MAX / 2;
            for l in r..MOVE_LANES {
                starts.push(start(self.plan, self.seed, (spare + l) as u64, None)?);
            }
            let shared = Xoshiro128p::for_read(self.seed ^ SHARED_SALT, read as u64);
            let lane_of = (0..r).collect();
            let job = self;
            return match rows {
                MoveRows::F32(rows) => {
                    let ladder = SideBySide {
                        lanes: LaneMoves::new(self.plan, m, rows, starts, shared),
                        lane_of,
                    };
                    with_avx2!(lanes32(job: &Temper, read: usize, ladder: SideBySide<f32>) -> Option<LadderEnd> {
                        job.run(read, ladder)
                    })
                }
                MoveRows::I16(rows) => {
                    let ladder = SideBySide {
                        lanes: LaneMoves::new(self.plan, m, rows, starts, shared),
                        lane_of,
                    };
                    with_avx2!(lanes16(job: &Temper, read: usize, ladder: SideBySide<i16>) -> Option<LadderEnd> {
                        job.run(read, ladder)
                    })
                }
            };
        }
        let job = self;
        with_avx2!(each(job: &Temper, read: usize, starts: Vec<(Xoshiro128p, Vec<u8>)>) -> Option<LadderEnd> {
            job.each_replica(read, starts)
        })
    }

    /// Ladder `read` with its replicas one at a time.
    #[inline(always)]
    fn each_replica(&self, read: usize, starts: Vec<(Xoshiro128p, Vec<u8>)>) -> Option<LadderEnd> {
        with_engine!(self.layout, |make| {
            let mut rngs = Vec::with_capacity(starts.len());
            let mut replicas = Vec::with_capacity(starts.len());
            for (rng, x) in starts {
                rngs.push(rng);
                replicas.push(MoveState::new(self.plan, make(x)));
            }
            let scratch = self
                .layout
                .assignment
                .as_ref()
                .map(|_| Scratch::new(self.plan));
            self.run(
                read,
                EachReplica {
                    plan: self.plan,
                    layout: self.layout,
                    replicas,
                    rngs,
                    scratch,
                    sweeps: 0,
                },
            )
        })
    }

    fn reached(&self, energy: f64) -> bool {
        self.target
            .is_some_and(|t| crate::qubo::reaches_target(energy, t))
    }

    #[inline(always)]
    fn run(&self, read: usize, mut replicas: impl Replicas) -> Option<LadderEnd> {
        let r = self.beta.len();
        let lowest = |reps: &dyn Replicas| {
            (0..r)
                .map(|t| (t, reps.energy(t)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .unwrap_or((0, f64::INFINITY))
        };
        let (k, e) = lowest(&replicas);
        let mut best = (e, replicas.state(k));
        let mut reached_target = self.reached(self.model.energy(&best.1));
        let mut timed_out = false;
        let mut cut_at_first_target = false;
        let mut sweeps = 0;
        let mut reported = 0;
        let mut swap_rng = Xoshiro128p::for_read(self.seed ^ 0x7377_6170, read as u64);
        while sweeps < self.num_sweeps && !reached_target {
            replicas.sweep(self.beta);
            for t in (sweeps % 2..r.saturating_sub(1)).step_by(2) {
                let d = (self.beta[t] - self.beta[t + 1])
                    * (replicas.energy(t) - replicas.energy(t + 1));
                let u = crate::rng::neg_ln_uniform(swap_rng.next_u32()) as f64;
                self.swaps.tried[t].fetch_add(1, Ordering::Relaxed);
                // Accept with min(1, e^d): −ln u ≥ −d.
                if d >= 0.0 || u >= -d {
                    replicas.exchange(t);
                    self.swaps.accepted[t].fetch_add(1, Ordering::Relaxed);
                }
            }
            sweeps += 1;
            let (k, e) = lowest(&replicas);
            if e < best.0 - 1e-12 * e.abs().max(1.0) {
                best = (e, replicas.state(k));
                if self.reached(e) {
                    // Confirm on the model itself (the running energy is a sum of ΔE).
                    reached_target = self.reached(self.model.energy(&best.1));
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
            let t = self.tracker;
            if t.wants_reports() && sweeps.is_multiple_of(t.every()) {
                t.add((sweeps - reported) as u64, best.0);
                t.offer(best.0, || best.1.clone());
                reported = sweeps;
            }
        }
        if reached_target {
            self.ending.reached_target();
        }
        if self.tracker.wants_reports() {
            self.tracker.add((sweeps - reported) as u64, best.0);
            self.tracker.offer(best.0, || best.1.clone());
        }
        self.tracker.read_done();
        Some(LadderEnd {
            state: best.1,
            sweeps,
            reached_target,
            timed_out,
            cut_at_first_target,
        })
    }
}
