//! Run summaries from a finished run (`of_outcome`) or read from a saved sample set (our CSV,
//! dimod's SampleSet JSON), their figures checked against their rows; `check_same_model`.

use super::*;

/// Distinct energies with their counts, ascending; binned into `BINNED` equal bins when there
/// are more than `MAX_ENERGIES`.
pub(super) fn energy_counts(
    rows: impl Iterator<Item = (f64, u64, Option<bool>)>,
) -> Vec<EnergyCount> {
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

pub(super) fn mean_of(energies: &[EnergyCount]) -> Option<f64> {
    let reads: u64 = energies.iter().map(|e| e.valid + e.other).sum();
    (reads > 0).then(|| {
        energies
            .iter()
            .map(|e| e.energy * (e.valid + e.other) as f64)
            .sum::<f64>()
            / reads as f64
    })
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
    pub(super) fn from_dimod_json(
        v: &Value,
        name: &str,
    ) -> Result<(RunSummary, Vec<String>), String> {
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
    pub(super) fn from_csv(text: &str, name: &str) -> Result<(RunSummary, Vec<String>), String> {
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
pub(super) const MAX_READS: u64 = 1 << 53;

/// The reads the counts add up to, or why they cannot be believed.
pub(super) fn total_reads(counts: impl Iterator<Item = u64>) -> Result<u64, String> {
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
pub(super) fn split_csv_header(line: &str) -> Vec<String> {
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
