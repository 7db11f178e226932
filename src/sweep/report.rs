//! What a sweep's points become for people: the best point, CSV rows, and charts (fractions
//! with their intervals, TTS99, a heatmap of two weights, broken groups per weight, a
//! suggestion's path), drawn as `Drawing`s for the window and image export alike.

use super::*;
use crate::render::Drawing;

/// The best point by `metric` (lowest TTS99, else highest valid fraction; the first of equals)
/// among points with a valid read and not flagged "penalty too weak"; `None` when no point
/// qualifies.
pub fn best_point(points: &[SweepPoint], metric: Metric) -> Option<usize> {
    // A point whose weights let an invalid state win is never best, whatever its figures
    // (its valid reads were luck), and neither is one that never gave a valid read.
    let score = |p: &SweepPoint| -> Option<f64> {
        if p.penalty_too_weak || p.success_fraction == 0.0 {
            return None;
        }
        match metric {
            Metric::Tts99 | Metric::Tts99Sweeps => metric.of(p).map(|t| -t),
            Metric::Valid | Metric::Weak => Some(p.success_fraction),
            Metric::Objective => p
                .best_feasible_objective
                .map(|o| if p.maximize { o } else { -o }),
        }
    };
    let mut best: Option<(usize, f64)> = None;
    for (k, p) in points.iter().enumerate() {
        if let Some(s) = score(p)
            && best.is_none_or(|(_, b)| s > b)
        {
            best = Some((k, s));
        }
    }
    best.map(|(k, _)| k)
}

/// A parameter's value in a CSV cell: a word as it is, a pair quoted (it holds a comma).
fn csv_value(v: &serde_json::Value) -> String {
    let text = match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    if text.contains([',', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// The points as CSV: the sampler parameters a parameter axis set, the weights, then every
/// metric (empty where unknown), broken groups per read as `broken:NAME` columns.
pub fn to_csv(points: &[SweepPoint]) -> String {
    let params: Vec<&String> = points
        .first()
        .map_or(Vec::new(), |p| p.params.keys().collect());
    let weights: Vec<&String> = points
        .first()
        .map_or(Vec::new(), |p| p.weights.keys().collect());
    let groups: Vec<&String> = points
        .first()
        .map_or(Vec::new(), |p| p.broken_per_read.keys().collect());
    let mut out = String::new();
    let mut header: Vec<String> = params
        .iter()
        .chain(&weights)
        .map(|w| w.to_string())
        .collect();
    header.extend(
        [
            "reads",
            "valid_fraction",
            "valid_ci95_low",
            "valid_ci95_high",
            "ground_fraction",
            "tts99_s",
            "tts99_ci95_low",
            "tts99_ci95_high",
            "tts99_sweeps",
            "mean_energy",
            "min_energy",
            "valid_energy",
            "best_feasible_objective",
            "penalty_too_weak",
            "sample_s",
            "runs",
            "stop",
        ]
        .map(String::from),
    );
    header.extend(groups.iter().map(|g| format!("broken:{g}")));
    out.push_str(&header.join(","));
    out.push('\n');
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for p in points {
        let mut row: Vec<String> = params
            .iter()
            .map(|name| p.params.get(*name).map_or(String::new(), csv_value))
            .collect();
        row.extend(weights.iter().map(|w| opt(p.weights.get(*w).copied())));
        row.extend([
            p.reads.to_string(),
            p.success_fraction.to_string(),
            p.success_ci95[0].to_string(),
            p.success_ci95[1].to_string(),
            opt(p.ground_fraction),
            opt(p.tts99_s),
            opt(p.tts99_ci95[0]),
            opt(p.tts99_ci95[1]),
            opt(p.tts99_sweeps),
            p.mean_energy.to_string(),
            p.min_energy.to_string(),
            opt(p.valid_energy),
            opt(p.best_feasible_objective),
            p.penalty_too_weak.to_string(),
            p.sample_s.to_string(),
            p.runs.to_string(),
            p.stop.name().to_string(),
        ]);
        row.extend(
            groups
                .iter()
                .map(|g| opt(p.broken_per_read.get(*g).copied())),
        );
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

/// A sweep's main chart, kept (not only drawn) so the GUI can tell what a click hit.
pub enum SweepChart {
    /// One weight: fractions or TTS99 against it.
    Line(crate::render::chart::LineChart),
    /// One weight of a model with an objective: the best feasible objective above the
    /// feasible share, both against the weight on the same x axis — the trade-off a penalty
    /// weight buys (clicks read the upper chart's axis).
    Tradeoff(
        crate::render::chart::LineChart,
        crate::render::chart::LineChart,
    ),
    /// Two weights: a heatmap of the metric.
    Heat(crate::render::chart::Heatmap),
}

impl SweepChart {
    /// The chart with `marks` on its weight axis (`LineChart::marks`; a heatmap takes none).
    pub fn with_marks(mut self, marks: &[(f64, String)]) -> Self {
        match &mut self {
            SweepChart::Line(c) => c.marks = marks.to_vec(),
            SweepChart::Tradeoff(objective, share) => {
                objective.marks = marks.to_vec();
                share.marks = marks.to_vec();
            }
            SweepChart::Heat(_) => {}
        }
        self
    }

    /// The chart as a drawing.
    pub fn drawing(&self) -> Drawing {
        match self {
            SweepChart::Line(c) => c.drawing(),
            SweepChart::Tradeoff(objective, share) => objective.drawing().stacked(share.drawing()),
            SweepChart::Heat(c) => c.drawing(),
        }
    }
}

/// The sweep's main plot (`chart` with `marks`, drawn).
pub fn plot(
    points: &[SweepPoint],
    weight: &str,
    weight2: Option<&str>,
    metric: Metric,
    description: &str,
    marks: &[(f64, String)],
) -> Drawing {
    (chart(points, weight, weight2, metric, description).with_marks(marks)).drawing()
}

/// The sweep's main chart: for one weight, the valid fraction with its 95 % band, the ground
/// fraction and the "penalty too weak" flags (or TTS99, with `Metric::Tts99`); for two, a
/// heatmap of `metric` with the flagged cells outlined.
pub fn chart(
    points: &[SweepPoint],
    weight: &str,
    weight2: Option<&str>,
    metric: Metric,
    description: &str,
) -> SweepChart {
    use crate::render::chart::{LineChart, Series, colors};
    let flag_name = "penalty too weak".to_string();
    if let Some(w2) = weight2 {
        return grid_chart(points, [weight, w2], metric, description);
    }
    let weak: Vec<&SweepPoint> = points.iter().filter(|p| p.penalty_too_weak).collect();
    let look = AxisLook::of(&points.iter().collect::<Vec<_>>(), weight);
    if metric == Metric::Objective {
        let SweepChart::Line(share) = chart(points, weight, None, Metric::Valid, description)
        else {
            unreachable!("one weight draws a line");
        };
        let share = LineChart {
            title: format!("Feasible reads against {weight}"),
            ..share
        };
        let direction = if points.iter().any(|p| p.maximize) {
            "higher is better"
        } else {
            "lower is better"
        };
        let objective = LineChart {
            x_log: share.x_log,
            x_words: share.x_words.clone(),
            marks: Vec::new(),
            y_log: false,
            title: format!("Best feasible objective against {weight}"),
            x_label: weight.to_string(),
            y_label: format!("objective ({direction})"),
            series: vec![Series {
                name: "best feasible objective".into(),
                color: colors::TTS,
                points: points
                    .iter()
                    .filter_map(|p| Some([p.value, p.best_feasible_objective?]))
                    .collect(),
                ..Series::default()
            }],
            flags: weak
                .iter()
                .filter_map(|p| Some([p.value, p.best_feasible_objective?]))
                .collect(),
            flag_name,
            y_range: None,
            note: "a weight too small lets infeasible reads win (flagged); too large, the \
                   objective is lost while feasibility holds: the best weight is between"
                .into(),
        };
        return SweepChart::Tradeoff(objective, share);
    }
    if metric.lower_is_better() {
        // Without a valid read anywhere there is no TTS99 to draw: the chart says so
        // rather than showing an empty frame.
        let none_valid = points.iter().all(|p| metric.of(p).is_none());
        let unit = if metric == Metric::Tts99 {
            "s"
        } else {
            "sweeps"
        };
        let ys: Vec<f64> = points.iter().filter_map(|p| metric.of(p)).collect();
        let (lo, hi) = ys.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), &y| {
            (lo.min(y), hi.max(y))
        });
        return SweepChart::Line(LineChart {
            x_log: look.log,
            x_words: look.words,
            marks: Vec::new(),
            // Times to solution spanning decades read on a log axis.
            y_log: lo > 0.0 && hi / lo >= 20.0,
            title: format!("TTS99 against {weight} — {description}"),
            x_label: weight.to_string(),
            y_label: format!("TTS99 ({unit})"),
            series: vec![Series {
                name: "TTS99 (95 % interval; no point: no valid read)".into(),
                color: colors::TTS,
                points: points
                    .iter()
                    .filter_map(|p| Some([p.value, metric.of(p)?]))
                    .collect(),
                band: points
                    .iter()
                    .filter_map(|p| match metric.interval(p)? {
                        [Some(lo), Some(hi)] => Some([p.value, lo, hi]),
                        _ => None,
                    })
                    .collect(),
                band_color: Some(colors::TTS_BAND),
                unjoined: false,
            }],
            flags: weak
                .iter()
                .filter_map(|p| Some([p.value, metric.of(p)?]))
                .collect(),
            flag_name,
            y_range: None,
            note: if points.is_empty() || !none_valid {
                String::new()
            } else {
                "no point had a valid read, so TTS99 is undefined everywhere: the valid \
                 plot shows how far each point got"
                    .to_string()
            },
        });
    }
    let mut series = vec![Series {
        name: "valid (95 % interval)".into(),
        color: colors::VALID,
        points: points
            .iter()
            .map(|p| [p.value, p.success_fraction])
            .collect(),
        band: points
            .iter()
            .map(|p| [p.value, p.success_ci95[0], p.success_ci95[1]])
            .collect(),
        band_color: Some(colors::VALID_BAND),
        unjoined: false,
    }];
    if points.iter().any(|p| p.ground_fraction.is_some()) {
        series.push(Series {
            name: "at ground energy".into(),
            color: colors::GROUND,
            points: points
                .iter()
                .filter_map(|p| Some([p.value, p.ground_fraction?]))
                .collect(),
            ..Series::default()
        });
    }
    SweepChart::Line(LineChart {
        x_log: look.log,
        x_words: look.words,
        marks: Vec::new(),
        y_log: false,
        title: format!("Valid reads against {weight} — {description}"),
        x_label: weight.to_string(),
        y_label: "share of reads".into(),
        series,
        flags: weak.iter().map(|p| [p.value, p.success_fraction]).collect(),
        flag_name,
        y_range: Some([0.0, share_axis_top(points)]),
        note: {
            let mut note =
                "flagged: an invalid read at or below a valid solution's energy.".to_string();
            // Said of weights only: a sampler parameter is no penalty.
            if points
                .first()
                .is_none_or(|p| !p.params.contains_key(weight))
            {
                note.push_str(
                    " Valid falling with nothing flagged: a penalty so strong the sampler freezes.",
                );
            }
            let unsettled = points
                .iter()
                .filter(|p| matches!(p.stop, StopReason::Budget | StopReason::Runs))
                .count();
            if unsettled > 0 {
                note.push_str(&format!(
                    " {unsettled} point(s) stopped before settling (budget or runs): their \
                     bands are wide."
                ));
            }
            let slower = points
                .iter()
                .filter(|p| p.stop == StopReason::Slower)
                .count();
            if slower > 0 {
                note.push_str(&format!(
                    " {slower} point(s) stopped once surely slower than the best: their \
                     values are rough."
                ));
            }
            note
        },
    })
}

/// A two-weight sweep as a heatmap of `metric`: one cell per (value, value2), flagged cells
/// too weak, unsettled ones marked.
fn grid_chart(
    points: &[SweepPoint],
    [weight, w2]: [&str; 2],
    metric: Metric,
    description: &str,
) -> SweepChart {
    use crate::render::chart::Heatmap;
    let flag_name = "penalty too weak".to_string();
    let mut xs: Vec<f64> = points.iter().map(|p| p.value).collect();
    let mut ys: Vec<f64> = points.iter().filter_map(|p| p.value2).collect();
    for v in [&mut xs, &mut ys] {
        v.sort_by(f64::total_cmp);
        v.dedup();
    }
    let mut cells = vec![None; xs.len() * ys.len()];
    let mut flagged = vec![false; cells.len()];
    let mut unsettled = vec![false; cells.len()];
    for p in points {
        let col = xs.iter().position(|&x| x == p.value);
        let row = p.value2.and_then(|v| ys.iter().position(|&y| y == v));
        if let (Some(col), Some(row)) = (col, row) {
            cells[row * xs.len() + col] = metric.of(p);
            flagged[row * xs.len() + col] = p.penalty_too_weak;
            unsettled[row * xs.len() + col] = p.stop != StopReason::Settled;
        }
    }
    SweepChart::Heat(Heatmap {
        title: format!("{}: {weight} × {w2} — {description}", metric.title()),
        x_label: weight.to_string(),
        y_label: w2.to_string(),
        xs,
        ys,
        cells,
        flagged,
        flag_name,
        unsettled,
        low_is_good: metric.lower_is_better(),
        log_scale: metric.lower_is_better(),
        value_label: match metric {
            Metric::Tts99 => "TTS99 (s)".into(),
            Metric::Tts99Sweeps => "TTS99 (sweeps)".into(),
            m => m.name().into(),
        },
        words: [
            AxisLook::words_of(points, weight, |p| Some(p.value)),
            AxisLook::words_of(points, w2, |p| p.value2),
        ],
    })
}

/// The top of a share axis fitted to the points (intervals included): 1 when anything reaches
/// half, else the first of 0.01, 0.02, 0.05, 0.1, 0.2, 0.5 above the highest value, so shares
/// of a few per cent are not a flat line at the bottom of a 0–1 axis.
fn share_axis_top(points: &[SweepPoint]) -> f64 {
    let top = points
        .iter()
        .flat_map(|p| {
            [
                p.success_fraction,
                p.success_ci95[1],
                p.ground_fraction.unwrap_or(0.0),
            ]
        })
        .filter(|v| v.is_finite())
        .fold(0.0, f64::max);
    [0.01, 0.02, 0.05, 0.1, 0.2, 0.5]
        .into_iter()
        .find(|&t| top * 1.1 <= t)
        .unwrap_or(1.0)
}

/// How a one-axis sweep's x axis reads, from its points: a word parameter's values by name,
/// geometrically spaced values (a log sweep over sweep counts) on a log axis.
pub struct AxisLook {
    /// A log axis.
    pub log: bool,
    /// Category names by value (empty: numbers).
    pub words: Vec<String>,
}

impl AxisLook {
    /// The words of a category axis by value (the category's index), read from the points'
    /// parameters; `value` picks which of a point's values is this axis's. Empty for numbers.
    pub fn words_of<'p>(
        points: impl IntoIterator<Item = &'p SweepPoint>,
        axis: &str,
        value: impl Fn(&SweepPoint) -> Option<f64>,
    ) -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        for p in points {
            let word = match p.params.get(axis) {
                Some(serde_json::Value::String(w)) => w.clone(),
                Some(serde_json::Value::Bool(b)) => b.to_string(),
                _ => return Vec::new(),
            };
            let Some(k) = value(p).filter(|v| *v >= 0.0 && v.fract() == 0.0) else {
                return Vec::new();
            };
            let k = k as usize;
            if words.len() <= k {
                words.resize(k + 1, String::new());
            }
            words[k] = word;
        }
        words
    }

    /// The look of `axis` from the points' values.
    pub fn of(points: &[&SweepPoint], axis: &str) -> AxisLook {
        let word = |p: &SweepPoint| match p.params.get(axis)? {
            serde_json::Value::String(w) => Some(w.clone()),
            serde_json::Value::Bool(b) => Some(b.to_string()),
            _ => None,
        };
        if !points.is_empty() && points.iter().all(|p| word(p).is_some()) {
            let words = Self::words_of(points.iter().copied(), axis, |p| Some(p.value));
            return AxisLook { log: false, words };
        }
        let mut xs: Vec<f64> = points.iter().map(|p| p.value).collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        let ratios: Vec<f64> = xs.windows(2).map(|w| w[1] / w[0]).collect();
        // Constant ratios of 1.5 or more (within 15 %, as rounding to whole sweeps leaves
        // them) over positive values: log steps.
        let log = xs.len() >= 3
            && xs[0] > 0.0
            && ratios.iter().all(|&r| r >= 1.5)
            && ratios.iter().all(|&r| (r / ratios[0] - 1.0).abs() <= 0.15);
        AxisLook {
            log,
            words: Vec::new(),
        }
    }
}

/// A suggestion's search as a chart: TTS99 of every point `tried` (with whether the search
/// moved there), in order, and the best so far (the path the search took), with flagged points
/// marked; `stopped` says why it ended (or that it goes on).
pub fn plot_suggestion(tried: &[(SweepPoint, bool)], stopped: &str, description: &str) -> Drawing {
    use crate::render::chart::{LineChart, Series, colors};
    let mut best = f64::INFINITY;
    let mut so_far = Vec::new();
    for (k, (p, moved)) in tried.iter().enumerate() {
        if let (true, Some(t)) = (*moved, p.tts99_s) {
            best = best.min(t);
        }
        if best.is_finite() {
            so_far.push([k as f64, best]);
        }
    }
    LineChart {
        x_log: false,
        x_words: Vec::new(),
        marks: Vec::new(),
        y_log: false,
        title: format!("Suggesting weights: TTS99 of each point tried — {description}"),
        x_label: "point tried".into(),
        y_label: "TTS99 (s)".into(),
        series: vec![
            Series {
                name: "best so far".into(),
                color: colors::VALID,
                points: so_far,
                ..Series::default()
            },
            Series {
                name: "tried".into(),
                color: colors::OTHER,
                points: tried
                    .iter()
                    .enumerate()
                    .filter_map(|(k, (p, _))| Some([k as f64, p.tts99_s?]))
                    .collect(),
                ..Series::default()
            },
        ],
        flags: tried
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| p.penalty_too_weak)
            .filter_map(|(k, (p, _))| Some([k as f64, p.tts99_s?]))
            .collect(),
        flag_name: "penalty too weak".into(),
        y_range: None,
        note: format!("stopped: {stopped}"),
    }
    .drawing()
}

/// Mean broken constraint groups per read at each value of a one-weight sweep, stacked by
/// the weight that scales them: which rules give way as the weight moves.
pub fn plot_broken(points: &[SweepPoint], weight: &str, description: &str) -> Drawing {
    use crate::render::chart::BarChart;
    let names: Vec<String> = points
        .iter()
        .flat_map(|p| p.broken_per_read.keys().cloned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let step = points
        .windows(2)
        .map(|w| (w[1].value - w[0].value).abs())
        .filter(|d| *d > 0.0)
        .fold(f64::INFINITY, f64::min);
    let width = if step.is_finite() { 0.7 * step } else { 0.5 };
    BarChart {
        title: format!("Broken constraints per read against {weight} — {description}"),
        x_label: weight.to_string(),
        y_label: "broken groups per read".into(),
        bars: points
            .iter()
            .map(|p| {
                let parts = names
                    .iter()
                    .map(|n| p.broken_per_read.get(n).copied().unwrap_or(0.0))
                    .collect();
                (p.value, width, parts)
            })
            .collect(),
        parts: names
            .iter()
            .enumerate()
            .map(|(k, n)| (n.clone(), crate::render::palette::tile(k as u8 + 1)))
            .collect(),
    }
    .drawing()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::chart::LineChart;

    fn point(value: f64, valid: f64, ci_top: f64, tts99_s: Option<f64>) -> SweepPoint {
        SweepPoint {
            weights: Default::default(),
            value,
            value2: None,
            params: Default::default(),
            reads: 100,
            success_fraction: valid,
            success_ci95: [0.0, ci_top],
            trials: None,
            ground_fraction: None,
            tts99_s,
            tts99_ci95: [None; 2],
            tts99_sweeps: None,
            mean_energy: 0.0,
            min_energy: 0.0,
            valid_energy: None,
            best_feasible_objective: None,
            maximize: false,
            broken_per_read: Default::default(),
            penalty_too_weak: false,
            witness: None,
            sample_s: 1.0,
            runs: 1,
            stop: crate::sweep::StopReason::Settled,
            threads: 1,
        }
    }

    fn line(chart: SweepChart) -> LineChart {
        match chart {
            SweepChart::Line(c) => c,
            _ => panic!("a line chart"),
        }
    }

    #[test]
    fn the_trade_off_puts_the_objective_over_the_feasible_share() {
        // A knapsack (maximised): weak weights win infeasibly, strong ones lose the objective.
        let mut points: Vec<SweepPoint> =
            [(1.0, 0.3, 140.0), (10.0, 0.9, 132.0), (100.0, 1.0, 118.0)]
                .into_iter()
                .map(|(w, share, objective)| SweepPoint {
                    best_feasible_objective: Some(objective),
                    maximize: true,
                    ..point(w, share, share, Some(1.0))
                })
                .collect();
        points[0].penalty_too_weak = true;
        let SweepChart::Tradeoff(objective, share) =
            chart(&points, "capacity", None, Metric::Objective, "")
        else {
            panic!("a trade-off chart");
        };
        assert_eq!(
            objective.series[0].points,
            vec![[1.0, 140.0], [10.0, 132.0], [100.0, 118.0]]
        );
        assert_eq!(objective.flags, vec![[1.0, 140.0]]);
        assert!(objective.y_label.contains("higher is better"));
        assert_eq!(share.series[0].points[2], [100.0, 1.0]);
        // The best by objective is the best feasible objective among points not too weak.
        assert_eq!(best_point(&points, Metric::Objective), Some(1));
        let d = chart(&points, "capacity", None, Metric::Objective, "").drawing();
        assert!(
            d.height > objective.drawing().height * 1.9,
            "two charts stacked"
        );
    }

    #[test]
    fn the_share_axis_fits_small_shares_and_an_empty_tts99_says_why() {
        // Shares of a few per cent get an axis of a few per cent, not a flat line on 0–1.
        let small = [
            point(1.0, 0.01, 0.03, Some(5.0)),
            point(2.0, 0.04, 0.07, Some(2.0)),
        ];
        let c = line(chart(&small, "hint", None, Metric::Valid, ""));
        assert_eq!(c.y_range, Some([0.0, 0.1]));
        let big = [point(1.0, 0.2, 0.6, Some(1.0))];
        let c = line(chart(&big, "hint", None, Metric::Valid, ""));
        assert_eq!(c.y_range, Some([0.0, 1.0]));
        // No valid read anywhere: TTS99 has nothing to draw, and the chart says so.
        let none = [point(1.0, 0.0, 0.03, None), point(2.0, 0.0, 0.03, None)];
        let c = line(chart(&none, "hint", None, Metric::Tts99, ""));
        assert!(c.note.contains("no point had a valid read"), "{}", c.note);
        let some = [point(1.0, 0.5, 0.6, Some(1.0))];
        let c = line(chart(&some, "hint", None, Metric::Tts99, ""));
        assert!(c.note.is_empty());
    }

    #[test]
    fn a_heatmap_legend_names_its_empty_cells() {
        let mut a = point(1.0, 0.0, 0.0, None);
        a.value2 = Some(1.0);
        let mut b = point(2.0, 0.5, 0.6, Some(1.0));
        b.value2 = Some(1.0);
        b.penalty_too_weak = true;
        let d = chart(&[a, b], "hint", Some("cell"), Metric::Tts99, "").drawing();
        let texts: Vec<&str> = d.texts().collect();
        assert!(
            texts.contains(&"— never solved (no valid read)"),
            "{texts:?}"
        );
        assert!(texts.contains(&"penalty too weak"), "{texts:?}");
    }

    #[test]
    fn marks_inside_the_swept_range_are_drawn_with_their_relation() {
        let pts = [point(0.0, 0.0, 0.0, None), point(10.0, 1.0, 1.0, Some(1.0))];
        let marks = [(4.0, "inside".to_string()), (12.0, "outside".to_string())];
        let d = chart(&pts, "hint", None, Metric::Valid, "")
            .with_marks(&marks)
            .drawing();
        let texts: Vec<&str> = d.texts().collect();
        assert!(texts.contains(&"inside"), "{texts:?}");
        assert!(!texts.contains(&"outside"), "{texts:?}");
        // A grid has no weight axis to mark.
        let mut a = point(1.0, 0.0, 0.0, None);
        a.value2 = Some(1.0);
        let grid = chart(&[a], "hint", Some("cell"), Metric::Valid, "").with_marks(&marks);
        assert!(!grid.drawing().texts().any(|t| t == "inside"));
    }
}
