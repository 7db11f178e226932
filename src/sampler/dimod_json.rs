//! dimod's serialized `SampleSet` (`SampleSet.to_serializable()`), read: the one reading for
//! the hybrid solvers' `bq` answers (`remote::bq`) and for sample sets saved by a notebook or
//! by `--save-samples` (`compare`). Writing lives beside `SampleSet` (`to_dimod_json`).
//!
//! Invariant: packed rows are `ceil(n/32)` uint32 words per row, variable j at bit `j % 32`
//! (LSB first) of word `j / 32`. Numbers are read leniently (ints where floats are expected,
//! as dimod writes `-1` for −1.0); shapes are checked strictly, and every problem is named.

use serde_json::{Map, Value};

use super::{SampleInfo, SampleSet};

/// A dimod sample set as serialized, columns in the order of `labels`.
#[derive(Clone, Debug, PartialEq)]
pub struct DimodSampleSet {
    /// The variable labels, one per column (integers for our unlabelled uploads).
    pub labels: Vec<Value>,
    /// One 0/1 row per distinct sample.
    pub samples: Vec<Vec<u8>>,
    /// Energies as the service computed them.
    pub energies: Vec<f64>,
    /// Reads per row.
    pub num_occurrences: Vec<u64>,
    /// `info` (a service's timing, problem id, warnings; our runs' figures).
    pub info: Map<String, Value>,
    /// Vectors beside energy and num_occurrences (dimod keeps any per-row vector, as
    /// `chain_break_fraction`; ours add `valid`), one value per row.
    pub vectors: Map<String, Value>,
}

/// Why a serialized sample set cannot be read, or not as a run of a given model (callers add
/// where it was: the bq answer, a file's name).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleSetError {
    /// The object is not a dimod SampleSet: what is wrong with it.
    #[error("{0}")]
    Malformed(String),
    /// Its variables are not the model's: which one, or how many.
    #[error("{0}")]
    NotThisModel(String),
}

/// A malformed set, in words.
fn bad(what: impl std::fmt::Display) -> SampleSetError {
    SampleSetError::Malformed(what.to_string())
}

/// Reads a serialized `SampleSet` object (dimod's `to_serializable()` shape, schema 3.x,
/// BINARY or SPIN, packed or not); errors say what is wrong, for the caller to place.
pub fn read(data: &Value) -> Result<DimodSampleSet, SampleSetError> {
    if data.get("type").and_then(Value::as_str) != Some("SampleSet") {
        return Err(bad("type is not \"SampleSet\""));
    }
    let schema = data
        .pointer("/version/sampleset_schema")
        .and_then(Value::as_str)
        .ok_or_else(|| bad("no version.sampleset_schema"))?;
    if schema.split('.').next().and_then(|m| m.parse::<u32>().ok()) != Some(3) {
        return Err(bad(format!("sampleset_schema {schema}, expected 3.x")));
    }
    let labels = data
        .get("variable_labels")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| bad("no variable_labels"))?;
    let n = labels.len();
    if let Some(declared) = data.get("num_variables").and_then(Value::as_u64)
        && declared as usize != n
    {
        return Err(bad(format!(
            "num_variables {declared} but {n} variable_labels"
        )));
    }
    let spin = match data.get("variable_type").and_then(Value::as_str) {
        Some("BINARY") => false,
        Some("SPIN") => true,
        other => return Err(bad(format!("variable_type {other:?}"))),
    };
    let vectors = data.get("vectors").ok_or_else(|| bad("no vectors"))?;
    let energies: Vec<f64> = array_items(&vectors["energy"], "vectors.energy")?
        .iter()
        .map(|v| v.as_f64().ok_or_else(|| bad("an energy is not a number")))
        .collect::<Result<_, _>>()?;
    let rows = energies.len();
    let num_occurrences: Vec<u64> = match vectors.get("num_occurrences") {
        None => vec![1; rows],
        Some(v) => array_items(v, "vectors.num_occurrences")?
            .iter()
            .map(|v| {
                v.as_u64()
                    .ok_or_else(|| bad("a num_occurrences entry is not a count"))
            })
            .collect::<Result<_, _>>()?,
    };
    if num_occurrences.len() != rows {
        return Err(bad(format!(
            "{rows} energies but {} num_occurrences",
            num_occurrences.len()
        )));
    }
    if let Some(declared) = data.get("num_rows").and_then(Value::as_u64)
        && declared as usize != rows
    {
        return Err(bad(format!("num_rows {declared} but {rows} energies")));
    }
    let packed = data
        .get("sample_packed")
        .and_then(Value::as_bool)
        .unwrap_or(true);
    let raw_rows = array_items(&data["sample_data"], "sample_data")?;
    if raw_rows.len() != rows {
        return Err(bad(format!(
            "{rows} energies but {} sample rows",
            raw_rows.len()
        )));
    }
    let mut samples = Vec::with_capacity(rows);
    for (r, row) in raw_rows.iter().enumerate() {
        let items = row
            .as_array()
            .ok_or_else(|| bad(format!("sample row {r} is not an array")))?;
        let sample = if packed {
            let words = n.div_ceil(32);
            if items.len() != words {
                return Err(bad(format!(
                    "packed row {r} has {} words, {n} variables need {words}",
                    items.len()
                )));
            }
            let words: Vec<u32> = items
                .iter()
                .map(|w| {
                    w.as_u64()
                        .and_then(|w| u32::try_from(w).ok())
                        .ok_or_else(|| bad(format!("packed row {r} holds a non-uint32 word")))
                })
                .collect::<Result<_, _>>()?;
            (0..n)
                .map(|j| ((words[j / 32] >> (j % 32)) & 1) as u8)
                .collect()
        } else {
            if items.len() != n {
                return Err(bad(format!(
                    "row {r} has {} values for {n} variables",
                    items.len()
                )));
            }
            items
                .iter()
                .map(|v| match (v.as_i64(), spin) {
                    (Some(0), false) | (Some(-1), true) => Ok(0),
                    (Some(1), _) => Ok(1),
                    _ => Err(bad(format!(
                        "row {r} holds {v}, not a value of the vartype"
                    ))),
                })
                .collect::<Result<_, _>>()?
        };
        samples.push(sample);
    }
    let vectors = vectors
        .as_object()
        .map(|all| {
            all.iter()
                .filter(|(name, _)| !matches!(name.as_str(), "energy" | "num_occurrences"))
                .filter_map(|(name, v)| {
                    array_items(v, name)
                        .ok()
                        .filter(|items| items.len() == rows)
                        .map(|items| (name.clone(), Value::Array(items.clone())))
                })
                .collect()
        })
        .unwrap_or_default();
    Ok(DimodSampleSet {
        labels,
        samples,
        energies,
        num_occurrences,
        vectors,
        info: data
            .get("info")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    })
}

impl DimodSampleSet {
    /// The rows as a run of `model`, whose variables are named `labels`: columns are matched by
    /// label (their text, as model files read them) and energies recomputed from the model. A
    /// label the model lacks, or a variable the samples leave out, is an error naming it; energies
    /// that differ from the file's (another model, or other weights) become a warning.
    pub fn for_model(
        &self,
        model: &dyn crate::qubo::Model,
        labels: &[String],
        sampler: &str,
    ) -> Result<SampleSet, SampleSetError> {
        let n = model.num_variables();
        if labels.len() != n {
            return Err(SampleSetError::NotThisModel(format!(
                "the model has {n} variables but {} labels",
                labels.len()
            )));
        }
        if self.labels.len() != n {
            return Err(SampleSetError::NotThisModel(format!(
                "the samples have {} variables, the model {n}",
                self.labels.len()
            )));
        }
        let column_of: std::collections::HashMap<&str, usize> = labels
            .iter()
            .enumerate()
            .map(|(v, l)| (l.as_str(), v))
            .collect();
        let mut column = vec![usize::MAX; n];
        for (k, label) in self.labels.iter().enumerate() {
            let text = crate::qubo::formats::label_text(label);
            let Some(&v) = column_of.get(text.as_str()) else {
                return Err(SampleSetError::NotThisModel(format!(
                    "the samples name a variable {text:?} the model does not have"
                )));
            };
            column[v] = k;
        }
        if let Some(v) = column.iter().position(|&k| k == usize::MAX) {
            return Err(SampleSetError::NotThisModel(format!(
                "the samples leave out the model's variable {:?}",
                labels[v]
            )));
        }
        let counted: Vec<(Vec<u8>, usize)> = self
            .samples
            .iter()
            .zip(&self.num_occurrences)
            .map(|(row, &count)| (column.iter().map(|&k| row[k]).collect(), count as usize))
            .collect();
        let mut info = SampleInfo {
            sampler: sampler.to_string(),
            params: Value::Object(self.info.clone()),
            num_reads_requested: self.num_occurrences.iter().map(|&c| c as usize).sum(),
            ..SampleInfo::default()
        };
        let set = SampleSet::from_counted(model, counted.clone(), info.clone());
        let differs = counted.iter().zip(&self.energies).any(|((x, _), &e)| {
            let ours = model.energy(x);
            !crate::qubo::energy_matches(
                ours,
                e,
                crate::qubo::energy_tolerance(ours.abs().max(e.abs())),
            )
        });
        if differs {
            info.warnings.push(
                "the file's energies differ from this model's (another model, or other weights): \
                 shown as this model computes them"
                    .to_string(),
            );
            return Ok(SampleSet { info, ..set });
        }
        Ok(set)
    }
}

/// The items of an array object (`{"type": "array", "data": […], …}`), or of a plain list.
fn array_items<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>, SampleSetError> {
    if v.get("use_bytes").and_then(Value::as_bool) == Some(true) {
        return Err(bad(format!(
            "{what} uses bytes, which JSON answers do not carry"
        )));
    }
    v.get("data")
        .unwrap_or(v)
        .as_array()
        .ok_or_else(|| bad(format!("{what} is missing or not an array")))
}
