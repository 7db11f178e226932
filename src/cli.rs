//! The command line: every non-interactive job, with `--json` output for scripts.
//! Errors are one line on stderr and exit code 1 (2 for usage errors, from clap).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::bench;
use crate::puzzle::{AnyPuzzle, EncodeOptions, Kind, load_puzzles, sudoku};
use crate::qubo::formats::{read_model, write_model};
use crate::qubo::{Encoding, StoredModel, Weights};
use crate::render::image::export;
use crate::sampler::{RunControl, Sampler, sampler_from_params};
use crate::solve::{SolveOutcome, solve};

/// Pixels per puzzle unit in exported images.
const PX_PER_UNIT: f32 = 48.0;

#[derive(Parser)]
#[command(
    name = "qubo-workbench",
    version,
    about = "Logic puzzles → QUBO models → samplers → pictures"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open the window, save a PNG of its first frames to PATH, and exit (for docs and smoke
    /// tests; settings are neither read nor written).
    #[arg(long, global = true, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Open the workbench window (the default with no subcommand), optionally on a file.
    Gui {
        /// A puzzle file, or a QUBO model (.qubo, .coo, dimod .json).
        file: Option<PathBuf>,
        /// Start sampling as soon as the window opens (with --screenshot: shoot the results).
        #[arg(long)]
        run: bool,
    },
    /// Encode a puzzle, sample it, decode and check the result (every puzzle of a file).
    Solve(SolveArgs),
    /// Write a puzzle's QUBO to a file (.qubo, .coo or .json by extension).
    Encode(EncodeArgs),
    /// Sample a QUBO file.
    Sample(SampleArgs),
    /// Check a solution against a puzzle; exit 0 when valid, 1 when not.
    Check(CheckArgs),
    /// Draw a puzzle (and a solution) as PNG or SVG.
    Render(RenderArgs),
    /// Generate a puzzle with a unique solution.
    Generate(GenerateArgs),
    /// Time the annealing kernels (built-in models, or COO files).
    Bench(BenchArgs),
    /// Sample a puzzle at several values of one weight: success and mean energy per value.
    Sweep(SweepArgs),
}

#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// The weight to sweep (e.g. hint).
    #[arg(long)]
    pub weight: String,
    #[arg(long)]
    pub from: f64,
    #[arg(long)]
    pub to: f64,
    #[arg(long, default_value_t = 9)]
    pub steps: usize,
    /// Fix another weight, e.g. --set box=2 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    #[arg(long)]
    pub presolve: bool,
    #[command(flatten)]
    pub sampler: SamplerArgs,
    #[arg(long, default_value_t = 1)]
    pub index: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Clone)]
pub struct PuzzleArgs {
    /// Puzzle file: one puzzle per line, or our JSON.
    pub puzzle: PathBuf,
    /// Puzzle kind: sudoku, minesweeper, numberlink, edge-matching.
    #[arg(long)]
    pub kind: Option<String>,
}

#[derive(Args, Clone)]
pub struct EncodingArgs {
    /// Set a penalty weight, e.g. --weight hint=3 (repeatable).
    #[arg(long = "weight", value_name = "NAME=VALUE")]
    pub weights: Vec<String>,
    /// Remove variables the givens decide.
    #[arg(long)]
    pub presolve: bool,
}

#[derive(Args, Clone)]
pub struct SamplerArgs {
    /// Sampler: sa (simulated annealing) or exact (enumeration, ≤ 30 variables).
    #[arg(long, default_value = "sa")]
    pub sampler: String,
    #[arg(long)]
    pub num_reads: Option<usize>,
    #[arg(long)]
    pub num_sweeps: Option<usize>,
    /// Hot and cold β (default: as dwave-samplers computes it).
    #[arg(long, num_args = 2, value_names = ["HOT", "COLD"], allow_negative_numbers = true)]
    pub beta_range: Option<Vec<f64>>,
    /// linear or geometric.
    #[arg(long)]
    pub beta_schedule_type: Option<String>,
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Solve only the N-th puzzle of the file (1-based).
    #[arg(long)]
    pub index: Option<usize>,
    /// Draw the best solution to a PNG or SVG file (with several puzzles: NAME-K.png).
    #[arg(long)]
    pub render: Option<PathBuf>,
    /// Save the samples as dimod SampleSet JSON (.json) or CSV (.csv) (several puzzles: NAME-K.json).
    #[arg(long)]
    pub save_samples: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct EncodeArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Which puzzle of the file (1-based).
    #[arg(long, default_value_t = 1)]
    pub index: usize,
}

#[derive(Args)]
pub struct SampleArgs {
    /// Model file (.qubo, .coo or .json).
    pub model: PathBuf,
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Save the samples as dimod SampleSet JSON (.json) or CSV (.csv).
    #[arg(long)]
    pub save_samples: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// The solution in one-line form, or a file holding it.
    pub solution: String,
    #[arg(long, default_value_t = 1)]
    pub index: usize,
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct RenderArgs {
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// A solution to draw over the puzzle (one-line form, or a file holding it).
    #[arg(long)]
    pub solution: Option<String>,
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    #[arg(long, default_value_t = 1)]
    pub index: usize,
}

#[derive(Args)]
pub struct GenerateArgs {
    /// Puzzle kind (sudoku), or random-qubo for a sparse random model (benchmarks, inspector).
    pub kind: String,
    /// Sudoku side length (4, 9 or 16); for random-qubo, the number of variables.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// random-qubo: couplings per variable on average.
    #[arg(long, default_value_t = 8)]
    pub degree: usize,
    #[arg(long, default_value_t = 28)]
    pub givens: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (one-line form); standard output when absent.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
}

#[derive(Args)]
pub struct BenchArgs {
    /// A few small models, one repeat, 100 sweeps: a smoke run.
    #[arg(long)]
    pub quick: bool,
    /// A folder of .coo files (or one file) instead of the built-in models.
    #[arg(long)]
    pub instances: Option<PathBuf>,
    #[arg(long, default_value_t = 100)]
    pub num_reads: usize,
    #[arg(long)]
    pub num_sweeps: Option<usize>,
    /// Runs per configuration; the median wall time is reported.
    #[arg(long)]
    pub repeats: Option<usize>,
    /// Thread counts for the lane kernel (default: 1 and all cores).
    #[arg(long, value_delimiter = ',')]
    pub threads: Option<Vec<usize>>,
    #[arg(long)]
    pub json: bool,
}

/// A failure to report: the message, and whether it is a usage error (exit 2).
pub struct Failure {
    message: String,
    code: i32,
}

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure {
            message: e.to_string(),
            code: 1,
        }
    }
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 2,
    }
}

/// Runs the command line; returns the process exit code.
pub fn run(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return e.exit_code();
        }
    };
    let result = match cli.command.unwrap_or(Command::Gui {
        file: None,
        run: false,
    }) {
        Command::Gui { file, run } => crate::gui::run(file, cli.screenshot, run)
            .map(|()| 0)
            .map_err(Failure::from),
        Command::Sweep(a) => cmd_sweep(a),
        Command::Solve(a) => cmd_solve(a),
        Command::Encode(a) => cmd_encode(a),
        Command::Sample(a) => cmd_sample(a),
        Command::Check(a) => cmd_check(a),
        Command::Render(a) => cmd_render(a),
        Command::Generate(a) => cmd_generate(a),
        Command::Bench(a) => cmd_bench(a),
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            eprintln!("error: {}", f.message);
            f.code
        }
    }
}

fn kind_of(args: &PuzzleArgs) -> Result<Option<Kind>, Failure> {
    args.kind
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(usage)
}

fn load(args: &PuzzleArgs) -> Result<Vec<AnyPuzzle>, Failure> {
    Ok(load_puzzles(&args.puzzle, kind_of(args)?)?)
}

fn pick(puzzles: Vec<AnyPuzzle>, index: usize, path: &Path) -> Result<AnyPuzzle, Failure> {
    let count = puzzles.len();
    if index == 0 || index > count {
        return Err(usage(format!(
            "--index {index}: {} holds {count} puzzle(s)",
            path.display()
        )));
    }
    Ok(puzzles.into_iter().nth(index - 1).expect("index checked"))
}

/// Parses `--weight NAME=VALUE` flags against the encoding's weight names.
fn weights_for(encoding: &Encoding, flags: &[String]) -> Result<Weights, Failure> {
    let mut w = encoding.default_weights();
    for flag in flags {
        let (name, value) = flag
            .split_once('=')
            .ok_or_else(|| usage(format!("--weight {flag}: expected NAME=VALUE")))?;
        if !encoding.weight_names().contains(&name) {
            return Err(usage(format!(
                "--weight {flag}: unknown weight '{name}' (this model's weights: {})",
                encoding.weight_names().join(", ")
            )));
        }
        let v: f64 = value
            .parse()
            .map_err(|_| usage(format!("--weight {flag}: '{value}' is not a number")))?;
        w.set(name, v)
            .map_err(|e| usage(format!("--weight {flag}: {e}")))?;
    }
    Ok(w)
}

/// The sampler the flags describe, built through the library's one constructor
/// (`sampler_from_params`), so flags and GUI settings mean the same thing.
fn build_sampler(a: &SamplerArgs) -> Result<Box<dyn Sampler>, Failure> {
    let mut params = serde_json::Map::new();
    if let Some(n) = a.num_reads {
        params.insert("num_reads".into(), json!(n));
    }
    if let Some(n) = a.num_sweeps {
        params.insert("num_sweeps".into(), json!(n));
    }
    if let Some(b) = &a.beta_range {
        params.insert("beta_range".into(), json!([b[0], b[1]]));
    }
    if let Some(t) = &a.beta_schedule_type {
        if t != "linear" && t != "geometric" {
            return Err(usage(format!(
                "--beta-schedule-type {t}: linear or geometric"
            )));
        }
        params.insert("beta_schedule_type".into(), json!(t));
    }
    if let Some(seed) = a.seed {
        params.insert("seed".into(), json!(seed));
    }
    sampler_from_params(&a.sampler, &serde_json::Value::Object(params))
        .map_err(|e| usage(format!("--sampler {}: {e}", a.sampler)))
}

/// Progress on stderr while a run goes, only when stderr is a terminal.
fn control_with_progress(threads: Option<usize>, label: &str) -> (RunControl, Option<ProgressBar>) {
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

fn print_json(v: &impl serde::Serialize) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, v)?;
    writeln!(out)?;
    Ok(())
}

fn numbered(path: &Path, k: usize) -> PathBuf {
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

fn cmd_solve(a: SolveArgs) -> Result<i32, Failure> {
    let mut puzzles = load(&a.puzzle)?;
    let first_index = match a.index {
        Some(k) => {
            puzzles = vec![pick(puzzles, k, &a.puzzle.puzzle)?];
            k
        }
        None => 1,
    };
    let sampler = build_sampler(&a.sampler)?;
    let options = EncodeOptions {
        presolve: a.encoding.presolve,
    };
    let many = puzzles.len() > 1;
    let mut results: Vec<(usize, SolveOutcome)> = Vec::new();
    for (offset, puzzle) in puzzles.iter().enumerate() {
        let number = first_index + offset;
        let encoding = puzzle.encode(&options)?;
        let weights = weights_for(&encoding, &a.encoding.weights)?;
        let (control, bar) = control_with_progress(a.sampler.threads, &format!("puzzle {number}"));
        let outcome = solve(puzzle, &options, &weights, sampler.as_ref(), &control)?;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        if let Some(out) = &a.render {
            let path = if many {
                numbered(out, number)
            } else {
                out.clone()
            };
            let solution = outcome.best.as_ref().and_then(|b| b.decoded.as_ref());
            export(&puzzle.draw(solution), &path, PX_PER_UNIT)?;
        }
        if let Some(out) = &a.save_samples {
            let path = if many {
                numbered(out, number)
            } else {
                out.clone()
            };
            let labels: Vec<String> = encoding.labels().iter().map(|l| l.to_string()).collect();
            outcome.samples.save(&path, Some(&labels))?;
        }
        if !a.json {
            print_outcome(number, &outcome);
        }
        results.push((number, outcome));
    }
    if a.json {
        let objects: Vec<serde_json::Value> = results
            .iter()
            .map(|(k, o)| {
                let mut v = serde_json::to_value(o).unwrap_or_default();
                if let Some(obj) = v.as_object_mut() {
                    obj.insert("puzzle".into(), json!(k));
                }
                v
            })
            .collect();
        if many {
            let solved = results
                .iter()
                .filter(|(_, o)| o.best.as_ref().is_some_and(|b| b.valid))
                .count();
            let n = results.len() as f64;
            print_json(&json!({
                "summary": {
                    "puzzles": results.len(),
                    "solved": solved,
                    "mean_success_fraction": results.iter().map(|(_, o)| o.success_fraction).sum::<f64>() / n,
                    "mean_ground_fraction": results.iter().filter_map(|(_, o)| o.ground_fraction).sum::<f64>() / n,
                    "total_sample_s": results.iter().map(|(_, o)| o.timing.sample_s).sum::<f64>(),
                },
                "results": objects,
            }))?;
        } else {
            print_json(&objects[0])?;
        }
    }
    Ok(0)
}

fn print_outcome(number: usize, o: &SolveOutcome) {
    let percent = |f: f64| format!("{:.0}%", 100.0 * f);
    println!(
        "puzzle {number}: {} — {} variables, {} interactions (encoded in {:.3} s)",
        o.description, o.num_variables, o.num_interactions, o.timing.encode_s
    );
    let ground = match (o.ground_energy, o.ground_fraction) {
        (Some(g), Some(f)) => format!(" (ground {g}): {} of reads at ground,", percent(f)),
        _ => ":".into(),
    };
    println!(
        "  {}: {} reads in {:.3} s; min energy {}{ground} {} decode to a valid solution{}",
        o.sampler,
        o.num_reads,
        o.timing.sample_s,
        o.min_energy.map_or("—".into(), |e| e.to_string()),
        percent(o.success_fraction),
        if o.cancelled { " (cancelled)" } else { "" }
    );
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

fn cmd_encode(a: EncodeArgs) -> Result<i32, Failure> {
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?;
    let encoding = puzzle.encode(&EncodeOptions {
        presolve: a.encoding.presolve,
    })?;
    let weights = weights_for(&encoding, &a.encoding.weights)?;
    let qubo = encoding.qubo(&weights)?;
    let labels: Vec<String> = encoding.labels().iter().map(|l| l.to_string()).collect();
    write_model(&a.output, &qubo, Some(&labels))?;
    eprintln!(
        "wrote {}: {} variables, {} interactions, offset {}",
        a.output.display(),
        qubo.num_variables(),
        qubo.num_interactions(),
        qubo.offset()
    );
    Ok(0)
}

fn cmd_sample(a: SampleArgs) -> Result<i32, Failure> {
    let file = read_model(&a.model)?;
    for w in &file.warnings {
        eprintln!("warning: {w}");
    }
    let model = StoredModel::new(file.qubo);
    let sampler = build_sampler(&a.sampler)?;
    let (control, bar) = control_with_progress(a.sampler.threads, "sampling");
    let set = sampler.sample(&model, &control)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if let Some(out) = &a.save_samples {
        set.save(out, file.labels.as_deref())?;
    }
    let n = model.qubo.num_variables();
    let sample_s = set.info.sampling_ns as f64 * 1e-9;
    let updates = (set.num_reads() * set.info.num_sweeps * n) as f64;
    let ns_per_update = (updates > 0.0).then(|| set.info.sampling_ns as f64 / updates);
    let best = set.lowest();
    if a.json {
        print_json(&json!({
            "num_variables": n,
            "num_interactions": model.qubo.num_interactions(),
            "sampler": set.info.sampler,
            "params": set.info.params,
            "num_reads": set.num_reads(),
            "cancelled": set.info.cancelled,
            "min_energy": best.map(|r| r.energy),
            "energies": set.energies(),
            "best": best.map(|r| json!({
                "energy": r.energy,
                "sample": r.sample.iter().map(|b| if *b != 0 { '1' } else { '0' }).collect::<String>(),
            })),
            "timing": {"sample_s": sample_s, "ns_per_update": ns_per_update},
            "warnings": file.warnings,
        }))?;
    } else {
        println!(
            "{}: {n} variables, {} interactions",
            a.model.display(),
            model.qubo.num_interactions()
        );
        println!(
            "{}: {} reads in {sample_s:.3} s{}; min energy {}",
            set.info.sampler,
            set.num_reads(),
            ns_per_update.map_or(String::new(), |x| format!(" ({x:.2} ns per update)")),
            best.map_or("—".into(), |r| r.energy.to_string())
        );
        for row in set.rows.iter().take(5) {
            println!("  energy {:>14}  ×{}", row.energy, row.num_occurrences);
        }
    }
    Ok(0)
}

/// A solution given inline, or the first non-empty line of a file.
fn solution_text(arg: &str) -> Result<String, Failure> {
    let p = Path::new(arg);
    if p.is_file() {
        let text = crate::io::read_text_limited(p, 1 << 20).map_err(|e| format!("{arg}: {e}"))?;
        return text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .map(str::to_string)
            .ok_or_else(|| format!("{arg}: the file holds no solution").into());
    }
    Ok(arg.to_string())
}

fn cmd_check(a: CheckArgs) -> Result<i32, Failure> {
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?;
    let solution = puzzle.parse_solution(&solution_text(&a.solution)?)?;
    let violations = puzzle.check(&solution);
    if a.json {
        print_json(&json!({"valid": violations.is_empty(), "violations": violations}))?;
    } else if violations.is_empty() {
        println!("valid");
    } else {
        for v in &violations {
            println!("{}: {}", v.constraint, v.detail);
        }
    }
    Ok(if violations.is_empty() { 0 } else { 1 })
}

fn cmd_render(a: RenderArgs) -> Result<i32, Failure> {
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?;
    let solution = match &a.solution {
        Some(s) => Some(puzzle.parse_solution(&solution_text(s)?)?),
        None => None,
    };
    export(&puzzle.draw(solution.as_ref()), &a.output, PX_PER_UNIT)?;
    eprintln!("wrote {}", a.output.display());
    Ok(0)
}

fn cmd_generate(a: GenerateArgs) -> Result<i32, Failure> {
    if a.kind == "random-qubo" {
        let path = a
            .output
            .ok_or_else(|| usage("random-qubo needs -o MODEL.(qubo|coo|json)"))?;
        let q = bench::sparse_random_qubo(a.size, a.degree, a.seed)?;
        write_model(&path, &q, None)?;
        eprintln!(
            "wrote {}: {} variables, {} interactions",
            path.display(),
            q.num_variables(),
            q.num_interactions()
        );
        return Ok(0);
    }
    let kind: Kind = a.kind.parse().map_err(usage)?;
    let puzzle = match kind {
        Kind::Sudoku => AnyPuzzle::Sudoku(sudoku::generate(a.size, a.givens, a.seed)?),
        other => return Err(crate::puzzle::PuzzleError::KindNotAvailable(other).into()),
    };
    let line = puzzle.to_line();
    match &a.output {
        Some(path) => {
            crate::io::write_atomic(path, format!("{line}\n").as_bytes())?;
            eprintln!("wrote {}: {}", path.display(), puzzle.describe());
        }
        None => println!("{line}"),
    }
    Ok(0)
}

fn cmd_sweep(a: SweepArgs) -> Result<i32, Failure> {
    let puzzle = pick(load(&a.puzzle)?, a.index, &a.puzzle.puzzle)?;
    let options = EncodeOptions {
        presolve: a.presolve,
    };
    let encoding = puzzle.encode(&options)?;
    let base = weights_for(&encoding, &a.set)?;
    if !encoding.weight_names().contains(&a.weight.as_str()) {
        return Err(usage(format!(
            "--weight {}: unknown weight (this model's weights: {})",
            a.weight,
            encoding.weight_names().join(", ")
        )));
    }
    if a.steps == 0 || !a.from.is_finite() || !a.to.is_finite() {
        return Err(usage(
            "--from and --to must be numbers and --steps at least 1",
        ));
    }
    let sampler = build_sampler(&a.sampler)?;
    let (control, bar) = control_with_progress(a.sampler.threads, "sweep");
    let values = crate::sweep::values(a.from, a.to, a.steps);
    if !a.json {
        println!(
            "{:>10} {:>9} {:>9} {:>12} {:>12}",
            a.weight, "success", "ground", "mean E", "min E"
        );
    }
    let spec = crate::sweep::SweepSpec {
        puzzle: &puzzle,
        options: &options,
        base: &base,
        weight: &a.weight,
        values: &values,
    };
    let points = crate::sweep::run(&spec, sampler.as_ref(), &control, |p| {
        if !a.json {
            println!(
                "{:>10.4} {:>8.1}% {:>9} {:>12.4} {:>12}",
                p.value,
                100.0 * p.success_fraction,
                p.ground_fraction
                    .map_or("—".into(), |g| format!("{:.1}%", 100.0 * g)),
                p.mean_energy,
                p.min_energy
            );
        }
    })?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if a.json {
        print_json(
            &json!({"weight": a.weight, "description": puzzle.describe(), "points": points}),
        )?;
    }
    Ok(0)
}

fn cmd_bench(a: BenchArgs) -> Result<i32, Failure> {
    let instances = match &a.instances {
        Some(dir) => bench::file_instances(dir)?,
        None => bench::builtin_instances(a.quick)?,
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads = a
        .threads
        .clone()
        .unwrap_or_else(|| if cores > 1 { vec![1, cores] } else { vec![1] });
    threads.retain(|&t| t > 0);
    let settings = bench::BenchSettings {
        num_reads: a.num_reads,
        num_sweeps: a.num_sweeps.unwrap_or(if a.quick { 100 } else { 1000 }),
        repeats: a.repeats.unwrap_or(if a.quick { 1 } else { 3 }),
        threads,
        scalar: true,
        seed: 1,
    };
    if !a.json {
        println!(
            "{} reads × {} sweeps, median of {} run(s), wall time of sample()",
            settings.num_reads, settings.num_sweeps, settings.repeats
        );
        println!(
            "{:<34} {:>6} {:>7} {:>3} {:>10} {:>9} {:>14} {:>8}",
            "instance", "n", "kernel", "thr", "wall s", "ns/upd", "min E", "P(gnd)"
        );
    }
    let rows = bench::run(&instances, &settings, |r| {
        if !a.json {
            println!(
                "{:<34} {:>6} {:>7} {:>3} {:>10.3} {:>9.2} {:>14} {:>7.2}{}",
                r.instance,
                r.n,
                r.kernel,
                r.threads,
                r.wall_s,
                r.ns_per_update,
                r.min_energy,
                r.ground_fraction,
                if r.ground_known { "" } else { "*" }
            );
        }
    });
    let (reweight_s, reweight_n) = bench::reweight_time(bench::SUDOKUS[0].1, 101)?;
    if a.json {
        print_json(&json!({
            "reweight": {"num_variables": reweight_n, "median_s": reweight_s},
            "num_reads": settings.num_reads,
            "num_sweeps": settings.num_sweeps,
            "repeats": settings.repeats,
            "cores": cores,
            "results": rows,
        }))?;
    } else {
        if rows.iter().any(|r| !r.ground_known) {
            println!(
                "* no known ground energy: share of reads at the lowest energy seen in this bench"
            );
        }
        println!(
            "re-weighting the {reweight_n}-variable Sudoku encoding into a QUBO: {:.3} ms (median of 101)",
            reweight_s * 1e3
        );
    }
    Ok(0)
}
