//! `qubo-workbench bench`: every sampler timed on built-in models or on COO files (the same
//! files the peer benchmark harness reads; README, "Comparing with the Python peers"), wall time, median of several runs. SA runs both
//! kernels at every thread count asked for; tempering, quantum annealing and tabu run on one
//! thread with work comparable to SA's reads × sweeps, so their costs per update line up with
//! the peer harness's.

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Serialize;

use crate::io::read_text_limited;
use crate::outcome::ground_energy;
use crate::puzzle::{AnyPuzzle, EncodeOptions, PuzzleError, REFERENCE_NODE_BUDGET, Sudoku};
use crate::qubo::formats::{FormatError, read_model};
use crate::qubo::{Coupling, Ising, Qubo, QuboError, StoredModel, random_qubo};
use crate::rng::splitmix64;
use crate::sampler::{
    Kernel, MoveSet, ParallelTempering, QuantumAnnealing, RunControl, SampleSet, Sampler,
    SimulatedAnnealing, TabuSearch, population::PopulationAnnealing,
};

/// A model to time, with its ground energy when known.
pub struct Instance {
    /// The name the peer harness uses for the same model.
    pub name: String,
    /// The model, with its CSR stored.
    pub model: StoredModel,
    /// The ground energy, when known (puzzles; a COO file's sidecar `NAME.json`).
    pub ground_energy: Option<f64>,
}

/// Why the benchmark's instances could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A built-in puzzle failed to parse or encode (a bug in this file).
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// A built-in random model could not be built.
    #[error(transparent)]
    Model(#[from] QuboError),
    /// A COO file is malformed.
    #[error(transparent)]
    Format(#[from] FormatError),
    /// The folder could not be listed.
    #[error("{}: cannot list the folder: {source}", path.display())]
    ListFolder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The folder holds no `.coo` file.
    #[error("{}: no .coo files found", path.display())]
    NoFiles {
        /// The folder.
        path: PathBuf,
    },
}

/// Largest sidecar `NAME.json` read for a ground energy.
const MAX_SIDECAR_BYTES: u64 = 1 << 20;

/// The puzzles the peer harness generates (`qubo_gen.py`), by the same names.
pub const SUDOKUS: [(&str, &str); 2] = [
    (
        "euler96_g1",
        "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
    ),
    (
        "norvig_hardest",
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    ),
];

fn sudoku_name(name: &str, presolve: bool) -> String {
    format!("sudoku_{name}{}", if presolve { "_presolved" } else { "" })
}

fn edge_name(side: usize, colours: usize) -> String {
    format!("edge_rand_{side}x{side}_K{colours}")
}

fn sudoku_instance(name: &str, line: &str, presolve: bool) -> Result<Instance, BenchError> {
    let p = AnyPuzzle::Sudoku(Sudoku::from_line(line)?);
    let enc = p.encode(&EncodeOptions::presolved(presolve))?;
    // The harness's weights (H = 2A), not ours: the model stays its file, line for line.
    let w = (enc.default_weights())
        .with("hint", crate::puzzle::sudoku::HARNESS_HINT_WEIGHT)
        .expect("Sudoku has a hint weight");
    Ok(Instance {
        name: sudoku_name(name, presolve),
        ground_energy: ground_energy(&enc, &w, &p.solve_classically(REFERENCE_NODE_BUDGET)),
        // With its exactly-one groups, for the moves rows (Sudoku has no structure, so the
        // flip rows run on the stored rows as before).
        model: p.stored_model(&enc, &w)?,
    })
}

/// A random `side`×`side` edge-matching board with `colours` colours on the frame and inside,
/// as a stored QUBO with the default weights (ground energy left to the best seen: the
/// reference search is not what the bench times).
fn edge_instance(side: usize, colours: usize) -> Result<Instance, BenchError> {
    let board = crate::puzzle::edge_matching::generate(side, side, colours, colours, 1)?;
    let enc = AnyPuzzle::EdgeMatching(board).encode(&EncodeOptions::presolved(false))?;
    Ok(Instance {
        name: edge_name(side, colours),
        model: StoredModel::new(enc.qubo(&enc.default_weights())?),
        ground_energy: None,
    })
}

/// The Numberlink board the bench times: our generated 10×10 with 10 pairs
/// (`puzzles/numberlink/generated/`), the full cell model without presolve.
const NUMBERLINK_BOARD: &str =
    include_str!("../puzzles/numberlink/generated/10x10-10pairs-seed1.txt");

/// The name of the Numberlink instance.
const NUMBERLINK_NAME: &str = "numberlink_10x10_p10";

/// The Numberlink board as a stored model with its exactly-one groups (the cells), so SA's
/// moves rows and tempering (whose `auto` holds the cells by one-hot moves there) time moves on
/// it; ground energy 0, the valid answers'.
fn numberlink_instance() -> Result<Instance, BenchError> {
    let p = crate::puzzle::parse_puzzles(NUMBERLINK_BOARD, None, NUMBERLINK_NAME)?
        .remove(0)
        .puzzle;
    let enc = p.encode(&EncodeOptions::presolved(false))?;
    let w = enc.default_weights();
    Ok(Instance {
        name: NUMBERLINK_NAME.into(),
        ground_energy: ground_energy(&enc, &w, &p.solve_classically(REFERENCE_NODE_BUDGET)),
        model: p.stored_model(&enc, &w)?,
    })
}

/// A ±J 3D spin glass on an L×L×L periodic lattice, as a QUBO (ground energy unknown).
pub fn spin_glass_3d(l: usize, seed: u64) -> Qubo {
    let n = l * l * l;
    let idx = |x: usize, y: usize, z: usize| (x % l) * l * l + (y % l) * l + (z % l);
    let mut state = seed;
    let mut j = Vec::with_capacity(3 * n);
    for x in 0..l {
        for y in 0..l {
            for z in 0..l {
                let i = idx(x, y, z);
                for (dx, dy, dz) in [(1, 0, 0), (0, 1, 0), (0, 0, 1)] {
                    let k = idx(x + dx, y + dy, z + dz);
                    let value = if splitmix64(&mut state) & 1 == 0 {
                        1.0
                    } else {
                        -1.0
                    };
                    j.push(Coupling {
                        i: i.min(k) as u32,
                        j: i.max(k) as u32,
                        value,
                    });
                }
            }
        }
    }
    Qubo::from_ising(&Ising {
        h: vec![0.0; n],
        j,
        offset: 0.0,
    })
    .expect("valid lattice")
}

/// The built-in models, named as the peer harness names them: the two Sudokus (full and
/// presolved), 3-D spin glasses and a random QUBO; `quick` keeps one of each family, smallest.
pub fn builtin_instances(
    quick: bool,
    wanted: impl Fn(&str) -> bool,
) -> Result<Vec<Instance>, BenchError> {
    // Each instance as its name and how to build it: only wanted ones are built.
    type Build<'a> = Box<dyn Fn() -> Result<Instance, BenchError> + 'a>;
    let mut all: Vec<(String, Build)> = Vec::new();
    for (name, line) in SUDOKUS {
        for presolve in [false, true] {
            all.push((
                sudoku_name(name, presolve),
                Box::new(move || sudoku_instance(name, line, presolve)),
            ));
        }
        if quick {
            break;
        }
    }
    let lattices: &[usize] = if quick { &[8] } else { &[8, 12] };
    for &l in lattices {
        let name = format!("spinglass3d_L{l}");
        all.push((
            name.clone(),
            Box::new(move || {
                Ok(Instance {
                    name: name.clone(),
                    model: StoredModel::new(spin_glass_3d(l, 1)),
                    ground_energy: None,
                })
            }),
        ));
    }
    if !quick {
        // Dense stored models (hundreds of neighbours per variable), as the peer harness's
        // edge_rand_6x6_K4 and edge_rand_8x8_K5: solvable by construction.
        for (side, colours) in [(6, 4), (8, 5)] {
            all.push((
                edge_name(side, colours),
                Box::new(move || edge_instance(side, colours)),
            ));
        }
        all.push((NUMBERLINK_NAME.into(), Box::new(numberlink_instance)));
        all.push((
            "random_qubo_n1000_deg10".into(),
            Box::new(|| {
                Ok(Instance {
                    name: "random_qubo_n1000_deg10".into(),
                    model: StoredModel::new(random_qubo(1000, 10, 1)?),
                    ground_energy: None,
                })
            }),
        ));
    }
    all.into_iter()
        .filter(|(name, _)| wanted(name))
        .map(|(_, build)| build())
        .collect()
}

/// COO files of a folder (or one file); a sidecar `NAME.json` may give `ground_energy`.
pub fn file_instances(
    path: &Path,
    wanted: impl Fn(&str) -> bool,
) -> Result<Vec<Instance>, BenchError> {
    let files: Vec<PathBuf> = if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|source| BenchError::ListFolder {
                path: path.to_path_buf(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "coo"))
            .collect();
        v.sort();
        v
    } else {
        vec![path.to_path_buf()]
    };
    if files.is_empty() {
        return Err(BenchError::NoFiles {
            path: path.to_path_buf(),
        });
    }
    let name_of = |f: &Path| {
        f.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    files
        .iter()
        .filter(|f| wanted(&name_of(f)))
        .map(|f| {
            let m = read_model(f)?;
            let ground_energy = read_text_limited(&f.with_extension("json"), MAX_SIDECAR_BYTES)
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .and_then(|v| v.get("ground_energy").and_then(|g| g.as_f64()));
            Ok(Instance {
                name: name_of(f),
                model: StoredModel::new(m.qubo),
                ground_energy,
            })
        })
        .collect()
}

/// Median time (s) to rebuild a puzzle's QUBO from its `Encoding` after a weight change — what a
/// GUI slider pays per step — and the model's variable count.
pub fn reweight_time(line: &str, repeats: usize) -> Result<(f64, usize), BenchError> {
    let p = AnyPuzzle::Sudoku(Sudoku::from_line(line)?);
    let enc = p.encode(&EncodeOptions::default())?;
    let mut times = Vec::with_capacity(repeats);
    for k in 0..repeats.max(1) {
        let w = enc.default_weights().with("hint", 1.0 + k as f64 / 100.0)?;
        let t = Instant::now();
        let q = enc.qubo(&w)?;
        times.push(t.elapsed().as_secs_f64());
        std::hint::black_box(q);
    }
    times.sort_by(f64::total_cmp);
    Ok((times[times.len() / 2], enc.num_variables()))
}

/// One timed configuration on one instance.
#[derive(Clone, Debug, Serialize)]
pub struct BenchRow {
    /// The instance's name.
    pub instance: String,
    /// Its variable count.
    pub n: usize,
    /// The sampler (`sa`, `pt`, `sqa`, `tabu`).
    pub sampler: String,
    /// SA's `lanes` or `scalar`; how the others hold their replicas.
    pub kernel: String,
    /// Worker threads.
    pub threads: usize,
    /// Independent reads per `sample()` call.
    pub num_reads: usize,
    /// Sweeps per read.
    pub num_sweeps: usize,
    /// Median wall time of `sample()` over the repeats.
    pub wall_s: f64,
    /// wall / (reads × sweeps × n), as the peer harness reports; tempering counts every
    /// replica and SQA every slice as a read (per replica / slice update); none for tabu (no
    /// sweeps).
    pub ns_per_update: Option<f64>,
    /// Lowest energy any read reached.
    pub min_energy: f64,
    /// Share of reads at the ground energy, or (marked `ground_known = false`) at the lowest
    /// energy this bench saw on the instance.
    pub ground_fraction: f64,
    /// Whether the ground energy was known (else `ground_fraction` is relative to the best seen).
    pub ground_known: bool,
    /// Time to target with 99 % confidence from `ground_fraction` and wall / reads (the
    /// figure `solve` and sweeps show, `outcome::tts99_s`); none when no read reached it.
    pub tts99_s: Option<f64>,
}

/// What `run` times: the schedule and the configurations.
pub struct BenchSettings {
    /// Reads per run.
    pub num_reads: usize,
    /// Sweeps per read.
    pub num_sweeps: usize,
    /// Runs per configuration; the median wall time is reported.
    pub repeats: usize,
    /// Thread counts to time the lane kernel with (the scalar kernel always runs on one).
    pub threads: Vec<usize>,
    /// Also time the scalar kernel.
    pub scalar: bool,
    /// Seed of the first run.
    pub seed: u64,
    /// Which rows run (`--only`): every row when empty.
    pub only: RowFilter,
}

/// Which rows a bench runs: a row runs when each term appears (ignoring case) in its instance's
/// name, its sampler's name, its kernel or its moves — `euler96,pt` is tempering on both Euler96
/// models. No terms: every row.
#[derive(Clone, Debug, Default)]
pub struct RowFilter {
    terms: Vec<String>,
}

impl RowFilter {
    /// A filter of `terms` (blank ones dropped).
    pub fn new(terms: &[String]) -> Self {
        RowFilter {
            terms: terms
                .iter()
                .map(|t| t.trim().to_lowercase())
                .filter(|t| !t.is_empty())
                .collect(),
        }
    }

    fn keeps(&self, instance: &str, config: &str) -> bool {
        let (instance, config) = (instance.to_lowercase(), config.to_lowercase());
        self.terms
            .iter()
            .all(|t| instance.contains(t.as_str()) || config.contains(t.as_str()))
    }

    /// Whether any of `s`'s rows on the instance `name` runs: instances that none would use are
    /// not built (the dense 8×8 board takes seconds).
    pub fn wants_instance(&self, name: &str, s: &BenchSettings) -> bool {
        configs(s).iter().any(|c| self.keeps(name, &c.label()))
    }
}

/// One sampler configuration the bench times.
struct Config {
    sampler: Box<dyn Sampler>,
    kernel: &'static str,
    /// SA's moves and their word (`one-hot`, `two-way`), run only on instances whose groups
    /// make them; `None` for single flips (and tempering, which moves as `auto` chooses).
    moves: Option<(MoveSet, &'static str)>,
    threads: usize,
    num_reads: usize,
    /// Updates per variable a run makes (reads × sweeps × replicas or slices); NaN for tabu.
    updates_per_variable: f64,
}

impl Config {
    /// What `--only` terms are matched against, beside the instance's name.
    fn label(&self) -> String {
        format!(
            "{} {} {}",
            self.sampler.name(),
            self.kernel,
            self.moves.map_or("", |(_, word)| word)
        )
    }
}

/// The label of auto's lanes rows until a run names the kernel that ran.
const AUTO_LANES: &str = "auto";

/// Replicas per tempering ladder in the bench (the default).
const BENCH_REPLICAS: usize = 16;
/// Slices per SQA read in the bench (OpenJij's default, as the peer harness runs it).
const BENCH_TROTTER: usize = 4;

/// SA on each kernel and thread count, then tempering, population annealing, SQA and tabu on one
/// thread: tempering with reads/16 ladders of 16 replicas (the same replica-sweeps as SA),
/// population annealing with a population of `reads` (likewise), SQA with 4 slices,
/// tabu with its defaults and reads/10 reads (10 restarts each).
fn configs(s: &BenchSettings) -> Vec<Config> {
    let (reads, sweeps) = (s.num_reads, s.num_sweeps);
    let per_read = (reads * sweeps) as f64;
    // The lanes rows run auto's kernel (8- or 16-bit lanes where the model allows them, and
    // say so); with `scalar`, the 16-bit lanes (where auto ran another kernel and the model
    // allows them), the f32 lanes and the scalar kernel are timed beside them. They flip
    // single bits on every model (`auto` would move inside Numberlink's cells: the moves rows
    // below time that).
    let mut out: Vec<Config> = s
        .threads
        .iter()
        .map(|&t| (Kernel::Auto, t))
        .chain(s.scalar.then_some((Kernel::Lanes16, 1)))
        .chain(s.scalar.then_some((Kernel::Lanes, 1)))
        .chain(s.scalar.then_some((Kernel::Scalar, 1)))
        .map(|(kernel, threads)| Config {
            sampler: Box::new(SimulatedAnnealing {
                num_reads: reads,
                num_sweeps: sweeps,
                seed: Some(s.seed),
                kernel,
                moves: MoveSet::Flip,
                ..Default::default()
            }),
            kernel: match kernel {
                Kernel::Scalar => "scalar",
                Kernel::Lanes => "lanes",
                Kernel::Lanes16 => "lanes16",
                _ => AUTO_LANES,
            },
            threads,
            num_reads: reads,
            moves: None,
            updates_per_variable: per_read,
        })
        .collect();
    // Moves on one thread, in lanes (auto) and one read at a time: ns per proposal.
    for (moves, word) in [(MoveSet::OneHot, "one-hot"), (MoveSet::TwoWay, "two-way")] {
        for kernel in [Kernel::Auto, Kernel::Scalar] {
            out.push(Config {
                sampler: Box::new(SimulatedAnnealing {
                    num_reads: reads,
                    num_sweeps: sweeps,
                    seed: Some(s.seed),
                    kernel,
                    moves,
                    ..Default::default()
                }),
                // (Its row names the layout that ran; this label is for `--only`.)
                kernel: if kernel == Kernel::Scalar {
                    "scalar"
                } else {
                    AUTO_LANES
                },
                threads: 1,
                num_reads: reads,
                moves: Some((moves, word)),
                updates_per_variable: per_read,
            });
        }
    }
    let ladders = reads.div_ceil(BENCH_REPLICAS);
    out.push(Config {
        sampler: Box::new(ParallelTempering {
            num_reads: ladders,
            num_replicas: BENCH_REPLICAS,
            num_sweeps: Some(sweeps),
            seed: Some(s.seed),
            ..Default::default()
        }),
        kernel: "ladder",
        moves: None,
        threads: 1,
        num_reads: ladders,
        updates_per_variable: (ladders * BENCH_REPLICAS * sweeps) as f64,
    });
    out.push(Config {
        sampler: Box::new(PopulationAnnealing {
            num_reads: reads,
            num_sweeps: sweeps,
            seed: Some(s.seed),
            ..Default::default()
        }),
        kernel: "population",
        moves: None,
        threads: 1,
        num_reads: reads,
        updates_per_variable: per_read,
    });
    out.push(Config {
        sampler: Box::new(QuantumAnnealing {
            num_reads: reads,
            num_sweeps: sweeps,
            trotter: BENCH_TROTTER,
            seed: Some(s.seed),
            ..Default::default()
        }),
        kernel: "slices",
        moves: None,
        threads: 1,
        num_reads: reads,
        updates_per_variable: per_read * BENCH_TROTTER as f64,
    });
    let tabu_reads = reads.div_ceil(10);
    out.push(Config {
        sampler: Box::new(TabuSearch {
            num_reads: tabu_reads,
            seed: Some(s.seed),
            ..Default::default()
        }),
        kernel: "-",
        moves: None,
        threads: 1,
        num_reads: tabu_reads,
        updates_per_variable: f64::NAN,
    });
    out
}

/// Share of a run's reads at `target` and the time to reach it with 99 % confidence, by the
/// same figures as `solve` and the window (one evaluation path).
fn ground_figures(
    model: &StoredModel,
    target: f64,
    set: SampleSet,
    wall: f64,
) -> (f64, Option<f64>) {
    let subject = crate::solve::Subject {
        known_ground: Some(target),
        ..crate::solve::Subject::model(model)
    };
    match crate::solve::evaluate_samples(subject, set, wall) {
        Ok(o) => (o.ground_fraction().unwrap_or(0.0), o.tts99_s()),
        Err(_) => (0.0, None),
    }
}

/// Times every configuration on every instance; `progress` hears about each finished row (at
/// once where the ground energy is known, else when the instance's last configuration ends).
pub fn run(
    instances: &[Instance],
    s: &BenchSettings,
    mut progress: impl FnMut(&BenchRow),
) -> Vec<BenchRow> {
    let mut rows = Vec::new();
    for inst in instances {
        let n = inst.model.qubo.num_variables();
        let mut inst_rows = Vec::new();
        let mut energies_seen: Vec<(f64, SampleSet, f64)> = Vec::new();
        // The kernels auto ran on this instance: the f32 lanes row is not repeated after them.
        let mut auto_ran: Vec<String> = Vec::new();
        for config in configs(s) {
            if !s.only.keeps(&inst.name, &config.label()) {
                continue;
            }
            if ["lanes", "lanes16"].contains(&config.kernel)
                && auto_ran.iter().any(|k| k == config.kernel)
            {
                continue;
            }
            // A moves row runs where the model's groups allow those moves (Numberlink's cells
            // make no two-way pair: its two-way row would time one-hot moves again).
            // (A model without groups makes no moves: `kind_for` says flips.)
            if let Some((set, word)) = config.moves {
                let groups = crate::qubo::Model::one_hot(&inst.model);
                let ran = crate::sampler::moves::kind_for(groups, set, None, n);
                if ran.ok().flatten() != Some(word) {
                    continue;
                }
            }
            let control = RunControl::new().with_threads(Some(config.threads));
            let mut walls = Vec::new();
            let mut last = None;
            for _ in 0..s.repeats.max(1) {
                let t = Instant::now();
                let Ok(set) = config.sampler.sample(&inst.model, &control) else {
                    continue;
                };
                walls.push(t.elapsed().as_secs_f64());
                last = Some(set);
            }
            let Some(set) = last else { continue };
            walls.sort_by(f64::total_cmp);
            let wall = walls[walls.len() / 2];
            let updates = config.updates_per_variable * n.max(1) as f64;
            // Auto's lanes rows name the kernel that ran (f32, 16- or 8-bit lanes); moves rows
            // the moves and the layout (`csr-lanes`, `csr`, `grouped`).
            let ran = set.info.params.get("kernel").and_then(|k| k.as_str());
            // Tempering's `auto` moves where the model's groups ask for them (Numberlink's
            // cells): its row then says which moves ran, as SA's moves rows do.
            let moved = (set.info.details.get("moves"))
                .and(set.info.params.get("moves"))
                .and_then(|m| m.as_str());
            let kernel = match (ran, config.moves.map(|(_, word)| word).or(moved)) {
                (Some(ran), Some(moves)) => format!("{moves} {ran}"),
                (Some(ran), None) if config.kernel == AUTO_LANES => {
                    auto_ran.push(ran.into());
                    ran.to_string()
                }
                _ => config.kernel.to_string(),
            };
            let mut row = BenchRow {
                instance: inst.name.clone(),
                n,
                sampler: config.sampler.name().into(),
                kernel,
                threads: config.threads,
                num_reads: config.num_reads,
                num_sweeps: s.num_sweeps,
                wall_s: wall,
                ns_per_update: updates.is_finite().then(|| wall * 1e9 / updates),
                min_energy: set.lowest().map_or(f64::NAN, |r| r.energy),
                ground_fraction: 0.0,
                ground_known: inst.ground_energy.is_some(),
                tts99_s: None,
            };
            // With a known ground energy a row is complete now and shown at once (a dense
            // board's samplers take minutes each); else its share waits for the best energy
            // every configuration saw.
            match inst.ground_energy {
                Some(ground) => {
                    (row.ground_fraction, row.tts99_s) =
                        ground_figures(&inst.model, ground, set, wall);
                    progress(&row);
                }
                None => energies_seen.push((row.min_energy, set, wall)),
            }
            inst_rows.push(row);
        }
        if inst.ground_energy.is_none() {
            let best_seen = energies_seen
                .iter()
                .map(|(lowest, _, _)| *lowest)
                .fold(f64::INFINITY, f64::min);
            for (row, (_, set, wall)) in inst_rows.iter_mut().zip(energies_seen) {
                (row.ground_fraction, row.tts99_s) =
                    ground_figures(&inst.model, best_seen, set, wall);
                progress(row);
            }
        }
        rows.extend(inst_rows);
    }
    rows
}
