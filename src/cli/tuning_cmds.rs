//! Tuning commands: `sweep` (a weight, or a grid of two, point by point) and `tune` (suggested
//! weights). Both re-weight one encoding (`crate::sweep`).

use std::path::Path;

use serde_json::json;

use super::args::{SweepArgs, TuneArgs, build_sampler, load, pick, threads, weights_for};
use super::output::{
    Output, check_output, check_outputs, control_with_progress, long_run_note, print_json,
};
use super::{Failure, usage};
use crate::io::number_text;
use crate::puzzle::{AnyPuzzle, EncodeOptions, REFERENCE_NODE_BUDGET, refuse_conflicts};
use crate::samplers::Task;
use crate::solve::Problem;
use crate::sweep::{Axis, StopRule, SweepPoint, SweepSetup, TuneSetup};

/// What `sweep` and `tune` work on: the puzzle (its givens consistent), its encoding, the
/// weights given with --set, the classical reference, the sampler and the stopping rule.
struct Tuning {
    puzzle: AnyPuzzle,
    encoding: crate::qubo::Encoding,
    base: crate::qubo::Weights,
    reference: crate::puzzle::Reference<crate::puzzle::AnySolution>,
    sampler: Box<dyn crate::sampler::Sampler>,
    /// Why `auto` chose the sampler (printed once the flags are all checked).
    sampler_note: Option<String>,
    /// When a point stops measuring (checked).
    stop: crate::sweep::StopRule,
}

impl Tuning {
    /// The encoded puzzle the points sample.
    fn problem(&self) -> Problem<'_> {
        Problem {
            puzzle: &self.puzzle,
            encoding: &self.encoding,
            reference: &self.reference,
        }
    }
}

/// A command's own settings (the values given for its first owner) and the stopping rule
/// (its second: `StopRule::PARAMS`, or none with --no-early-stop), from their flags.
fn settings_and_stop(
    flags: &super::params::ParamFlags,
    owners: &super::params::Owners,
    no_early_stop: bool,
) -> Result<(crate::params::ParamValues, StopRule), Failure> {
    let mut values = flags.values_by_owner(owners)?.into_iter();
    let (own, stop) = (
        values.next().unwrap_or_default(),
        values.next().unwrap_or_default(),
    );
    let stop = if no_early_stop {
        StopRule::NEVER
    } else {
        StopRule::from_values(&stop).map_err(|e| usage(e.to_string()))?
    };
    Ok((own, stop))
}

/// A sweep's settings from its flags: the setup, the stopping rule, and whether --steps2 was
/// given (it belongs to a second weight).
fn sweep_settings(a: &SweepArgs) -> Result<(SweepSetup, StopRule, bool), Failure> {
    let owners = super::params::sweep_owners();
    let (setup, stop) = settings_and_stop(&a.settings.0, &owners, a.tuning.no_early_stop)?;
    let steps2_given = setup.contains_key("steps2");
    let setup = SweepSetup::from_values(&setup).map_err(|e| usage(e.to_string()))?;
    Ok((setup, stop, steps2_given))
}

/// A campaign's sweep settings from its flags: the setup and the stopping rule.
pub(super) fn campaign_settings(
    flags: &super::params::SweepSettingFlags,
    no_early_stop: bool,
) -> Result<(SweepSetup, StopRule), Failure> {
    let owners = super::params::sweep_owners();
    let (setup, stop) = settings_and_stop(&flags.0, &owners, no_early_stop)?;
    if setup.contains_key("steps2") {
        return Err(usage("--steps2: a campaign sweeps one axis"));
    }
    let setup = SweepSetup::from_values(&setup).map_err(|e| usage(e.to_string()))?;
    Ok((setup, stop))
}

/// A tuning search's settings from its flags: the setup and the stopping rule.
fn tune_settings(a: &TuneArgs) -> Result<(TuneSetup, StopRule), Failure> {
    let owners = super::params::tune_owners();
    let (setup, stop) = settings_and_stop(&a.settings.0, &owners, a.tuning.no_early_stop)?;
    let setup = TuneSetup::from_values(&setup).map_err(|e| usage(e.to_string()))?;
    Ok((setup, stop))
}

/// What `sweep` and `tune` build alike from their shared flags: the puzzle, its encoding, the
/// weights from --set, the reference and the sampler.
fn prepare_tuning(
    flags: &super::args::TuningArgs,
    set: &[String],
    stop: StopRule,
) -> Result<Tuning, Failure> {
    let (puzzle_args, sampler_args) = (&flags.puzzle, &flags.sampler);
    let loaded = pick(load(puzzle_args)?, flags.index, &puzzle_args.puzzle)?;
    refuse_conflicts(&loaded.puzzle, &loaded.origin)?;
    let puzzle = loaded.puzzle;
    let options = EncodeOptions {
        presolve: flags.presolve.on_for(puzzle.kind()),
        formulation: flags.formulation.clone(),
        ..Default::default()
    };
    let encoding = puzzle.encode(&options)?;
    let base = weights_for(&encoding, "--set", set)?;
    let reference = puzzle.solve_classically(REFERENCE_NODE_BUDGET);
    let (sampler, reason) = sampler_for(sampler_args, &puzzle, &encoding, &base, &reference)?;
    Ok(Tuning {
        puzzle,
        encoding,
        base,
        reference,
        sampler_note: reason.map(|why| format!("sampler: {} ({why})", sampler.name())),
        sampler,
        stop,
    })
}

/// The sampler the flags ask for, built for this encoded puzzle (`auto` chooses by its size,
/// target and kind), and why `auto` chose it.
pub(super) fn sampler_for(
    sampler_args: &super::args::SamplerArgs,
    puzzle: &AnyPuzzle,
    encoding: &crate::qubo::Encoding,
    weights: &crate::qubo::Weights,
    reference: &crate::puzzle::Reference<crate::puzzle::AnySolution>,
) -> Result<(Box<dyn crate::sampler::Sampler>, Option<String>), Failure> {
    build_sampler(
        sampler_args,
        Task {
            num_variables: encoding.num_variables(),
            has_target: sampler_args.target_energy.is_some()
                || crate::outcome::target_energy(puzzle, encoding, weights, reference).is_some(),
            stored: encoding.unstored().is_none(),
            marginals: puzzle.kind().has_probabilities(),
        },
    )
}

/// A swept weight in the table: four decimals in the usual range, else e-notation (a weight of
/// 1e300 printed as 301 digits broke the table's columns).
fn weight_text(v: f64) -> String {
    if v == 0.0 || (1e-4..1e6).contains(&v.abs()) {
        format!("{v:.4}")
    } else {
        format!("{v:.3e}")
    }
}

/// A parameter's value as the table prints it (a word without quotes).
fn param_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A point's value on an axis: the parameter's word for a category, else the number.
fn axis_text(p: &SweepPoint, axis: Option<Axis>, v: f64) -> String {
    match axis.and_then(|a| p.params.get(a.name())) {
        Some(serde_json::Value::String(word)) => word.clone(),
        Some(serde_json::Value::Bool(b)) => b.to_string(),
        Some(serde_json::Value::Number(n)) if n.is_u64() => n.to_string(),
        _ => weight_text(v),
    }
}

/// One point as a row of the sweep table.
/// (`in_sweeps`: the TTS99 column in the sampler's sweeps rather than seconds.)
fn sweep_row(p: &SweepPoint, objective: bool, axes: [Option<Axis>; 2], in_sweeps: bool) -> String {
    let tts = if in_sweeps {
        p.tts99_sweeps.map_or("—".into(), |t| format!("{t:.3e} sw"))
    } else {
        p.tts99_s.map_or("—".into(), |t| format!("{t:.3e} s"))
    };
    format!(
        "{:>10} {:>10} {:>6.1}% [{:>5.1}, {:>5.1}] {:>9} {:>11} {:>4} {:<8} {}  {}",
        axis_text(p, axes[0], p.value),
        p.value2.map_or(String::new(), |v| axis_text(p, axes[1], v)),
        100.0 * p.success_fraction,
        100.0 * p.success_ci95[0],
        100.0 * p.success_ci95[1],
        p.ground_fraction
            .map_or("—".into(), |g| format!("{:.1}%", 100.0 * g)),
        tts,
        p.runs,
        p.stop.name(),
        if objective {
            format!(
                "{:>10}",
                p.best_feasible_objective.map_or("—".into(), number_text)
            )
        } else {
            String::new()
        },
        match (&p.witness, p.valid_energy) {
            (Some(w), Some(v)) => format!(
                "YES (E {} ≤ valid {})",
                number_text(w.energy),
                number_text(v)
            ),
            (Some(w), None) => format!(
                "YES (E {} ≤ the lowest feasible read's)",
                number_text(w.energy)
            ),
            (None, _) => "no".into(),
        }
    )
}

/// `sweep PUZZLE --weight NAME --from A --to B`.
pub(super) fn sweep(a: SweepArgs) -> Result<i32, Failure> {
    let input = a.tuning.puzzle.puzzle.as_path();
    let outputs: Vec<(&str, &Path, Output)> = [
        ("--plot", &a.plot, Output::Image),
        ("--plot-broken", &a.plot_broken, Output::Image),
        ("--csv", &a.csv, Output::Text),
    ]
    .into_iter()
    .filter_map(|(flag, out, what)| out.as_deref().map(|p| (flag, p, what)))
    .collect();
    // Picture sizes are checked before anything is swept.
    a.pictures.image.export_options().map_err(usage)?;
    check_outputs(&outputs, &[input], None)?;
    let (setup, stop, steps2_given) = sweep_settings(&a)?;
    let t = prepare_tuning(&a.tuning, &a.set, stop)?;
    let SweepRanges {
        values,
        values2,
        runs,
    } = sweep_ranges(&a, &setup, steps2_given, &t.encoding, t.sampler.name())?;
    if let Some(note) = &t.sampler_note {
        eprintln!("{note}");
    }
    let note = long_run_note(t.sampler.as_ref(), runs, t.encoding.num_variables());
    let (control, bar) = control_with_progress(threads(&a.tuning.sampler)?, "sweep", note);
    let control = control.with_target_energy(a.tuning.sampler.target_energy);
    let second = a.axis2().zip(values2.as_deref());
    let spec = crate::sweep::SweepSpec {
        problem: t.problem(),
        base: &t.base,
        axis: a.axis(),
        values: &values,
        second,
        repeats: setup.repeats,
        stop: t.stop,
        metric: setup.metric,
    };
    // Points finish in any order (side by side, coarse grid first): each is told on stderr
    // as it finishes, and the table in grid order comes at the end.
    let total = spec.num_points();
    let mut finished = 0;
    let points = crate::sweep::run(&spec, t.sampler.as_ref(), &control, |p: &SweepPoint| {
        finished += 1;
        let line = format!(
            "point {finished}/{total}: {}",
            sweep_row(
                p,
                p.best_feasible_objective.is_some(),
                [Some(a.axis()), a.axis2()],
                setup.metric == crate::sweep::Metric::Tts99Sweeps
            )
        );
        match &bar {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    // Where a relation among the weights flips on a one-weight axis, marked on the plot.
    let marks = match (a.axis(), a.axis2()) {
        (Axis::Weight(w), None) => t.encoding.condition_thresholds(&t.base, w)?,
        _ => Vec::new(),
    };
    report_sweep(&a, &points, setup, t.stop, &t.puzzle.describe(), &marks)?;
    Ok(0)
}

/// What a sweep measures: the swept weight's values, the second's, and the sampling runs in all.
struct SweepRanges {
    values: Vec<f64>,
    values2: Option<Vec<f64>>,
    runs: usize,
}

/// One axis's flags: its name flag, range, spacing and listed values.
pub(super) struct AxisFlags<'a> {
    pub(super) axis: Axis<'a>,
    /// The flag that named it (`--weight`, `--sampler-param2`…), for messages.
    pub(super) flag: String,
    pub(super) from: Option<f64>,
    pub(super) to: Option<f64>,
    pub(super) steps: usize,
    pub(super) log: bool,
    pub(super) listed: &'a [String],
    /// The range flags' names: from, to, steps, log, values.
    pub(super) names: [&'static str; 5],
}

/// The values of one axis from its flags: a weight or numeric parameter takes a range (evenly
/// or geometrically spaced) or listed numbers; a word, switch or set parameter its listed words
/// (every one when none is listed). Without a range, where the window starts one: a weight of
/// `weights` from its slider minimum to twice its default, a parameter a tenth to ten times its
/// default (log steps) or half to twice it.
pub(super) fn axis_values(
    f: &AxisFlags,
    sampler: &str,
    weights: &[crate::qubo::WeightSpec],
) -> Result<Vec<f64>, Failure> {
    let [from_flag, to_flag, steps_flag, log_flag, values_flag] = f.names;
    let name = f.axis.name();
    let at = |e: crate::sweep::SweepError| usage(format!("{} {name}: {e}", f.flag));
    let param = match f.axis {
        Axis::Param(p) => Some(crate::sweep::ParamAxis::of(sampler, p).map_err(at)?),
        Axis::Weight(_) => None,
    };
    if let Some(p) = param.as_ref().filter(|p| p.categories().is_some()) {
        if f.from.is_some() || f.to.is_some() || f.log {
            return Err(usage(format!(
                "{} {name}: its values are words ({}); list them with {values_flag}, or \
                 leave it out for all of them ({from_flag}, {to_flag} and {log_flag} are for \
                 numbers)",
                f.flag,
                p.categories().unwrap_or_default().join(", ")
            )));
        }
        return crate::sweep::category_values(p, f.listed).map_err(at);
    }
    let whole = param.as_ref().is_some_and(|p| p.whole());
    if !f.listed.is_empty() {
        if f.from.is_some() || f.to.is_some() || f.log {
            return Err(usage(format!(
                "{values_flag} lists the values: {from_flag}, {to_flag} and {log_flag} would \
                 describe them a second time"
            )));
        }
        let mut values = Vec::new();
        for v in f.listed {
            let x: f64 = v.trim().parse().map_err(|_| {
                usage(format!(
                    "{values_flag}: '{v}' is not a number ({} {name} takes numbers)",
                    f.flag
                ))
            })?;
            if !x.is_finite() || (whole && (x.fract() != 0.0 || x < 0.0)) {
                return Err(usage(format!(
                    "{values_flag}: {v} is not {}",
                    if whole {
                        "a whole number"
                    } else {
                        "a finite number"
                    }
                )));
            }
            if values.contains(&x) {
                return Err(usage(format!("{values_flag}: {v} is listed twice")));
            }
            values.push(x);
        }
        return Ok(values);
    }
    let starting = match (&param, f.axis) {
        (Some(p), _) => Some(crate::sweep::param_starting_range(&p.spec)),
        (None, Axis::Weight(w)) => (weights.iter().find(|s| s.name == w))
            .map(crate::sweep::weight_starting_range)
            .map(|(from, to)| (from, to, false)),
        (None, Axis::Param(_)) => None,
    };
    let (from, to, log) = match (f.from, f.to, starting) {
        (Some(from), Some(to), _) => (from, to, f.log),
        (None, None, Some((from, to, log))) => (from, to, log || f.log),
        _ => {
            return Err(usage(format!(
                "{} {name} needs {from_flag} and {to_flag} (or {values_flag})",
                f.flag
            )));
        }
    };
    crate::sweep::numeric_values(from, to, f.steps, log, whole).map_err(|e| {
        usage(format!(
            "{from_flag} {} {to_flag} {} {steps_flag} {}{}: {e}",
            number_text(from),
            number_text(to),
            f.steps,
            if log {
                format!(" {log_flag}")
            } else {
                String::new()
            }
        ))
    })
}

impl super::args::AxisArgs {
    /// The axis (clap makes sure one of --weight and --sampler-param is given).
    pub(super) fn axis(&self) -> Axis<'_> {
        match (&self.weight, &self.sampler_param) {
            (Some(w), _) => Axis::Weight(w),
            (None, Some(p)) => Axis::Param(p),
            (None, None) => Axis::Weight(""),
        }
    }

    /// Its flags for `axis_values`, with this many steps.
    pub(super) fn flags(&self, steps: usize) -> AxisFlags<'_> {
        AxisFlags {
            axis: self.axis(),
            flag: if self.sampler_param.is_some() {
                "--sampler-param"
            } else {
                "--weight"
            }
            .into(),
            from: self.from,
            to: self.to,
            steps,
            log: self.log,
            listed: &self.values,
            names: ["--from", "--to", "--steps", "--log", "--values"],
        }
    }
}

impl SweepArgs {
    /// The first axis.
    fn axis(&self) -> Axis<'_> {
        self.axis.axis()
    }

    /// The second axis, when there is one.
    fn axis2(&self) -> Option<Axis<'_>> {
        match (&self.weight2, &self.sampler_param2) {
            (Some(w), _) => Some(Axis::Weight(w)),
            (None, Some(p)) => Some(Axis::Param(p)),
            (None, None) => None,
        }
    }
}

/// The swept values (and the second axis's) from the flags, checked: weights have terms,
/// parameters are the sampler's, the axes differ, --set leaves swept weights alone, and the
/// runs fit a sweep. Also the number of runs.
fn sweep_ranges(
    a: &SweepArgs,
    setup: &SweepSetup,
    steps2_given: bool,
    encoding: &crate::qubo::Encoding,
    sampler: &str,
) -> Result<SweepRanges, Failure> {
    let axis = a.axis();
    if let Axis::Weight(w) = axis {
        crate::sweep::check_sweepable(encoding, w)
            .map_err(|e| usage(format!("--weight {w}: {e}")))?;
    }
    match (axis, a.axis2()) {
        (Axis::Weight(w), Some(Axis::Weight(w2))) if w == w2 => {
            return Err(usage(format!(
                "--weight2 {w}: the same weight as --weight; a grid needs two different weights"
            )));
        }
        (Axis::Param(p), Some(Axis::Param(p2))) if p == p2 => {
            return Err(usage(format!(
                "--sampler-param2 {p}: the same parameter as --sampler-param; a grid needs two \
                 different axes"
            )));
        }
        _ => {}
    }
    // The swept weights take their values from the ranges: --set may not fix them too.
    for flag in &a.set {
        let name = flag.split_once('=').map_or(flag.as_str(), |(n, _)| n);
        let swept = [Some(axis), a.axis2()]
            .into_iter()
            .flatten()
            .any(|x| matches!(x, Axis::Weight(w) if w == name));
        if swept {
            return Err(usage(format!(
                "--set {flag}: '{name}' is swept; its values come from its range"
            )));
        }
    }
    let values = axis_values(&a.axis.flags(setup.steps), sampler, encoding.weight_specs())?;
    // Checked here rather than by clap, whose refusal listed flags as if all were required.
    let values2 = match a.axis2() {
        None if a.from2.is_some()
            || a.to2.is_some()
            || steps2_given
            || a.log2
            || !a.values2.is_empty() =>
        {
            return Err(usage(
                "--from2, --to2, --steps2, --log2 and --values2 describe a second axis: name it \
                 with --weight2 or --sampler-param2",
            ));
        }
        None => None,
        Some(axis2) => {
            if let Axis::Weight(w2) = axis2 {
                crate::sweep::check_sweepable(encoding, w2)
                    .map_err(|e| usage(format!("--weight2 {w2}: {e}")))?;
            }
            Some(axis_values(
                &AxisFlags {
                    axis: axis2,
                    flag: if a.sampler_param2.is_some() {
                        "--sampler-param2"
                    } else {
                        "--weight2"
                    }
                    .into(),
                    from: a.from2,
                    to: a.to2,
                    steps: setup.steps2,
                    log: a.log2,
                    listed: &a.values2,
                    names: ["--from2", "--to2", "--steps2", "--log2", "--values2"],
                },
                sampler,
                encoding.weight_specs(),
            )?)
        }
    };
    let runs = values
        .len()
        .saturating_mul(values2.as_ref().map_or(1, Vec::len))
        .saturating_mul(setup.repeats);
    if runs > crate::sweep::MAX_SWEEP_RUNS {
        return Err(usage(format!(
            "--steps × --steps2 × --repeats = {runs} sampling runs; a sweep takes at most {} \
             (each is a full run of the sampler): take fewer steps or repeats",
            crate::sweep::MAX_SWEEP_RUNS
        )));
    }
    Ok(SweepRanges {
        values,
        values2,
        runs,
    })
}

/// The sweep's outputs: the plots and CSV asked for, then the table (or JSON) and the best
/// point by `metric`.
fn report_sweep(
    a: &SweepArgs,
    points: &[SweepPoint],
    setup: SweepSetup,
    stop: StopRule,
    description: &str,
    marks: &[(f64, String)],
) -> Result<(), Failure> {
    let metric = setup.metric;
    if let Some(out) = &a.plot {
        let d = crate::sweep::plot(
            points,
            a.axis().name(),
            a.axis2().map(|x| x.name()),
            metric,
            description,
            marks,
        );
        a.pictures.write(d, out)?;
    }
    if let Some(out) = &a.plot_broken {
        a.pictures.write(
            crate::sweep::plot_broken(points, a.axis().name(), description),
            out,
        )?;
    }
    if let Some(out) = &a.csv {
        crate::io::write_atomic(out, crate::sweep::to_csv(points).as_bytes())?;
    }
    let best = crate::sweep::best_point(points, metric);
    if !a.json {
        let objective = points.iter().any(|p| p.best_feasible_objective.is_some());
        let in_sweeps = metric == crate::sweep::Metric::Tts99Sweeps;
        println!(
            "{:>10} {:>10} {:>22} {:>9} {:>11} {:>4} {:<8} {}  penalty too weak",
            a.axis().name(),
            a.axis2().map_or("", |x| x.name()),
            "valid [95 % interval]",
            "ground",
            "TTS99",
            "runs",
            "stop",
            if objective {
                format!("{:>10}", "objective")
            } else {
                String::new()
            },
        );
        for p in points {
            println!(
                "{}",
                sweep_row(p, objective, [Some(a.axis()), a.axis2()], in_sweeps)
            );
        }
    }
    if a.json {
        print_json(&json!({
            "weight": a.axis.weight,
            "weight2": a.weight2,
            "sampler_param": a.axis.sampler_param,
            "sampler_param2": a.sampler_param2,
            "metric": metric.name(),
            "repeats": setup.repeats,
            "stop_rule": stop,
            "description": description,
            "points": points,
            "best": best.map(|k| &points[k]),
        }))?;
    } else if let Some(k) = best {
        println!(
            "best by {}: {}",
            metric.name(),
            points[k]
                .params
                .iter()
                .map(|(n, v)| format!("{n}={}", param_text(v)))
                .chain(
                    points[k]
                        .weights
                        .iter()
                        .map(|(n, v)| format!("{n}={}", number_text(*v)))
                )
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    Ok(())
}

/// `tune`: suggest weights by a coordinate search on TTS99.
pub(super) fn tune(a: TuneArgs) -> Result<i32, Failure> {
    check_tune_flags(&a)?;
    let (setup, stop) = tune_settings(&a)?;
    let t = prepare_tuning(&a.tuning, &a.set, stop)?;
    if let Some(note) = &t.sampler_note {
        eprintln!("{note}");
    }
    let (control, bar) = control_with_progress(threads(&a.tuning.sampler)?, "tune", None);
    let control = control.with_target_energy(a.tuning.sampler.target_energy);
    let budget = std::time::Duration::from_secs_f64(setup.budget);
    let found = crate::sweep::suggest(
        t.problem(),
        &t.base,
        t.sampler.as_ref(),
        crate::sweep::TuneEffort {
            repeats: setup.repeats,
            stop: t.stop,
            budget,
        },
        &control,
        |p, moved| {
            if !a.json {
                println!(
                    "{} {:>6.1}% valid  TTS99 {:>11}{}{}  {}",
                    if moved { "→" } else { " " },
                    100.0 * p.success_fraction,
                    p.tts99_s.map_or("—".into(), |t| format!("{t:.3e} s")),
                    p.best_feasible_objective
                        .map_or(String::new(), |o| format!("  objective {}", number_text(o))),
                    if p.penalty_too_weak {
                        "  penalty too weak"
                    } else {
                        ""
                    },
                    show(&p.weights)
                );
            }
        },
    )?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    report_tune(&a, &found, &t.puzzle.describe())
}

/// A weight to four significant digits: the search moves by factors of √2 and finer, not by
/// 1e-16.
fn short(v: f64) -> String {
    number_text(format!("{v:.4e}").parse::<f64>().unwrap_or(v))
}

/// Weights as `name=value …`, each `short`.
fn show(w: &std::collections::BTreeMap<String, f64>) -> String {
    w.iter()
        .map(|(n, v)| format!("{n}={}", short(*v)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `tune`'s own flags, before anything is loaded: the plot's file and size, the budget, and
/// starting weights the search by factors can move.
fn check_tune_flags(a: &TuneArgs) -> Result<(), Failure> {
    let input = a.tuning.puzzle.puzzle.as_path();
    if let Some(out) = &a.plot {
        check_output("--plot", out, Output::Image, &[input])?;
    }
    a.pictures.image.export_options().map_err(usage)?;
    // The search multiplies weights by factors: a start at 0 or below never becomes a penalty.
    for flag in &a.set {
        if let Some((_, v)) = flag.split_once('=')
            && v.trim().parse::<f64>().is_ok_and(|v| v <= 0.0)
        {
            return Err(usage(format!(
                "--set {flag}: tune starts from positive weights (a search by factors never \
                 leaves 0 or a negative value)"
            )));
        }
    }
    Ok(())
}

/// The suggestion's outputs: the plot asked for, then the suggestion (or why there is none)
/// as text or JSON; exit 1 when there is nothing to suggest.
fn report_tune(
    a: &TuneArgs,
    found: &crate::sweep::Suggestion,
    description: &str,
) -> Result<i32, Failure> {
    if let Some(out) = &a.plot {
        a.pictures.write(
            crate::sweep::plot_suggestion(
                &found
                    .path
                    .iter()
                    .cloned()
                    .zip(found.accepted.iter().copied())
                    .collect::<Vec<_>>(),
                &found.stopped,
                description,
            ),
            out,
        )?;
    }
    let refused = found.no_suggestion();
    if a.json {
        print_json(&json!({
            "description": description,
            "weights": refused.is_none().then_some(&found.best.weights),
            "no_suggestion": refused,
            "best": found.best,
            "path": found.path,
            "accepted": found.accepted,
            "stopped": found.stopped,
        }))?;
    } else if let Some(why) = &refused {
        println!("no suggestion: {why}; try a larger --budget, more sweeps or another sampler");
    } else {
        println!(
            "suggested ({}): {}",
            found.stopped,
            show(&found.best.weights)
        );
        println!(
            "use them: --weight {}",
            found
                .best
                .weights
                .iter()
                .map(|(n, v)| format!("{n}={}", short(*v)))
                .collect::<Vec<_>>()
                .join(" --weight ")
        );
    }
    // Nothing to suggest is a failure of the job asked for: exit 1, the path still printed.
    Ok(if refused.is_some() { 1 } else { 0 })
}
