//! `compare`: sample sets of one model side by side — the table of their figures (printed, or
//! JSON, or CSV) and their energy histograms overlaid (`compare::overlay`).

use std::path::Path;

use super::output::{Output, check_outputs, print_json};
use super::{CompareArgs, Failure, usage};
use crate::compare::{Heights, RunSummary, TABLE_COLUMNS, check_same_model, table_row};

/// Most sample sets compared at once (a chart of more is unreadable).
const MAX_RUNS: usize = 20;

pub(super) fn compare(a: CompareArgs) -> Result<i32, Failure> {
    if a.samples.len() > MAX_RUNS {
        return Err(usage(format!(
            "{} sample sets: compare at most {MAX_RUNS} at once",
            a.samples.len()
        )));
    }
    if !a.labels.is_empty() && a.labels.len() != a.samples.len() {
        return Err(usage(format!(
            "--labels: {} names for {} sample sets; give one per file, in order",
            a.labels.len(),
            a.samples.len()
        )));
    }
    let inputs: Vec<&Path> = a.samples.iter().map(|p| p.as_path()).collect();
    // Each output checked, and the two never the same file (the table written over the chart).
    let outputs: Vec<(&str, &Path, Output)> = [
        ("--plot", a.plot.as_deref(), Output::Image),
        ("--csv", a.csv.as_deref(), Output::Csv),
    ]
    .into_iter()
    .filter_map(|(flag, path, what)| path.map(|p| (flag, p, what)))
    .collect();
    check_outputs(&outputs, &inputs, None)?;
    a.pictures.image.export_options().map_err(usage)?;
    let mut runs = Vec::with_capacity(a.samples.len());
    for (k, path) in a.samples.iter().enumerate() {
        let (mut run, labels) = RunSummary::load(path).map_err(Failure::from)?;
        if let Some(name) = a.labels.get(k) {
            run.name = name.trim().to_string();
        }
        runs.push((path.display().to_string(), run, labels));
    }
    check_same_model(&runs).map_err(Failure::from)?;
    let summaries: Vec<&RunSummary> = runs.iter().map(|r| &r.1).collect();
    if let Some(out) = &a.plot {
        let heights = if a.shares {
            Heights::Shares
        } else {
            Heights::Counts
        };
        a.pictures.write(
            crate::compare::overlay(
                &summaries,
                heights,
                crate::compare::EnergyAxis::Absolute,
                "",
            ),
            out,
        )?;
    }
    if let Some(out) = &a.csv {
        crate::io::write_atomic(out, crate::compare::table_csv(&summaries).as_bytes())?;
    }
    if a.json {
        print_json(&crate::compare::table_json(&summaries))?;
        return Ok(0);
    }
    // A plain table, columns as wide as their widest cell.
    let rows: Vec<[String; 10]> = summaries.iter().map(|r| table_row(r)).collect();
    let widths: Vec<usize> = (0..TABLE_COLUMNS.len())
        .map(|c| {
            rows.iter()
                .map(|r| r[c].chars().count())
                .chain([TABLE_COLUMNS[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                if c < 2 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_string()
    };
    println!("{}", line(TABLE_COLUMNS.to_vec()));
    for r in &rows {
        println!("{}", line(r.iter().map(String::as_str).collect()));
    }
    Ok(0)
}
