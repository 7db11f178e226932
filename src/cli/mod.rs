//! The command line: every non-interactive job, with `--json` output for scripts.
//! Errors are one line on stderr and exit code 1 (2 for usage errors, from clap or from flag
//! values). `args.rs` holds the argument groups, `params.rs` the flags generated from parameter
//! descriptions, `output.rs` the printing; one file per group of commands.

mod args;
mod campaign_cmds;
mod compare_cmds;
mod model_cmds;
mod output;
mod params;
mod play_cmds;
mod puzzle_cmds;
mod remote_cmds;
mod tuning_cmds;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::params::{ParamDefault, ParamSpec, ParamType};
pub use args::*;

/// `generate random-qubo`'s parameters (a model, not a puzzle kind).
pub const RANDOM_QUBO_PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "size",
        ty: ParamType::Int {
            min: 1,
            max: crate::qubo::formats::MAX_VARIABLES as u64,
        },
        default: ParamDefault::Int(1000),
        help: "number of variables",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "degree",
        ty: ParamType::Int { min: 0, max: 1000 },
        default: ParamDefault::Int(8),
        help: "couplings per variable on average",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(ParamDefault::Int(1), "the same seed gives the same model"),
];

/// The command line.
#[derive(Parser)]
#[command(
    name = "qubo-workbench",
    version,
    about = "Logic puzzles → QUBO models → samplers → pictures"
)]
pub struct Cli {
    /// What to do (none: open the window).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Open the window, save a PNG of its first frames to PATH, and exit (for docs and smoke
    /// tests; settings are neither read nor written).
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
}

/// `gui`: the window, and what it starts with.
#[derive(Args, Default)]
pub struct GuiArgs {
    /// A puzzle file, or a QUBO model (.qubo, .coo, dimod .json or .bqm).
    pub file: Option<PathBuf>,
    /// Start sampling as soon as the window opens (with --screenshot: shoot the results).
    #[arg(long)]
    pub run: bool,
    /// Save a PNG of the window's first frames to PATH and exit (settings are neither read
    /// nor written).
    #[arg(long, value_name = "PATH")]
    pub screenshot: Option<PathBuf>,
    /// Open with this sampler chosen (a registered name, or auto).
    #[arg(long, value_name = "NAME")]
    pub sampler: Option<String>,
    /// Set one of that sampler's parameters, e.g. --param endpoint=https://… (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    pub params: Vec<String>,
    /// Start a weight sweep as the window opens, e.g. --sweep hint=0:4:9; twice for a
    /// two-weight grid (with --screenshot: shoot the finished sweep).
    #[arg(long = "sweep", value_name = "WEIGHT=FROM:TO:STEPS")]
    pub sweeps: Vec<String>,
    /// Show the runs in this file (dimod's SampleSet JSON: a notebook's, or --save-samples) as
    /// the last run of FILE's model, columns matched by variable label.
    #[arg(long, value_name = "PATH", requires = "file")]
    pub samples: Option<PathBuf>,
    /// Open FILE's puzzle with this penalty weight set, e.g. --weight hint=4 (repeatable; as
    /// for `solve`).
    #[arg(long = "weight", value_name = "NAME=VALUE", requires = "file")]
    pub weights: Vec<String>,
}

/// The commands.
#[derive(Subcommand)]
pub enum Command {
    /// Open the workbench window (the default with no subcommand), optionally on a file.
    Gui(GuiArgs),
    /// Encode a puzzle, sample it, decode and check the result (every puzzle of a file).
    Solve(SolveArgs),
    /// Write a puzzle's QUBO to a file (.qubo, .coo, .json or dimod binary .bqm by extension).
    Encode(EncodeArgs),
    /// Sample a QUBO file.
    Sample(SampleArgs),
    /// Check a solution against a puzzle (exit 0 when valid, 1 when not); without a solution,
    /// print the puzzle's design facts (exit 1 when its givens conflict or it has no solution).
    Check(CheckArgs),
    /// Draw a puzzle (and a solution) as PNG or SVG.
    Render(RenderArgs),
    /// Generate a puzzle (or a random QUBO model) from the kind's generator parameters.
    Generate(GenerateArgs),
    /// Time the annealing kernels (built-in models, or COO files).
    Bench(BenchArgs),
    /// Sample a puzzle at several values of one weight (or a grid of two): valid fraction with
    /// its interval, ground fraction, TTS99, broken constraints and "penalty too weak" per point.
    Sweep(Box<SweepArgs>),
    /// Suggest penalty weights: a coordinate search on TTS99 within a time budget.
    Tune(TuneArgs),
    /// Sweep one axis (a sampler parameter or a weight) over many instances: a resumable
    /// journal, one table (CSV, JSON) and the TTS99 and scaling plots.
    Campaign(Box<CampaignArgs>),
    /// Compare runs: sample sets saved by --save-samples (or dimod SampleSet JSON) side by
    /// side — a table of their figures and their energy histograms overlaid on one chart.
    Compare(CompareArgs),
    /// Play whole Minesweeper games with a strategy (exact probabilities or a sampler's
    /// estimate) and report the win rate.
    Play(PlayArgs),
    /// Remote annealing services: settings in effect, solvers, a loopback fake SAPI.
    Remote(remote_cmds::RemoteArgs),
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

/// A usage error (exit code 2).
fn usage(message: impl Into<String>) -> Failure {
    Failure {
        message: message.into(),
        code: 2,
    }
}

/// `gui [FILE] [--run] [--screenshot PATH] [--sampler NAME --param NAME=VALUE…] [--weight
/// NAME=VALUE…]`.
fn gui(a: GuiArgs) -> Result<i32, Failure> {
    let GuiArgs {
        file,
        run,
        screenshot,
        sampler,
        params,
        sweeps,
        samples,
        weights,
    } = a;
    // Checked against FILE's puzzle (its first, as the window opens it) before the window
    // opens, with the messages `solve --weight` gives.
    let mut weight_values: Vec<(String, f64)> = Vec::new();
    if let (false, Some(path)) = (weights.is_empty(), &file) {
        let loaded = crate::puzzle::load_puzzles(path, None).map_err(|e| {
            usage(format!(
                "--weight needs a puzzle file ({}: {e}); a model file has no weights",
                path.display()
            ))
        })?;
        let first = loaded
            .first()
            .ok_or_else(|| usage(format!("--weight: {} holds no puzzle", path.display())))?;
        let options = crate::puzzle::EncodeOptions::default();
        let encoding = first.puzzle.encode(&options)?;
        let chosen = args::weights_for(&encoding, "--weight", &weights)?;
        for flag in &weights {
            let name = flag.split_once('=').map_or(flag.as_str(), |(n, _)| n);
            if let Some(value) = chosen.get(name) {
                weight_values.push((name.to_string(), value));
            }
        }
    }
    if sweeps.len() > 2 {
        return Err(usage("--sweep: at most two weights (a grid)"));
    }
    let sweep: Vec<(String, f64, f64, usize)> = sweeps
        .iter()
        .map(|spec| {
            let bad = || {
                usage(format!(
                    "--sweep {spec}: write WEIGHT=FROM:TO:STEPS, e.g. hint=0:4:9"
                ))
            };
            let (name, range) = spec.split_once('=').ok_or_else(bad)?;
            let parts: Vec<&str> = range.split(':').collect();
            let [from, to, steps] = parts.as_slice() else {
                return Err(bad());
            };
            let (from, to, steps) = (
                from.trim().parse::<f64>().map_err(|_| bad())?,
                to.trim().parse::<f64>().map_err(|_| bad())?,
                steps.trim().parse::<usize>().map_err(|_| bad())?,
            );
            crate::sweep::values(from, to, steps)
                .map_err(|e| usage(format!("--sweep {spec}: {e}")))?;
            Ok((name.trim().to_string(), from, to, steps))
        })
        .collect::<Result<_, Failure>>()?;
    if let [(a, ..), (b, ..)] = sweep.as_slice()
        && a == b
    {
        return Err(usage(format!(
            "--sweep: weight '{a}' twice; a grid sweeps two different weights"
        )));
    }
    let start = match sampler {
        None if params.is_empty() => None,
        None => {
            return Err(usage(
                "--param needs --sampler NAME: whose parameter is it?",
            ));
        }
        Some(name) => {
            let mut values = crate::params::ParamValues::new();
            if name != crate::samplers::AUTO {
                let e = crate::samplers::entry(&name).map_err(|e| usage(e.to_string()))?;
                for p in &params {
                    let (k, v) = p
                        .split_once('=')
                        .ok_or_else(|| usage(format!("--param {p}: write NAME=VALUE")))?;
                    let spec = crate::params::find(e.params, k.trim()).ok_or_else(|| {
                        usage(format!("--param {p}: {name} has no parameter {k}"))
                    })?;
                    let value = spec
                        .parse_text(v)
                        .map_err(|e| usage(format!("--param {p}: {e}")))?;
                    values.insert(spec.name.to_string(), value);
                }
            } else if !params.is_empty() {
                return Err(usage("--param needs a named sampler, not auto"));
            }
            Some((name, values))
        }
    };
    if let Some(path) = &screenshot {
        if !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"))
        {
            return Err(usage(format!(
                "--screenshot {}: a screenshot is a PNG; use the extension .png",
                path.display()
            )));
        }
        output::check_output("--screenshot", path, output::Output::Image, &[])?;
    }
    crate::gui::run(file, screenshot, run, start, sweep, samples, weight_values)
        .map(|()| 0)
        .map_err(Failure::from)
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
    let command = cli
        .command
        .unwrap_or_else(|| Command::Gui(GuiArgs::default()));
    // A budget setting that is not a number would silently mean "half the memory".
    if let Err(e) = crate::budget::budget_setting() {
        eprintln!("error: {e}");
        return 2;
    }
    if cli.screenshot.is_some() && !matches!(command, Command::Gui(_)) {
        eprintln!(
            "error: --screenshot belongs to the window: qubo-workbench gui --screenshot PATH"
        );
        return 2;
    }
    let result = match command {
        Command::Gui(mut a) => {
            a.screenshot = a.screenshot.or(cli.screenshot);
            gui(a)
        }
        Command::Sweep(a) => tuning_cmds::sweep(*a),
        Command::Campaign(a) => campaign_cmds::campaign(*a),
        Command::Tune(a) => tuning_cmds::tune(a),
        Command::Compare(a) => compare_cmds::compare(a),
        Command::Play(a) => play_cmds::play(a),
        Command::Solve(a) => puzzle_cmds::solve(a),
        Command::Encode(a) => puzzle_cmds::encode(a),
        Command::Check(a) => puzzle_cmds::check(a),
        Command::Render(a) => puzzle_cmds::render(a),
        Command::Generate(a) => puzzle_cmds::generate(a),
        Command::Sample(a) => model_cmds::sample(a),
        Command::Bench(a) => model_cmds::bench(a),
        Command::Remote(a) => remote_cmds::remote(a),
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            eprintln!("error: {}", f.message);
            f.code
        }
    }
}
