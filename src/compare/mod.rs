//! Comparing runs: a run kept as a `RunSummary` (what the window's run history holds and
//! autosaves, and what `compare` reads from saved sample sets), the table of figures, and the
//! overlay of their energy histograms on shared bins.
//!
//! Invariants: a summary's figures come from `Outcome` (its own runs) or from the figures a
//! saved file carries — never recomputed differently: TTS99 is `outcome::tts99_s` on the valid
//! share (else the ground share). Runs are compared only when they sample one model: the same
//! fingerprint when both carry one, else the same variables by label.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::io::printable;

use crate::outcome::Outcome;
use crate::render::Drawing;
use crate::render::chart::{GroupedHistogram, colors};

mod overlay;
mod read;
mod table;

pub use overlay::*;
pub use read::*;
pub use table::*;

/// Why sample sets cannot be read or compared.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// The file could not be read.
    #[error(transparent)]
    File(#[from] crate::io::FileError),
    /// The text is not JSON (and not our CSV).
    #[error("{origin}: not JSON ({source}); expected a dimod SampleSet")]
    NotJson {
        /// The file.
        origin: String,
        /// The JSON parser's complaint, with its line and column.
        source: serde_json::Error,
    },
    /// The content is not a sample set, or its figures contradict its rows.
    #[error("{origin}: {why}")]
    Content {
        /// The file.
        origin: String,
        /// What is wrong, with the line or field.
        why: String,
    },
    /// Two runs that did not sample one model.
    #[error("{file}: {why}: runs are compared on one model")]
    DifferentModels {
        /// The run's file.
        file: String,
        /// How its model differs from the first run's.
        why: String,
    },
}

/// Most distinct energies a summary keeps; more are binned (equal bins over the range).
pub const MAX_ENERGIES: usize = 2048;
/// Bins a binned summary uses.
const BINNED: usize = 512;
/// Largest sample file `compare` reads.
pub const MAX_SAMPLE_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Reads at one energy (or in one bin), valid and not.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnergyCount {
    /// The energy (a bin's centre when binned).
    pub energy: f64,
    /// Reads that decode to a valid solution.
    pub valid: u64,
    /// The other reads (all of them when validity is unknown).
    pub other: u64,
}

/// One run, as kept and compared: who sampled what, its energies and figures, its best sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunSummary {
    /// What the user calls it (renamable).
    pub name: String,
    /// The sampler's registry name.
    pub sampler: String,
    /// Its parameters as run.
    pub params: Value,
    /// The weights the model was built with (empty for bare models and foreign files).
    pub weights: BTreeMap<String, f64>,
    /// The seed used, when known.
    pub seed: Option<u64>,
    /// Variables of the model.
    pub num_variables: usize,
    /// The model's `Qubo::fingerprint`, when known.
    pub model_fingerprint: Option<String>,
    /// Reads per energy, ascending (binned past `MAX_ENERGIES`).
    pub energies: Vec<EnergyCount>,
    /// Whether reads were refereed (valid counts mean something).
    pub refereed: bool,
    /// Reads in all.
    pub reads: u64,
    /// Lowest energy read.
    pub min_energy: Option<f64>,
    /// Mean energy over reads.
    pub mean_energy: Option<f64>,
    /// Share of reads that are valid solutions.
    pub valid_fraction: Option<f64>,
    /// Share of reads at the ground energy.
    pub ground_fraction: Option<f64>,
    /// The ground energy, when known.
    pub ground_energy: Option<f64>,
    /// Time to solution with 99 % confidence.
    pub tts99_s: Option<f64>,
    /// Sampling wall time.
    pub sample_s: Option<f64>,
    /// The run was cancelled (its reads are those finished before).
    pub cancelled: bool,
    /// The best sample's solution as the puzzle's JSON (`Puzzle::solution_to_json`), to show
    /// on the board again.
    pub best: Option<Value>,
    /// When it ran (seconds since the Unix epoch).
    pub when_s: u64,
}

impl Default for RunSummary {
    fn default() -> Self {
        RunSummary {
            name: String::new(),
            sampler: String::new(),
            params: Value::Null,
            weights: BTreeMap::new(),
            seed: None,
            num_variables: 0,
            model_fingerprint: None,
            energies: Vec::new(),
            refereed: false,
            reads: 0,
            min_energy: None,
            mean_energy: None,
            valid_fraction: None,
            ground_fraction: None,
            ground_energy: None,
            tts99_s: None,
            sample_s: None,
            cancelled: false,
            best: None,
            when_s: 0,
        }
    }
}

/// Seconds since the Unix epoch, now.
pub fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(name: &str, energies: &[(f64, u64, u64)]) -> RunSummary {
        let energies: Vec<EnergyCount> = energies
            .iter()
            .map(|&(energy, valid, other)| EnergyCount {
                energy,
                valid,
                other,
            })
            .collect();
        RunSummary {
            name: name.into(),
            reads: energies.iter().map(|e| e.valid + e.other).sum(),
            refereed: true,
            energies,
            ground_energy: Some(0.0),
            ..RunSummary::default()
        }
    }

    #[test]
    fn overlay_shares_bins_and_colours_each_run() {
        let a = run("SA", &[(0.0, 6, 0), (2.0, 0, 4)]);
        let b = run("SQA", &[(0.0, 1, 0), (1.0, 0, 1), (2.0, 0, 2)]);
        let (centres, width) = shared_bins(&[&a, &b]);
        assert_eq!(centres, vec![0.0, 1.0, 2.0]);
        assert_eq!(width, 1.0);
        let d = overlay(&[&a, &b], Heights::Shares, EnergyAxis::Absolute, "");
        let texts: Vec<&str> = d.texts().collect();
        assert!(texts.contains(&"SA") && texts.contains(&"SQA"), "{texts:?}");
        assert!(texts.contains(&"ground"), "{texts:?}");
        let filled = |c| {
            d.shapes
                .iter()
                .filter(
                    |s| matches!(s, crate::render::Shape::Rect { fill: Some(f), .. } if *f == c),
                )
                .count()
        };
        // A's two bars plus its legend swatch; B's three plus its swatch.
        assert_eq!(
            filled(colors::series(0)) + filled(colors::lighter(colors::series(0), 0.55)),
            3
        );
        assert_eq!(
            filled(colors::series(1)) + filled(colors::lighter(colors::series(1), 0.55)),
            4
        );
    }

    #[test]
    fn runs_of_different_models_are_told_apart_and_drawn_above_their_own_ground() {
        let mut a = run("hint 2", &[(-64.0, 6, 0), (-62.0, 0, 4)]);
        a.ground_energy = Some(-64.0);
        a.weights = [("hint".to_string(), 2.0)].into();
        let mut b = run("hint 7.5", &[(-240.0, 5, 0), (-232.5, 0, 5)]);
        b.ground_energy = Some(-240.0);
        b.weights = [("hint".to_string(), 7.5)].into();
        assert_eq!(distinct_models(&[&a, &a.clone()]), 1);
        assert_eq!(distinct_models(&[&a, &b]), 2);
        assert_eq!(EnergyAxis::for_runs(&[&a, &b]), EnergyAxis::AboveGround);
        assert_eq!(EnergyAxis::for_runs(&[&a]), EnergyAxis::Absolute);
        let d = overlay(&[&a, &b], Heights::Counts, EnergyAxis::AboveGround, "");
        let texts: Vec<&str> = d.texts().collect();
        assert!(texts.contains(&"each run's ground"), "{texts:?}");
        assert!(
            texts
                .iter()
                .any(|t| t.starts_with("energy above the run's own ground")),
            "{texts:?}"
        );
        // Both grounds now sit at 0: the valid bars share the first bin.
        assert!(!texts.iter().any(|t| t.contains("-240")), "{texts:?}");
        // The weights are in the table, the CSV and the JSON.
        assert_eq!(table_row(&b)[2], "hint 7.5");
        let csv = table_csv(&[&a, &b]);
        assert!(
            csv.lines()
                .next()
                .unwrap()
                .starts_with("run,sampler,weights,")
        );
        assert!(csv.contains(",hint=7.5,"), "{csv}");
        assert_eq!(table_json(&[&b])[0]["weights"]["hint"], 7.5);
    }

    #[test]
    fn many_energies_are_binned_within_the_budget() {
        let rows = (0..10_000).map(|k| (k as f64 * 0.001, 1u64, Some(k % 2 == 0)));
        let e = energy_counts(rows);
        assert!(e.len() <= BINNED);
        assert_eq!(e.iter().map(|c| c.valid + c.other).sum::<u64>(), 10_000);
        assert_eq!(e.iter().map(|c| c.valid).sum::<u64>(), 5_000);
    }

    #[test]
    fn models_are_told_apart_by_fingerprint_then_labels() {
        let mut a = run("a", &[(0.0, 1, 0)]);
        let mut b = a.clone();
        a.num_variables = 2;
        b.num_variables = 3;
        let named = |r: &RunSummary, f: &str, l: &[&str]| {
            (
                f.to_string(),
                r.clone(),
                l.iter().map(|s| s.to_string()).collect(),
            )
        };
        let err = check_same_model(&[
            named(&a, "a.json", &["x", "y"]),
            named(&b, "b.json", &["x", "y", "z"]),
        ])
        .unwrap_err()
        .to_string();
        assert!(
            err.starts_with("b.json: 3 variables, but a.json has 2"),
            "{err}"
        );
        b.num_variables = 2;
        let err = check_same_model(&[
            named(&a, "a.json", &["x", "y"]),
            named(&b, "b.json", &["x", "w"]),
        ])
        .unwrap_err()
        .to_string();
        assert!(err.contains("(w is not in a.json)"), "{err}");
        assert!(
            check_same_model(&[
                named(&a, "a.json", &["x", "y"]),
                named(&b, "b.json", &["y", "x"])
            ])
            .is_ok()
        );
        a.model_fingerprint = Some("0001".into());
        b.model_fingerprint = Some("0002".into());
        let err = check_same_model(&[
            named(&a, "a.json", &["x", "y"]),
            named(&b, "b.json", &["x", "y"]),
        ])
        .unwrap_err()
        .to_string();
        assert!(err.contains("another model"), "{err}");
    }

    #[test]
    fn csv_headers_with_quoted_labels_split_right() {
        assert_eq!(
            split_csv_header("energy,num_occurrences,\"a,b\",c"),
            vec!["energy", "num_occurrences", "a,b", "c"]
        );
    }
}
