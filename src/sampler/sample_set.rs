//! `SampleSet`: distinct samples with energy and occurrence count, lowest energy first.

use serde::Serialize;

/// One distinct sample with its energy and how many reads returned it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SampleRow {
    /// The assignment, 0/1 per variable.
    pub sample: Vec<u8>,
    /// Its energy (offset included).
    pub energy: f64,
    /// Reads that returned exactly this sample.
    pub num_occurrences: usize,
}

/// What produced a sample set, and how long it took.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampleInfo {
    /// The sampler's registry name.
    pub sampler: String,
    /// The parameters it ran with, as JSON.
    pub params: serde_json::Value,
    /// Reads asked for.
    pub num_reads_requested: usize,
    /// True when the run was cancelled: the rows hold only the reads completed before that.
    pub cancelled: bool,
    /// Seed actually used (also when the caller left it unset), so a run can be repeated.
    pub seed: Option<u64>,
    /// Time spent before sampling (building the CSR, schedules), in nanoseconds.
    pub preprocessing_ns: u64,
    /// Time spent sampling, in nanoseconds.
    pub sampling_ns: u64,
    /// Time spent aggregating the reads, in nanoseconds.
    pub postprocessing_ns: u64,
    /// Sweeps per read actually run (for ns-per-update figures).
    pub num_sweeps: usize,
    /// What the user should know about how far to trust this run (e.g. a model whose
    /// coefficients' spread exceeds the kernel's precision).
    pub warnings: Vec<String>,
    /// Sampler-specific facts as JSON: a remote service's timing (queue, QPU or DA time), its
    /// problem id, an embedding's chain-break fraction and what post-processing changed.
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub details: serde_json::Map<String, serde_json::Value>,
    /// How the reads ended, where the sampler can stop before its sweeps are done (a target
    /// energy, a time limit).
    pub end: ReadsEnd,
    /// The reads are one population, correlated by resampling (population annealing): for
    /// time to solution the run is one trial, not each read (`Outcome::trials`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub one_trial: bool,
}

/// How a run's reads ended, beyond "ran all their sweeps": what `RunReport` is made from.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ReadsEnd {
    /// Reads that stopped at the target energy.
    pub at_target: usize,
    /// Reads the time limit ended before their sweeps were done (each returns its best state).
    pub cut_by_time_limit: usize,
    /// Reads ended early because another read had reached the target and the run was asked to
    /// end there (`RunControl::end_at_first_target`): not returned (they had no fair chance,
    /// so they would bias the success share), only counted here.
    pub cut_at_first_target: usize,
    /// Reads never started: the time limit had passed, the run was cancelled or it had
    /// already ended at its first read at the target.
    pub not_started: usize,
    /// The time limit in force, in milliseconds (whole run, pilot included).
    pub time_limit_ms: Option<u64>,
    /// Whether the pilot was cut short by its share of the time limit.
    pub pilot_cut_short: bool,
    /// Whether the run ended at its first read at the target energy (as asked).
    pub ended_at_first_target: bool,
}

/// Why a run ended, in one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Every read ran all its sweeps (restarts, or the whole enumeration).
    Finished,
    /// Every read stopped at the target energy.
    Target,
    /// The run ended at its first read at the target energy (as asked).
    FirstTarget,
    /// The time limit ended reads or kept them from starting.
    TimeLimit,
    /// The run was cancelled.
    Cancelled,
}

/// What a run did, said the same way by the CLI and the window: reads returned of reads asked,
/// and why it stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunReport {
    /// Reads returned.
    pub reads: usize,
    /// Reads asked for.
    pub reads_requested: usize,
    /// Why the run ended.
    pub stopped: StopReason,
    /// The same in words ("8 of 16 reads: the 60 s time limit passed before 8 started").
    pub summary: String,
}

impl StopReason {
    /// The reason in a few words.
    pub fn words(self) -> &'static str {
        match self {
            StopReason::Finished => "every read ran its sweeps",
            StopReason::Target => "every read reached the target energy",
            StopReason::FirstTarget => "ended at the first read at the target energy",
            StopReason::TimeLimit => "the time limit ended it",
            StopReason::Cancelled => "cancelled",
        }
    }
}

/// Distinct samples, lowest energy first, with what produced them.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SampleSet {
    /// Length of every sample.
    pub num_variables: usize,
    /// Distinct samples, sorted by energy then sample.
    pub rows: Vec<SampleRow>,
    /// The sampler, its parameters and timings.
    pub info: SampleInfo,
}

impl SampleInfo {
    /// The sweep kernel that ran (`lanes8`, `multispin`, …), for samplers that name one.
    pub fn kernel(&self) -> Option<&str> {
        self.params.get("kernel")?.as_str()
    }

    /// Details in one line (`chain_break_fraction 0.0123, problem_id abc, …`); nested objects
    /// (a service's own timing) are flattened one level. The CLI prints it, the GUI shows it.
    pub fn details_line(details: &serde_json::Map<String, serde_json::Value>) -> String {
        let plain = |v: &serde_json::Value| match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) if n.is_f64() => {
                format!("{:.4}", n.as_f64().unwrap_or(f64::NAN))
            }
            other => other.to_string(),
        };
        let mut parts = Vec::new();
        for (k, v) in details {
            match v {
                serde_json::Value::Object(inner) => {
                    parts.extend(inner.iter().map(|(k2, v2)| format!("{k2} {}", plain(v2))));
                }
                _ => parts.push(format!("{k} {}", plain(v))),
            }
        }
        parts.join(", ")
    }

    /// The info of a run cancelled before its first read (e.g. during a pilot run).
    pub fn cancelled_before_sampling(
        sampler: &str,
        params: serde_json::Value,
        num_reads_requested: usize,
        seed: u64,
    ) -> SampleInfo {
        SampleInfo {
            sampler: sampler.into(),
            params,
            num_reads_requested,
            cancelled: true,
            seed: Some(seed),
            ..SampleInfo::default()
        }
    }
}

impl SampleSet {
    /// A run cancelled before any read came back (a remote job cancelled while it queued or
    /// ran): no rows, `info.cancelled` set.
    pub fn cancelled_without_reads(num_variables: usize, info: SampleInfo) -> Self {
        SampleSet {
            num_variables,
            rows: Vec::new(),
            info: SampleInfo {
                cancelled: true,
                ..info
            },
        }
    }

    /// Aggregates final states, their energies recomputed exactly (f64, from `model`, in
    /// parallel): what every local sampler returns, whatever precision its kernel used.
    pub fn from_states(
        model: &dyn crate::qubo::Model,
        states: Vec<Vec<u8>>,
        info: SampleInfo,
    ) -> Self {
        use rayon::prelude::*;
        let reads = states
            .into_par_iter()
            .map(|x| {
                let e = model.energy(&x);
                (x, e)
            })
            .collect();
        SampleSet::from_reads(model.num_variables(), reads, info)
    }

    /// Aggregates counted samples (what a remote service returns: distinct rows with their
    /// occurrences), their energies recomputed exactly from `model`.
    pub fn from_counted(
        model: &dyn crate::qubo::Model,
        counted: Vec<(Vec<u8>, usize)>,
        info: SampleInfo,
    ) -> Self {
        let mut reads: Vec<(Vec<u8>, f64, usize)> = counted
            .into_iter()
            .filter(|(_, count)| *count > 0)
            .map(|(x, count)| {
                let e = model.energy(&x);
                (x, e, count)
            })
            .collect();
        reads.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let mut rows: Vec<SampleRow> = Vec::new();
        for (sample, energy, count) in reads {
            match rows.last_mut() {
                Some(last) if last.sample == sample => last.num_occurrences += count,
                _ => rows.push(SampleRow {
                    sample,
                    energy,
                    num_occurrences: count,
                }),
            }
        }
        SampleSet {
            num_variables: model.num_variables(),
            rows,
            info,
        }
    }

    /// Aggregates reads (sample, energy): rows sorted by energy, ties by sample (so identical
    /// samples are adjacent and merge), and the result does not depend on read order.
    pub fn from_reads(
        num_variables: usize,
        mut reads: Vec<(Vec<u8>, f64)>,
        info: SampleInfo,
    ) -> Self {
        reads.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        let mut rows: Vec<SampleRow> = Vec::new();
        for (sample, energy) in reads {
            match rows.last_mut() {
                Some(last) if last.sample == sample => last.num_occurrences += 1,
                _ => rows.push(SampleRow {
                    sample,
                    energy,
                    num_occurrences: 1,
                }),
            }
        }
        SampleSet {
            num_variables,
            rows,
            info,
        }
    }

    /// Reads represented (sum of occurrence counts).
    pub fn num_reads(&self) -> usize {
        self.rows.iter().map(|r| r.num_occurrences).sum()
    }

    /// Reads returned of reads asked for and why the run stopped, in figures and in words.
    pub fn report(&self) -> RunReport {
        let info = &self.info;
        let end = &info.end;
        let reads = self.num_reads();
        let requested = info.num_reads_requested.max(reads);
        let stopped = if info.cancelled {
            StopReason::Cancelled
        } else if end.ended_at_first_target {
            StopReason::FirstTarget
        } else if end.cut_by_time_limit > 0 || end.not_started > 0 {
            StopReason::TimeLimit
        } else if reads > 0 && end.at_target == reads {
            StopReason::Target
        } else {
            StopReason::Finished
        };
        let limit = end.time_limit_ms.map_or(String::new(), |ms| {
            if ms % 1000 == 0 {
                format!("{} s ", ms / 1000)
            } else {
                format!("{:.1} s ", ms as f64 / 1e3)
            }
        });
        let mut parts = Vec::new();
        if end.at_target > 0 {
            parts.push(format!("{} reached the target energy", end.at_target));
        }
        if end.cut_at_first_target > 0 {
            parts.push(format!(
                "{} under way stopped then (not counted as reads)",
                end.cut_at_first_target
            ));
        }
        if end.cut_by_time_limit > 0 {
            parts.push(format!(
                "{} ended by the {limit}time limit, each with the best state it reached",
                end.cut_by_time_limit
            ));
        }
        if end.pilot_cut_short {
            parts.push(format!(
                "the pilot was cut to its share of the {limit}time limit"
            ));
        }
        let missing = requested
            .saturating_sub(reads)
            .saturating_sub(end.cut_at_first_target);
        if missing > 0 {
            parts.push(match stopped {
                StopReason::Cancelled => format!("{missing} not run: cancelled"),
                StopReason::FirstTarget => format!(
                    "{missing} not started: the run ends at its first read at the target energy \
                     (--all-reads runs them all)"
                ),
                StopReason::TimeLimit => {
                    format!("{missing} not started: the {limit}time limit had passed")
                }
                _ => format!("{missing} not returned"),
            });
        }
        let detail = if parts.is_empty() {
            stopped.words().to_string()
        } else {
            parts.join("; ")
        };
        RunReport {
            reads,
            reads_requested: requested,
            stopped,
            summary: format!("{reads} of {requested} reads: {detail}"),
        }
    }

    /// The lowest-energy sample, if there is one.
    pub fn lowest(&self) -> Option<&SampleRow> {
        self.rows.first()
    }

    /// One energy per read, lowest first.
    pub fn energies(&self) -> Vec<f64> {
        self.rows
            .iter()
            .flat_map(|r| std::iter::repeat_n(r.energy, r.num_occurrences))
            .collect()
    }
}

impl SampleSet {
    /// dimod's `SampleSet.to_serializable()` shape (schema 3.2.0, packed BINARY samples:
    /// variable j is bit j % 32, least significant first, of uint32 word j / 32).
    pub fn to_dimod_json(&self, labels: Option<&[String]>) -> serde_json::Value {
        let n = self.num_variables;
        let words = n.div_ceil(32);
        let packed: Vec<Vec<u32>> = self
            .rows
            .iter()
            .map(|r| {
                let mut w = vec![0u32; words];
                for (j, &b) in r.sample.iter().enumerate() {
                    if b != 0 {
                        w[j / 32] |= 1 << (j % 32);
                    }
                }
                w
            })
            .collect();
        let labels: Vec<serde_json::Value> = match labels {
            Some(l) => l.iter().map(|s| serde_json::json!(s)).collect(),
            None => (0..n).map(|k| serde_json::json!(k)).collect(),
        };
        let rows = self.rows.len();
        let array = |data: serde_json::Value, dtype: &str, shape: serde_json::Value| serde_json::json!({"type": "array", "data": data, "data_type": dtype, "shape": shape, "use_bytes": false});
        serde_json::json!({
            "type": "SampleSet",
            "version": {"sampleset_schema": "3.2.0"},
            "num_variables": n,
            "num_rows": rows,
            "sample_data": array(serde_json::json!(packed), "uint32", serde_json::json!([rows, words])),
            "sample_type": "int8",
            "sample_packed": true,
            "vectors": {
                "energy": array(serde_json::json!(self.rows.iter().map(|r| r.energy).collect::<Vec<_>>()), "float64", serde_json::json!([rows])),
                "num_occurrences": array(serde_json::json!(self.rows.iter().map(|r| r.num_occurrences).collect::<Vec<_>>()), "int64", serde_json::json!([rows])),
            },
            "variable_labels": labels,
            "variable_type": "BINARY",
            "info": {"sampler": self.info.sampler, "params": self.info.params, "cancelled": self.info.cancelled},
        })
    }

    /// Writes the samples atomically as dimod SampleSet JSON (`.json`) or CSV (`.csv`).
    pub fn save(
        &self,
        path: &std::path::Path,
        labels: Option<&[String]>,
    ) -> Result<(), crate::io::FileError> {
        let text = match path.extension().and_then(|e| e.to_str()) {
            Some("csv") => self.to_csv(labels),
            Some("json") => {
                serde_json::to_string_pretty(&self.to_dimod_json(labels)).unwrap_or_default() + "\n"
            }
            _ => {
                return Err(crate::io::FileError::new(
                    path,
                    crate::io::FileProblem::UnknownExtension {
                        what: "samples",
                        expected: ".json (dimod SampleSet) or .csv",
                    },
                ));
            }
        };
        crate::io::write_atomic(path, text.as_bytes())
    }

    /// CSV: `energy,num_occurrences,` then one column per variable (named by `labels`).
    pub fn to_csv(&self, labels: Option<&[String]>) -> String {
        let quote = |s: &str| {
            if s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.to_string()
            }
        };
        let mut out = String::from("energy,num_occurrences");
        for j in 0..self.num_variables {
            out.push(',');
            match labels {
                Some(l) => out.push_str(&quote(&l[j])),
                None => out.push_str(&format!("x{j}")),
            }
        }
        out.push('\n');
        for r in &self.rows {
            out.push_str(&format!("{},{}", r.energy, r.num_occurrences));
            for &b in &r.sample {
                out.push_str(if b != 0 { ",1" } else { ",0" });
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimod_json_packs_bits_lsb_first() {
        let mut x = vec![0u8; 40];
        x[0] = 1;
        x[33] = 1;
        let s = SampleSet::from_reads(40, vec![(x, -1.0)], SampleInfo::default());
        let v = s.to_dimod_json(None);
        assert_eq!(
            v["sample_data"]["data"],
            serde_json::json!([[1, 2]]),
            "docs example: 40 vars, 0 and 33 set"
        );
        assert_eq!(v["sample_data"]["shape"], serde_json::json!([1, 2]));
        assert_eq!(
            v["vectors"]["num_occurrences"]["data"],
            serde_json::json!([1])
        );
        let nine = SampleSet::from_reads(
            9,
            vec![(vec![1, 0, 0, 0, 0, 0, 0, 0, 1], 0.0)],
            SampleInfo::default(),
        );
        assert_eq!(
            nine.to_dimod_json(None)["sample_data"]["data"],
            serde_json::json!([[257]])
        );
    }

    #[test]
    fn csv_has_a_header_and_one_line_per_row() {
        let s = SampleSet::from_reads(
            2,
            vec![(vec![1, 0], 0.5), (vec![1, 0], 0.5)],
            SampleInfo::default(),
        );
        let labels = vec!["a,b".to_string(), "c".to_string()];
        assert_eq!(
            s.to_csv(Some(&labels)),
            "energy,num_occurrences,\"a,b\",c\n0.5,2,1,0\n"
        );
    }

    #[test]
    fn aggregates_and_sorts_reads() {
        let reads = vec![
            (vec![1, 0], 2.0),
            (vec![0, 1], -1.0),
            (vec![1, 1], -1.0),
            (vec![0, 1], -1.0),
        ];
        let s = SampleSet::from_reads(2, reads, SampleInfo::default());
        assert_eq!(s.num_reads(), 4);
        assert_eq!(s.rows.len(), 3);
        assert_eq!(s.rows[0].sample, vec![0, 1]);
        assert_eq!(s.rows[0].num_occurrences, 2);
        assert_eq!(s.energies(), vec![-1.0, -1.0, -1.0, 2.0]);
    }
}
