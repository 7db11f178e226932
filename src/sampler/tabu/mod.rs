//! Tabu search (`tabu`): one-flip moves chosen by exact, incrementally kept gains; a flipped
//! variable is tabu for `tenure` moves unless flipping it beats the best energy (aspiration);
//! after a restart's walk stops improving, the next restart starts from the best state found,
//! perturbed (multi-start from an elite, as MST2 and dwave-samplers' TabuSampler do).
//!
//! Parameter names follow dwave-samplers' `TabuSampler` (`num_reads`, `tenure`, `num_restarts`,
//! `timeout` in ms, `seed`). One difference, on purpose: dwave stops by a timeout (20 ms a read by
//! default), which makes a seed's result depend on the machine; ours stops after `num_restarts`
//! unless a timeout is given, so a seed gives the same samples anywhere, at any thread count.
//!
//! Invariant: `gain[i]` is always (1 − 2·x_i)·(linear_i + Σ_j Q_ij·x_j) for the current state,
//! the exact ΔE of flipping i (in f64), so a move costs O(degree) to apply and one scan over
//! the gains to choose (in AVX2 where the CPU has it: eight variables a step, no branch per
//! variable). Ties among the best moves are drawn at random, as in dwave-samplers.

use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::control::ProgressTracker;
use super::{
    RunControl, SampleError, SampleInfo, SampleSet, Sampler, SamplerEntry, build_from_json,
};
use crate::budget::{bytes_of, check_memory};
use crate::params::{ParamDefault, ParamSpec, ParamType};
use crate::qubo::{Csr, Model};
use crate::rng::Xoshiro128p;

mod scan;
use scan::{TabuList, choose};

/// The registry entry: `tabu` and its parameters (dwave-samplers' TabuSampler names).
pub const ENTRY: SamplerEntry = SamplerEntry {
    name: "tabu",
    summary: "tabu search: one-flip moves with incremental gains, restarts from perturbed elites",
    params: PARAMS,
    build: build_from_json::<TabuSearch>,
    runs_on: super::RunsOn::ThisMachine,
    plots: &[],
    effort: Some("num_restarts"),
};

const PARAMS: &[ParamSpec] = &[
    ParamSpec::num_reads(
        100_000,
        10,
        "independent searches, each from a random state",
    ),
    ParamSpec {
        name: "tenure",
        ty: ParamType::Int {
            min: 0,
            max: 1_000_000,
        },
        default: ParamDefault::Auto("min(20, n/4)"),
        help: "moves a flipped variable stays tabu",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "num_restarts",
        ty: ParamType::Int {
            min: 1,
            max: 1_000_000,
        },
        default: ParamDefault::Int(10),
        help: "walks per read; each after the first starts from the best state, perturbed",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "stall_moves",
        ty: ParamType::Int {
            min: 1,
            max: 1_000_000_000,
        },
        default: ParamDefault::Auto("max(1000, 10·n)"),
        help: "a walk ends after this many moves without a new best",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "timeout_ms",
        ty: ParamType::Int {
            min: 1,
            max: 86_400_000,
        },
        default: ParamDefault::Auto("none: stop after num_restarts"),
        help: "milliseconds per read, at most (results then depend on the machine's speed)",
        alias: Some("timeout"),
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Auto("random, recorded in the result"),
        "seed: the same seed gives the same samples at any thread count (without a timeout)",
    ),
];

/// Tabu search's parameters (see `PARAMS`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TabuSearch {
    /// Independent searches.
    pub num_reads: usize,
    /// Moves a flipped variable stays tabu; `None`: min(20, n/4).
    pub tenure: Option<usize>,
    /// Walks per read.
    pub num_restarts: usize,
    /// Moves without a new best that end a walk; `None`: max(1000, 10·n).
    pub stall_moves: Option<usize>,
    /// Milliseconds per read, at most; `None`: no time limit.
    #[serde(alias = "timeout")]
    pub timeout_ms: Option<u64>,
    /// `None` draws a seed (recorded in the result's info).
    pub seed: Option<u64>,
}

impl Default for TabuSearch {
    fn default() -> Self {
        TabuSearch {
            num_reads: 10,
            tenure: None,
            num_restarts: 10,
            stall_moves: None,
            timeout_ms: None,
            seed: None,
        }
    }
}

/// Moves between checks of the cancel flag and the clock (about 10 µs to 1 ms of work).
const CHECK_EVERY: usize = 1024;

/// One search's fixed inputs.
struct Search<'a> {
    csr: &'a Csr,
    tenure: usize,
    stall_moves: usize,
    num_restarts: usize,
    /// Per read (`timeout_ms`), counted from the read's start.
    deadline: Option<Duration>,
    /// The caller's (`RunControl::deadline`).
    run_deadline: Option<Instant>,
    tracker: &'a ProgressTracker<'a>,
}

/// A search's moving state: the assignment, the gain of flipping each variable and the energy.
struct Walk {
    x: Vec<u8>,
    /// ΔE of flipping i: (1 − 2·x_i)·field_i, kept incrementally (the moves' scan reads
    /// only this array).
    gain: Vec<f64>,
    /// 1 − 2·x_i: +1 at 0, −1 at 1.
    sign: Vec<f64>,
    energy: f64,
}

impl Walk {
    fn new(csr: &Csr, x: Vec<u8>) -> Walk {
        let mut energy = csr.offset;
        let mut field = csr.linear.clone();
        for (i, f) in field.iter_mut().enumerate() {
            let (cols, vals) = csr.row(i);
            for (&j, &q) in cols.iter().zip(vals) {
                if x[j as usize] != 0 {
                    *f += q;
                }
            }
        }
        for (i, &xi) in x.iter().enumerate() {
            if xi != 0 {
                // Each coupling is counted from its lower end only.
                let (cols, vals) = csr.row(i);
                let upper: f64 = cols
                    .iter()
                    .zip(vals)
                    .filter(|&(&j, _)| j as usize > i && x[j as usize] != 0)
                    .map(|(_, &q)| q)
                    .sum();
                energy += csr.linear[i] + upper;
            }
        }
        let sign: Vec<f64> = x.iter().map(|&b| if b != 0 { -1.0 } else { 1.0 }).collect();
        let gain = field.iter().zip(&sign).map(|(f, s)| f * s).collect();
        Walk {
            x,
            gain,
            sign,
            energy,
        }
    }

    /// Flips i. A neighbour's gain changes by its sign times the coupling times i's change
    /// (+1 to 1, −1 to 0); the signs are ±1, so every gain stays exactly sign·field, the same
    /// sums in the same order as keeping the fields themselves.
    #[inline(always)]
    fn flip(&mut self, csr: &Csr, i: usize) {
        let change = self.sign[i];
        self.energy += self.gain[i];
        self.gain[i] = -self.gain[i];
        self.sign[i] = -change;
        self.x[i] ^= 1;
        let (cols, vals) = csr.row(i);
        for (&j, &q) in cols.iter().zip(vals) {
            let j = j as usize;
            self.gain[j] += self.sign[j] * (change * q);
        }
    }
}

impl Search<'_> {
    /// One read: `num_restarts` walks; the best state of all, and whether the timeout ended
    /// it. `None` when cancelled.
    fn run(&self, seed: u64, read: usize, started: Instant) -> Option<(Vec<u8>, bool)> {
        let n = self.csr.num_variables();
        let mut rng = Xoshiro128p::for_read(seed, read as u64);
        let start: Vec<u8> = (0..n).map(|_| (rng.next_u32() >> 31) as u8).collect();
        let mut best = start.clone();
        let mut best_energy = Walk::new(self.csr, start.clone()).energy;
        let mut tabu = TabuList::new(n, self.tenure);
        let mut next = start;
        let mut reported_until = 0;
        // Moves over all walks: the cancel flag and the clock are checked on this count, so a
        // read of many short walks is still stopped within CHECK_EVERY moves.
        let mut total_moves = 0usize;
        for restart in 0..self.num_restarts {
            let mut walk = Walk::new(self.csr, next);
            tabu.clear();
            let mut stalled = 0;
            let mut moves = 0usize;
            while stalled < self.stall_moves && n > 0 {
                let Some(i) = choose(&mut walk, &tabu, moves, best_energy, &mut rng) else {
                    break; // every move tabu and none aspirated (tenure ≥ n)
                };
                walk.flip(self.csr, i);
                tabu.mark(i, moves);
                moves += 1;
                total_moves += 1;
                if walk.energy < best_energy - improvement(best_energy) {
                    best_energy = walk.energy;
                    best.copy_from_slice(&walk.x);
                    stalled = 0;
                } else {
                    stalled += 1;
                }
                if total_moves.is_multiple_of(CHECK_EVERY) {
                    if self.tracker.is_cancelled() {
                        return None;
                    }
                    if self.deadline.is_some_and(|d| started.elapsed() >= d)
                        || self.run_deadline.is_some_and(|d| Instant::now() >= d)
                    {
                        let rest = self.num_restarts - reported_until;
                        self.tracker.add(rest as u64, best_energy);
                        return Some((best, true));
                    }
                }
            }
            reported_until = self.report(restart, reported_until, best_energy);
            self.tracker.offer(best_energy, || best.clone());
            next = perturb(&best, &mut rng);
        }
        Some((best, false))
    }

    /// Reports finished restarts every `tracker.every()` of them and at the last; returns how
    /// many have been reported.
    fn report(&self, restart: usize, reported_until: usize, best_energy: f64) -> usize {
        let done = restart + 1;
        if done.is_multiple_of(self.tracker.every()) || done == self.num_restarts {
            self.tracker
                .add((done - reported_until) as u64, best_energy);
            done
        } else {
            reported_until
        }
    }
}

/// A brief tabu walk from `x` on the model `csr` (`moves` one-flip moves, tenure
/// min(20, n/4)), leaving in `x` the best state met; whether it changed. Post-processing for
/// reads that come from elsewhere (a QPU's unembedded samples). Its ties are drawn from a
/// fixed stream, so a state is always polished the same way.
pub fn tabu_polish(csr: &Csr, x: &mut [u8], moves: usize) -> bool {
    let n = x.len();
    let mut ties = Xoshiro128p::for_read(0, 0);
    let mut walk = Walk::new(csr, x.to_vec());
    let mut best_energy = walk.energy;
    let mut best: Option<Vec<u8>> = None;
    let tenure = (n / 4).clamp(1, 20).min(n.saturating_sub(1));
    let mut tabu = TabuList::new(n, tenure);
    for step in 0..moves {
        let Some(i) = choose(&mut walk, &tabu, step, best_energy, &mut ties) else {
            break;
        };
        walk.flip(csr, i);
        tabu.mark(i, step);
        if walk.energy < best_energy - improvement(best_energy) {
            best_energy = walk.energy;
            best = Some(walk.x.clone());
        }
    }
    match best {
        Some(b) => {
            x.copy_from_slice(&b);
            true
        }
        None => false,
    }
}

/// The smallest drop that counts as a new best (energies are kept incrementally in f64).
#[inline]
fn improvement(best: f64) -> f64 {
    crate::qubo::running_tolerance(best)
}

/// The elite with about a tenth of its variables (at least one) flipped at random.
fn perturb(elite: &[u8], rng: &mut Xoshiro128p) -> Vec<u8> {
    let mut x = elite.to_vec();
    // Flip each variable with probability 1/8 (three random bits all zero).
    for b in &mut x {
        if rng.next_u32() >> 29 == 0 {
            *b ^= 1;
        }
    }
    if x == elite && !x.is_empty() {
        let k = rng.next_u32() as usize % x.len();
        x[k] ^= 1;
    }
    x
}

impl TabuSearch {
    fn memory_estimate(&self, model: &dyn Model, threads: usize) -> u64 {
        let n = model.num_variables();
        let csr = Csr::bytes_to_build(model);
        // Per thread: state, best, next start (bytes), fields (f64) and tabu marks (usize).
        let per_thread = bytes_of(&[n, 3 + 8 + 8]);
        let reads = bytes_of(&[self.num_reads, n, 2]);
        csr.saturating_add(bytes_of(&[threads]).saturating_mul(per_thread))
            .saturating_add(reads)
    }
}

impl Sampler for TabuSearch {
    fn name(&self) -> &'static str {
        "tabu"
    }

    fn params(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }

    fn sample(&self, model: &dyn Model, control: &RunControl) -> Result<SampleSet, SampleError> {
        let t0 = Instant::now();
        let n = model.num_variables();
        let threads = control.threads_for(self.num_reads);
        check_memory(
            || {
                format!(
                    "tabu search of {} reads on {n} variables with {threads} thread(s)",
                    self.num_reads
                )
            },
            self.memory_estimate(model, threads),
        )?;
        let csr = Csr::of_model(model);
        let seed = self.seed.unwrap_or_else(rand::random);
        let tenure = self.tenure.unwrap_or((n / 4).min(20));
        let stall_moves = self.stall_moves.unwrap_or((10 * n).max(1000));
        let tracker = ProgressTracker::new(
            control,
            (self.num_reads as u64).saturating_mul(self.num_restarts as u64),
        );
        let search = Search {
            csr: &csr,
            tenure,
            stall_moves,
            num_restarts: self.num_restarts,
            deadline: self.timeout_ms.map(Duration::from_millis),
            run_deadline: control.deadline,
            tracker: &tracker,
        };
        let t_sample = Instant::now();
        let finished: Vec<(Vec<u8>, bool)> = control.install(self.num_reads, || {
            (0..self.num_reads)
                .into_par_iter()
                .filter_map(|read| search.run(seed, read, Instant::now()))
                .collect()
        });
        let sampling_ns = t_sample.elapsed().as_nanos() as u64;
        let t_post = Instant::now();
        let timed_out = finished.iter().filter(|(_, t)| *t).count();
        let states: Vec<Vec<u8>> = finished.into_iter().map(|(x, _)| x).collect();
        let mut params = self.params();
        if let Some(obj) = params.as_object_mut() {
            obj.insert("seed".into(), serde_json::json!(seed));
            obj.insert("tenure".into(), serde_json::json!(tenure));
            obj.insert("stall_moves".into(), serde_json::json!(stall_moves));
            // Reads the timeout ended (their restarts were cut short).
            obj.insert("timed_out_reads".into(), serde_json::json!(timed_out));
        }
        let info = SampleInfo {
            sampler: self.name().into(),
            params,
            num_reads_requested: self.num_reads,
            cancelled: states.len() < self.num_reads && control.is_cancelled(),
            seed: Some(seed),
            preprocessing_ns: (t_sample - t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: 0,
            warnings: Vec::new(),
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
mod tests {
    use super::*;
    use crate::qubo::{Qubo, StoredModel};

    #[test]
    fn a_polish_never_worsens_a_state_and_reaches_the_ground_of_a_small_model() {
        use crate::sampler::ExactSolver;
        let q = crate::qubo::random::random_qubo(12, 4, 3).unwrap();
        let model = StoredModel::new(q.clone());
        let ground = ExactSolver { num_reads: 1 }
            .sample(&model, &RunControl::new())
            .unwrap()
            .rows[0]
            .energy;
        let csr = q.csr();
        let mut x = vec![1u8; 12];
        let before = q.energy(&x).unwrap();
        assert!(tabu_polish(&csr, &mut x, 120));
        let after = q.energy(&x).unwrap();
        assert!(after < before);
        assert!((after - ground).abs() < 1e-9, "{after} vs ground {ground}");
        // From the ground nothing better exists: unchanged.
        assert!(!tabu_polish(&csr, &mut x, 120));
        assert!((q.energy(&x).unwrap() - ground).abs() < 1e-9);
    }

    #[test]
    fn fields_stay_exact_through_every_move() {
        let q = crate::qubo::random_qubo(40, 6, 3).unwrap();
        let m = StoredModel::new(q.clone());
        let csr = m.csr().unwrap();
        let mut rng = Xoshiro128p::for_read(1, 0);
        let mut walk = Walk::new(csr, vec![0; 40]);
        for _ in 0..500 {
            let i = rng.next_u32() as usize % 40;
            let before = walk.energy;
            let gain = walk.gain[i];
            walk.flip(csr, i);
            assert!((walk.energy - (before + gain)).abs() < 1e-9);
        }
        let fresh = Walk::new(csr, walk.x.clone());
        assert!((fresh.energy - q.energy(&walk.x).unwrap()).abs() < 1e-9);
        for (a, b) in fresh.gain.iter().zip(&walk.gain) {
            assert!((a - b).abs() < 1e-9);
        }
    }

    #[test]
    fn a_tenure_as_long_as_the_model_ends_the_walk_instead_of_spinning() {
        let m = StoredModel::new(Qubo::new(vec![1.0, -1.0], vec![(0, 1, 2.0)], 0.0).unwrap());
        let t = TabuSearch {
            num_reads: 3,
            tenure: Some(1000),
            seed: Some(1),
            ..Default::default()
        };
        let set = t.sample(&m, &RunControl::new()).unwrap();
        assert_eq!(set.num_reads(), 3);
        assert_eq!(set.rows[0].energy, -1.0);
    }

    #[test]
    fn a_timeout_bounds_the_run() {
        let m = StoredModel::new(crate::qubo::random_qubo(300, 8, 2).unwrap());
        let t = TabuSearch {
            num_reads: 2,
            num_restarts: 1_000_000,
            timeout_ms: Some(50),
            seed: Some(3),
            ..Default::default()
        };
        let set = t.sample(&m, &RunControl::new()).unwrap();
        assert_eq!(
            set.num_reads(),
            2,
            "reads end at the timeout with their best"
        );
        assert_eq!(set.info.params["timed_out_reads"], 2);
    }
}
