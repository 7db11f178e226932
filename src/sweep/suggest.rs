//! `suggest`: weights by a coordinate search on TTS99 (for a model with an objective, on its
//! best feasible objective first) — one weight at a time, multiplied or divided by a shrinking
//! factor, a move kept only when a re-measurement with fresh seeds
//! confirms it and the point is not "penalty too weak" (the CLI's `tune`, the sweep panel's
//! Suggest weights).

use serde::{Deserialize, Serialize};

use super::stopping::{BestTts, PointWork, Runner};
use super::*;
use crate::qubo::Weights;
use crate::sampler::{RunControl, Sampler};
use crate::solve::Problem;

/// A suggestion's search: every point it tried, in order, and which it moved to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Suggestion {
    /// The best point found (lowest TTS99; among points with no valid read, the highest valid
    /// fraction is no help, so the start is kept). Never a point flagged "penalty too weak".
    pub best: SweepPoint,
    /// Every point tried, in order.
    pub path: Vec<SweepPoint>,
    /// `accepted[k]`: the search moved to `path[k]`.
    pub accepted: Vec<bool>,
    /// Why the search stopped (converged, budget, cancelled).
    pub stopped: String,
}

impl Suggestion {
    /// Why there is nothing to suggest, when no point tried gave a valid read (weights that
    /// never solved are no advice) or the best is flagged "penalty too weak".
    pub fn no_suggestion(&self) -> Option<String> {
        if self.best.penalty_too_weak {
            Some("the best point tried lets an invalid state win (penalty too weak)".into())
        } else if self.best.success_fraction == 0.0 {
            Some(format!(
                "none of the {} points tried gave a valid read ({})",
                self.path.len(),
                self.stopped
            ))
        } else {
            None
        }
    }
}

/// How much `suggest` may spend: per point, and in all.
#[derive(Clone, Copy, Debug)]
pub struct TuneEffort {
    /// Most runs per point (each with its own seed).
    pub repeats: usize,
    /// When a point stops before its last run.
    pub stop: StopRule,
    /// The whole search's time (it stops after the point running then).
    pub budget: std::time::Duration,
}

/// How good a point is for `suggest`: lower is better. Puzzles: TTS99, then fewer invalid
/// reads. A model with an objective (`objective`): the best feasible objective first (in the
/// model's direction; none feasible is worst), then TTS99 to a feasible read — so the search
/// aims at the best answer the budget finds, not only at feasibility. A "penalty too weak"
/// point is worse than any other, but among such points more valid reads is better: a search
/// started from too weak a penalty climbs out (knapsack-12 from capacity 0.5 once stopped at
/// its first point, every neighbour as flagged and so "no better").
fn tuning_score(p: &SweepPoint, objective: bool) -> (f64, f64, f64, f64) {
    let tts = p.tts99_s.unwrap_or(f64::INFINITY);
    if p.penalty_too_weak {
        return (1.0, -p.success_fraction, tts, 0.0);
    }
    if objective {
        let o = p
            .best_feasible_objective
            .map_or(f64::INFINITY, |o| if p.maximize { -o } else { o });
        return (0.0, o, tts, -p.success_fraction);
    }
    (0.0, tts, -p.success_fraction, 0.0)
}

/// Suggests weights: a coordinate search on TTS99 over every weight with terms, multiplying one
/// weight at a time by a factor (2, then √2, …) up or down and keeping a move only when TTS99
/// improves — confirmed by a second measurement of both points with fresh seeds — and the point
/// is not "penalty too weak", until the factor falls below 1.1, the `budget` runs out or
/// `control` is cancelled. `on_point` hears about every point tried.
pub fn suggest(
    problem: Problem,
    base: &Weights,
    sampler: &dyn Sampler,
    effort: TuneEffort,
    control: &RunControl,
    mut on_point: impl FnMut(&SweepPoint, bool),
) -> Result<Suggestion, SweepError> {
    let t0 = std::time::Instant::now();
    let TuneEffort {
        repeats,
        stop,
        budget,
    } = effort;
    let encoding = problem.encoding;
    let names = tunable_names(encoding)?;
    let objective = !encoding.ground_from_groups();
    let score = |p: &SweepPoint| tuning_score(p, objective);
    let repeats = repeats.clamp(1, MAX_REPEATS);
    let samplers = (0..repeats)
        .map(|r| reseeded(sampler, r))
        .collect::<Result<Vec<_>, _>>()?;
    // Fresh seeds for confirming a move: a point that looked better once may have been lucky.
    let confirmers = (repeats..2 * repeats)
        .map(|r| reseeded(sampler, r))
        .collect::<Result<Vec<_>, _>>()?;
    stop.validate().map_err(SweepError::TooLarge)?;
    // One point at a time: its runs take every core. A candidate is judged against the
    // current point's TTS99 (not solved within k × that: no better).
    let runner = |reseeded| Runner {
        problem,
        sampler,
        reseeded,
        stop,
        threads: control.threads_for(usize::MAX),
        // A model with an objective is tuned for it first; the others by TTS99.
        judged_by: (!objective).then_some(super::Metric::Tts99),
        control,
    };
    let (first, again) = (runner(&samplers), runner(&confirmers));
    let evaluate = |runner: &Runner, w: &Weights, value: f64, against: Option<f64>| {
        runner.measure(
            PointWork::new(problem, w.clone(), value, None),
            &BestTts::new(against),
        )
    };
    let (mut path, mut accepted) = (Vec::new(), Vec::new());
    let Some(start) = evaluate(&first, base, 0.0, None)? else {
        return Err(SweepError::Cancelled);
    };
    on_point(&start, true);
    let mut current = (base.clone(), start.clone());
    path.push(start);
    accepted.push(true);
    let mut factor: f64 = 2.0;
    let stopped = 'search: loop {
        let mut moved = false;
        for name in &names {
            for up in [true, false] {
                if control.is_cancelled() {
                    break 'search "cancelled".to_string();
                }
                if t0.elapsed() >= budget {
                    break 'search format!(
                        "the {} s budget ran out",
                        crate::io::number_text(budget.as_secs_f64())
                    );
                }
                let Some(next) = step(weight_value(encoding, &current.0, name), up, factor) else {
                    continue;
                };
                let weights = current.0.clone().with(name, next)?;
                let against = current.1.tts99_s;
                let Some(point) = evaluate(&first, &weights, next, against)? else {
                    break 'search "cancelled".to_string();
                };
                let mut better = score(&point) < score(&current.1);
                let mut kept = point.clone();
                if better {
                    // Confirm with fresh seeds, both sides (the winner's curse: the current
                    // point's own figure was the best of its draws, and so is this one's).
                    let against = point.tts99_s;
                    let again = |w: &Weights| evaluate(&again, w, next, against);
                    match (again(&weights)?, again(&current.0)?) {
                        (Some(new), Some(old)) => {
                            better = score(&new) < score(&old);
                            kept = new;
                        }
                        _ => break 'search "cancelled".to_string(),
                    }
                }
                on_point(&point, better);
                path.push(point);
                accepted.push(better);
                if better {
                    current = (weights, kept);
                    moved = true;
                    break; // this weight moved; on to the next one
                }
            }
        }
        if !moved {
            factor = factor.sqrt();
            if factor < 1.1 {
                // Converged only where there was a TTS99 to improve.
                break if current.1.tts99_s.is_some() {
                    if objective {
                        "converged (no factor above 1.1 improves the best feasible objective \
                         or TTS99)"
                            .to_string()
                    } else {
                        "converged (no factor above 1.1 improves TTS99)".to_string()
                    }
                } else {
                    "no factor tried down to 1.1 gave a valid read".to_string()
                };
            }
        }
    };
    Ok(Suggestion {
        best: current.1,
        path,
        accepted,
        stopped,
    })
}

/// The weights the search moves: those that scale a term (every weight of an unstored
/// encoding); none is an error that names them all.
fn tunable_names(encoding: &crate::qubo::Encoding) -> Result<Vec<String>, SweepError> {
    // Unstored encodings keep no terms, but their structure applies every weight (leaving
    // them out once made tune "converge" on Eternity II after its first point).
    let unstored = encoding.unstored().is_some();
    let names: Vec<String> = encoding
        .terms_per_weight()
        .into_iter()
        .filter(|(_, terms)| *terms > 0 || unstored)
        .map(|(n, _)| n)
        .collect();
    // Nothing to move (a board the givens decide entirely): say so rather than "converge" on
    // the first point.
    if names.is_empty() {
        return Err(SweepError::NothingToTune(
            encoding
                .weight_specs()
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join("', '"),
        ));
    }
    Ok(names)
}

/// A weight's value in `w`, else its default in `encoding` (1 for a name it lacks).
fn weight_value(encoding: &crate::qubo::Encoding, w: &Weights, name: &str) -> f64 {
    w.get(name).unwrap_or_else(|| {
        encoding
            .weight_specs()
            .iter()
            .find(|s| s.name == name)
            .map_or(1.0, |s| s.default)
    })
}

/// The next value of a weight at `v`, up or down by `factor`; from 0 only up, to 0.5.
fn step(v: f64, up: bool, factor: f64) -> Option<f64> {
    match (v == 0.0, up) {
        (true, true) => Some(0.5),
        (true, false) => None,
        (false, true) => Some(v * factor),
        (false, false) => Some(v / factor),
    }
}
