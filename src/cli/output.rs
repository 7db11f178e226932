//! Printing: JSON, the human-readable solve report, progress bars, numbered output paths.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indicatif::{ProgressBar, ProgressStyle};

use super::Failure;
use crate::puzzle::{AnyPuzzle, AnySolution, DesignFacts};
use crate::sampler::RunControl;
use crate::solve::SolveOutcome;

/// Progress on stderr while a run goes, only when stderr is a terminal.
pub(super) fn control_with_progress(
    threads: Option<usize>,
    label: &str,
) -> (RunControl, Option<ProgressBar>) {
    let control = RunControl::new().with_threads(threads);
    if !std::io::stderr().is_terminal() {
        return (control, None);
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
        b.set_length(p.sweeps_total);
        b.set_position(p.sweeps_done);
        if let Some(e) = p.best_energy {
            b.set_message(format!("best energy {e:.4}"));
        }
    });
    (control, Some(bar))
}

/// Pretty JSON on stdout.
pub(super) fn print_json(v: &impl serde::Serialize) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
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
        "puzzle {number}: {} — {} variables, {} interactions (encoded in {:.3} s)",
        o.description, o.num_variables, o.num_interactions, o.timing.encode_s
    );
    let ground = match (o.ground_energy, o.ground_fraction) {
        (Some(g), Some(f)) => format!(" (ground {g}): {} of reads at ground,", percent(f)),
        _ => format!(" (ground energy unknown: reference {}):", o.reference),
    };
    println!(
        "  {}: {} reads in {:.3} s; min energy {}{ground} {} decode to a valid solution{}{}",
        o.sampler,
        o.num_reads,
        o.timing.sample_s,
        o.min_energy.map_or("—".into(), |e| e.to_string()),
        percent(o.success_fraction),
        o.tts99_s
            .map_or(String::new(), |t| format!(" (TTS99 {t:.3} s)")),
        if o.cancelled { " (cancelled)" } else { "" }
    );
    for w in &o.warnings {
        eprintln!("  warning: {w}");
    }
    if let Some(b) = &o.best {
        println!(
            "  best: {}  {}",
            if b.valid { "valid" } else { "INVALID" },
            b.solution
        );
        for v in b.violations.iter().take(10) {
            println!("    {}: {}", v.constraint, v.detail);
        }
        if b.violations.len() > 10 {
            println!("    … and {} more", b.violations.len() - 10);
        }
    }
}
