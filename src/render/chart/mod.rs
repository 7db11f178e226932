//! Charts as `Drawing`s — line charts with confidence bands, stacked bar charts and heatmaps —
//! with a title, axes with "nice" ticks and labels, and a legend, so the same plot is shown in
//! the GUI and written as PNG or SVG for a paper. Charts know nothing of puzzles or sweeps.
//!
//! Invariant: data outside the axes' ranges is clamped to the plot area, never drawn over the
//! labels; NaN and infinite values are skipped.

use super::drawing::{Color, Drawing, Shape, Stroke};

mod bars;
mod heatmap;
mod line;

pub use bars::*;
pub use heatmap::*;
pub use line::*;

/// Canvas size of every chart, in units (PNG export scales it).
const WIDTH: f32 = 720.0;
const HEIGHT: f32 = 460.0;
/// The plot area's margins.
const LEFT: f32 = 78.0;
const RIGHT: f32 = 24.0;
const TOP: f32 = 64.0;
const BOTTOM: f32 = 70.0;
/// Text sizes.
/// The title's em size; no other text is this size (`untitled` finds the title by it).
const TITLE_SIZE: f32 = 16.0;
/// Pixels per point at the default export size: 1440 × 920 px.
pub const CHART_PX_PER_UNIT: f32 = 2.0;
const LABEL_SIZE: f32 = 13.0;
const TICK_SIZE: f32 = 11.0;

const INK: Color = Color::rgb(30, 30, 30);
const GRID: Color = Color::rgb(225, 225, 225);
const MUTED: Color = Color::rgb(110, 110, 110);

/// Chart colours, kept together so the GUI's legends match the files.
pub mod colors {
    use super::Color;
    /// Valid reads, valid fractions.
    pub const VALID: Color = Color::rgb(0, 140, 70);
    /// The confidence band around the valid fraction.
    pub const VALID_BAND: Color = Color::rgb(190, 230, 205);
    /// Reads at the ground energy.
    pub const GROUND: Color = Color::rgb(40, 90, 200);
    /// Other reads.
    pub const OTHER: Color = Color::rgb(150, 150, 160);
    /// "Penalty too weak" markers.
    pub const WEAK: Color = Color::rgb(210, 30, 30);
    /// TTS99 lines.
    pub const TTS: Color = Color::rgb(140, 60, 160);
    /// The confidence band around TTS99.
    pub const TTS_BAND: Color = Color::rgb(225, 205, 232);

    /// Series k's colour when several runs share a chart (Tableau's ten, then again).
    pub fn series(k: usize) -> Color {
        const TEN: [Color; 10] = [
            Color::rgb(31, 119, 180),
            Color::rgb(255, 127, 14),
            Color::rgb(44, 160, 44),
            Color::rgb(214, 39, 40),
            Color::rgb(148, 103, 189),
            Color::rgb(140, 86, 75),
            Color::rgb(227, 119, 194),
            Color::rgb(127, 127, 127),
            Color::rgb(188, 189, 34),
            Color::rgb(23, 190, 207),
        ];
        TEN[k % TEN.len()]
    }

    /// `c` mixed with white, `t` of the way (0: `c`, 1: white).
    pub fn lighter(c: Color, t: f32) -> Color {
        let mix = |v: u8| (f32::from(v) + (255.0 - f32::from(v)) * t).round() as u8;
        Color::rgb(mix(c.r), mix(c.g), mix(c.b))
    }
}

/// Where the plot area is and how data maps onto it.
#[derive(Default)]
struct Frame {
    /// The x range shown (in log10 units on a log axis).
    x: [f64; 2],
    /// The y range shown (likewise).
    y: [f64; 2],
    /// Log axes: data map through log10 (positive values only).
    x_log: bool,
    y_log: bool,
}

impl Frame {
    const X0: f32 = LEFT;
    const X1: f32 = WIDTH - RIGHT;
    const Y0: f32 = HEIGHT - BOTTOM;
    const Y1: f32 = TOP;

    fn px(&self, x: f64) -> f32 {
        let x = if self.x_log { x.log10() } else { x };
        let t = ((x - self.x[0]) / (self.x[1] - self.x[0])).clamp(0.0, 1.0) as f32;
        Self::X0 + t * (Self::X1 - Self::X0)
    }

    fn py(&self, y: f64) -> f32 {
        let y = if self.y_log { y.log10() } else { y };
        let t = ((y - self.y[0]) / (self.y[1] - self.y[0])).clamp(0.0, 1.0) as f32;
        Self::Y0 + t * (Self::Y1 - Self::Y0)
    }

    /// The x value (in data units) at a horizontal place of the plot area.
    fn x_value(&self, px: f32) -> f64 {
        let v = self.x[0]
            + (px - Self::X0) as f64 / (Self::X1 - Self::X0) as f64 * (self.x[1] - self.x[0]);
        if self.x_log { 10f64.powf(v) } else { v }
    }

    /// Tick values (in data units) on one axis: round steps, or on a log axis the powers of
    /// ten (with 2 and 5 between them when the range spans fewer than three decades).
    fn ticks(range: [f64; 2], log: bool, target: usize) -> Vec<f64> {
        if !log {
            return nice_ticks(range[0], range[1], target);
        }
        let (lo, hi) = (range[0].floor() as i32, range[1].ceil() as i32);
        let fine = range[1] - range[0] < 3.0;
        let mut ticks = Vec::new();
        for k in lo..=hi.min(lo + 40) {
            for m in if fine {
                &[1.0, 2.0, 5.0][..]
            } else {
                &[1.0][..]
            } {
                let v = m * 10f64.powi(k);
                if (range[0]..=range[1]).contains(&v.log10()) {
                    ticks.push(v);
                }
            }
        }
        ticks
    }
}

/// About `target` round tick values covering [lo, hi] (steps of 1, 2 or 5 × 10^k).
pub fn nice_ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return if lo.is_finite() { vec![lo] } else { Vec::new() };
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// A tick value with as many decimals as the step between ticks needs.
pub fn tick_text(v: f64, ticks: &[f64]) -> String {
    let step = ticks
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(f64::INFINITY, f64::min);
    let decimals = if step.is_finite() && step > 0.0 {
        (-step.log10().floor()).max(0.0) as usize
    } else {
        2
    };
    let text = format!("{v:.decimals$}");
    if text.starts_with('-') && text.trim_start_matches(['-', '0', '.']).is_empty() {
        text[1..].to_string() // "-0.0" reads as 0
    } else {
        text
    }
}

/// The range of finite `values`, padded by 5 % (a single value gets ±1).
fn padded_range(values: impl Iterator<Item = f64>) -> [f64; 2] {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return [0.0, 1.0];
    }
    if hi - lo < 1e-12 * (1.0 + lo.abs()) {
        return [lo - 1.0, hi + 1.0];
    }
    let pad = 0.05 * (hi - lo);
    [lo - pad, hi + pad]
}

/// An empty chart canvas at the charts' default export scale.
fn chart_drawing() -> Drawing {
    Drawing {
        base_px_per_unit: CHART_PX_PER_UNIT,
        ..Drawing::new(WIDTH, HEIGHT)
    }
}

/// A chart without its title line (for a figure whose caption goes in the paper).
pub fn untitled(mut chart: Drawing) -> Drawing {
    chart
        .shapes
        .retain(|s| !matches!(s, Shape::Text { size, .. } if *size == TITLE_SIZE));
    chart
}

fn text(d: &mut Drawing, center: [f32; 2], size: f32, text: impl Into<String>, color: Color) {
    d.push(Shape::Text {
        center,
        size,
        text: text.into(),
        color,
        bold: false,
    });
}

fn line(d: &mut Drawing, from: [f32; 2], to: [f32; 2], width: f32, color: Color) {
    d.push(Shape::Line {
        from,
        to,
        stroke: Stroke { width, color },
    });
}

/// Title, axes with ticks, grid lines and axis labels.
/// The axes with their ticks, grid, labels and the title. `x_words`: category names, one
/// tick each at x = 0, 1, 2… (a sweep over a word parameter), instead of numbers.
fn axes(
    d: &mut Drawing,
    f: &Frame,
    title: &str,
    [x_label, y_label]: [&str; 2],
    x_words: &[String],
) {
    text(d, [WIDTH / 2.0, 22.0], TITLE_SIZE, title, INK);
    let x_ticks: Vec<(f64, String)> = if x_words.is_empty() {
        let ticks = Frame::ticks(f.x, f.x_log, 8);
        ticks
            .iter()
            .map(|&t| (t, axis_tick_text(t, &ticks, f.x_log)))
            .collect()
    } else {
        x_words
            .iter()
            .enumerate()
            .map(|(k, w)| (k as f64, w.clone()))
            .collect()
    };
    let y_ticks = Frame::ticks(f.y, f.y_log, 6);
    for &t in &y_ticks {
        let y = f.py(t);
        line(d, [Frame::X0, y], [Frame::X1, y], 0.8, GRID);
        line(d, [Frame::X0 - 5.0, y], [Frame::X0, y], 1.0, INK);
        text(
            d,
            [Frame::X0 - 30.0, y],
            TICK_SIZE,
            axis_tick_text(t, &y_ticks, f.y_log),
            INK,
        );
    }
    for (t, label) in x_ticks.into_iter().filter(|(_, l)| !l.is_empty()) {
        let x = f.px(t);
        line(d, [x, Frame::Y0], [x, Frame::Y1], 0.8, GRID);
        line(d, [x, Frame::Y0], [x, Frame::Y0 + 5.0], 1.0, INK);
        text(d, [x, Frame::Y0 + 16.0], TICK_SIZE, label, INK);
    }
    line(d, [Frame::X0, Frame::Y0], [Frame::X1, Frame::Y0], 1.2, INK);
    line(d, [Frame::X0, Frame::Y0], [Frame::X0, Frame::Y1], 1.2, INK);
    text(
        d,
        [(Frame::X0 + Frame::X1) / 2.0, Frame::Y0 + 38.0],
        LABEL_SIZE,
        x_label,
        INK,
    );
    text(d, [Frame::X0, TOP - 14.0], LABEL_SIZE, y_label, INK);
}

/// A tick's text: on a log axis the value itself (1, 20, 500, 1e+05), else with the decimals
/// the ticks' step needs.
fn axis_tick_text(v: f64, ticks: &[f64], log: bool) -> String {
    if !log {
        return tick_text(v, ticks);
    }
    if (1e-3..1e5).contains(&v) {
        let text = format!("{v:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.0e}")
    }
}

/// Legend entries in a row under the title, right-aligned: (name, colour, is a flag).
fn legend(d: &mut Drawing, entries: &[(String, Color, bool)], right: f32) {
    let mut x = right;
    for (name, color, flag) in entries.iter().rev() {
        let w = super::image::text_width(name, TICK_SIZE, false);
        x -= w;
        text(d, [x + w / 2.0, TOP - 14.0], TICK_SIZE, name.clone(), INK);
        let cx = x - 12.0;
        if *flag {
            triangle(d, [cx, TOP - 14.0], *color);
        } else {
            d.push(Shape::Rect {
                min: [cx - 7.0, TOP - 18.0],
                max: [cx + 7.0, TOP - 10.0],
                fill: Some(*color),
                stroke: None,
            });
        }
        x -= 34.0;
    }
}

fn triangle(d: &mut Drawing, [x, y]: [f32; 2], color: Color) {
    d.push(Shape::Polygon {
        points: vec![[x, y - 6.0], [x + 6.0, y + 5.0], [x - 6.0, y + 5.0]],
        fill: Some(color),
        stroke: None,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            nice_ticks(0.0, 1.0, 5),
            vec![0.0, 0.2, 0.4, 0.6000000000000001, 0.8, 1.0]
        );
        let t = nice_ticks(-3.7, 12.2, 6);
        assert!(t.first().unwrap() >= &-3.7 && t.last().unwrap() <= &12.2);
        assert!(t.len() >= 3 && t.len() <= 10, "{t:?}");
        assert_eq!(tick_text(0.6000000000000001, &[0.4, 0.6]), "0.6");
        assert_eq!(tick_text(-0.0, &[0.0, 1.0]), "0");
        assert_eq!(nice_ticks(f64::NAN, 1.0, 5), Vec::<f64>::new());
    }

    /// A log x axis ticks the decades (with 2 and 5 between when few) and places 10 halfway
    /// between 1 and 100; word ticks name categories; a long note wraps onto a second line.
    #[test]
    fn log_axes_and_word_ticks() {
        let points = vec![[1.0, 5.0], [10.0, 50.0], [100.0, 500.0]];
        let chart = LineChart {
            series: vec![Series {
                points: points.clone(),
                ..Series::default()
            }],
            x_log: true,
            y_log: true,
            note: "word ".repeat(40),
            ..LineChart::default()
        };
        let f = chart.frame();
        let mid = (f.px(1.0) + f.px(100.0)) / 2.0;
        assert!((f.px(10.0) - mid).abs() < 1e-3);
        assert!((f.x_value(f.px(10.0)) - 10.0).abs() < 1e-6);
        let texts: Vec<String> = chart.drawing().texts().map(str::to_string).collect();
        for t in ["1", "2", "5", "10", "20", "50", "100", "500"] {
            assert!(texts.contains(&t.to_string()), "{t} missing from {texts:?}");
        }
        assert_eq!(texts.iter().filter(|t| t.starts_with("word")).count(), 2);
        let words = LineChart {
            series: vec![Series {
                points: vec![[0.0, 20.0], [2.0, 40.0]],
                ..Series::default()
            }],
            x_words: vec!["flip".into(), String::new(), "two-way".into()],
            ..LineChart::default()
        };
        let texts: Vec<String> = words.drawing().texts().map(str::to_string).collect();
        assert!(texts.contains(&"flip".to_string()) && texts.contains(&"two-way".to_string()));
        // No numbers on the x axis (the y axis's ticks are 20 and up).
        assert!(!texts.contains(&"1".to_string()), "{texts:?}");
    }

    #[test]
    fn charts_carry_their_titles_labels_and_legends() {
        let chart = LineChart {
            title: "valid fraction against hint".into(),
            x_label: "hint".into(),
            y_label: "share of reads".into(),
            series: vec![Series {
                name: "valid".into(),
                color: colors::VALID,
                points: vec![[0.0, 0.1], [1.0, 0.5], [2.0, f64::NAN]],
                band: vec![[0.0, 0.05, 0.2], [1.0, 0.4, 0.6]],
                band_color: Some(colors::VALID_BAND),
                unjoined: false,
            }],
            flags: vec![[0.0, 0.1]],
            flag_name: "penalty too weak".into(),
            y_range: Some([0.0, 1.0]),
            note: "a note".into(),
            ..LineChart::default()
        };
        let d = chart.drawing();
        let texts: Vec<&str> = d.texts().collect();
        for t in [
            "valid fraction against hint",
            "hint",
            "share of reads",
            "valid",
            "penalty too weak",
            "0.5",
            "a note",
        ] {
            assert!(texts.contains(&t), "{t} missing from {texts:?}");
        }
        let map = Heatmap {
            title: "TTS99".into(),
            x_label: "hint".into(),
            y_label: "cell".into(),
            xs: vec![1.0, 2.0],
            ys: vec![0.5, 1.0, 1.5],
            cells: vec![Some(0.1), None, Some(10.0), Some(1.0), Some(2.0), Some(3.0)],
            flagged: vec![false, true, false, false, false, false],
            flag_name: "penalty too weak".into(),
            unsettled: vec![false, false, true, false, false, false],
            low_is_good: true,
            log_scale: true,
            value_label: "s".into(),
            words: [
                Vec::new(),
                vec!["flip".into(), "two-way".into(), "assign".into()],
            ],
        };
        let texts: Vec<String> = map.drawing().texts().map(str::to_string).collect();
        for t in [
            "TTS99",
            "hint",
            "cell",
            "—",
            "0.100",
            "10.00?",
            "1.5",
            "two-way",
            "penalty too weak",
            "? not settled (budget or runs ran out, or surely slower)",
        ] {
            assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
        }
        let bars = BarChart {
            title: "energies".into(),
            x_label: "energy".into(),
            y_label: "reads".into(),
            bars: vec![(-3.0, 1.0, vec![5.0, 2.0]), (0.0, 1.0, vec![0.0, 9.0])],
            parts: vec![
                ("valid".into(), colors::VALID),
                ("other".into(), colors::OTHER),
            ],
        };
        let texts: Vec<String> = bars.drawing().texts().map(str::to_string).collect();
        for t in ["energies", "energy", "reads", "valid", "other"] {
            assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
        }
    }
}
