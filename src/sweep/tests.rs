//! Tests of `sweep`.

use super::*;
use crate::puzzle::{AnyPuzzle, EncodeOptions, REFERENCE_NODE_BUDGET, Sudoku};
use crate::sampler::SimulatedAnnealing;

/// The 4×4 Sudoku these tests sweep, encoded in full, with its reference.
struct FourByFour {
    puzzle: AnyPuzzle,
    encoding: crate::qubo::Encoding,
    reference: crate::puzzle::Reference<crate::puzzle::AnySolution>,
}

impl FourByFour {
    fn new() -> Self {
        let puzzle = AnyPuzzle::Sudoku(Sudoku::from_line("1.3...1.2.......").unwrap());
        let encoding = puzzle.encode(&EncodeOptions::default()).unwrap();
        let reference = puzzle.solve_classically(REFERENCE_NODE_BUDGET);
        FourByFour {
            puzzle,
            encoding,
            reference,
        }
    }

    fn problem(&self) -> Problem<'_> {
        Problem {
            puzzle: &self.puzzle,
            encoding: &self.encoding,
            reference: &self.reference,
        }
    }
}

/// Simulated annealing with these reads, sweeps and seed.
fn annealer(num_reads: usize, num_sweeps: usize, seed: u64) -> SimulatedAnnealing {
    SimulatedAnnealing {
        num_reads,
        num_sweeps,
        seed: Some(seed),
        ..Default::default()
    }
}

#[test]
fn values_span_the_range() {
    assert_eq!(values(0.0, 4.0, 5), Ok(vec![0.0, 1.0, 2.0, 3.0, 4.0]));
    assert_eq!(values(2.0, 2.0, 1), Ok(vec![2.0]));
    // Degenerate ranges are refused rather than run (five identical points; an ignored
    // end; subnormal weights printed as 300-digit decimals).
    assert!(matches!(values(1.0, 1.0, 5), Err(SweepError::Range(_))));
    assert!(matches!(values(2.0, 9.0, 1), Err(SweepError::Range(_))));
    assert!(matches!(
        values(1e-320, 1e-310, 3),
        Err(SweepError::Range(_))
    ));
    assert_eq!(values(0.0, 1.0, 2), Ok(vec![0.0, 1.0]));
    assert_eq!(values(0.0, 1.0, 0), Err(SweepError::Steps(0)));
    assert_eq!(
        values(0.0, 1.0, 100_000_000_000),
        Err(SweepError::Steps(100_000_000_000))
    );
    assert!(values(f64::NAN, 1.0, 2).is_err());
    // The widest range has no finite width, yet every step is a number.
    assert_eq!(values(-1e308, 1e308, 3), Ok(vec![-1e308, 0.0, 1e308]));
}

#[test]
fn a_zero_hint_strength_loses_the_givens() {
    let four = FourByFour::new();
    let sa = annealer(40, 400, 3);
    let base = Weights::new();
    let spec = |weight, values| SweepSpec {
        problem: four.problem(),
        base: &base,
        axis: Axis::Weight(weight),
        values,
        second: None,
        repeats: 1,
        stop: StopRule::NEVER,
        metric: Metric::Valid,
    };
    let pts = run(&spec("hint", &[0.0, 2.0]), &sa, &RunControl::new(), |_| {}).unwrap();
    assert_eq!(pts.len(), 2);
    assert!(pts[0].success_fraction < pts[1].success_fraction, "{pts:?}");
    assert!(pts[1].success_fraction >= 0.3, "{pts:?}");
    // At hint = 0 nearly every read reaches the (tied) ground energy, yet few keep the givens.
    assert!(pts[0].ground_fraction.unwrap() > 0.5, "{pts:?}");
    let e = run(&spec("nope", &[1.0]), &sa, &RunControl::new(), |_| {});
    assert!(e.unwrap_err().to_string().contains("unknown weight 'nope'"));
    // hint = 0 lets a state that drops the givens tie with the solution: flagged, with
    // the witness's broken rule named; at the default hint nothing invalid wins.
    assert!(pts[0].penalty_too_weak, "{pts:?}");
    let w = pts[0].witness.as_ref().unwrap();
    assert!(w.energy <= pts[0].valid_energy.unwrap() + 1e-9);
    assert!(!w.violations.is_empty() || !w.broken.is_empty(), "{w:?}");
    assert_eq!(w.sample.len(), four.encoding.num_variables());
    assert!(!pts[1].penalty_too_weak, "{pts:?}");
    assert!(pts[1].witness.is_none());
    let [lo, hi] = pts[1].success_ci95;
    assert!(lo <= pts[1].success_fraction && pts[1].success_fraction <= hi);
    assert_eq!(pts[1].weights["hint"], 2.0);
    assert!(pts[1].weights.contains_key("cell"));
}

#[test]
fn two_weights_make_a_grid_and_repeats_pool_their_reads() {
    let four = FourByFour::new();
    let sa = annealer(10, 200, 5);
    let base = Weights::new();
    let spec = SweepSpec {
        problem: four.problem(),
        base: &base,
        axis: Axis::Weight("hint"),
        values: &[0.0, 1.0, 2.0],
        second: Some((Axis::Weight("cell"), &[0.5, 1.0])),
        repeats: 3,
        stop: StopRule::NEVER,
        metric: Metric::Valid,
    };
    let pts = run(&spec, &sa, &RunControl::new(), |_| {}).unwrap();
    assert_eq!(pts.len(), 6);
    assert_eq!(
        pts.iter()
            .map(|p| (p.value, p.value2.unwrap()))
            .collect::<Vec<_>>(),
        vec![
            (0.0, 0.5),
            (0.0, 1.0),
            (1.0, 0.5),
            (1.0, 1.0),
            (2.0, 0.5),
            (2.0, 1.0)
        ]
    );
    assert!(
        pts.iter().all(|p| p.reads == 30),
        "three repeats of 10 reads"
    );
    assert_eq!(pts[3].weights["cell"], 1.0);
    // Repeats are reseeded (seed + r), so they are not three copies of one run.
    let third = reseeded(&sa, 2).unwrap().unwrap();
    assert_eq!(third.params()["seed"], 7);
    assert_eq!(third.params()["num_sweeps"], 200);
    assert!(reseeded(&sa, 0).unwrap().is_none());
}

#[test]
fn weights_without_terms_are_refused_and_intervals_are_wilson() {
    let p = AnyPuzzle::Sudoku(Sudoku::from_line("1.3...1.2.......").unwrap());
    let encoding = p
        .encode(&EncodeOptions {
            presolve: true,
            ..Default::default()
        })
        .unwrap();
    let e = check_sweepable(&encoding, "hint").unwrap_err().to_string();
    assert!(e.contains("no terms") && e.contains("presolve"), "{e}");
    assert!(check_sweepable(&encoding, "cell").is_ok());
    assert_eq!(wilson_interval(0, 0), [0.0, 1.0]);
    let [lo, hi] = wilson_interval(0, 100);
    assert!(lo < 1e-12 && (0.03..0.04).contains(&hi), "{lo} {hi}");
    let [lo, hi] = wilson_interval(50, 100);
    assert!(
        (0.40..0.41).contains(&lo) && (0.59..0.60).contains(&hi),
        "{lo} {hi}"
    );
}

/// The stopping rules: a point stops with a wide interval only when its runs or its
/// budget ran out, and says which; settled points are as narrow as asked.
#[test]
fn points_stop_when_settled_and_say_why_otherwise() {
    let four = FourByFour::new();
    // Few short reads per run: mixed points need several runs to settle.
    let sa = annealer(8, 30, 11);
    let base = Weights::new();
    let values = [0.0, 0.5, 1.0, 2.0, 3.0];
    let spec = |stop| SweepSpec {
        problem: four.problem(),
        base: &base,
        axis: Axis::Weight("hint"),
        values: &values,
        second: None,
        repeats: 6,
        stop,
        metric: Metric::Valid,
    };
    let width = |p: &SweepPoint| p.success_ci95[1] - p.success_ci95[0];
    let rule = StopRule {
        ci_width: 0.3,
        budget_factor: 0.0,
        min_budget_s: 0.0,
        tts_ratio: 3.0,
    };
    let pts = run(&spec(rule), &sa, &RunControl::new(), |_| {}).unwrap();
    assert_eq!(pts.len(), 5);
    // Grid order, whatever order they finished in.
    assert_eq!(pts.iter().map(|p| p.value).collect::<Vec<_>>(), values);
    for q in &pts {
        assert_eq!(q.reads, 8 * q.runs, "{q:?}");
        match q.stop {
            StopReason::Settled => assert!(width(q) <= 0.3, "{q:?}"),
            StopReason::Runs => assert!(q.runs == 6 && width(q) > 0.3, "{q:?}"),
            StopReason::Budget => panic!("no budget was set: {q:?}"),
            StopReason::Slower => panic!("judged by the valid share, not TTS99: {q:?}"),
        }
    }
    // A clear point settles before its last run.
    assert!(
        pts.iter()
            .any(|q| q.stop == StopReason::Settled && q.runs < 6)
    );
    // With a budget of 1 × the best TTS99, slow points stop at the budget, having spent
    // at least it (the best when they stopped was at least the final best).
    let rule = StopRule {
        ci_width: 0.0,
        budget_factor: 1.0,
        min_budget_s: 0.0,
        tts_ratio: 0.0,
    };
    let pts = run(&spec(rule), &sa, &RunControl::new(), |_| {}).unwrap();
    let best = pts
        .iter()
        .filter_map(|q| q.tts99_s)
        .fold(f64::INFINITY, f64::min);
    assert!(best.is_finite(), "{pts:?}");
    for q in &pts {
        match q.stop {
            StopReason::Budget => assert!(q.sample_s >= best, "{q:?}"),
            StopReason::Runs => assert_eq!(q.runs, 6, "{q:?}"),
            StopReason::Settled => panic!("width 0 never settles: {q:?}"),
            StopReason::Slower => panic!("judged by the valid share, not TTS99: {q:?}"),
        }
    }
    assert!(pts.iter().any(|q| q.stop == StopReason::Budget), "{pts:?}");
    let csv = to_csv(&pts);
    assert!(csv.lines().next().unwrap().contains("runs,stop"), "{csv}");
    assert!(csv.contains(",budget"), "{csv}");
    // Old JSON (before stopping rules) still reads.
    let mut old = serde_json::to_value(&pts[0]).unwrap();
    for k in ["runs", "stop", "threads"] {
        old.as_object_mut().unwrap().remove(k);
    }
    let back: SweepPoint = serde_json::from_value(old).unwrap();
    assert_eq!(back.stop, StopReason::Runs);
}

#[test]
fn a_population_settles_over_its_runs_not_its_correlated_reads() {
    let four = FourByFour::new();
    // A population of 64 that solves the 4×4 whole: 64 of 64 valid reads would settle a
    // width of 0.3 at once (Wilson width 0.06), but its run is one trial, and 3 of 3 trials
    // leave a width of 0.56.
    let pa = crate::sampler::population::PopulationAnnealing {
        num_reads: 64,
        num_sweeps: 200,
        num_temperatures: 20,
        seed: Some(5),
        ..Default::default()
    };
    let base = Weights::new();
    let rule = StopRule {
        ci_width: 0.3,
        budget_factor: 0.0,
        min_budget_s: 0.0,
        tts_ratio: 3.0,
    };
    let spec = SweepSpec {
        problem: four.problem(),
        base: &base,
        axis: Axis::Weight("hint"),
        values: &[2.0],
        second: None,
        repeats: 3,
        stop: rule,
        metric: Metric::Valid,
    };
    let pts = run(&spec, &pa, &RunControl::new(), |_| {}).unwrap();
    let q = &pts[0];
    assert_eq!(q.reads, 3 * 64, "{q:?}");
    assert!(q.success_fraction > 0.9, "{q:?}");
    let width = q.success_ci95[1] - q.success_ci95[0];
    assert!(width <= 0.3, "per read the interval looks settled: {q:?}");
    assert_eq!((q.stop, q.runs), (StopReason::Runs, 3), "{q:?}");
    let hits = q.trials.expect("a population counts its runs")[1];
    assert_eq!(q.trials, Some([3, hits]), "{q:?}");
    let [lo, hi] = wilson_interval(hits, 3);
    assert!(hi - lo > 0.5, "{q:?}");
    let words = rule.describe(q);
    assert!(
        words.contains(&format!("still {:.2} wide", hi - lo)),
        "{words}"
    );
}

/// The stopping rule's one description: values round-trip, and what it refuses is refused by
/// the values' path (the window) and the rule's own check (the CLI, saved settings) alike.
#[test]
fn the_stopping_rule_is_described_once_for_widgets_and_checks() {
    let rule = StopRule {
        ci_width: 0.1,
        budget_factor: 5000.0,
        min_budget_s: 7200.0,
        tts_ratio: 2.0,
    };
    assert_eq!(StopRule::from_values(&rule.values()), Ok(rule));
    assert!(
        rule.validate().is_ok(),
        "the window once capped these at 1000 and 3600"
    );
    let too_wide = StopRule {
        ci_width: 2.0,
        ..rule
    };
    assert_eq!(
        too_wide.validate().unwrap_err(),
        "ci_width 2: a number from 0 to 1"
    );
    assert!(StopRule::from_values(&too_wide.values()).is_err());
}

/// A sweep over `num_sweeps` (a sampler parameter, log-spaced) finds TTS99 in sweeps
/// smallest inside the range — too few sweeps rarely solve, too many waste sweeps on reads
/// that were already solved — at the same value an exhaustive run (every repeat at every
/// point) finds. Each point runs its own sampler, with seed + r for run r.
#[test]
fn a_num_sweeps_sweep_finds_the_interior_optimum_of_tts99_in_sweeps() {
    let four = FourByFour::new();
    let sa = annealer(20, 1000, 5);
    let base = Weights::new();
    let values = numeric_values(1.0, 1024.0, 11, true, true).unwrap();
    assert_eq!(
        values,
        [
            1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0
        ]
    );
    let spec = |stop| SweepSpec {
        problem: four.problem(),
        base: &base,
        axis: Axis::Param("num_sweeps"),
        values: &values,
        second: None,
        repeats: 8,
        stop,
        metric: Metric::Tts99Sweeps,
    };
    // Judged by TTS99: a point settles once its share is within 0.12 and its TTS99 within
    // × 1.5 (the optimum's neighbours are within 15 % of it).
    let settled = StopRule {
        ci_width: 0.12,
        budget_factor: 0.0,
        min_budget_s: 0.0,
        tts_ratio: 1.5,
    };
    let early = run(&spec(settled), &sa, &RunControl::new(), |_| {}).unwrap();
    let exhaustive = run(&spec(StopRule::NEVER), &sa, &RunControl::new(), |_| {}).unwrap();
    for (p, &v) in exhaustive.iter().zip(&values) {
        assert_eq!(p.params["num_sweeps"], serde_json::json!(v as u64));
        assert_eq!(p.reads, 8 * 20);
    }
    let tts: Vec<Option<f64>> = exhaustive.iter().map(|p| p.tts99_sweeps).collect();
    let best = best_point(&exhaustive, Metric::Tts99Sweeps).unwrap();
    assert!(0 < best && best + 1 < values.len(), "{tts:?}");
    // Finite on both sides, and higher: an interior optimum, not the edge of solvability.
    assert!(tts[best - 1].unwrap() > tts[best].unwrap(), "{tts:?}");
    assert!(tts[best + 1].unwrap() > tts[best].unwrap(), "{tts:?}");
    assert_eq!(best_point(&early, Metric::Tts99Sweeps), Some(best));
    assert!(early.iter().map(|p| p.runs).sum::<usize>() < 8 * values.len());
    // A settled point knows its time: a valid read, and TTS99's ends within × 1.5. (Without the
    // ratio, none of 40 valid at one sweep settled: a narrow share, and no time at all.)
    for p in &early {
        if p.stop == StopReason::Settled {
            let [lo, hi] = p.tts99_ci95;
            assert!(p.success_fraction > 0.0, "{p:?}");
            assert!(hi.unwrap() <= 1.5 * lo.unwrap() * (1.0 + 1e-9), "{p:?}");
        }
    }
    assert!(
        early.iter().any(|p| p.stop == StopReason::Slower),
        "{:?}",
        early.iter().map(|p| (p.stop, p.runs)).collect::<Vec<_>>()
    );
}
