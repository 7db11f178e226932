//! Printing: JSON, the human-readable solve report, progress bars, numbered output paths.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};

use super::{Failure, usage};
use crate::io::number_text;
use crate::puzzle::{AnyPuzzle, AnySolution, DesignFacts};
use crate::sampler::RunControl;
use crate::solve::SolveOutcome;

/// Progress on stderr while a run goes, only when stderr is a terminal.
pub(super) fn control_with_progress(
    threads: Option<usize>,
    label: &str,
    note: Option<String>,
) -> (RunControl, Option<ProgressBar>) {
    let control = RunControl::new().with_threads(threads);
    let quiet = note.is_none();
    // The long-run note is said at the run's first report: once its parameters and memory
    // have been accepted, so a refused run says only why.
    let note = std::sync::Mutex::new(note);
    let say_note = move |bar: Option<&ProgressBar>| {
        if let Some(text) = note.lock().ok().and_then(|mut n| n.take()) {
            match bar {
                Some(b) => b.println(text),
                None => eprintln!("{text}"),
            }
        }
    };
    if !std::io::stderr().is_terminal() {
        if quiet {
            return (control, None);
        }
        return (control.with_observer(50, move |_| say_note(None)), None);
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {percent:>3}% {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_prefix(label.to_string());
    let b = Arc::new(bar.clone());
    let control = control.with_observer(50, move |p| {
        say_note(Some(&b));
        // The run's own description (an open-ended run has no sweep total to count to).
        let (fraction, text) = p.describe();
        b.set_length(1000);
        b.set_position((fraction * 1000.0) as u64);
        b.set_message(text);
    });
    (control, Some(bar))
}

/// Nanoseconds per variable update assumed for the long-run note: SA's lane kernel measures
/// 0.6 ns on 2 threads (a 10⁴-variable degree-8 model); denser models and other kernels are
/// slower, so this errs long.
const NS_PER_UPDATE: f64 = 2.0;

/// Estimated runs past this many seconds are announced before they start.
const ANNOUNCE_AFTER_S: f64 = 60.0;

/// A note for a run that will take long, said as it starts (`--json` prints nothing until the
/// end, so silence would look like a hang): `runs` sampler runs on `n` variables, each of
/// num_reads × the sampler's effort (sweeps; × replicas or Trotter slices where it has them).
/// `None` for short runs and for samplers whose work has no sweep count.
pub(super) fn long_run_note(
    sampler: &dyn crate::sampler::Sampler,
    runs: usize,
    n: usize,
) -> Option<String> {
    let params = sampler.params();
    let number = |name: &str| params.get(name).and_then(serde_json::Value::as_f64);
    let effort = crate::samplers::entry(sampler.name()).ok()?.effort?;
    if effort != "num_sweeps" {
        return None;
    }
    let per_read =
        number(effort)? * number("num_replicas").unwrap_or(1.0) * number("trotter").unwrap_or(1.0);
    let updates = runs as f64 * number("num_reads").unwrap_or(1.0) * per_read * n as f64;
    let seconds = updates * NS_PER_UPDATE * 1e-9;
    (seconds > ANNOUNCE_AFTER_S).then(|| {
        format!(
            "note: roughly {} of sampling ahead ({updates:.1e} variable updates{}); Ctrl-C stops it",
            duration_text(seconds),
            if runs > 1 { format!(" over {runs} runs") } else { String::new() }
        )
    })
}

/// Seconds as "40 s", "12 min", "3.5 h" or "2.0 days".
fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}

/// Pretty JSON on stdout.
pub(super) fn print_json(v: &impl serde::Serialize) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

/// What an output file will hold, for the up-front check of its extension.
#[derive(Clone, Copy)]
pub(super) enum Output {
    /// PNG or SVG.
    Image,
    /// A model format (.qubo, .coo, .json, .bqm).
    Model,
    /// Samples (.json, .csv).
    Samples,
    /// Text in any extension (a puzzle file).
    Text,
    /// A CSV table (.csv).
    Csv,
}

/// Checks an output path before any work starts, so a typo costs nothing rather than minutes
/// of sampling: its extension names a format of its kind, its folder exists, and it is not one
/// of the `inputs` (so `encode x.txt -o x.txt` cannot overwrite its own input). The messages
/// name the flag.
/// Bytes a file name may have on the usual file systems (ext4, xfs, btrfs, tmpfs).
const MAX_FILE_NAME_BYTES: usize = 255;
/// What the temporary name adds to it: a dot, `.tmp-`, a process id and a counter.
const TEMPORARY_NAME_EXTRA: usize = 30;

pub(super) fn check_output(
    flag: &str,
    path: &Path,
    what: Output,
    inputs: &[&Path],
) -> Result<(), Failure> {
    let shown = path.display();
    let expected = match what {
        Output::Image => {
            (crate::render::image::ImageFormat::from_path(path).is_none()).then_some(".png or .svg")
        }
        Output::Model => (crate::qubo::formats::Format::from_path(path).is_none()).then_some(
            ".qubo (qbsolv), .coo or .txt (COO), .json (dimod BQM) or .bqm (dimod binary BQM)",
        ),
        Output::Samples => (!matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("json" | "csv")
        ))
        .then_some(".json (dimod SampleSet) or .csv"),
        Output::Text => None,
        Output::Csv => (!path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("csv")))
        .then_some(".csv"),
    };
    if let Some(expected) = expected {
        return Err(usage(format!(
            "{flag} {shown}: unknown format; use the extension {expected}"
        )));
    }
    if path.is_dir() {
        return Err(usage(format!(
            "{flag} {shown}: a folder has that name; choose another"
        )));
    }
    if path.file_name().is_none() {
        return Err(usage(format!("{flag} {shown}: not a file name")));
    }
    // The temporary file written beside it (`.NAME.tmp-PID-K`) must fit the file system's
    // name limit too, or the write fails only after the sampling.
    let name_bytes = path.file_name().map_or(0, |n| n.len());
    if name_bytes + TEMPORARY_NAME_EXTRA > MAX_FILE_NAME_BYTES {
        return Err(usage(format!(
            "{flag} {shown}: the file name is {name_bytes} bytes; at most {} fit (the file \
             system takes {MAX_FILE_NAME_BYTES}, and the file is written through a temporary \
             name beside it)",
            MAX_FILE_NAME_BYTES - TEMPORARY_NAME_EXTRA
        )));
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        return Err(usage(format!(
            "{flag} {shown}: the folder {} does not exist",
            folder.display()
        )));
    }
    if let Ok(out) = std::fs::canonicalize(path) {
        for input in inputs {
            if std::fs::canonicalize(input).is_ok_and(|i| i == out) {
                return Err(usage(format!(
                    "{flag} {shown}: this is the input file; choose another name for the output"
                )));
            }
        }
    }
    // Where it cannot be written (a read-only folder, /proc, a name too long), say so now.
    crate::io::check_writable(path).map_err(|e| Failure::from(format!("{flag} {e}")))?;
    Ok(())
}

/// Where a path points, for comparing outputs with inputs and each other: its folder resolved
/// (links, `..`) and its file name (the file itself need not exist yet).
fn identity(path: &Path) -> Option<PathBuf> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(std::fs::canonicalize(folder).ok()?.join(path.file_name()?))
}

/// Checks every output of a command before any work: each as `check_output` does, then every
/// file it will really write — `NAME-K.EXT` per puzzle when `numbers` is given — against the
/// inputs and against each other, so no output replaces an input or another output.
pub(super) fn check_outputs(
    outputs: &[(&str, &Path, Output)],
    inputs: &[&Path],
    numbers: Option<std::ops::RangeInclusive<usize>>,
) -> Result<(), Failure> {
    let inputs_at: Vec<PathBuf> = inputs.iter().filter_map(|p| identity(p)).collect();
    let mut written: Vec<(PathBuf, &str, PathBuf)> = Vec::new();
    for &(flag, path, what) in outputs {
        check_output(flag, path, what, inputs)?;
        let names: Vec<PathBuf> = match &numbers {
            Some(ks) => ks.clone().map(|k| numbered(path, k)).collect(),
            None => vec![path.to_path_buf()],
        };
        for name in names {
            // Each numbered name is a file name of its own (its length, a folder in its way);
            // an input it would overwrite is named just below.
            if numbers.is_some() {
                check_output(flag, &name, what, &[])?;
            }
            let Some(at) = identity(&name) else { continue };
            if inputs_at.contains(&at) {
                return Err(usage(format!(
                    "{flag} {}: would write {}, which is an input file; choose another name",
                    path.display(),
                    name.display()
                )));
            }
            if let Some((_, other, _)) = written.iter().find(|(a, _, _)| *a == at) {
                return Err(usage(format!(
                    "{flag} {} and {other} would both write {}; choose different names",
                    path.display(),
                    name.display()
                )));
            }
            written.push((at, flag, name));
        }
    }
    Ok(())
}

/// `NAME-K.EXT` for the K-th puzzle of a file.
pub(super) fn numbered(path: &Path, k: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}-{k}.{ext}"))
}

/// Design facts as JSON: `{"solutions": "1", "conflicts": [...], "givens": 28, …}`.
pub(super) fn design_json(
    puzzle: &AnyPuzzle,
    facts: &DesignFacts<AnySolution>,
) -> serde_json::Value {
    let mut obj = serde_json::Map::new();
    obj.insert("solutions".into(), facts.solutions.to_string().into());
    obj.insert(
        "conflicts".into(),
        serde_json::to_value(&facts.conflicts).unwrap_or_default(),
    );
    for (name, value) in &facts.facts {
        obj.insert(name.clone(), value.clone());
    }
    if let Some(s) = &facts.second_solution {
        obj.insert("second_solution".into(), puzzle.solution_to_json(s));
    }
    serde_json::Value::Object(obj)
}

/// The human-readable report of one solve.
pub(super) fn print_outcome(number: usize, o: &SolveOutcome) {
    let percent = |f: f64| format!("{:.0}%", 100.0 * f);
    println!(
        "puzzle {number}: {} — {}, {} (encoded in {:.3} s)",
        o.description,
        crate::io::count(o.num_variables, "variable"),
        crate::io::count(o.num_interactions, "interaction"),
        o.timing.encode_s
    );
    // Say why the ground share is missing: no reference solution, a model too large to store
    // (no stored energies to measure against), or weights beyond the model's precision.
    let ground = match (o.ground_energy, o.ground_fraction) {
        (Some(g), Some(f)) => format!(
            " (ground {}): {} of reads at ground,",
            number_text(g),
            percent(f)
        ),
        (Some(g), None) => format!(
            " (ground {}; the share at ground cannot be told):",
            number_text(g)
        ),
        (None, _) if o.reference == "solved" => format!(
            " (ground share not measured: {}):",
            o.ground_unknown
                .as_deref()
                .unwrap_or("the ground energy is unknown")
        ),
        _ => format!(" (ground energy unknown: reference {}):", o.reference),
    };
    // With cut rounds the reads and figures are the last round's, the time every round's
    // (the rounds share the sampler's time limit): say both.
    let rounds = o.rounds.filter(|&r| r >= 2);
    let reads_and_time = match rounds {
        Some(r) => format!(
            "{} reads in the last of {r} rounds, {:.3} s over all rounds",
            o.num_reads, o.timing.sample_s
        ),
        None => format!("{} reads in {:.3} s", o.num_reads, o.timing.sample_s),
    };
    println!(
        "  {}: {reads_and_time}; min energy {}{ground} {} decode to a valid solution{}{}",
        o.sampler,
        o.min_energy.map_or("—".into(), number_text),
        percent(o.success_fraction),
        o.tts99_s
            .map_or(String::new(), |t| format!(" (TTS99 {t:.3} s)")),
        if o.cancelled { " (cancelled)" } else { "" }
    );
    // Reads returned of reads asked and why the run stopped: never fewer reads unsaid.
    match rounds {
        Some(_) => println!("  last round: {}", o.run.summary),
        None => println!("  {}", o.run.summary),
    }
    if let Some(why) = &o.sampler_choice {
        println!("  sampler {} chosen by default: {why}", o.sampler);
    }
    if !o.sampler_details.is_empty() {
        println!(
            "  {}",
            crate::sampler::SampleInfo::details_line(&o.sampler_details)
        );
    }
    if let (Some(rounds @ 2..), Some(cuts)) = (o.rounds, o.cuts) {
        println!(
            "  cut rounds: {rounds} (the last model had {cuts} cut(s) from earlier rounds' defects; the rounds share the sampler's time limit)"
        );
    }
    for w in &o.warnings {
        eprintln!("  warning: {w}");
    }
    if let Some(r) = &o.repaired {
        println!(
            "  repaired: valid after the kind's repair step on a read of energy {} (not counted as a valid read)  {}",
            number_text(r.energy),
            r.solution_line
        );
        if let Some(how) = &o.repair_step {
            println!("    the step: {how}");
        }
    }
    if let Some(best) = o.best_feasible_objective {
        let optimum = match (o.reference_objective, o.optimal_fraction) {
            (Some(r), Some(f)) => format!(
                "; the reference's {} reached by {}",
                number_text(r),
                percent(f)
            ),
            (Some(r), None) => format!("; the reference's {}", number_text(r)),
            _ => String::new(),
        };
        println!(
            "  best feasible objective {} (apart from the penalties){optimum}",
            number_text(best)
        );
    }
    if let Some(b) = &o.best {
        println!(
            "  best: {}{}  {}",
            if b.valid { "valid" } else { "INVALID" },
            match (b.score, b.max_score, b.objective) {
                (Some(s), Some(m), _) => format!(" (score {s} / {m})"),
                (_, _, Some(v)) => format!(" (objective {})", number_text(v)),
                _ => String::new(),
            },
            b.solution_line
        );
        for v in b.violations.iter().take(10) {
            println!("    {}: {}", v.constraint, v.detail);
        }
        if b.violations.len() > 10 {
            println!("    … and {} more", b.violations.len() - 10);
        }
        if let Some(a) = &b.reference_agreement {
            println!("  {}", crate::solve::agreement_sentence(a, b.valid));
        }
    }
    if let Some(rows) = &o.probabilities {
        let which = if o.sampled_probabilities.is_some() {
            "exact"
        } else {
            "sampled"
        };
        println!("  probabilities ({which}, %):");
        print_probability_rows(rows);
    }
    if let Some(e) = o.probability_error {
        println!(
            "  sampled vs exact: max |Δp| {:.3}, mean {:.3} over the undecided cells",
            e.max, e.mean
        );
    }
    if let Some(why) = &o.exact_probabilities_error {
        println!("  exact probabilities: {why}");
    }
}

/// Rows of probabilities as whole percents.
pub(super) fn print_probability_rows(rows: &[Vec<f64>]) {
    for row in rows {
        let cells: Vec<String> = row.iter().map(|p| format!("{:>3.0}", 100.0 * p)).collect();
        println!("    {}", cells.join(" "));
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn long_runs_are_announced_with_an_estimate_and_short_ones_are_not() {
        use crate::sampler::SimulatedAnnealing;
        let sa = |reads, sweeps| SimulatedAnnealing {
            num_reads: reads,
            num_sweeps: sweeps,
            ..Default::default()
        };
        // 10 000 reads × 10 000 sweeps × 729 variables at 2 ns: about 2.4 min.
        let note = long_run_note(&sa(10_000, 10_000), 1, 729).unwrap();
        assert!(
            note.contains("roughly 2 min") && note.contains("7.3e10"),
            "{note}"
        );
        let sweep = long_run_note(&sa(100, 1000), 10_000, 729).unwrap();
        assert!(sweep.contains("over 10000 runs"), "{sweep}");
        assert!(long_run_note(&sa(100, 1000), 1, 729).is_none());
        assert!(long_run_note(&crate::sampler::ExactSolver { num_reads: 10 }, 1000, 20).is_none());
    }
    use super::long_run_note;
    use crate::io::number_text;

    #[test]
    fn energies_print_without_float_noise() {
        assert_eq!(number_text(63.99999999999999), "64");
        assert_eq!(number_text(-0.30000000000000004), "-0.3");
        assert_eq!(number_text(-64.0), "-64");
        assert_eq!(number_text(1.5e-7), "0.00000015");
        assert_eq!(number_text(-3.2e11 + 12.0), "-319999999988");
        assert_eq!(number_text(0.0), "0");
    }
}
