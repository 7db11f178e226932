//! How SA's β range is chosen when none is given (`beta_range_rule = pilot`): one round of the
//! shared tempering pilot (`sampler::pilot::pilot_range`) sized against the run's own work, or
//! dwave-samplers' formula where the run is too short to pay for a pilot.

use super::SimulatedAnnealing;
use crate::qubo::Model;
use crate::sampler::RunControl;
use crate::sampler::pilot::{RatePer, pilot_range};
use crate::sampler::replicas::Engine;
use crate::sampler::schedule::{BetaScheduleType, Schedule, ScheduleSpec};

use super::BetaRangeRule;

/// Replicas of the β-range pilot's ladder on the CSR kernel.
pub(super) const PILOT_REPLICAS: usize = 16;
/// The shortest β-range pilot, in sweeps: fewer measure the flip rates too roughly.
pub(super) const PILOT_MIN_SWEEPS: usize = 100;

/// Flip rate (accepted flips per variable and sweep) at the hot end of SA's pilot range:
/// annealing needs no hotter start than where 30 % of the variables still flip every sweep;
/// the cold end is `SA_COLD_FACTOR` × the β where the pilot's replicas freeze, so the anneal
/// finishes its descent below the freezing point. Measured (1000 sweeps, seed 1): on presolved
/// Euler96 #1, hot rates 0.5 / 0.3 / 0.12 with the freeze point as cold end gave 49 / 56 / 63 %
/// of reads at the ground state, and cold factors 1.7 / 2.5 / 3.5 gave 87 / 82 / 74 %; rate
/// 0.12 froze the 3-D spin glasses too early (L12: −3084 against −3100 at 0.3), so 0.3 it is.
pub(in crate::sampler) const SA_HOT_FLIP_RATE: f64 = 0.3;
/// See `SA_HOT_FLIP_RATE`.
pub(in crate::sampler) const SA_COLD_FACTOR: f64 = 1.7;

/// Neighbours per variable at which one pilot replica-sweep costs a second read-sweep of the
/// dense kernel's run (`dense_pilot_cost`).
const PILOT_NEIGHBOURS_PER_READ_SWEEP: f64 = 60.0;

/// How many of the dense kernel's read-sweeps one pilot replica-sweep costs on a model with
/// `entries` CSR entries over n variables. The pilot's ladder spans the hot β where most
/// variables flip in some lane, so nearly every visit streams the variable's row through all
/// lanes; the run's reads are mostly cold and pay a row only per accepted flip. Sized as
/// elsewhere, the pilot cost as much as the sampling itself on a complete 400-variable graph
/// (50 reads × 1000 sweeps, one thread: a replica-sweep cost 7.7 read-sweeps there, and 4.8 on
/// the edge 6×6 COO with 277 neighbours).
pub(super) fn dense_pilot_cost(n: usize, entries: usize) -> f64 {
    1.0 + entries as f64 / n.max(1) as f64 / PILOT_NEIGHBOURS_PER_READ_SWEEP
}

impl SimulatedAnnealing {
    /// Sweeps for the β-range pilot on `replicas` replicas side by side — an eighth of the
    /// run's own work, between 100 and 1000 sweeps, so short runs do not pay for a long pilot
    /// (a quarter chose the same ranges within seed noise and cost a third of a 50-read run) —
    /// or `None` when the range is given, custom, chosen by dwave-samplers' formula, or the run
    /// is too short for any pilot (`too_short_for_a_pilot`).
    ///
    /// `cost`: how many of the run's read-sweeps one pilot replica-sweep costs (1 where the
    /// pilot and the run sweep alike; `dense_pilot_cost` on the dense kernel).
    pub(super) fn pilot_sweeps(
        &self,
        spec: &ScheduleSpec,
        replicas: usize,
        cost: f64,
    ) -> Option<usize> {
        let pilot = self.pilot_rule_applies(spec) && self.too_short_for_a_pilot(replicas).is_none();
        let work = self.num_reads.saturating_mul(self.num_sweeps) / (replicas * 8);
        let work = (work as f64 / cost.max(1.0)) as usize;
        pilot.then(|| work.clamp(PILOT_MIN_SWEEPS, 1000))
    }

    /// Whether the range is the pilot rule's to choose: none given, not a custom schedule, and
    /// `beta_range_rule = pilot`.
    fn pilot_rule_applies(&self, spec: &ScheduleSpec) -> bool {
        spec.beta_range.is_none()
            && spec.kind != BetaScheduleType::Custom
            && self.beta_range_rule == BetaRangeRule::Pilot
    }

    /// Why this run takes dwave's formula although the pilot rule is chosen: its own work
    /// (reads × sweeps) is under half the shortest pilot's (`PILOT_MIN_SWEEPS` sweeps of
    /// `replicas` replicas), so a pilot would cost more than twice the run (1 read of 2 sweeps on
    /// ADC Q12 spent 50 s in its pilot). `None` when the pilot is affordable.
    pub(super) fn too_short_for_a_pilot(&self, replicas: usize) -> Option<String> {
        let work = self.num_reads.saturating_mul(self.num_sweeps);
        (work.saturating_mul(2) < PILOT_MIN_SWEEPS * replicas).then(|| {
            format!(
                "dwave's formula: {work} read-sweeps are too few to pay for a pilot of \
                 {PILOT_MIN_SWEEPS} sweeps × {replicas} replicas"
            )
        })
    }

    /// The run's β schedule and range: the given or dwave-rule range, else one found by the β
    /// pilot on `engine` (`replicas` side by side, flip rates counted per `rate_per`, sized by
    /// its `cost` per sweep as `pilot_sweeps` takes it), its cold end moved `SA_COLD_FACTOR`
    /// colder to finish the descent there. `None` when cancelled during the pilot.
    #[allow(clippy::too_many_arguments)] // the pilot's knobs, as `pilot_range` takes them
    pub(super) fn piloted_schedule(
        &self,
        model: &dyn Model,
        engine: Engine,
        replicas: usize,
        rate_per: RatePer,
        cost: f64,
        seed: u64,
        control: &RunControl,
    ) -> Option<(Schedule, [f64; 2], Option<String>)> {
        let mut spec = self.schedule_spec();
        let range_from = self
            .pilot_rule_applies(&spec)
            .then(|| self.too_short_for_a_pilot(replicas))
            .flatten();
        if let Some(sweeps) = self.pilot_sweeps(&spec, replicas, cost) {
            let (hot, cold) = pilot_range(
                model,
                engine,
                replicas,
                sweeps,
                SA_HOT_FLIP_RATE,
                rate_per,
                seed,
                control,
            )?;
            spec.beta_range = Some([hot, cold * SA_COLD_FACTOR]);
        }
        let (schedule, range) = spec.schedule(model);
        Some((schedule, range, range_from))
    }
}
