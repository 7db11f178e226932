//! The adaptive ladder: a few short rounds of tempering on one ladder, each followed by
//! moving the β values so that every neighbouring pair would swap equally often.
//!
//! Why this placement: for roughly Gaussian energy distributions the swap acceptance of
//! a pair is a decreasing function of Δβ·σ_E, so −ln(acceptance) grows like (Δβ)² inside a
//! gap. Each gap therefore gets a "length" √(−ln a) spread evenly over its log-β span, and
//! the new β values cut the total length into equal parts. Gaps that swap almost always
//! shrink, gaps that rarely swap are split; a few rounds settle the ladder. The hot end is
//! moved to where the hottest replicas still accept most single flips but no further:
//! hotter than that they only wander through random states and cost replicas (dwave's
//! hot β accepts every flip with p ≥ ½, far hotter than these penalty models need).
//!
//! One pilot serves every sampler that needs a β range from the model: tempering's adaptive
//! ladder (`adapt_ladder`, several rounds) and simulated annealing's range (`pilot_range`, one
//! round that picks the ends), on the CSR kernel and on a model's structure alike.

use super::kernel::with_avx2;
use super::replicas::{Engine, Ladder, MAX_REPLICAS, Replicas, SwapStats};
use super::*;
use std::time::Instant;

/// Accepted flips per variable and sweep at which the hot end sits: replicas there still
/// change half their variables every sweep, plenty to forget where they were.
pub const HOT_FLIP_RATE: f64 = 0.5;

/// The ladder's ends from a pilot round's flip rates per β (hot to cold, `rates[t]` at
/// `beta[t]`) on a model of n variables: the hot end where the rate falls to `hot_rate`
/// (`HOT_FLIP_RATE` for tempering), the cold end where it comes within one flip per sweep of the coldest
/// replica's rate (colder replicas are frozen: they only repeat the one above). Both ends
/// are interpolated in log β and stay inside the pilot's range.
pub fn ends(beta: &[f64], rates: &[f64], n: usize, hot_rate: f64) -> (f64, f64) {
    let r = beta.len();
    let (first, last) = (beta[0], beta[r - 1]);
    if r < 2 {
        return (first, last);
    }
    // The β (log-interpolated) where the rate first falls to `level`, going colder.
    let crossing = |level: f64| -> Option<f64> {
        (0..r - 1).find_map(|t| {
            let (a, b) = (rates[t], rates[t + 1]);
            (a > level && b <= level).then(|| {
                let frac = (a - level) / (a - b);
                (beta[t].ln() + frac * (beta[t + 1].ln() - beta[t].ln())).exp()
            })
        })
    };
    let hot = if rates[0] <= hot_rate {
        first
    } else {
        crossing(hot_rate).unwrap_or(first)
    };
    let frozen = rates[r - 1] + 1.0 / n.max(1) as f64;
    let cold = crossing(frozen).unwrap_or(last).max(hot);
    if cold <= hot * 1.01 {
        // Nothing changes over the range (e.g. a model without couplings): keep it.
        return (first, last);
    }
    (hot, cold)
}

/// Swap acceptance every pair should keep: when the measured gaps are too long for the
/// replicas to keep every pair at least this likely, `respace` gives up the hot end.
/// Measured on the harness's random 6×6 edge matching (target −60, 60 s, 2 threads): 0.1
/// left the pairs at ~10 % and solved 2 runs of 3; 0.25 solved 6 of 6 (2–48 s), while the
/// Sudoku models keep their times (their pairs already swap at 20–40 %).
pub const MIN_SWAP_RATE: f64 = 0.25;

/// Moves the β values (hot to cold) so that each gap has an equal share of the total
/// length √(−ln acceptance); `rates[t]` is the acceptance of pair (t, t+1). The cold end
/// stays. The hot end stays too, unless `min_rate` is given and equal shares would leave
/// the pairs below it: then the gaps get the length of `min_rate`, counted from the cold
/// end, and the hottest part of the range is dropped (too few replicas to bridge it).
pub fn respace(beta: &[f64], rates: &[f64], min_rate: Option<f64>) -> Vec<f64> {
    let r = beta.len();
    if r < 3 {
        return beta.to_vec();
    }
    // Walk from the cold end: reversed positions (log β) and gap lengths.
    let x: Vec<f64> = beta.iter().rev().map(|b| b.ln()).collect();
    // Floors keep an always-accepting gap from collapsing to nothing and an
    // never-accepting one from taking every replica.
    let length: Vec<f64> = rates
        .iter()
        .rev()
        .map(|&a| (-a.clamp(1e-4, 0.999).ln()).sqrt())
        .collect();
    let total: f64 = length.iter().sum();
    let even = total / (r - 1) as f64;
    let spacing = match min_rate {
        Some(m) => even.min((-m.ln()).sqrt()),
        None => even,
    };
    let keep_hot_end = spacing >= even;
    let mut out = Vec::with_capacity(r);
    out.push(beta[r - 1]);
    let (mut gap, mut before) = (0, 0.0);
    for k in 1..r {
        if k == r - 1 && keep_hot_end {
            out.push(beta[0]);
            break;
        }
        let want = spacing * k as f64;
        while gap < length.len() - 1 && before + length[gap] < want {
            before += length[gap];
            gap += 1;
        }
        let frac = if length[gap] > 0.0 {
            ((want - before) / length[gap]).clamp(0.0, 1.0)
        } else {
            0.0
        };
        out.push((x[gap] + frac * (x[gap + 1] - x[gap])).exp());
    }
    out.reverse();
    out
}

/// What the pilot run does: `rounds` rounds of `sweeps_per_round` sweeps on one ladder, each
/// followed by `pilot::respace`; with `choose_ends`, the first round picks the ends instead
/// (`pilot::ends`).
pub(super) struct PilotPlan {
    pub(super) rounds: usize,
    pub(super) sweeps_per_round: usize,
    pub(super) choose_ends: bool,
    pub(super) hot_rate: f64,
    /// What a flip rate is counted per, when the ends are chosen.
    pub(super) rate_per: RatePer,
    pub(super) seed: u64,
    /// When the pilot must stop (its share of the run's time limit): the round under way is
    /// measured on the sweeps it did, and the ladder as placed so far is used.
    pub(super) deadline: Option<Instant>,
}

/// What the pilot's flip rates are counted per.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sampler) enum RatePer {
    /// Every variable of the model.
    Variable,
    /// Every variable that is on in the coldest quarter of the ladder: in a one-hot model only
    /// those (one per group in a valid state) can move, so a rate per variable would shrink with
    /// the number of candidates per group and put the hot end where the state is still noise
    /// (β ≈ 10⁻³ on Eternity II).
    OccupiedVariable,
}

/// The pilot's random stream (reads use 0, 1, 2, …).
const PILOT_STREAM: u64 = u64::MAX >> 8;

/// Places an adaptive ladder from `beta` (kernel units, hot to cold), and says whether the
/// pilot's deadline cut it short. `None` when cancelled. Inlined into `on_ladder!`'s AVX2
/// body: a function call out of it would compile the sweeps without AVX2 and FMA.
#[inline(always)]
fn adapt<const L: usize, R: Replicas<L>>(
    mut ladder: Ladder<L, R>,
    n: usize,
    plan: &PilotPlan,
    control: &RunControl,
) -> Option<(Vec<f64>, bool)> {
    // Watchers learn that a pilot runs (a large model's can take seconds before any read).
    let tracker = crate::sampler::control::ProgressTracker::pilot(
        control,
        (plan.rounds * plan.sweeps_per_round) as u64,
    );
    let mut cut_short = false;
    for round in 0..plan.rounds {
        let mut stats = SwapStats::new(ladder.beta.len() - 1);
        for s in 0..plan.sweeps_per_round {
            if s >= 2 && plan.deadline.is_some_and(|d| Instant::now() >= d) {
                cut_short = true;
                break;
            }
            if tracker.wants_reports() && s % tracker.every() == 0 {
                tracker.add(
                    if s == 0 && round == 0 {
                        0
                    } else {
                        tracker.every() as u64
                    },
                    f64::INFINITY,
                );
            }
            // Measure the second half only: the first settles the replicas at their new β.
            if s == plan.sweeps_per_round / 2 {
                stats = SwapStats::new(ladder.beta.len() - 1);
            }
            ladder.sweep::<true>(&mut stats.flips);
            stats.sweeps += 1;
            ladder.exchange(s % 2, &mut stats);
            if control.is_cancelled() {
                return None;
            }
        }
        ladder.resync();
        let next = if round == 0 && plan.choose_ends {
            let per = match plan.rate_per {
                RatePer::Variable => n,
                RatePer::OccupiedVariable => occupied(&ladder),
            };
            let rates = stats.flip_rates(per);
            let (hot, cold) = ends(&ladder.beta, &rates, per, plan.hot_rate);
            geometric(hot, cold, ladder.beta.len())
        } else {
            let floor = plan.choose_ends.then_some(pilot::MIN_SWAP_RATE);
            respace(&ladder.beta, &stats.rates(), floor)
        };
        ladder.set_betas(next);
        if cut_short {
            break;
        }
    }
    Some((ladder.beta, cut_short))
}

/// Variables on, averaged over the coldest quarter of the ladder's temperatures (at least one
/// temperature, and at least one variable).
fn occupied<const L: usize, R: Replicas<L>>(ladder: &Ladder<L, R>) -> usize {
    let r = ladder.beta.len();
    let coldest = (r / 4).max(1);
    let on: usize = (r - coldest..r)
        .map(|t| {
            let x = ladder.state(ladder.lane_of_temp[t]);
            x.iter().filter(|&&b| b != 0).count()
        })
        .sum();
    (on as f64 / coldest as f64).round().max(1.0) as usize
}

/// `adapt` on a new ladder of `beta` (kernel units) on `engine` (see `on_ladder!`).
pub(super) fn adapt_ladder(
    engine: Engine,
    model: &dyn Model,
    beta: Vec<f64>,
    plan: &PilotPlan,
    control: &RunControl,
) -> Option<(Vec<f64>, bool)> {
    let n = engine.num_variables();
    on_ladder!(adapt(engine, model, beta, plan.seed, PILOT_STREAM,
        n: usize, plan: &PilotPlan, control: &RunControl) -> Option<(Vec<f64>, bool)>)
}

/// A β range for `model` found by one pilot round of tempering on `engine` (`replicas`
/// replicas over dwave's range, `sweeps` sweeps, swaps as in a run): from where `hot_rate` flips
/// per sweep and counted unit (`rate_per`) happen to where the model freezes (`ends`). The one
/// pilot simulated annealing uses, on the CSR kernel and on a model's structure alike. `None`
/// when cancelled.
#[allow(clippy::too_many_arguments)] // one pilot, described by its knobs; a struct would only rename them
pub(in crate::sampler) fn pilot_range(
    model: &dyn Model,
    engine: Engine,
    replicas: usize,
    sweeps: usize,
    hot_rate: f64,
    rate_per: RatePer,
    seed: u64,
    control: &RunControl,
) -> Option<(f64, f64)> {
    let (hot, cold) = default_beta_range(model);
    let scale = engine.scale();
    let beta: Vec<f64> = geometric(hot, cold, replicas.clamp(2, MAX_REPLICAS))
        .into_iter()
        .map(|b| b / scale)
        .collect();
    let plan = PilotPlan {
        rounds: 1,
        sweeps_per_round: sweeps,
        choose_ends: true,
        hot_rate,
        rate_per,
        seed,
        deadline: None,
    };
    let (beta, _) = adapt_ladder(engine, model, beta, &plan, control)?;
    Some((beta[0] * scale, beta[beta.len() - 1] * scale))
}

/// `count` values from `hot` to `cold`, evenly spaced in log β.
pub(super) fn geometric(hot: f64, cold: f64, count: usize) -> Vec<f64> {
    if count == 1 {
        return vec![cold];
    }
    (0..count)
        .map(|k| hot * (cold / hot).powf(k as f64 / (count - 1) as f64))
        .collect()
}
