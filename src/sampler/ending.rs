//! When a run's reads end early, shared by tempering's ladders and the moves' reads: the time
//! limit, the first read at the target (when the run ends there), and the reads never started.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What a run's ladders share about ending early: the time limit, whether the run ends at its
/// first ladder at the target (`RunControl::end_at_first_target`) and whether one got there,
/// and the ladders that never started.
pub(in crate::sampler) struct Ending {
    deadline: Option<Instant>,
    at_first_target: bool,
    target_reached: AtomicBool,
    started: AtomicUsize,
    not_started: AtomicUsize,
}

impl Ending {
    pub(in crate::sampler) fn new(deadline: Option<Instant>, at_first_target: bool) -> Self {
        Ending {
            deadline,
            at_first_target,
            target_reached: AtomicBool::new(false),
            started: AtomicUsize::new(0),
            not_started: AtomicUsize::new(0),
        }
    }

    /// Whether a ladder may start now; one that may not is counted as not started. The first
    /// ladder always starts, so a run whose time limit passed during its pilot still returns
    /// a read (its start and one sweep at least) rather than nothing.
    pub(in crate::sampler) fn may_start(&self) -> bool {
        if (self.past_deadline() || self.others_done()) && self.started.load(Ordering::Relaxed) > 0
        {
            self.not_started.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        self.started.fetch_add(1, Ordering::Relaxed);
        true
    }

    /// The time limit has passed.
    pub(in crate::sampler) fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Another ladder reached the target and the run ends there.
    pub(in crate::sampler) fn others_done(&self) -> bool {
        self.at_first_target && self.target_reached.load(Ordering::Relaxed)
    }

    /// A ladder reached the target.
    pub(in crate::sampler) fn reached_target(&self) {
        self.target_reached.store(true, Ordering::Relaxed);
    }

    /// How the reads ended, from the ladders that did (`ends`: at target, timed out, cut at
    /// the first target).
    pub(in crate::sampler) fn reads_end(
        &self,
        ends: impl Iterator<Item = (bool, bool, bool)>,
        time_limit: Option<Duration>,
        pilot_cut_short: bool,
    ) -> super::ReadsEnd {
        let mut end = super::ReadsEnd {
            not_started: self.not_started.load(Ordering::Relaxed),
            time_limit_ms: time_limit.map(|d| d.as_millis() as u64),
            pilot_cut_short,
            ended_at_first_target: self.others_done(),
            ..Default::default()
        };
        for (at_target, timed_out, cut) in ends {
            end.at_target += usize::from(at_target);
            end.cut_by_time_limit += usize::from(timed_out && !at_target);
            end.cut_at_first_target += usize::from(cut && !at_target);
        }
        end
    }
}
