//! qubo-workbench: logic puzzles → QUBO models → samplers → pictures.
//!
//! The flow (see ARCHITECTURE.md): a `puzzle` is parsed, encoded into a labelled
//! `qubo::Encoding`, weighted into a `qubo::Qubo`, sampled by a `sampler::Sampler`, decoded back
//! into a candidate solution, checked by the puzzle's own referee, and drawn as a
//! `render::Drawing` (PNG/SVG, and the GUI's painter).

#![warn(missing_docs)]

/// Minesweeper games played whole by a strategy (win rates; the CLI's `play`).
pub mod autoplay;
/// Timing the samplers (`qubo-workbench bench`).
pub mod bench;
/// The memory budget checked before allocations sized by input.
pub mod budget;
/// Campaigns: a sweep axis over many instances, resumable, as one tidy table with its plots.
pub mod campaign;
/// The command line.
pub mod cli;
/// Comparing runs: kept summaries, their table and the overlay of their energy histograms.
pub mod compare;
/// The desktop workbench (eframe/egui).
pub mod gui;
/// File helpers: bounded reads, atomic writes, strict JSON, printable text, numbers for people,
/// the interrupt flag.
pub mod io;
/// A run's reads decoded, refereed and summarised: shares, TTS99, histogram (`Outcome`).
pub mod outcome;
/// Typed parameter descriptions shared by samplers, generators, the CLI and the GUI.
pub mod params;
/// Puzzle families behind one trait (`Puzzle`), held as `AnyPuzzle`.
pub mod puzzle;
/// QUBO core: `Qubo`, `Encoding` + `Weights`, grouped (structured) models, file formats.
pub mod qubo;
/// Remote annealing services (D-Wave Leap, Fujitsu DA): clients, wire encodings, embeddings,
/// configuration.
pub mod remote;
/// Pictures: `Drawing` and its PNG/SVG export.
pub mod render;
/// Random numbers: SplitMix64 seeding and xoshiro128+ (below the QUBO core and the samplers).
pub mod rng;
/// Samplers behind one trait: simulated annealing, SQA, parallel tempering, tabu, exact; their
/// lane kernels, β pilot and constraint-preserving moves.
pub mod sampler;
/// The sampler registry (local and remote) and `auto`'s rule.
pub mod samplers;
/// The one path from a built model to a refereed outcome (`sample_problem`), and `solve` with
/// cut rounds for an encoded puzzle.
pub mod solve;
/// Weight sweeps and suggestions: success, TTS99 and broken constraints against one or two
/// penalty weights, points stopped when settled.
pub mod sweep;
