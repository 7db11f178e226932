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

/// Distinct energies with their counts, ascending; binned into `BINNED` equal bins when there
/// are more than `MAX_ENERGIES`.
fn energy_counts(rows: impl Iterator<Item = (f64, u64, Option<bool>)>) -> Vec<EnergyCount> {
    let mut by: Vec<EnergyCount> = rows
        .filter(|r| r.0.is_finite())
        .map(|(energy, n, valid)| EnergyCount {
            energy,
            valid: if valid == Some(true) { n } else { 0 },
            other: if valid == Some(true) { 0 } else { n },
        })
        .collect();
    by.sort_by(|a, b| a.energy.total_cmp(&b.energy));
    let mut merged: Vec<EnergyCount> = Vec::with_capacity(by.len());
    for e in by {
        match merged.last_mut() {
            Some(last) if last.energy == e.energy => {
                last.valid += e.valid;
                last.other += e.other;
            }
            _ => merged.push(e),
        }
    }
    if merged.len() <= MAX_ENERGIES {
        return merged;
    }
    let (lo, hi) = (merged[0].energy, merged[merged.len() - 1].energy);
    let w = (hi - lo) / BINNED as f64;
    let mut bins: Vec<EnergyCount> = (0..BINNED)
        .map(|k| EnergyCount {
            energy: lo + w * (k as f64 + 0.5),
            valid: 0,
            other: 0,
        })
        .collect();
    for e in merged {
        let k = (((e.energy - lo) / w) as usize).min(BINNED - 1);
        bins[k].valid += e.valid;
        bins[k].other += e.other;
    }
    bins.retain(|b| b.valid + b.other > 0);
    bins
}

fn mean_of(energies: &[EnergyCount]) -> Option<f64> {
    let reads: u64 = energies.iter().map(|e| e.valid + e.other).sum();
    (reads > 0).then(|| {
        energies
            .iter()
            .map(|e| e.energy * (e.valid + e.other) as f64)
            .sum::<f64>()
            / reads as f64
    })
}

/// Seconds since the Unix epoch, now.
pub fn now_s() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

impl RunSummary {
    /// The summary of one of our runs; `best` is the best sample's solution as JSON.
    pub fn of_outcome(
        outcome: &Outcome,
        name: &str,
        weights: BTreeMap<String, f64>,
        best: Option<Value>,
    ) -> RunSummary {
        let info = &outcome.samples.info;
        let energies = energy_counts(
            outcome
                .samples
                .rows
                .iter()
                .zip(&outcome.rows)
                .map(|(r, v)| (r.energy, r.num_occurrences as u64, v.valid)),
        );
        RunSummary {
            name: name.to_string(),
            sampler: info.sampler.clone(),
            params: info.params.clone(),
            weights,
            seed: info.seed,
            num_variables: outcome.samples.num_variables,
            model_fingerprint: outcome.model_fingerprint.clone(),
            mean_energy: mean_of(&energies),
            energies,
            refereed: outcome.success_fraction().is_some(),
            reads: outcome.num_reads() as u64,
            min_energy: outcome.min_energy(),
            valid_fraction: outcome.success_fraction(),
            ground_fraction: outcome.ground_fraction(),
            ground_energy: outcome.ground_energy,
            tts99_s: outcome.tts99_s(),
            sample_s: Some(outcome.sample_s),
            cancelled: info.cancelled,
            best,
            when_s: now_s(),
        }
    }

    /// A sample set read from `path`: dimod SampleSet JSON (ours from `--save-samples` carry
    /// validity, the ground energy and the model's fingerprint; others give energies alone)
    /// or our CSV. Errors name the file.
    pub fn load(path: &Path) -> Result<(RunSummary, Vec<String>), CompareError> {
        let text = crate::io::read_text_limited(path, MAX_SAMPLE_FILE_BYTES)?;
        let name = path
            .file_stem()
            .map_or_else(String::new, |s| printable(&s.to_string_lossy()));
        let csv = path.extension().and_then(|e| e.to_str()) == Some("csv");
        let (mut run, labels) = Self::parse(&text, &path.display().to_string(), csv)?;
        run.name = name;
        Ok((run, labels))
    }

    /// Reads a sample set's text (our CSV when `csv`, else dimod SampleSet JSON); errors start
    /// with `origin` (the file). The run is named after `origin` until the caller renames it.
    pub fn parse(
        text: &str,
        origin: &str,
        csv: bool,
    ) -> Result<(RunSummary, Vec<String>), CompareError> {
        let at = |why: String| CompareError::Content {
            origin: origin.to_string(),
            why,
        };
        if csv {
            return Self::from_csv(text, origin).map_err(at);
        }
        let v: Value = serde_json::from_str(text).map_err(|source| CompareError::NotJson {
            origin: origin.to_string(),
            source,
        })?;
        Self::from_dimod_json(&v, origin).map_err(at)
    }

    /// From dimod's serialized SampleSet; also the variable labels (as text).
    fn from_dimod_json(v: &Value, name: &str) -> Result<(RunSummary, Vec<String>), String> {
        let d = crate::sampler::dimod_json::read(v)
            .map_err(|e| format!("not a dimod SampleSet: {e}"))?;
        let valid: Option<Vec<bool>> = d.vectors.get("valid").and_then(|v| {
            v.as_array()?
                .iter()
                .map(|b| b.as_bool().or_else(|| b.as_i64().map(|i| i != 0)))
                .collect()
        });
        let energies = energy_counts(
            d.energies
                .iter()
                .zip(&d.num_occurrences)
                .enumerate()
                .map(|(k, (&e, &n))| (e, n, valid.as_ref().map(|v| v[k]))),
        );
        let info = &d.info;
        let number = |key: &str| info.get(key).and_then(Value::as_f64);
        let reads = total_reads(d.num_occurrences.iter().copied())?;
        // The file's own figures are checked against its rows, never printed as given: an
        // edited file once showed "ground % 500" and a negative time.
        let sample_s = number("sample_s");
        if let Some(t) = sample_s.filter(|t| !(t.is_finite() && *t >= 0.0)) {
            return Err(format!(
                "info.sample_s is {t}: a sampling time is a number of seconds ≥ 0"
            ));
        }
        let ground_energy = number("ground_energy");
        let min_energy = energies.first().map(|e| e.energy);
        if let (Some(g), Some(m)) = (ground_energy, min_energy) {
            let tolerance = crate::qubo::energy_tolerance(g.abs().max(m.abs()));
            if m < g - tolerance {
                return Err(format!(
                    "its lowest energy {m} is below its own ground energy {g}: the energies and \
                     the file's figures disagree"
                ));
            }
        }
        let valid_fraction = valid
            .as_ref()
            .filter(|_| reads > 0)
            .map(|_| energies.iter().map(|e| e.valid).sum::<u64>() as f64 / reads as f64);
        // The share at the ground is counted from the rows when the ground is known; a share
        // given without it must at least be a share.
        let ground_fraction = match ground_energy {
            _ if reads == 0 => None,
            Some(g) => {
                let tolerance = crate::qubo::energy_tolerance(g.abs());
                let at_ground: u64 = energies
                    .iter()
                    .filter(|e| crate::qubo::energy_matches(e.energy, g, tolerance))
                    .map(|e| e.valid + e.other)
                    .sum();
                Some(at_ground as f64 / reads as f64)
            }
            None => match number("ground_fraction") {
                Some(f) if !(0.0..=1.0).contains(&f) => {
                    return Err(format!(
                        "info.ground_fraction is {f}: a share is between 0 and 1"
                    ));
                }
                f => f,
            },
        };
        let tts99_s = match (valid_fraction.or(ground_fraction), sample_s) {
            (Some(p), Some(t)) => crate::outcome::tts99_s(p, reads as usize, t),
            _ => None,
        };
        let labels = d
            .labels
            .iter()
            .map(|l| match l {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        Ok((
            RunSummary {
                name: name.to_string(),
                sampler: printable(info.get("sampler").and_then(Value::as_str).unwrap_or("?")),
                params: info.get("params").cloned().unwrap_or(Value::Null),
                seed: info.get("seed").and_then(Value::as_u64),
                num_variables: d.labels.len(),
                model_fingerprint: info
                    .get("model_fingerprint")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                min_energy,
                mean_energy: mean_of(&energies),
                energies,
                refereed: valid.is_some(),
                reads,
                valid_fraction,
                ground_fraction,
                ground_energy,
                tts99_s,
                sample_s,
                cancelled: info
                    .get("cancelled")
                    .and_then(Value::as_bool)
                    .unwrap_or(false),
                ..RunSummary::default()
            },
            labels,
        ))
    }

    /// From our CSV (`energy,num_occurrences,` then one column per variable).
    fn from_csv(text: &str, name: &str) -> Result<(RunSummary, Vec<String>), String> {
        let mut lines = text.lines().enumerate();
        let (_, header) = lines.next().ok_or("the file is empty")?;
        let columns: Vec<&str> = header.split(',').collect();
        if columns.len() < 2 || columns[0] != "energy" || columns[1] != "num_occurrences" {
            return Err(
                "line 1: expected the header energy,num_occurrences,… (a sample CSV)".into(),
            );
        }
        // Labels may be quoted (with commas inside): counted, not split, past the first two.
        let labels = split_csv_header(header)
            .into_iter()
            .skip(2)
            .collect::<Vec<_>>();
        let mut seen = std::collections::HashSet::new();
        if let Some(twice) = labels.iter().find(|l| !seen.insert(l.as_str())) {
            return Err(format!(
                "line 1: the variable '{}' names two columns",
                printable(twice)
            ));
        }
        let mut rows = Vec::new();
        for (k, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
            // One 0/1 (or ±1) value per variable column: a short or long row, or a value
            // such as 7, is not a sample.
            let values: Vec<&str> = line.split(',').skip(2).collect();
            if values.len() != labels.len() {
                return Err(format!(
                    "line {}: {} values for {} variables",
                    k + 1,
                    values.len(),
                    labels.len()
                ));
            }
            if let Some(bad) = values
                .iter()
                .find(|v| !matches!(v.trim(), "0" | "1" | "-1" | "+1"))
            {
                return Err(format!(
                    "line {}: '{}' is not a variable's value (0/1 or -1/+1)",
                    k + 1,
                    printable(bad.trim())
                ));
            }
            let mut fields = line.splitn(3, ',');
            let energy: f64 = fields
                .next()
                .and_then(|f| f.trim().parse().ok())
                .filter(|e: &f64| e.is_finite())
                .ok_or_else(|| format!("line {}: the energy is not a number", k + 1))?;
            let n: u64 = fields
                .next()
                .and_then(|f| f.trim().parse().ok())
                .ok_or_else(|| format!("line {}: num_occurrences is not a count", k + 1))?;
            rows.push((energy, n, None));
        }
        // Counts in range before anything adds them up.
        total_reads(rows.iter().map(|r| r.1))?;
        let energies = energy_counts(rows.into_iter());
        Ok((
            RunSummary {
                name: name.to_string(),
                sampler: "?".into(),
                num_variables: labels.len(),
                reads: energies.iter().map(|e| e.valid + e.other).sum(),
                min_energy: energies.first().map(|e| e.energy),
                mean_energy: mean_of(&energies),
                energies,
                ..RunSummary::default()
            },
            labels,
        ))
    }
}

/// Most reads a sample set may claim in all (every sum of counts then stays exact and cannot
/// overflow).
const MAX_READS: u64 = 1 << 53;

/// The reads the counts add up to, or why they cannot be believed.
fn total_reads(counts: impl Iterator<Item = u64>) -> Result<u64, String> {
    let mut total: u64 = 0;
    for c in counts {
        total = total
            .checked_add(c)
            .filter(|&t| t <= MAX_READS)
            .ok_or_else(|| format!("the read counts add up to more than {MAX_READS} reads"))?;
    }
    Ok(total)
}

/// A CSV header's fields, quotes undone.
fn split_csv_header(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut field)),
            (c, _) => field.push(c),
        }
    }
    out.push(field);
    out
}

/// Refuses runs that did not sample one model: named files, the first taken as the reference.
/// Fingerprints decide when both runs carry one; else the variables (count, then labels).
pub fn check_same_model(runs: &[(String, RunSummary, Vec<String>)]) -> Result<(), CompareError> {
    let Some((first_file, first, first_labels)) = runs.first() else {
        return Ok(());
    };
    for (file, run, labels) in &runs[1..] {
        if let (Some(a), Some(b)) = (&first.model_fingerprint, &run.model_fingerprint) {
            if a != b {
                return Err(CompareError::DifferentModels {
                    file: file.clone(),
                    why: format!(
                        "a sample set of another model than {first_file} (model \
                     fingerprint {b}, not {a})"
                    ),
                });
            }
            continue;
        }
        if run.num_variables != first.num_variables {
            return Err(CompareError::DifferentModels {
                file: file.clone(),
                why: format!(
                    "{} variables, but {first_file} has {}",
                    run.num_variables, first.num_variables
                ),
            });
        }
        let mut a = first_labels.clone();
        let mut b = labels.clone();
        a.sort();
        b.sort();
        if a != b {
            let missing = b.iter().find(|l| a.binary_search(l).is_err());
            return Err(CompareError::DifferentModels {
                file: file.clone(),
                why: format!(
                    "its variables are not those of {first_file}{}",
                    missing.map_or(String::new(), |l| format!(" ({l} is not in {first_file})"))
                ),
            });
        }
    }
    Ok(())
}

/// What the overlay's bars count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Heights {
    /// Reads.
    #[default]
    Counts,
    /// Each run's share of its reads (runs of different sizes compare).
    Shares,
}

/// Shared bins over every run's energies: one per distinct energy when there are at most 60
/// in all (puzzle energies are few and exact), else 40 equal bins; (centres, width).
fn shared_bins(runs: &[&RunSummary]) -> (Vec<f64>, f64) {
    let mut all: Vec<f64> = runs
        .iter()
        .flat_map(|r| r.energies.iter().map(|e| e.energy))
        .collect();
    all.sort_by(f64::total_cmp);
    all.dedup();
    match all.len() {
        0 => (Vec::new(), 1.0),
        1 => (all, 1.0),
        n if n <= 60 => {
            let gap = all
                .windows(2)
                .map(|w| w[1] - w[0])
                .fold(f64::INFINITY, f64::min)
                .max(1e-9);
            (all, gap)
        }
        _ => {
            let (lo, hi) = (all[0], all[all.len() - 1]);
            let w = (hi - lo) / 40.0;
            ((0..40).map(|k| lo + w * (k as f64 + 0.5)).collect(), w)
        }
    }
}

/// Where the overlay's energy axis is measured from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EnergyAxis {
    /// The energies as sampled: one scale only for runs of one model.
    #[default]
    Absolute,
    /// Energy above each run's own ground energy (its lowest read where the ground is
    /// unknown): runs of different models — other weights, another puzzle — side by side
    /// without pretending their energies share a scale.
    AboveGround,
}

impl EnergyAxis {
    /// The axis that cannot mislead for these runs: absolute for one model, else above each
    /// run's ground.
    pub fn for_runs(runs: &[&RunSummary]) -> Self {
        if distinct_models(runs) > 1 {
            EnergyAxis::AboveGround
        } else {
            EnergyAxis::Absolute
        }
    }
}

/// How many different models the runs were sampled from: by fingerprint where both runs have
/// one, else by their variables and weights.
pub fn distinct_models(runs: &[&RunSummary]) -> usize {
    let mut seen: Vec<&RunSummary> = Vec::new();
    for r in runs {
        let same = |o: &&RunSummary| match (&o.model_fingerprint, &r.model_fingerprint) {
            (Some(a), Some(b)) => a == b,
            _ => o.num_variables == r.num_variables && o.weights == r.weights,
        };
        if !seen.iter().any(same) {
            seen.push(r);
        }
    }
    seen.len()
}

/// The weights a run's model was built with, as one short cell ("cell 3, hint 2"; `—` for
/// none).
pub fn weights_text(r: &RunSummary) -> String {
    if r.weights.is_empty() {
        return "—".into();
    }
    r.weights
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The overlay of the runs' energy histograms on shared bins, one colour per run, the ground
/// energy marked (when the runs know it), on `axis`.
pub fn overlay(
    runs: &[&RunSummary],
    heights: Heights,
    axis: EnergyAxis,
    description: &str,
) -> Drawing {
    overlay_chart(runs, heights, axis, description).drawing()
}

/// The overlay as a chart (`overlay` draws it; the window also asks it which bin is under
/// the pointer).
pub fn overlay_chart(
    runs: &[&RunSummary],
    heights: Heights,
    axis: EnergyAxis,
    description: &str,
) -> GroupedHistogram {
    if axis == EnergyAxis::AboveGround {
        // Each run moved so its own ground (else its lowest read) sits at 0.
        let shifted: Vec<RunSummary> = runs
            .iter()
            .map(|r| {
                let zero = r.ground_energy.or(r.min_energy).unwrap_or(0.0);
                let mut r = (*r).clone();
                for e in &mut r.energies {
                    e.energy -= zero;
                }
                r.min_energy = r.min_energy.map(|m| m - zero);
                r.ground_energy = Some(0.0);
                r
            })
            .collect();
        let refs: Vec<&RunSummary> = shifted.iter().collect();
        return histogram_of(&refs, heights, axis, description);
    }
    histogram_of(runs, heights, axis, description)
}

fn histogram_of(
    runs: &[&RunSummary],
    heights: Heights,
    axis: EnergyAxis,
    description: &str,
) -> GroupedHistogram {
    let (centres, width) = shared_bins(runs);
    let bin_of = |e: f64| -> usize {
        // Nearest centre (centres are ascending).
        match centres.binary_search_by(|c| c.total_cmp(&e)) {
            Ok(k) => k,
            Err(0) => 0,
            Err(k) if k >= centres.len() => centres.len() - 1,
            Err(k) => {
                if e - centres[k - 1] <= centres[k] - e {
                    k - 1
                } else {
                    k
                }
            }
        }
    };
    let series = runs
        .iter()
        .enumerate()
        .map(|(k, r)| {
            let mut h = vec![[0.0; 2]; centres.len()];
            let scale = match heights {
                Heights::Counts => 1.0,
                Heights::Shares => 1.0 / r.reads.max(1) as f64,
            };
            for e in &r.energies {
                let b = bin_of(e.energy);
                // Unrefereed reads are neither valid nor not: drawn in the run's full colour.
                let (valid, other) = if r.refereed {
                    (e.valid, e.other)
                } else {
                    (e.valid + e.other, 0)
                };
                h[b][0] += valid as f64 * scale;
                h[b][1] += other as f64 * scale;
            }
            (r.name.clone(), colors::series(k), h)
        })
        .collect();
    let ground = runs.iter().find_map(|r| r.ground_energy);
    let title = if description.is_empty() {
        format!("Energies of {} runs", runs.len())
    } else {
        format!("Energies of {} runs — {description}", runs.len())
    };
    let (x_label, ground_label) = match axis {
        EnergyAxis::Absolute => ("energy", "ground"),
        EnergyAxis::AboveGround => (
            "energy above the run's own ground (its lowest read where unknown)",
            "each run's ground",
        ),
    };
    GroupedHistogram {
        title,
        x_label: x_label.into(),
        y_label: match heights {
            Heights::Counts => "reads".into(),
            Heights::Shares => "share of the run's reads".into(),
        },
        centres,
        bin_width: width,
        series,
        marks: ground
            .map(|g| vec![(ground_label.to_string(), g, colors::VALID)])
            .unwrap_or_default(),
        has_valid: runs.iter().any(|r| r.refereed),
    }
}

/// The comparison table's columns.
pub const TABLE_COLUMNS: [&str; 10] = [
    "run", "sampler", "weights", "reads", "min", "mean", "valid %", "ground %", "TTS99 s", "time s",
];

/// One row of the table as text cells (`—` where unknown).
pub fn table_row(r: &RunSummary) -> [String; 10] {
    let opt = |v: Option<f64>| v.map_or("—".to_string(), crate::io::number_text);
    let pct = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{:.1}", 100.0 * v));
    let secs = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.4}"));
    [
        r.name.clone(),
        r.sampler.clone(),
        weights_text(r),
        r.reads.to_string(),
        opt(r.min_energy),
        r.mean_energy.map_or("—".to_string(), |m| {
            if m == 0.0 || (1e-4..1e12).contains(&m.abs()) {
                format!("{m:.4}")
            } else {
                crate::io::number_text(m)
            }
        }),
        pct(r.valid_fraction),
        pct(r.ground_fraction),
        secs(r.tts99_s),
        secs(r.sample_s),
    ]
}

/// The table as CSV (a header, a row per run; empty cells where unknown).
pub fn table_csv(runs: &[&RunSummary]) -> String {
    let quote = |s: &str| {
        if s.contains([',', '"', '\n']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut out = "run,sampler,weights,reads,min_energy,mean_energy,valid_fraction,ground_fraction,tts99_s,sample_s,seed\n".to_string();
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for r in runs {
        let weights = r
            .weights
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";");
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{}\n",
            quote(&r.name),
            quote(&r.sampler),
            quote(&weights),
            r.reads,
            opt(r.min_energy),
            opt(r.mean_energy),
            opt(r.valid_fraction),
            opt(r.ground_fraction),
            opt(r.tts99_s),
            opt(r.sample_s),
            r.seed.map_or(String::new(), |s| s.to_string()),
        ));
    }
    out
}

/// The table as JSON: one object per run (its figures, without the energies or best sample).
pub fn table_json(runs: &[&RunSummary]) -> Value {
    Value::Array(
        runs.iter()
            .map(|r| {
                serde_json::json!({
                    "run": r.name,
                    "sampler": r.sampler,
                    "params": r.params,
                    "weights": r.weights,
                    "seed": r.seed,
                    "reads": r.reads,
                    "min_energy": r.min_energy,
                    "mean_energy": r.mean_energy,
                    "valid_fraction": r.valid_fraction,
                    "ground_fraction": r.ground_fraction,
                    "ground_energy": r.ground_energy,
                    "tts99_s": r.tts99_s,
                    "sample_s": r.sample_s,
                    "cancelled": r.cancelled,
                    "model_fingerprint": r.model_fingerprint,
                })
            })
            .collect(),
    )
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
