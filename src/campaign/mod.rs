//! Campaigns: one sweep axis (a sampler parameter or a weight) over a set of instances, each
//! point measured as `sweep::run` measures it, every finished point appended to a journal so an
//! interrupted campaign resumes without redoing it, and one tidy table — a row per instance ×
//! sampler × point — with the plots annealing studies draw: TTS99 against the swept value per
//! instance with each optimum marked, their median and quartiles, and the optimum against the
//! problem size on log axes with a fitted exponent.
//!
//! The folder holds `settings.json` (the axis, its values, the runs per point and the stopping
//! rule: a resumed campaign must ask for the same), `points.jsonl` (the journal: one
//! `CampaignRow` per line, in the order points finished) and the table `campaign.csv` /
//! `campaign.json`, rewritten from the journal at the end. Runs of another sampler in the same
//! folder add their rows: the table is the union.
//!
//! Invariant: a row's key (instance, sampler, axis values) appears at most once in a table; with
//! a stopping rule that does not compare points (`budget_factor` 0) every point is independent
//! of the others, so a resumed campaign's table equals an uninterrupted one's.

mod run;

pub use run::{Instance, Plan, Tally, generated_instances, run};

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::sweep::{Metric, SweepPoint};

/// One row of the table: a point of one instance under one sampler.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignRow {
    /// The instance: its file, and `#k` for the k-th puzzle of a file of several.
    pub instance: String,
    /// The sampler that ran it.
    pub sampler: String,
    /// Variables of its model (the size the scaling plot is drawn against).
    pub num_variables: usize,
    /// What the point measured.
    pub point: SweepPoint,
}

impl CampaignRow {
    /// What identifies the row: instance, sampler and the axis values.
    fn key(&self) -> (String, String, u64, Option<u64>) {
        (
            self.instance.clone(),
            self.sampler.clone(),
            self.point.value.to_bits(),
            self.point.value2.map(f64::to_bits),
        )
    }
}

/// A campaign's settings, kept in its folder so a resume asks for the same points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CampaignSettings {
    /// The swept axis's name.
    pub axis: String,
    /// Whether the axis is a sampler parameter (else a weight).
    pub axis_is_param: bool,
    /// Its values.
    pub values: Vec<f64>,
    /// Most runs per point.
    pub repeats: usize,
    /// When a point stops.
    pub stop: crate::sweep::StopRule,
}

/// Why a campaign could not go on.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The folder holds a campaign of other settings.
    #[error(
        "{folder} holds a campaign of other settings ({differs}): resume it with its own, or \
         start another folder"
    )]
    OtherSettings {
        /// The folder.
        folder: String,
        /// What differs.
        differs: String,
    },
    /// An instance could not be encoded, its sampler built or its points measured.
    #[error("{instance}: {message}")]
    Instance {
        /// The instance's name.
        instance: String,
        /// What went wrong.
        message: String,
    },
    /// A file of the folder could not be read or written.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

/// The campaign folder's files.
pub struct Folder {
    dir: PathBuf,
}

impl Folder {
    /// The folder (created when missing), checked against `settings`: a new folder takes
    /// them, one with a journal must have been started with the same.
    pub fn open(dir: &Path, settings: &CampaignSettings) -> Result<Folder, CampaignError> {
        let file_error = |path: &Path, e: &dyn std::fmt::Display| CampaignError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        std::fs::create_dir_all(dir).map_err(|e| file_error(dir, &e))?;
        let folder = Folder {
            dir: dir.to_path_buf(),
        };
        let path = folder.settings_path();
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let kept: CampaignSettings =
                    serde_json::from_str(&text).map_err(|e| file_error(&path, &e))?;
                if let Some(differs) = settings_difference(&kept, settings) {
                    return Err(CampaignError::OtherSettings {
                        folder: dir.display().to_string(),
                        differs,
                    });
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let text = serde_json::to_string_pretty(settings).unwrap_or_default();
                crate::io::write_atomic(&path, text.as_bytes())
                    .map_err(|e| file_error(&path, &e))?;
            }
            Err(e) => return Err(file_error(&path, &e)),
        }
        Ok(folder)
    }

    fn settings_path(&self) -> PathBuf {
        self.dir.join("settings.json")
    }

    /// The journal's path.
    pub fn journal_path(&self) -> PathBuf {
        self.dir.join("points.jsonl")
    }

    /// The rows the journal holds. A last line cut short (the campaign was killed while
    /// writing it) is dropped; any other line that does not read is an error naming it.
    pub fn rows(&self) -> Result<Vec<CampaignRow>, CampaignError> {
        let path = self.journal_path();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(CampaignError::File {
                    path: path.display().to_string(),
                    message: e.to_string(),
                });
            }
        };
        let complete = text.ends_with('\n');
        let lines: Vec<&str> = text.lines().collect();
        let mut rows = Vec::with_capacity(lines.len());
        for (k, line) in lines.iter().enumerate() {
            match serde_json::from_str::<CampaignRow>(line) {
                Ok(row) => rows.push(row),
                Err(_) if k + 1 == lines.len() && !complete => {}
                Err(e) => {
                    return Err(CampaignError::File {
                        path: format!("{}:{}", path.display(), k + 1),
                        message: format!("not a campaign row: {e}"),
                    });
                }
            }
        }
        Ok(rows)
    }

    /// Appends a finished point to the journal (one line, flushed and synced: a kill loses
    /// at most the point being written).
    pub fn append(&self, row: &CampaignRow) -> Result<(), CampaignError> {
        let path = self.journal_path();
        let fail = |e: std::io::Error| CampaignError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        // A line cut short by a kill never held a row: it is dropped before the next one.
        // (Only the last byte is read on the usual path: the journal may be long.)
        if last_byte(&path).is_some_and(|b| b != b'\n')
            && let Ok(bytes) = std::fs::read(&path)
        {
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
            std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .and_then(|f| f.set_len(keep as u64))
                .map_err(fail)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(fail)?;
        let mut line = serde_json::to_string(row).unwrap_or_default();
        line.push('\n');
        file.write_all(line.as_bytes()).map_err(fail)?;
        file.sync_data().map_err(fail)
    }

    /// Writes the table (CSV and JSON) from the journal's rows; returns the rows in table
    /// order.
    pub fn write_table(&self) -> Result<Vec<CampaignRow>, CampaignError> {
        let rows = table(self.rows()?);
        for (name, bytes) in [
            ("campaign.csv", to_csv(&rows).into_bytes()),
            (
                "campaign.json",
                serde_json::to_vec_pretty(&rows).unwrap_or_default(),
            ),
        ] {
            let path = self.dir.join(name);
            crate::io::write_atomic(&path, &bytes).map_err(|e| CampaignError::File {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        }
        Ok(rows)
    }
}

/// The file's last byte (`None`: empty or missing).
fn last_byte(path: &Path) -> Option<u8> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(path).ok()?;
    f.seek(SeekFrom::End(-1)).ok()?;
    let mut b = [0u8];
    f.read_exact(&mut b).ok()?;
    Some(b[0])
}

/// What differs between two campaigns' settings, in words (`None`: the same).
fn settings_difference(kept: &CampaignSettings, asked: &CampaignSettings) -> Option<String> {
    let mut differs = Vec::new();
    if (&kept.axis, kept.axis_is_param) != (&asked.axis, asked.axis_is_param) {
        differs.push(format!("axis {} there, {} here", kept.axis, asked.axis));
    }
    if kept.values != asked.values {
        differs.push(format!(
            "values {:?} there, {:?} here",
            kept.values, asked.values
        ));
    }
    if kept.repeats != asked.repeats {
        differs.push(format!(
            "repeats {} there, {} here",
            kept.repeats, asked.repeats
        ));
    }
    if kept.stop != asked.stop {
        differs.push("another stopping rule".into());
    }
    (!differs.is_empty()).then(|| differs.join("; "))
}

/// The rows in table order — sampler, instance (file, then puzzle number), axis values — one
/// per key (a point measured twice keeps its first row).
pub fn table(rows: Vec<CampaignRow>) -> Vec<CampaignRow> {
    let mut seen = std::collections::HashSet::new();
    let mut rows: Vec<CampaignRow> = rows.into_iter().filter(|r| seen.insert(r.key())).collect();
    rows.sort_by(|a, b| {
        let order = |r: &CampaignRow| {
            let (file, number) = match r.instance.rsplit_once('#') {
                Some((f, k)) => (f.to_string(), k.parse::<u64>().unwrap_or(0)),
                None => (r.instance.clone(), 0),
            };
            (r.sampler.clone(), file, number)
        };
        order(a)
            .cmp(&order(b))
            .then(a.point.value.total_cmp(&b.point.value))
            .then(
                a.point
                    .value2
                    .unwrap_or(0.0)
                    .total_cmp(&b.point.value2.unwrap_or(0.0)),
            )
    });
    rows
}

/// The points a journal holds, for a resume to skip (one lookup per point, however long the
/// journal).
pub struct Done(std::collections::HashSet<(String, String, u64)>);

impl Done {
    /// The points of these rows.
    pub fn of(rows: &[CampaignRow]) -> Done {
        Done(
            rows.iter()
                .map(|r| {
                    (
                        r.instance.clone(),
                        r.sampler.clone(),
                        r.point.value.to_bits(),
                    )
                })
                .collect(),
        )
    }

    /// Whether the point (instance, sampler, value) was measured.
    pub fn contains(&self, instance: &str, sampler: &str, value: f64) -> bool {
        self.0
            .contains(&(instance.to_string(), sampler.to_string(), value.to_bits()))
    }
}

/// The table as CSV: instance, sampler and variables, then the sweep's columns.
pub fn to_csv(rows: &[CampaignRow]) -> String {
    let points: Vec<SweepPoint> = rows.iter().map(|r| r.point.clone()).collect();
    let sweep = crate::sweep::to_csv(&points);
    let mut out = String::new();
    for (k, line) in sweep.lines().enumerate() {
        let prefix = match k {
            0 => "instance,sampler,num_variables".to_string(),
            k => {
                let r = &rows[k - 1];
                format!(
                    "{},{},{}",
                    csv_cell(&r.instance),
                    csv_cell(&r.sampler),
                    r.num_variables
                )
            }
        };
        out += &format!("{prefix},{line}\n");
    }
    out
}

fn csv_cell(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The TTS metric the plots draw: the one chosen if it is a time to solution, else TTS99 in
/// seconds.
pub fn tts_metric(metric: Metric) -> Metric {
    if metric.lower_is_better() {
        metric
    } else {
        Metric::Tts99
    }
}

/// Per (sampler, instance): its rows' points, in axis order.
fn by_instance(rows: &[CampaignRow]) -> Vec<((String, String), Vec<&CampaignRow>)> {
    let mut groups: Vec<((String, String), Vec<&CampaignRow>)> = Vec::new();
    for r in rows {
        let key = (r.sampler.clone(), r.instance.clone());
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(r),
            None => groups.push((key, vec![r])),
        }
    }
    groups
}

/// The value at quantile `q` of sorted values (linear between neighbours).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let at = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (at.floor() as usize, at.ceil() as usize);
    let frac = at - lo as f64;
    // Unsolved instances sort last as ∞: ∞ − ∞ and ∞ × 0 would give NaN.
    if frac == 0.0 {
        sorted[lo]
    } else if sorted[hi].is_infinite() {
        f64::INFINITY
    } else {
        sorted[lo] + (sorted[hi] - sorted[lo]) * frac
    }
}

/// TTS99 against the swept value: a thin line per instance (one colour per sampler) with its
/// optimum marked, and per sampler the median over instances, bold, with the quartiles as a
/// band (an instance unsolved at a value counts as slower than any: the median shows where
/// more than half are solved).
pub fn tts_chart(
    rows: &[CampaignRow],
    axis: &str,
    metric: Metric,
) -> crate::render::chart::LineChart {
    use crate::render::chart::{LineChart, Series, colors};
    let metric = tts_metric(metric);
    let groups = by_instance(rows);
    let samplers: Vec<String> = {
        let mut s: Vec<String> = groups.iter().map(|g| g.0.0.clone()).collect();
        s.dedup();
        s
    };
    let mut series = Vec::new();
    let mut optima = Vec::new();
    for (k, sampler) in samplers.iter().enumerate() {
        let color = colors::series(k);
        let mine: Vec<&Vec<&CampaignRow>> = groups
            .iter()
            .filter(|g| &g.0.0 == sampler)
            .map(|g| &g.1)
            .collect();
        let mut values: Vec<f64> = mine
            .iter()
            .flat_map(|g| g.iter().map(|r| r.point.value))
            .collect();
        values.sort_by(f64::total_cmp);
        values.dedup();
        let (mut median, mut band) = (Vec::new(), Vec::new());
        for &v in &values {
            // An instance not solved at v (or not measured there) counts as slower than any:
            // the median is drawn where more than half solved, the quartiles where they are
            // finite (a band with an infinite end is left out).
            let mut at: Vec<f64> = mine
                .iter()
                .map(|g| {
                    g.iter()
                        .find(|r| r.point.value == v)
                        .and_then(|r| metric.of(&r.point))
                        .unwrap_or(f64::INFINITY)
                })
                .collect();
            at.sort_by(f64::total_cmp);
            let middle = quantile(&at, 0.5);
            if !middle.is_finite() {
                continue;
            }
            median.push([v, middle]);
            band.push([v, quantile(&at, 0.25), quantile(&at, 0.75)]);
        }
        series.push(Series {
            name: format!("{sampler}: median of {} (quartiles)", mine.len()),
            color,
            points: median,
            band,
            band_color: Some(colors::lighter(color, 0.75)),
            unjoined: false,
        });
        for g in &mine {
            let points: Vec<[f64; 2]> = g
                .iter()
                .filter_map(|r| Some([r.point.value, metric.of(&r.point)?]))
                .collect();
            if let Some(best) = points.iter().min_by(|a, b| a[1].total_cmp(&b[1])) {
                optima.push(*best);
            }
            series.push(Series {
                name: String::new(),
                color: colors::lighter(color, 0.55),
                points,
                ..Series::default()
            });
        }
    }
    let unit = if metric == Metric::Tts99 {
        "s"
    } else {
        "sweeps"
    };
    let points: Vec<&SweepPoint> = rows.iter().map(|r| &r.point).collect();
    let look = crate::sweep::AxisLook::of(&points, axis);
    LineChart {
        title: format!("TTS99 against {axis}, per instance"),
        x_label: axis.to_string(),
        y_label: format!("TTS99 ({unit})"),
        series,
        flags: optima,
        flag_name: "optimum".into(),
        y_range: None,
        note: String::new(),
        x_log: look.log,
        y_log: true,
        x_words: look.words,
        marks: Vec::new(),
    }
}

/// Per sampler and instance: the size and the best TTS99 over the swept values.
pub fn optima(rows: &[CampaignRow], metric: Metric) -> Vec<(String, usize, f64)> {
    let metric = tts_metric(metric);
    by_instance(rows)
        .into_iter()
        .filter_map(|((sampler, _), g)| {
            let best = g
                .iter()
                .filter_map(|r| metric.of(&r.point))
                .min_by(f64::total_cmp)?;
            Some((sampler, g[0].num_variables, best))
        })
        .collect()
}

/// Least squares of log y on log x: (exponent, factor) with y ≈ factor · x^exponent; `None`
/// with fewer than two distinct sizes.
pub fn fit_power(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(x, y)| *x > 0.0 && *y > 0.0)
        .map(|(x, y)| (x.ln(), y.ln()))
        .collect();
    let n = logs.len() as f64;
    let mx = logs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = logs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    if logs.len() < 2 || sxx < 1e-12 {
        return None;
    }
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let b = sxy / sxx;
    Some((b, (my - b * mx).exp()))
}

/// Each instance's optimal TTS99 against its variables on log axes, per sampler, with the
/// fitted power law in the legend.
pub fn scaling_chart(rows: &[CampaignRow], metric: Metric) -> crate::render::chart::LineChart {
    use crate::render::chart::{LineChart, Series, colors};
    let metric = tts_metric(metric);
    let best = optima(rows, metric);
    let mut samplers: Vec<&str> = best.iter().map(|b| b.0.as_str()).collect();
    samplers.sort_unstable();
    samplers.dedup();
    let mut series = Vec::new();
    for (k, sampler) in samplers.iter().enumerate() {
        let mut pts: Vec<(f64, f64)> = best
            .iter()
            .filter(|b| b.0 == *sampler)
            .map(|b| (b.1 as f64, b.2))
            .collect();
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let color = colors::series(k);
        if let Some((exponent, factor)) = fit_power(&pts) {
            let (lo, hi) = (pts[0].0, pts[pts.len() - 1].0);
            series.push(Series {
                name: format!("{sampler} fit: TTS99 ∝ n^{exponent:.2}"),
                color: colors::lighter(color, 0.3),
                points: [lo, hi].map(|x| [x, factor * x.powf(exponent)]).to_vec(),
                ..Series::default()
            });
        }
        series.push(Series {
            name: format!("{sampler}: optimum per instance"),
            color,
            points: pts.iter().map(|&(x, y)| [x, y]).collect(),
            unjoined: true,
            ..Series::default()
        });
    }
    let unit = if metric == Metric::Tts99 {
        "s"
    } else {
        "sweeps"
    };
    LineChart {
        title: "Optimal TTS99 against problem size".into(),
        x_label: "variables".into(),
        y_label: format!("TTS99 ({unit})"),
        series,
        x_log: true,
        y_log: true,
        ..LineChart::default()
    }
}

/// The campaign's two plots with the file names they take in its folder: TTS99 per instance
/// (`tts.png`) and the optimum against the size (`scaling.png`).
pub fn plots(
    rows: &[CampaignRow],
    axis: &str,
    metric: Metric,
) -> [(&'static str, crate::render::Drawing); 2] {
    [
        ("tts.png", tts_chart(rows, axis, metric).drawing()),
        ("scaling.png", scaling_chart(rows, metric).drawing()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unsolved instances count as ∞: the median exists while more than half are solved, and
    /// no quantile is NaN.
    #[test]
    fn quantiles_with_unsolved_instances() {
        let inf = f64::INFINITY;
        assert_eq!(quantile(&[1.0, 2.0, inf], 0.5), 2.0);
        assert_eq!(quantile(&[1.0, 2.0, inf], 0.75), inf);
        assert_eq!(quantile(&[1.0, 2.0, inf], 0.25), 1.5);
        assert_eq!(quantile(&[1.0, inf, inf], 0.5), inf);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, inf], 0.5), 2.5);
        assert_eq!(quantile(&[inf, inf], 0.0), inf);
    }

    #[test]
    fn a_power_law_is_fitted_exactly() {
        let pts: Vec<(f64, f64)> = [10.0, 20.0, 40.0, 80.0]
            .iter()
            .map(|&n: &f64| (n, 3.0 * n.powf(1.7)))
            .collect();
        let (b, a) = fit_power(&pts).unwrap();
        assert!((b - 1.7).abs() < 1e-9 && (a - 3.0).abs() < 1e-9, "{b} {a}");
        assert_eq!(fit_power(&[(10.0, 1.0), (10.0, 2.0)]), None);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0], 0.5), 2.5);
    }
}
