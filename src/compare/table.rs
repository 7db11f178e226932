//! The runs' table: one row per run, as the window shows it and as CSV or JSON.

use super::*;

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
