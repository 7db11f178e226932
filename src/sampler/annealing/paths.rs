//! SA's two runs beside the stored-model kernels: on a model's structure (`qubo::grouped`) and
//! under moves that hold its exactly-one groups (`moves`).

use std::time::Instant;

use rayon::prelude::*;

use crate::sampler::moves::lanes::LaneType;

use super::*;

impl SimulatedAnnealing {
    /// Annealing on a structured model (`qubo::grouped`): each flip's energy change comes from
    /// counts, so a sweep costs O(variables) however many couplings the model spells out, and
    /// nothing is stored per coupling. 32 reads per lane group (`sampler/grouped.rs`); the same
    /// Metropolis rule and schedule as the stored-model kernels, with its own arithmetic (reads
    /// differ from theirs for a seed; energies are recomputed exactly). β range: an explicit
    /// one, else by `beta_range_rule` — the pilot, measured on the structured kernel, or
    /// dwave-samplers' formula computed from the structure.
    pub(super) fn sample_grouped(
        &self,
        model: &dyn Model,
        structure: &crate::qubo::GroupedModel,
        control: &RunControl,
        t0: Instant,
    ) -> Result<SampleSet, SampleError> {
        use crate::sampler::grouped::{self, LaneState, LaneTables, Sweep};
        let n = model.num_variables();
        let kernel = structure.kernel();
        let threads = control.threads_for(self.num_reads.div_ceil(grouped::LANES));
        let tables = LaneTables::new(&kernel);
        let per_thread = tables.state_bytes(grouped::LANES);
        check_memory(
            || {
                format!(
                    "simulated annealing of {} reads on the structured model of {n} variables with {threads} thread(s)",
                    self.num_reads
                )
            },
            bytes_of(&[threads, 1])
                .saturating_mul(per_thread)
                .saturating_add(tables.bytes())
                .saturating_add(bytes_of(&[self.num_reads, n])),
        )?;
        let seed = self.seed.unwrap_or_else(rand::random);
        // The same pilot as on the CSR kernel, on one lane group of the structure, its rates
        // counted per occupied variable (only those move in a one-hot model).
        let Some((schedule, range, range_from)) = self.piloted_schedule(
            model,
            Engine::Grouped(&tables),
            grouped::LANES,
            RatePer::OccupiedVariable,
            1.0,
            seed,
            control,
        ) else {
            return Ok(self.cancelled_before_sampling(model, seed));
        };
        let num_sweeps = schedule.num_sweeps();
        let tracker = ProgressTracker::new(
            control,
            (self.num_reads as u64).saturating_mul(num_sweeps as u64),
        );
        let initial_states = self.initial_states.as_deref().unwrap_or(&[]);
        let num_reads = self.num_reads;
        // One lane group: up to 32 reads (padding lanes run spare reads, dropped).
        let run = |group: std::ops::Range<usize>| -> Option<Vec<(usize, Vec<u8>)>> {
            let (starts, rngs) = lane_starts(&group, grouped::LANES, n, seed, initial_states);
            let energies: Vec<f64> = starts.iter().map(|x| model.energy(x)).collect();
            let mut state =
                LaneState::<{ grouped::LANES }>::new(&tables, &starts, &rngs, &energies);
            let live = group.len();
            let mut reported = 0;
            for sweep in 0..num_sweeps {
                state.sweep(
                    &tables,
                    &[(1.0 / schedule.beta(sweep)) as f32; grouped::LANES],
                );
                if tracker.is_cancelled() {
                    return None;
                }
                if tracker.wants_reports()
                    && ((sweep + 1).is_multiple_of(tracker.every()) || sweep + 1 == num_sweeps)
                {
                    let (lane, best) = lowest(&state.energy[..live]);
                    tracker.add(((sweep + 1 - reported) * live) as u64, best as f64);
                    tracker.offer(best as f64, || state.state(lane));
                    reported = sweep + 1;
                }
            }
            Some(
                (0..live)
                    .map(|l| (group.start + l, state.state(l)))
                    .collect(),
            )
        };
        let groups: Vec<std::ops::Range<usize>> = (0..num_reads)
            .step_by(grouped::LANES)
            .map(|s| s..(s + grouped::LANES).min(num_reads))
            .collect();
        let t_sample = Instant::now();
        let finished: Vec<(usize, Vec<u8>)> = control.install(groups.len(), || {
            groups.into_par_iter().filter_map(run).flatten().collect()
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
                kernel: "grouped",
                num_sweeps,
                t0,
                t_sample,
                warnings: Vec::new(),
            },
        ))
    }

    /// Annealing under moves that hold the model's exactly-one groups (`moves`): one read per
    /// task, each from a state that holds them. β range: an explicit one, else measured on the
    /// moves (`moves::beta_range`).
    pub(super) fn sample_moves(
        &self,
        model: &dyn Model,
        plan: &MovePlan,
        control: &RunControl,
        t0: Instant,
    ) -> Result<SampleSet, SampleError> {
        let threads = control.threads_for(self.num_reads);
        let seed = self.seed.unwrap_or_else(rand::random);
        let layout = prepare(model, plan, self.num_reads, threads, seed, || {
            format!(
                "simulated annealing with {} moves of {} reads on {} variables with {threads} \
                 thread(s)",
                plan.kind(),
                self.num_reads,
                model.num_variables()
            )
        })?;
        let mut spec = self.schedule_spec();
        if spec.beta_range.is_none() && spec.kind != BetaScheduleType::Custom {
            let (hot, cold) = crate::sampler::moves::run::beta_range(
                &layout,
                plan,
                seed,
                crate::sampler::moves::RangeFor::Annealing,
            )?;
            spec.beta_range = Some([hot, cold]);
        }
        let (schedule, range) = spec.schedule(model);
        let num_sweeps = schedule.num_sweeps();
        let tracker = ProgressTracker::new(
            control,
            (self.num_reads as u64).saturating_mul(num_sweeps as u64),
        );
        let job = Anneal {
            plan,
            layout: &layout,
            schedule: &schedule,
            seed,
            initial_states: self.initial_states.as_deref().unwrap_or(&[]),
            tracker: &tracker,
        };
        let t_sample = Instant::now();
        let num_reads = self.num_reads;
        // Lanes where the moves allow them (`moves::lanes`), unless one read at a time is
        // asked for; lane groups are fixed blocks of reads, so any thread count gives the
        // same reads.
        // (`lanes` keeps f32, `lanes16` asks for i16, any other kernel takes i16 where the
        // model fits it.)
        let lane_type = match self.kernel {
            Kernel::Lanes => LaneType::F32,
            Kernel::Lanes16 => LaneType::I16,
            _ => LaneType::Auto,
        };
        let lane_rows = (self.kernel != Kernel::Scalar && num_reads >= 2)
            .then(|| layout.lane_rows(plan, lane_type))
            .flatten();
        if lane_type == LaneType::I16 && lane_rows.is_none() && num_reads >= 2 {
            return Err(SampleError::InvalidParameter {
                name: "kernel",
                message: "lanes16 under moves needs a stored model whose coefficients are \
                          integers (after a power of two up to 64) with every move's change \
                          of energy within ±32 766, and moves that run in lanes (no turns, no \
                          assignment step); use lanes or auto"
                    .into(),
            });
        }
        let finished: Vec<(usize, Vec<u8>)> = control.install(num_reads, || match &lane_rows {
            Some(rows) => (0..num_reads)
                .step_by(MOVE_LANES)
                .collect::<Vec<_>>()
                .into_par_iter()
                .filter_map(|first| {
                    let reads: Vec<usize> = (first..(first + MOVE_LANES).min(num_reads)).collect();
                    let states = job.lane_group(rows, &reads)?;
                    Some(reads.into_iter().zip(states).collect::<Vec<_>>())
                })
                .flatten()
                .collect(),
            None => (0..num_reads)
                .into_par_iter()
                .filter_map(|k| job.read(k).map(|x| (k, x)))
                .collect(),
        });
        let states: Vec<Vec<u8>> = finished.into_iter().map(|(_, x)| x).collect();
        let mut set = self.finish(
            model,
            states,
            control,
            RunRecord {
                range,
                range_from: None,
                seed,
                kernel: lane_rows.as_ref().map_or(layout.name(), |r| r.kernel()),
                num_sweeps,
                t0,
                t_sample,
                warnings: Vec::new(),
            },
        );
        layout.record(&mut set.info, plan);
        Ok(set)
    }
}
