//! Tempering under constraint-preserving moves: ladders of scalar replicas that hold the
//! model's exactly-one groups (`sampler::moves`).

use super::*;
use crate::sampler::moves::ladder::{LadderEnd, SwapCounts};
use crate::sampler::moves::lanes::LaneType;

/// `ladder_from` of a piloted ladder under moves: the pilot places the ends (the hot end where
/// the replicas can still keep every pair swapping), the β values between stay geometric.
const MOVES_LADDER_FROM: &str = "pilot's ends, geometric between";

impl ParallelTempering {
    /// The empty result of a run cancelled before its first ladder (during the pilot).
    pub(super) fn cancelled_before_sampling(&self, model: &dyn Model, seed: u64) -> SampleSet {
        let info =
            SampleInfo::cancelled_before_sampling(self.name(), self.params(), self.num_reads, seed);
        SampleSet::from_states(model, Vec::new(), info)
    }

    /// Tempering under moves that hold the model's exactly-one groups (`moves`): each ladder
    /// is `num_replicas` replicas on a geometric ladder over the β range measured on the moves
    /// (or given), whose hot end an adaptive ladder's pilot then places, and runs until it
    /// reaches the target energy, its sweeps or the timeout; every ladder that was not
    /// cancelled is a read.
    pub(super) fn sample_moves(
        &self,
        model: &dyn Model,
        plan: &MovePlan,
        control: &RunControl,
        t0: Instant,
    ) -> Result<SampleSet, SampleError> {
        use crate::sampler::moves::run;
        let n = model.num_variables();
        let threads = control.threads_for(self.num_reads);
        let seed = self.seed.unwrap_or_else(rand::random);
        let layout = run::prepare(model, plan, self.num_reads, threads, seed, || {
            format!(
                "parallel tempering with {} moves of {} ladders of {} replicas on {n} variables \
                 with {threads} thread(s)",
                plan.kind(),
                self.num_reads,
                self.num_replicas
            )
        })?;
        let (hot, cold) = match self.beta_range {
            Some([a, b]) => (a, b),
            None => run::beta_range(
                &layout,
                plan,
                seed,
                crate::sampler::moves::RangeFor::Tempering,
            )?,
        };
        let mut beta = geometric(hot, cold, self.num_replicas);
        // Replicas side by side in lanes where the moves allow them and a ladder fits.
        let lane_rows = layout
            .lane_rows(plan, LaneType::Auto)
            .filter(|_| beta.len() <= super::super::moves::lanes::MOVE_LANES);
        let target = control.target_energy;
        let (num_sweeps, time_limit) = self.stopping(control, t0);
        let mut pilot_cut_short = false;
        let piloted = self.runs_pilot(super::MOVES_PILOT_LEAST_ROUND);
        if piloted {
            // The same respacing as the flip ladders' pilot, on one ladder of moves: rounds of
            // at most MOVES_PILOT_PROPOSALS proposals each (a full Eternity II sweep of 16
            // replicas is 2.5 million), each followed by `respace`, within the pilot's share
            // of the time limit; the run keeps only the ends it arrives at (below).
            // (A run of a few sweeps gets a pilot as short: one sweep of moves on a large
            // board is millions of proposals, enough to respace on.)
            let per_round = (self.pilot_sweeps / PILOT_ROUNDS)
                .min(MOVES_PILOT_PROPOSALS / (n.max(1) * beta.len()))
                .max(4)
                .min(
                    self.num_sweeps
                        .map_or(usize::MAX, |s| (s / PILOT_ROUNDS).max(1)),
                );
            let pilot_tracker = ProgressTracker::pilot(control, (PILOT_ROUNDS * per_round) as u64)
                .with_reads_and_time(0, t0, time_limit);
            let pilot_ending = Ending::new(pilot_deadline(t0, time_limit), false);
            for round in 0..PILOT_ROUNDS {
                let swaps = SwapCounts::new(beta.len());
                let pilot = Temper {
                    plan,
                    layout: &layout,
                    model,
                    beta: &beta,
                    num_sweeps: per_round,
                    target: None,
                    ending: &pilot_ending,
                    seed: seed ^ (0x7069_6c6f_7400 + round as u64),
                    tracker: &pilot_tracker,
                    swaps: &swaps,
                    lane_rows: lane_rows.as_ref(),
                };
                let Some(ran) = pilot.ladder(0) else {
                    return Ok(self.cancelled_before_sampling(model, seed));
                };
                let rates = swaps.rates();
                if ran.sweeps >= 2 {
                    beta = crate::sampler::pilot::respace(
                        &beta,
                        &rates,
                        Some(crate::sampler::pilot::MIN_SWAP_RATE),
                    );
                }
                if ran.timed_out {
                    pilot_cut_short = true;
                    break;
                }
            }
            // The run keeps the pilot's ends, not its spacing: the rounds start from random
            // states, so under moves its cold replicas measure swaps far from where the run's are
            // (Numberlink: E ≈ 25 in the pilot against 3–9 later) and respacing by them moves
            // replicas out of the region that becomes the bottleneck. Janko's 58 10×10 boards
            // without presolve, seeds 1 and 2: 57 and 55 solved within 60 s, median 8.0 and
            // 9.1 s, against 56 and 56, 11.2 and 13.2 s with the pilot's spacing; random 8×8
            // edge boards unchanged (108–109 of 112 joints). See `MOVES_LADDER_FROM`.
            beta = geometric(beta[0], beta[beta.len() - 1], beta.len());
        }
        let tracker = ProgressTracker::new(control, self.sweeps_total(num_sweeps))
            .with_reads_and_time(self.num_reads, t0, time_limit);
        let ending = Ending::new(
            time_limit.map(|d| t0 + d),
            target.is_some() && control.end_at_first_target,
        );
        let swaps = SwapCounts::new(beta.len());
        let job = Temper {
            plan,
            layout: &layout,
            model,
            beta: &beta,
            num_sweeps,
            target,
            ending: &ending,
            seed,
            tracker: &tracker,
            swaps: &swaps,
            lane_rows: lane_rows.as_ref(),
        };
        let t_sample = Instant::now();
        let finished: Vec<LadderEnd> = control.install(self.num_reads, || {
            (0..self.num_reads)
                .into_par_iter()
                .filter_map(|read| {
                    // A ladder that could not start (time limit, first target) is not a read.
                    if !ending.may_start() {
                        return None;
                    }
                    job.ladder(read)
                })
                .collect()
        });
        let sampling_ns = t_sample.elapsed().as_nanos() as u64;
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
            let rates = swaps.rates();
            obj.insert("beta_range".into(), serde_json::json!([hot, cold]));
            obj.insert("betas".into(), serde_json::json!(beta));
            obj.insert(
                "ladder_from".into(),
                serde_json::json!(if piloted {
                    MOVES_LADDER_FROM.to_string()
                } else {
                    self.ladder_from(false)
                }),
            );
            obj.insert("swap_acceptance".into(), serde_json::json!(rates));
            obj.insert("seed".into(), serde_json::json!(seed));
            let kernel = lane_rows.as_ref().map_or(layout.name(), |r| r.kernel());
            obj.insert("kernel".into(), serde_json::json!(kernel));
            obj.insert("target_energy".into(), serde_json::json!(target));
            obj.insert("reads_at_target".into(), serde_json::json!(reads_at_target));
            obj.insert("timed_out_reads".into(), serde_json::json!(timed_out));
            obj.insert("sweeps_per_read".into(), serde_json::json!(sweeps));
        }
        // Ladders stopped because another reached the target had no fair chance: like ladders
        // never started, they are not reads (the report counts them).
        let states: Vec<Vec<u8>> = finished
            .into_iter()
            .filter(|r| !r.cut_at_first_target || r.reached_target)
            .map(|r| r.state)
            .collect();
        let mut info = SampleInfo {
            sampler: self.name().into(),
            params,
            num_reads_requested: self.num_reads,
            cancelled: states.len() < self.num_reads && control.is_cancelled(),
            seed: Some(seed),
            preprocessing_ns: (t_sample - t0).as_nanos() as u64,
            sampling_ns,
            postprocessing_ns: 0,
            num_sweeps: sweeps.iter().copied().max().unwrap_or(0),
            warnings: Vec::new(),
            details: Default::default(),
            end,
            one_trial: false,
        };
        layout.record(&mut info, plan);
        let t_post = Instant::now();
        let mut set = SampleSet::from_states(model, states, info);
        set.info.postprocessing_ns = t_post.elapsed().as_nanos() as u64;
        Ok(set)
    }
}
