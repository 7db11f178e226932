//! Argument groups shared by the commands, and each command's arguments.

use std::path::{Path, PathBuf};

use clap::Args;

use super::params::{GeneratorFlags, SamplerFlags};
use super::{Failure, usage};
use crate::puzzle::{
    AnyPuzzle, Hint, Kind, LoadedPuzzle, ParseHints, PuzzleError, load_puzzles_with,
};
use crate::qubo::{Encoding, Weights};
use crate::sampler::Sampler;
use crate::samplers::entry;

/// Which puzzle file, and its kind.
#[derive(Args, Clone)]
pub struct PuzzleArgs {
    /// Puzzle file: the kind's text form (one puzzle per line for Sudoku), or our JSON.
    pub puzzle: PathBuf,
    /// Puzzle kind: sudoku, minesweeper, numberlink, edge-matching (default: from the file's
    /// content).
    #[arg(long)]
    pub kind: Option<String>,
    /// Board rows, for piece lists without a size line (edge matching: otherwise inferred from
    /// the counts of corner, edge and inner pieces).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub rows: Option<u32>,
    /// Board columns (see --rows).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub cols: Option<u32>,
    /// Total mines, for Minesweeper boards whose form does not say (LewisGaul's positions).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=65536))]
    pub mines: Option<u32>,
    /// Constrained models: give constraint LABEL a penalty weight of its own, named LABEL, apart
    /// from its family's (set it with --weight LABEL=V; the window's "own weight"). Repeatable.
    #[arg(long = "own-weight", value_name = "LABEL")]
    pub own_weights: Vec<String>,
}

/// Encoding options and weights.
#[derive(Args, Clone)]
pub struct EncodingArgs {
    /// Set a penalty weight, e.g. --weight hint=3 (repeatable).
    #[arg(long = "weight", value_name = "NAME=VALUE")]
    pub weights: Vec<String>,
    /// Presolve on, off or the kind's default.
    #[command(flatten)]
    pub presolve: PresolveArgs,
    /// The kind's formulation by name (Numberlink: cells, seed); default: the kind's first.
    #[arg(long, value_name = "NAME")]
    pub formulation: Option<String>,
}

/// Presolve on or off; unset, the kind's default (on for Numberlink, off for the others).
#[derive(Args, Clone)]
pub struct PresolveArgs {
    /// Remove variables the givens decide (default for Numberlink).
    #[arg(long, conflicts_with = "no_presolve")]
    pub presolve: bool,
    /// Keep the full model even where the kind presolves by default.
    #[arg(long)]
    pub no_presolve: bool,
}

impl PresolveArgs {
    /// Whether presolve runs for a puzzle of `kind`.
    pub fn on_for(&self, kind: crate::puzzle::Kind) -> bool {
        self.presolve || (!self.no_presolve && kind.presolves_by_default())
    }
}

impl EncodingArgs {
    /// The encoder's options these flags choose, for a puzzle of `kind`.
    pub fn options(&self, kind: crate::puzzle::Kind) -> crate::puzzle::EncodeOptions {
        crate::puzzle::EncodeOptions {
            presolve: self.presolve.on_for(kind),
            formulation: self.formulation.clone(),
            ..Default::default()
        }
    }
}

/// The sampler and its parameters (flags generated from every sampler's description).
#[derive(Args, Clone)]
pub struct SamplerArgs {
    /// Which sampler runs.
    // The possible values (and their help) come from the registry: `sampler_names`.
    #[arg(long, default_value = crate::samplers::AUTO, value_parser = sampler_names())]
    pub sampler: String,
    /// The sampler's parameters.
    #[command(flatten)]
    pub params: SamplerFlags,
    /// Worker threads, 1 to 1024 (default: all cores; never more than the cores or the work).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<u32>,
    /// Stop a read once it reaches this energy (tempering honours it; `solve` sets it to a
    /// valid solution's energy by default).
    #[arg(long, value_name = "E", allow_hyphen_values = true, value_parser = finite_number)]
    pub target_energy: Option<f64>,
}

/// `auto` and every registered sampler, each with its one-line summary for `--help`.
fn sampler_names() -> clap::builder::PossibleValuesParser {
    let auto = clap::builder::PossibleValue::new(crate::samplers::AUTO)
        .help("chosen for the model, and the output says which and why");
    let registered = crate::samplers::SAMPLERS
        .iter()
        .map(|e| clap::builder::PossibleValue::new(e.name).help(e.summary));
    clap::builder::PossibleValuesParser::new(std::iter::once(auto).chain(registered))
}

/// A finite number (NaN and ±inf refused, naming the value).
fn finite_number(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("{text} is not a finite number")),
    }
}

/// A picture width: whole pixels (the range, 1 to 16384, is checked with the other picture
/// flags; a negative width is refused here in the same words rather than as u32's range).
fn pixel_width(text: &str) -> Result<u32, String> {
    text.trim().parse::<u32>().map_err(|_| {
        format!(
            "1 to 16384 pixels, not {}",
            crate::params::shown_within(text, 24)
        )
    })
}

/// A puzzle's number in its file, counted from 1.
fn puzzle_number(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!(
            "{} is not a puzzle number (1 for the file's first puzzle, 2 for the second, …)",
            crate::params::shown_within(text, 24)
        )),
    }
}

/// `solve`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct SolveArgs {
    /// The puzzle file.
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Encoding options.
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// The sampler.
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Solve only the N-th puzzle of the file (1-based).
    #[arg(long, value_parser = puzzle_number)]
    pub index: Option<usize>,
    /// Draw the best solution to a PNG or SVG file (with several puzzles: NAME-K.png).
    #[arg(long)]
    pub render: Option<PathBuf>,
    /// Plot the energy histogram (valid and other reads) to a PNG or SVG file.
    #[arg(long, value_name = "FILE")]
    pub histogram: Option<PathBuf>,
    /// The size of the pictures written (--render, --histogram), and the histogram's title.
    #[command(flatten)]
    pub pictures: ChartArgs,
    /// Save the samples as dimod SampleSet JSON (.json) or CSV (.csv) (several puzzles: NAME-K.json).
    #[arg(long)]
    pub save_samples: Option<PathBuf>,
    /// Per-cell probabilities, for kinds that have them (Minesweeper): the exact engine alone
    /// (no sampling), the estimate from the reads, or both and their difference (default).
    #[arg(long, value_enum)]
    pub method: Option<crate::solve::ProbabilityMethod>,
    /// Sampling rounds at most: while no read is valid, the defects the kind can cut (Numberlink's
    /// loops) become penalties and the model is sampled again (1: no cut rounds).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=100))]
    pub cut_rounds: u32,
    /// Do not repair the lowest reads when none is valid (Numberlink under no-fill: remove loops).
    #[arg(long)]
    pub no_repair: bool,
    /// Run every read to its end even after one has found a valid solution (for the success
    /// share and TTS99 over all reads). By default a run with a target energy (a puzzle whose
    /// valid solution's energy is known) ends at its first read that reaches it: `solve` is
    /// asked for the answer, and the report says how many reads ran and why it stopped.
    /// With this flag the first valid solution is printed as soon as a read holds it (with
    /// --json: a line `{"event": "first_valid", …}` on stderr), and the report follows when
    /// every read is done.
    #[arg(long)]
    pub all_reads: bool,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `encode`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct EncodeArgs {
    /// The puzzle file.
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Encoding options.
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// The model file to write.
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Which puzzle of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = puzzle_number)]
    pub index: usize,
}

/// `sample`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct SampleArgs {
    /// Model file (.qubo, .coo, .json or .bqm).
    pub model: PathBuf,
    /// The sampler.
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Save the samples as dimod SampleSet JSON (.json) or CSV (.csv).
    #[arg(long)]
    pub save_samples: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `check`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct CheckArgs {
    /// The puzzle file.
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// The solution (one-line form or JSON, or a file holding it); without it, the puzzle's
    /// design facts are printed.
    pub solution: Option<String>,
    /// With the design facts: also the QUBO path's difficulty, the TTS99 of the default
    /// sampler at default weights (one sampling run, stopped after --tts-budget-s).
    /// Measures the puzzle, so it takes no solution.
    #[arg(long, conflicts_with = "solution")]
    pub tts: bool,
    /// Seconds the --tts run may take; a run stopped there reports "above the budget".
    #[arg(long, default_value_t = 10.0)]
    pub tts_budget_s: f64,
    /// Which puzzle of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = puzzle_number)]
    pub index: usize,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `render`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct RenderArgs {
    /// The puzzle file.
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// A solution to draw over the puzzle (one-line form, or a file holding it).
    #[arg(long)]
    pub solution: Option<String>,
    /// The image to write (.png or .svg).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
    /// Which puzzle of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = puzzle_number)]
    pub index: usize,
    /// The picture's size and print resolution.
    #[command(flatten)]
    pub image: ImageArgs,
    /// What the picture shows: puzzle (the blank to print), solved (the puzzle with the
    /// solution over it) or solution (the answer key). Default: solved with --solution, else
    /// puzzle; solved and solution without --solution solve the puzzle exactly first.
    #[arg(long, value_name = "WHAT", value_parser = crate::puzzle::picture::Show::parse)]
    pub show: Option<crate::puzzle::picture::Show>,
    /// Edge matching: no piece numbers.
    #[arg(long)]
    pub no_piece_numbers: bool,
    /// Minesweeper: no mine probabilities on the unopened cells.
    #[arg(long)]
    pub no_probabilities: bool,
    /// A transparent background instead of white.
    #[arg(long)]
    pub transparent: bool,
    /// A title line above the picture: the file's name and the solution's score.
    #[arg(long)]
    pub title: bool,
}

/// The size and print resolution of written pictures (every picture the command writes).
#[derive(Args, Clone, Default)]
pub struct ImageArgs {
    /// The picture's width in pixels (1 to 16384); the height follows. Lines and text scale.
    #[arg(long, value_name = "PX", conflicts_with = "scale", value_parser = pixel_width)]
    pub width: Option<u32>,
    /// A multiple of the default size (0.05 to 100).
    #[arg(long, value_name = "FACTOR")]
    pub scale: Option<f32>,
    /// Dots per inch written into the PNG (its pHYs chunk), for print (1 to 100000).
    #[arg(long)]
    pub dpi: Option<u32>,
}

impl ChartArgs {
    /// A chart as asked: without its title when `--no-title`.
    pub fn chart(&self, chart: crate::render::Drawing) -> crate::render::Drawing {
        if self.no_title {
            crate::render::chart::untitled(chart)
        } else {
            chart
        }
    }

    /// Writes a chart at the asked size.
    pub fn write(
        &self,
        chart: crate::render::Drawing,
        path: &std::path::Path,
    ) -> Result<(), super::Failure> {
        let options = self.image.export_options().map_err(super::usage)?;
        crate::render::image::export_with(&self.chart(chart), path, &options)?;
        Ok(())
    }
}

impl ImageArgs {
    /// The export's size and resolution, checked; the message names the flag.
    pub fn export_options(&self) -> Result<crate::render::image::ExportOptions, String> {
        use crate::render::image::{ExportOptions, ImageSize, MAX_IMAGE_SIDE};
        let size = match (self.width, self.scale) {
            (Some(w), _) if !(1..=MAX_IMAGE_SIDE).contains(&w) => {
                return Err(format!("--width {w}: 1 to {MAX_IMAGE_SIDE} pixels"));
            }
            (Some(w), _) => ImageSize::Width(w),
            (None, Some(f)) if !(f.is_finite() && (0.05..=100.0).contains(&f)) => {
                return Err(format!("--scale {f}: a factor from 0.05 to 100"));
            }
            (None, Some(f)) => ImageSize::Scale(f),
            (None, None) => ImageSize::Scale(1.0),
        };
        if let Some(d) = self.dpi.filter(|d| !(1..=100_000).contains(d)) {
            return Err(format!("--dpi {d}: 1 to 100000 dots per inch"));
        }
        Ok(ExportOptions {
            size,
            dpi: self.dpi,
        })
    }
}

/// The size of charts written, and whether they carry their title line.
#[derive(Args, Clone, Default)]
pub struct ChartArgs {
    /// Size and print resolution.
    #[command(flatten)]
    pub image: ImageArgs,
    /// Charts without their title line (for a figure captioned elsewhere).
    #[arg(long)]
    pub no_title: bool,
}

/// `compare`.
#[derive(Args)]
pub struct CompareArgs {
    /// Sample sets of one model: .json (dimod SampleSet, as --save-samples writes it) or .csv.
    #[arg(required = true, value_name = "SAMPLES")]
    pub samples: Vec<PathBuf>,
    /// The runs' names, in order, comma-separated (default: the file names).
    #[arg(long, value_delimiter = ',', value_name = "A,B,…")]
    pub labels: Vec<String>,
    /// Overlay the energy histograms on one chart, to a PNG or SVG file.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Bars as each run's share of its reads (runs of different sizes), not read counts.
    #[arg(long)]
    pub shares: bool,
    /// Write the table as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// The chart's size and title.
    #[command(flatten)]
    pub pictures: ChartArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `generate`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct GenerateArgs {
    /// Puzzle kind (sudoku, …), or random-qubo for a sparse random model (benchmarks, inspector).
    pub kind: String,
    /// The generator's parameters.
    #[command(flatten)]
    pub params: GeneratorFlags,
    /// Output file (the kind's text form; a model format for random-qubo); standard output when
    /// absent.
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Keep only an instance whose TTS99 on the default sampler (default weights, the kind's
    /// default presolve) falls in A:B seconds: seeds from --seed on are tried, and the measured
    /// value goes in the file's header comment.
    #[arg(long, value_name = "A:B")]
    pub target_tts99: Option<String>,
}

/// `bench`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct BenchArgs {
    /// A few small models, one repeat, 100 sweeps: a smoke run.
    #[arg(long)]
    pub quick: bool,
    /// A folder of .coo files (or one file) instead of the built-in models.
    #[arg(long)]
    pub instances: Option<PathBuf>,
    /// Reads per run (1 to 100000).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub num_reads: u32,
    /// Sweeps per read, 1 to 10⁶ (default 1000, 100 with --quick).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub num_sweeps: Option<u32>,
    /// Runs per configuration, 1 to 1000; the median wall time is reported.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub repeats: Option<u32>,
    /// Thread counts for the lane kernel, each 1 to 1024 (default: 1 and all cores; more than
    /// the cores run as many as there are cores).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: Option<Vec<u32>>,
    /// Only the rows whose instance, sampler, kernel or moves contain every term, e.g.
    /// `--only euler96,pt` or `--only spinglass,lanes` (ignoring case).
    #[arg(long, value_delimiter = ',', value_name = "TERM,…")]
    pub only: Option<Vec<String>>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// Which probabilities `play` picks its moves by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayStrategy {
    /// The exact engine.
    Exact,
    /// The seed's estimate from a sampler (`--sampler`, default SA).
    Sample,
}

/// `play`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct PlayArgs {
    /// Games to play, 1 to 100000.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Where the moves come from.
    #[arg(long, value_enum, default_value = "exact")]
    pub strategy: PlayStrategy,
    /// Columns (expert: 30).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(2..=256))]
    pub width: u32,
    /// Rows (expert: 16).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(2..=256))]
    pub height: u32,
    /// Mines (expert: 99).
    #[arg(long, default_value_t = 99, value_parser = clap::value_parser!(u32).range(1..=65535))]
    pub mines: u32,
    /// Game k is dealt from this seed + k (`--seed` is the sampler's).
    #[arg(long, default_value_t = 1)]
    pub deal_seed: u64,
    /// The sampler (for `--strategy sample`).
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// What `sweep` and `tune` both take: the puzzle, how it is encoded, the sampler, and when a
/// point stops.
#[derive(Args)]
pub struct TuningArgs {
    /// The puzzle file.
    #[command(flatten)]
    pub puzzle: PuzzleArgs,
    /// Which puzzle of the file (1-based).
    #[arg(long, default_value_t = 1, value_parser = puzzle_number)]
    pub index: usize,
    /// Presolve on, off or the kind's default.
    #[command(flatten)]
    pub presolve: PresolveArgs,
    /// The kind's formulation by name; default: the kind's first.
    #[arg(long, value_name = "NAME")]
    pub formulation: Option<String>,
    /// The sampler.
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Every point does all its --repeats runs (no stopping rule).
    #[arg(long, conflicts_with_all = ["ci_width", "budget_factor", "min_budget_s"])]
    pub no_early_stop: bool,
}

/// `sweep`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct SweepArgs {
    /// The puzzle, its encoding, the sampler and when a point stops.
    #[command(flatten)]
    pub tuning: TuningArgs,
    /// The swept axis and its values.
    #[command(flatten)]
    pub axis: AxisArgs,
    /// A second weight: every pair of values is a point (a heatmap with --plot).
    #[arg(long, conflicts_with = "sampler_param2")]
    pub weight2: Option<String>,
    /// A second sampler parameter instead of a second weight.
    #[arg(long, value_name = "NAME")]
    pub sampler_param2: Option<String>,
    /// First value of the second axis.
    #[arg(long, allow_negative_numbers = true)]
    pub from2: Option<f64>,
    /// Last value of the second axis.
    #[arg(long, allow_negative_numbers = true)]
    pub to2: Option<f64>,
    /// Geometric steps on the second axis.
    #[arg(long)]
    pub log2: bool,
    /// The second axis's values, comma-separated.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub values2: Vec<String>,
    /// Steps, runs per point, the metric and the stopping rule (from `SweepSetup::PARAMS`
    /// and `StopRule::PARAMS`).
    #[command(flatten)]
    pub settings: super::params::SweepSettingFlags,
    /// Plot the sweep to a PNG or SVG file (one weight: valid and ground fractions with the
    /// flags, or TTS99; two weights: a heatmap of --metric).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Plot the broken constraint groups per read, stacked by weight, to a PNG or SVG file.
    #[arg(long, value_name = "FILE")]
    pub plot_broken: Option<PathBuf>,
    /// The plots' size and title.
    #[command(flatten)]
    pub pictures: ChartArgs,
    /// Write the points as CSV (one row per point, every metric).
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Fix another weight, e.g. --set box=2 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The swept axis (`sweep`'s first, `campaign`'s only) and its values.
#[derive(Args)]
pub struct AxisArgs {
    /// The weight to sweep (e.g. hint); or --sampler-param for a sampler parameter.
    #[arg(
        long,
        required_unless_present = "sampler_param",
        conflicts_with = "sampler_param"
    )]
    pub weight: Option<String>,
    /// A sampler parameter to sweep instead of a weight (num_sweeps, num_replicas, gamma,
    /// moves…; one end of a pair as beta_range[1], the other end as set).
    #[arg(long, value_name = "NAME")]
    pub sampler_param: Option<String>,
    /// First value (numbers). Without --from and --to the axis starts where the window starts
    /// it: a weight from its slider minimum to twice its default, a count from a tenth to ten
    /// times its default in log steps, another number from half to twice it.
    #[arg(long, allow_negative_numbers = true)]
    pub from: Option<f64>,
    /// Last value (numbers; see --from).
    #[arg(long, allow_negative_numbers = true)]
    pub to: Option<f64>,
    /// Geometric steps from --from to --to (both above 0), as sweep counts are swept.
    #[arg(long)]
    pub log: bool,
    /// The values themselves instead of a range, comma-separated: numbers, or a word
    /// parameter's words (--sampler-param moves --values flip,two-way; all of them when
    /// omitted).
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub values: Vec<String>,
}

/// `campaign`.
#[derive(Args)]
#[command(allow_negative_numbers = true)]
pub struct CampaignArgs {
    /// Instances: puzzle or model files, or folders of them (every file in a folder; every
    /// puzzle of a file that holds several, as `FILE#k`).
    #[arg(required = true, value_name = "INSTANCES")]
    pub instances: Vec<PathBuf>,
    /// At most this many puzzles from each file (the first ones).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: Option<u64>,
    /// The campaign's folder: its settings, the journal of finished points, the table
    /// (campaign.csv, campaign.json) and the plots (tts.png, scaling.png). Run the same command
    /// again to resume; run it with another --sampler to add that sampler's rows.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Presolve on, off or the kind's default.
    #[command(flatten)]
    pub presolve: PresolveArgs,
    /// The sampler (a named one when the axis is one of its parameters).
    #[command(flatten)]
    pub sampler: SamplerArgs,
    /// Several samplers instead of --sampler, comma-separated (e.g. sa,pt): each instance is
    /// swept by each, into the same table. A sampler flag applies to every one that has it.
    #[arg(long, value_delimiter = ',', value_parser = sampler_names(), conflicts_with = "sampler")]
    pub samplers: Vec<String>,
    /// The swept axis and its values.
    #[command(flatten)]
    pub axis: AxisArgs,
    /// Steps, runs per point, the metric the plots draw (tts99 or tts99_sweeps) and the
    /// stopping rule.
    #[command(flatten)]
    pub settings: super::params::SweepSettingFlags,
    /// Every point does all its --repeats runs (no stopping rule).
    #[arg(long, conflicts_with_all = ["ci_width", "budget_factor", "min_budget_s"])]
    pub no_early_stop: bool,
    /// The plots' size.
    #[command(flatten)]
    pub pictures: ChartArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// The `--kind` flag, parsed.
pub(super) fn kind_of(args: &PuzzleArgs) -> Result<Option<Kind>, Failure> {
    args.kind
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: crate::puzzle::PuzzleError| usage(e.to_string()))
}

/// Every puzzle of the file.
pub(super) fn load(args: &PuzzleArgs) -> Result<Vec<LoadedPuzzle>, Failure> {
    let hints = ParseHints {
        rows: args.rows.map(|r| r as usize),
        cols: args.cols.map(|c| c as usize),
        mines: args.mines.map(|m| m as usize),
    };
    let mut loaded =
        load_puzzles_with(&args.puzzle, kind_of(args)?, &hints).map_err(|e| match e {
            // The library says what is missing; the command line says which flag gives it.
            PuzzleError::NeedsHint { hint, .. } => Failure::from(format!(
                "{e} ({})",
                match hint {
                    Hint::Size => "--rows R --cols C",
                    Hint::Mines => "--mines M",
                }
            )),
            // A model file given where a puzzle is expected: say which command reads it.
            other @ PuzzleError::Parse { .. }
                if matches!(
                    args.puzzle.extension().and_then(|e| e.to_str()),
                    Some("qubo" | "coo" | "bqm")
                ) =>
            {
                Failure::from(format!(
                    "{other} (this looks like a QUBO model file: `sample FILE` samples a model)"
                ))
            }
            other => other.into(),
        })?;
    // A hint the puzzle's kind does not read would be silently ignored: refuse it.
    if let Some(first) = loaded.first() {
        let kind = first.puzzle.kind();
        for (given, hint, flag) in [
            (
                hints.rows.is_some() || hints.cols.is_some(),
                Hint::Size,
                "--rows/--cols",
            ),
            (hints.mines.is_some(), Hint::Mines, "--mines"),
        ] {
            if given && !kind.takes_hint(hint) {
                return Err(usage(format!(
                    "{flag}: {} is a {kind} file, which gives this itself",
                    args.puzzle.display()
                )));
            }
        }
    }
    // Per-constraint weights are an edit of the model, as the window's toggle makes it.
    for label in &args.own_weights {
        for l in &mut loaded {
            let AnyPuzzle::Constrained(m) = &mut l.puzzle else {
                return Err(usage(format!(
                    "--own-weight {label}: {} is a {} file; only constrained models weight their \
                     constraints one by one",
                    args.puzzle.display(),
                    l.puzzle.kind()
                )));
            };
            m.set_own_weight(label, true)
                .map_err(|e| usage(format!("--own-weight {label}: {e}")))?;
        }
    }
    Ok(loaded)
}

/// The `index`-th (1-based) puzzle of a file.
pub(super) fn pick(
    puzzles: Vec<LoadedPuzzle>,
    index: usize,
    path: &Path,
) -> Result<LoadedPuzzle, Failure> {
    let count = puzzles.len();
    if index == 0 || index > count {
        return Err(usage(format!(
            "--index {index}: {} holds {count} puzzle(s), numbered from 1 (--index 1 to {count})",
            path.display()
        )));
    }
    Ok(puzzles.into_iter().nth(index - 1).expect("index checked"))
}

/// Parses `NAME=VALUE` weight flags (`--weight`, `--set`) against the encoding's weight names.
pub(super) fn weights_for(
    encoding: &Encoding,
    flag_name: &str,
    flags: &[String],
) -> Result<Weights, Failure> {
    let mut w = encoding.default_weights();
    let mut set: Vec<(&str, &str)> = Vec::new();
    for flag in flags {
        let (name, value) = flag
            .split_once('=')
            .ok_or_else(|| usage(format!("{flag_name} {flag}: expected NAME=VALUE")))?;
        if let Some((_, first)) = set.iter().find(|(n, _)| *n == name) {
            return Err(usage(format!(
                "{flag_name} {flag}: weight '{name}' is already set ({name}={first}); give each \
                 weight once"
            )));
        }
        set.push((name, value));
        if !encoding.weight_names().contains(&name) {
            return Err(usage(format!(
                "{flag_name} {flag}: unknown weight '{name}' (this model's weights: {})",
                encoding.weight_names().join(", ")
            )));
        }
        let v: f64 = value
            .parse()
            .map_err(|_| usage(format!("{flag_name} {flag}: '{value}' is not a number")))?;
        w.set(name, v)
            .map_err(|e| usage(format!("{flag_name} {flag}: {e}")))?;
    }
    Ok(w)
}

/// The sampler the flags describe, built through the library's one constructor, so flags and
/// GUI settings mean the same thing.
/// A sampler built from the flags for `task`; with `--sampler auto`, also why it was chosen.
pub(super) fn build_sampler(
    a: &SamplerArgs,
    task: crate::samplers::Task,
) -> Result<(Box<dyn Sampler>, Option<String>), Failure> {
    let (name, reason) = crate::samplers::resolve(&a.sampler, task);
    let e = entry(&name).map_err(|e| usage(format!("--sampler {}: {e}", a.sampler)))?;
    let (values, reason) = match reason {
        None => (a.params.0.values_for(e.name, e.params)?, None),
        // Flags for samplers auto did not choose (a presolved model left small enough to
        // enumerate, say) are ignored and reported; naming a sampler makes them errors again.
        Some(why) => {
            let (values, ignored) =
                a.params.0.values_for_chosen(e.name, e.params).map_err(|mut f| {
                    f.message = format!(
                        "{} (--sampler auto chose {name} for this model; name a sampler with --sampler)",
                        f.message
                    );
                    f
                })?;
            let why = if ignored.is_empty() {
                why.to_string()
            } else {
                format!(
                    "{why}; {} ignored: {name} has no such parameter",
                    ignored.join(", ")
                )
            };
            (values, Some(why))
        }
    };
    Ok((
        crate::samplers::sampler_from_params(e.name, &values)?,
        reason,
    ))
}

/// One named sampler of several (a campaign's --samplers), from the flags it has; the flags it
/// lacks are returned as written (they are another's of the list).
pub(super) fn build_one_of(
    a: &SamplerArgs,
    name: &str,
) -> Result<(Box<dyn Sampler>, Vec<String>), Failure> {
    let e = entry(name).map_err(|e| usage(format!("--samplers {name}: {e}")))?;
    let (values, lacked) = a.params.0.values_for_chosen(e.name, e.params)?;
    Ok((
        crate::samplers::sampler_from_params(e.name, &values)?,
        lacked,
    ))
}

/// The thread count flag, checked.
pub(super) fn threads(a: &SamplerArgs) -> Result<Option<usize>, Failure> {
    Ok(a.threads.map(|t| t as usize))
}

/// `tune`.
#[derive(Args)]
// A negative number is a value to check (its message names the range), not a flag.
#[command(allow_negative_numbers = true)]
pub struct TuneArgs {
    /// The puzzle, its encoding, the sampler and when a point stops.
    #[command(flatten)]
    pub tuning: TuningArgs,
    /// The budget, runs per point and the stopping rule (from `TuneSetup::PARAMS` and
    /// `StopRule::PARAMS`).
    #[command(flatten)]
    pub settings: super::params::TuneSettingFlags,
    /// Start from these weights, e.g. --set hint=3 (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Plot TTS99 of every point tried and the best so far to a PNG or SVG file.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// The plot's size and title.
    #[command(flatten)]
    pub pictures: ChartArgs,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}
