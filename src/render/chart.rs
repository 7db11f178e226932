//! Charts as `Drawing`s — line charts with confidence bands, stacked bar charts and heatmaps —
//! with a title, axes with "nice" ticks and labels, and a legend, so the same plot is shown in
//! the GUI and written as PNG or SVG for a paper. Charts know nothing of puzzles or sweeps.
//!
//! Invariant: data outside the axes' ranges is clamped to the plot area, never drawn over the
//! labels; NaN and infinite values are skipped.

use super::drawing::{Color, Drawing, Shape, Stroke};

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

/// One line of a line chart.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Its legend entry.
    pub name: String,
    /// Line and point colour.
    pub color: Color,
    /// (x, y) points, in x order.
    pub points: Vec<[f64; 2]>,
    /// (x, low, high): a shaded band (e.g. a confidence interval), drawn under the line.
    pub band: Vec<[f64; 3]>,
    /// The band's colour.
    pub band_color: Option<Color>,
}

/// A line chart: series against a shared x axis, optional flagged points.
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    /// Above the plot.
    pub title: String,
    /// Under the x axis.
    pub x_label: String,
    /// Over the y axis.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
    /// Points drawn as red triangles (with `flag_name` in the legend).
    pub flags: Vec<[f64; 2]>,
    /// The flags' legend entry.
    pub flag_name: String,
    /// Fixed y range (else the data's, padded).
    pub y_range: Option<[f64; 2]>,
    /// A line of small print under the x label (what to read into the plot).
    pub note: String,
}

/// A stacked bar chart (the energy histogram).
#[derive(Clone, Debug, Default)]
pub struct BarChart {
    /// Above the plot.
    pub title: String,
    /// Under the x axis.
    pub x_label: String,
    /// Over the y axis.
    pub y_label: String,
    /// Each bar: centre x, width, and its stacked parts (one per `parts` entry).
    pub bars: Vec<(f64, f64, Vec<f64>)>,
    /// The parts' legend entries and colours, bottom first.
    pub parts: Vec<(String, Color)>,
}

/// Several histograms over shared bins, their bars side by side in each bin (one colour per
/// series; each bar's valid part in the full colour, the rest lighter), with named vertical
/// marks (the ground energy): runs compared on one chart.
#[derive(Clone, Debug, Default)]
pub struct GroupedHistogram {
    /// Above the plot.
    pub title: String,
    /// Under the x axis.
    pub x_label: String,
    /// Over the y axis.
    pub y_label: String,
    /// Bin centres, ascending.
    pub centres: Vec<f64>,
    /// Every bin's width.
    pub bin_width: f64,
    /// Each series: its name, colour, and per bin (valid, other) heights.
    pub series: Vec<(String, Color, Vec<[f64; 2]>)>,
    /// Vertical lines: name, x, colour.
    pub marks: Vec<(String, f64, Color)>,
    /// Whether any series tells valid reads apart (then the legend says what lighter means).
    pub has_valid: bool,
}

/// A heatmap over a grid of x and y values.
#[derive(Clone, Debug, Default)]
pub struct Heatmap {
    /// Above the plot.
    pub title: String,
    /// Under the x axis.
    pub x_label: String,
    /// Over the y axis.
    pub y_label: String,
    /// Column values, ascending.
    pub xs: Vec<f64>,
    /// Row values, ascending (drawn bottom to top).
    pub ys: Vec<f64>,
    /// `cells[row · xs.len() + column]`; `None` draws a grey cell marked "—".
    pub cells: Vec<Option<f64>>,
    /// Cells outlined in red (e.g. penalty too weak).
    pub flagged: Vec<bool>,
    /// The flags' legend entry.
    pub flag_name: String,
    /// Cells whose value is not settled (a sweep point stopped at its budget or its last run
    /// with a wide interval): drawn with a "?" after the value and named in the legend.
    pub unsettled: Vec<bool>,
    /// Whether low values are the good ones (they get the bright colour).
    pub low_is_good: bool,
    /// Colour by log10 of the value (for TTS99, which spans decades).
    pub log_scale: bool,
    /// The colour bar's label.
    pub value_label: String,
}

/// Where the plot area is and how data maps onto it.
struct Frame {
    x: [f64; 2],
    y: [f64; 2],
}

impl Frame {
    const X0: f32 = LEFT;
    const X1: f32 = WIDTH - RIGHT;
    const Y0: f32 = HEIGHT - BOTTOM;
    const Y1: f32 = TOP;

    fn px(&self, x: f64) -> f32 {
        let t = ((x - self.x[0]) / (self.x[1] - self.x[0])).clamp(0.0, 1.0) as f32;
        Self::X0 + t * (Self::X1 - Self::X0)
    }

    fn py(&self, y: f64) -> f32 {
        let t = ((y - self.y[0]) / (self.y[1] - self.y[0])).clamp(0.0, 1.0) as f32;
        Self::Y0 + t * (Self::Y1 - Self::Y0)
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
fn axes(d: &mut Drawing, f: &Frame, title: &str, x_label: &str, y_label: &str) {
    text(d, [WIDTH / 2.0, 22.0], TITLE_SIZE, title, INK);
    let x_ticks = nice_ticks(f.x[0], f.x[1], 8);
    let y_ticks = nice_ticks(f.y[0], f.y[1], 6);
    for &t in &y_ticks {
        let y = f.py(t);
        line(d, [Frame::X0, y], [Frame::X1, y], 0.8, GRID);
        line(d, [Frame::X0 - 5.0, y], [Frame::X0, y], 1.0, INK);
        text(
            d,
            [Frame::X0 - 30.0, y],
            TICK_SIZE,
            tick_text(t, &y_ticks),
            INK,
        );
    }
    for &t in &x_ticks {
        let x = f.px(t);
        line(d, [x, Frame::Y0], [x, Frame::Y1], 0.8, GRID);
        line(d, [x, Frame::Y0], [x, Frame::Y0 + 5.0], 1.0, INK);
        text(
            d,
            [x, Frame::Y0 + 16.0],
            TICK_SIZE,
            tick_text(t, &x_ticks),
            INK,
        );
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

impl LineChart {
    fn frame(&self) -> Frame {
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p[0]))
            .chain(self.flags.iter().map(|p| p[0]));
        let ys = self
            .series
            .iter()
            .flat_map(|s| {
                s.points
                    .iter()
                    .map(|p| p[1])
                    .chain(s.band.iter().flat_map(|b| [b[1], b[2]]))
            })
            .chain(self.flags.iter().map(|p| p[1]));
        Frame {
            x: padded_range(xs),
            y: self.y_range.unwrap_or_else(|| padded_range(ys)),
        }
    }

    /// The x value under a point of the drawing (in its units), when it is over the plot area.
    pub fn x_at(&self, [x, y]: [f32; 2]) -> Option<f64> {
        let inside = (Frame::X0..=Frame::X1).contains(&x) && (Frame::Y1..=Frame::Y0).contains(&y);
        inside.then(|| {
            let f = self.frame();
            f.x[0] + (x - Frame::X0) as f64 / (Frame::X1 - Frame::X0) as f64 * (f.x[1] - f.x[0])
        })
    }

    /// The chart as a drawing.
    pub fn drawing(&self) -> Drawing {
        let mut d = chart_drawing();
        let f = self.frame();
        axes(&mut d, &f, &self.title, &self.x_label, &self.y_label);
        for s in &self.series {
            let band: Vec<&[f64; 3]> = s
                .band
                .iter()
                .filter(|b| b.iter().all(|v| v.is_finite()))
                .collect();
            if band.len() >= 2 {
                let mut outline: Vec<[f32; 2]> =
                    band.iter().map(|b| [f.px(b[0]), f.py(b[2])]).collect();
                outline.extend(band.iter().rev().map(|b| [f.px(b[0]), f.py(b[1])]));
                d.push(Shape::Polygon {
                    points: outline,
                    fill: Some(s.band_color.unwrap_or(GRID)),
                    stroke: None,
                });
            }
            for b in &band {
                // Whiskers show each point's interval, also where the band is one point wide.
                let x = f.px(b[0]);
                line(&mut d, [x, f.py(b[1])], [x, f.py(b[2])], 1.0, s.color);
            }
        }
        // The first series is the main one: drawn last (on top) and thickest.
        for (k, s) in self.series.iter().enumerate().rev() {
            let width = if k == 0 { 2.5 } else { 1.5 };
            let points: Vec<[f32; 2]> = s
                .points
                .iter()
                .filter(|p| p[0].is_finite() && p[1].is_finite())
                .map(|p| [f.px(p[0]), f.py(p[1])])
                .collect();
            for w in points.windows(2) {
                line(&mut d, w[0], w[1], width, s.color);
            }
            for p in &points {
                d.push(Shape::Circle {
                    center: *p,
                    radius: 3.0,
                    fill: Some(s.color),
                    stroke: None,
                });
            }
        }
        for p in self
            .flags
            .iter()
            .filter(|p| p.iter().all(|v| v.is_finite()))
        {
            triangle(&mut d, [f.px(p[0]), f.py(p[1]) - 9.0], colors::WEAK);
        }
        let mut entries: Vec<(String, Color, bool)> = self
            .series
            .iter()
            .map(|s| (s.name.clone(), s.color, false))
            .collect();
        if !self.flag_name.is_empty() {
            entries.push((self.flag_name.clone(), colors::WEAK, true));
        }
        legend(&mut d, &entries, Frame::X1);
        if !self.note.is_empty() {
            text(
                &mut d,
                [WIDTH / 2.0, HEIGHT - 10.0],
                TICK_SIZE,
                self.note.clone(),
                MUTED,
            );
        }
        d
    }
}

impl BarChart {
    /// The chart as a drawing.
    pub fn drawing(&self) -> Drawing {
        let mut d = chart_drawing();
        // Bars all at one energy (or nearly) get a readable width around it, not a sliver
        // whose axis counts in 1e-10 steps.
        let centres = padded_range(self.bars.iter().map(|b| b.0));
        let bunched = self
            .bars
            .iter()
            .all(|b| (b.0 - self.bars[0].0).abs() <= 1e-9 * (1.0 + b.0.abs()));
        let bars: Vec<(f64, f64, &Vec<f64>)> = self
            .bars
            .iter()
            .map(|(x, w, parts)| (*x, if bunched { 0.5 } else { *w }, parts))
            .collect();
        let xs = bars
            .iter()
            .flat_map(|(x, w, _)| [x - w / 2.0, x + w / 2.0])
            .chain(if bunched {
                centres.to_vec()
            } else {
                Vec::new()
            });
        let top = self
            .bars
            .iter()
            .map(|(_, _, parts)| parts.iter().sum::<f64>())
            .fold(0.0, f64::max);
        let f = Frame {
            x: padded_range(xs),
            y: [0.0, if top > 0.0 { top * 1.08 } else { 1.0 }],
        };
        axes(&mut d, &f, &self.title, &self.x_label, &self.y_label);
        for (x, w, parts) in &bars {
            let mut base = 0.0;
            for (k, &h) in parts.iter().enumerate() {
                if h <= 0.0 || !h.is_finite() {
                    continue;
                }
                let color = self.parts.get(k).map_or(colors::OTHER, |p| p.1);
                // At least a hairline wide, so a bar among thousands of bins still shows.
                let (x0, x1) = (f.px(x - w / 2.0), f.px(x + w / 2.0));
                let (x0, x1) = if x1 - x0 < 1.0 {
                    (x0 - 0.5, x0 + 0.5)
                } else {
                    (x0, x1)
                };
                d.push(Shape::Rect {
                    min: [x0, f.py(base + h)],
                    max: [x1, f.py(base)],
                    fill: Some(color),
                    stroke: None,
                });
                base += h;
            }
        }
        let entries: Vec<(String, Color, bool)> = self
            .parts
            .iter()
            .map(|(n, c)| (n.clone(), *c, false))
            .collect();
        legend(&mut d, &entries, Frame::X1);
        d
    }
}

impl GroupedHistogram {
    fn frame(&self) -> Frame {
        let half = self.bin_width.max(1e-12) / 2.0;
        let xs = self
            .centres
            .iter()
            .flat_map(|c| [c - half, c + half])
            .chain(self.marks.iter().map(|m| m.1));
        let top = self
            .series
            .iter()
            .flat_map(|s| s.2.iter().map(|h| h[0] + h[1]))
            .filter(|h| h.is_finite())
            .fold(0.0, f64::max);
        Frame {
            x: padded_range(xs),
            y: [0.0, if top > 0.0 { top * 1.12 } else { 1.0 }],
        }
    }

    /// The bin under a point of the drawing (in its units), when it is over the plot area:
    /// what a hover read-out reports.
    pub fn bin_at(&self, [x, y]: [f32; 2]) -> Option<usize> {
        let inside = (Frame::X0..=Frame::X1).contains(&x) && (Frame::Y1..=Frame::Y0).contains(&y);
        if !inside || self.centres.is_empty() {
            return None;
        }
        let f = self.frame();
        let value =
            f.x[0] + (x - Frame::X0) as f64 / (Frame::X1 - Frame::X0) as f64 * (f.x[1] - f.x[0]);
        self.bin_at_value(value)
    }

    /// The bin whose centre is nearest `value` (on the x axis), within one bin width.
    pub fn bin_at_value(&self, value: f64) -> Option<usize> {
        let nearest = (0..self.centres.len()).min_by(|&a, &b| {
            (self.centres[a] - value)
                .abs()
                .total_cmp(&(self.centres[b] - value).abs())
        })?;
        ((self.centres[nearest] - value).abs() <= self.bin_width.max(1e-12)).then_some(nearest)
    }

    /// The chart as a drawing.
    pub fn drawing(&self) -> Drawing {
        let mut d = chart_drawing();
        let f = self.frame();
        axes(&mut d, &f, &self.title, &self.x_label, &self.y_label);
        let k = self.series.len().max(1) as f64;
        // Each bin holds the series side by side in 90 % of its width.
        let slot = 0.9 * self.bin_width / k;
        for (i, (_, color, heights)) in self.series.iter().enumerate() {
            let pale = colors::lighter(*color, 0.55);
            for (c, h) in self.centres.iter().zip(heights) {
                let x0 = c - 0.45 * self.bin_width + slot * i as f64;
                let (px0, px1) = (f.px(x0), f.px(x0 + slot));
                let (px0, px1) = if px1 - px0 < 1.0 {
                    (px0, px0 + 1.0)
                } else {
                    (px0, px1)
                };
                let mut base = 0.0;
                for (part, fill) in [(h[0], *color), (h[1], pale)] {
                    if part > 0.0 && part.is_finite() {
                        d.push(Shape::Rect {
                            min: [px0, f.py(base + part)],
                            max: [px1, f.py(base)],
                            fill: Some(fill),
                            stroke: None,
                        });
                        base += part;
                    }
                }
            }
        }
        for (name, x, color) in &self.marks {
            let px = f.px(*x);
            line(&mut d, [px, Frame::Y0], [px, Frame::Y1], 1.5, *color);
            text(
                &mut d,
                [px, Frame::Y1 + 8.0],
                TICK_SIZE,
                name.clone(),
                *color,
            );
        }
        // The legend in a column at the plot's top right: run names can be long and many.
        let mut entries: Vec<(String, Color)> = self
            .series
            .iter()
            .map(|(n, c, _)| (n.clone(), *c))
            .collect();
        if self.has_valid {
            entries.push(("lighter: not valid".into(), colors::lighter(INK, 0.55)));
        }
        let width_of = |t: &str| super::image::text_width(t, TICK_SIZE, false);
        let widest = entries.iter().map(|e| width_of(&e.0)).fold(0.0, f32::max);
        let (right, top_y) = (Frame::X1 - 6.0, Frame::Y1 + 22.0);
        let left = right - widest - 22.0;
        d.push(Shape::Rect {
            min: [left - 6.0, top_y - 10.0],
            max: [right + 2.0, top_y + 16.0 * entries.len() as f32 - 4.0],
            fill: Some(Color {
                a: 220,
                ..Color::rgb(255, 255, 255)
            }),
            stroke: Some(Stroke {
                width: 0.8,
                color: GRID,
            }),
        });
        for (row, (name, color)) in entries.iter().enumerate() {
            let y = top_y + 16.0 * row as f32;
            d.push(Shape::Rect {
                min: [left, y - 4.0],
                max: [left + 14.0, y + 4.0],
                fill: Some(*color),
                stroke: None,
            });
            let w = width_of(name);
            text(
                &mut d,
                [left + 20.0 + w / 2.0, y],
                TICK_SIZE,
                name.clone(),
                INK,
            );
        }
        d
    }
}

/// Viridis, sampled at five stops: dark (t = 0) to bright (t = 1), readable in grey too.
fn ramp(t: f64) -> Color {
    const STOPS: [[f64; 3]; 5] = [
        [68.0, 1.0, 84.0],
        [59.0, 82.0, 139.0],
        [33.0, 145.0, 140.0],
        [94.0, 201.0, 98.0],
        [253.0, 231.0, 37.0],
    ];
    let t = t.clamp(0.0, 1.0) * 4.0;
    let k = (t.floor() as usize).min(3);
    let u = t - k as f64;
    let c = |i: usize| (STOPS[k][i] + u * (STOPS[k + 1][i] - STOPS[k][i])).round() as u8;
    Color::rgb(c(0), c(1), c(2))
}

/// The heatmap's cell area (left, right, bottom, top) in drawing units.
const HEATMAP_AREA: [f32; 4] = [LEFT, WIDTH - RIGHT - 90.0, HEIGHT - BOTTOM, TOP];

impl Heatmap {
    /// The (column, row) of the cell under a point of the drawing (in its units).
    pub fn cell_at(&self, [x, y]: [f32; 2]) -> Option<(usize, usize)> {
        let [x0, x1, y0, y1] = HEATMAP_AREA;
        let (nx, ny) = (self.xs.len(), self.ys.len());
        if nx == 0 || ny == 0 || !(x0..x1).contains(&x) || !(y1..y0).contains(&y) {
            return None;
        }
        let col = ((x - x0) / (x1 - x0) * nx as f32) as usize;
        let row = ((y0 - y) / (y0 - y1) * ny as f32) as usize;
        Some((col.min(nx - 1), row.min(ny - 1)))
    }

    /// Where `value` falls on the colour ramp (1 = good).
    fn shade(&self, value: f64, range: [f64; 2]) -> f64 {
        let v = if self.log_scale {
            value.max(1e-300).log10()
        } else {
            value
        };
        let t = if range[1] > range[0] {
            (v - range[0]) / (range[1] - range[0])
        } else {
            0.5
        };
        if self.low_is_good { 1.0 - t } else { t }
    }

    /// The chart as a drawing: one cell per (x, y) pair, values written in cells when the grid
    /// is small enough to read them, a colour bar on the right.
    pub fn drawing(&self) -> Drawing {
        const BAR_W: f32 = 16.0;
        let mut d = chart_drawing();
        let (nx, ny) = (self.xs.len(), self.ys.len());
        text(
            &mut d,
            [WIDTH / 2.0, 22.0],
            TITLE_SIZE,
            self.title.clone(),
            INK,
        );
        let [x0, x1, y0, y1] = HEATMAP_AREA;
        if nx == 0 || ny == 0 || self.cells.len() != nx * ny {
            text(
                &mut d,
                [WIDTH / 2.0, HEIGHT / 2.0],
                LABEL_SIZE,
                "no points",
                MUTED,
            );
            return d;
        }
        let scaled = |v: f64| {
            if self.log_scale {
                v.max(1e-300).log10()
            } else {
                v
            }
        };
        let range = self
            .cells
            .iter()
            .flatten()
            .map(|&v| scaled(v))
            .filter(|v| v.is_finite())
            .fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], v| {
                [lo.min(v), hi.max(v)]
            });
        let (cw, ch) = ((x1 - x0) / nx as f32, (y0 - y1) / ny as f32);
        let show_values = nx <= 16 && ny <= 16;
        for row in 0..ny {
            for col in 0..nx {
                let k = row * nx + col;
                let min = [x0 + col as f32 * cw, y0 - (row + 1) as f32 * ch];
                let max = [min[0] + cw, min[1] + ch];
                let centre = [(min[0] + max[0]) / 2.0, (min[1] + max[1]) / 2.0];
                let unsettled = self.unsettled.get(k).copied().unwrap_or(false);
                let (fill, label) = match self.cells[k] {
                    Some(v) if v.is_finite() => {
                        let t = self.shade(v, range);
                        (
                            ramp(t),
                            Some((
                                if unsettled {
                                    format!("{}?", format_value(v))
                                } else {
                                    format_value(v)
                                },
                                if t > 0.6 {
                                    INK
                                } else {
                                    Color::rgb(255, 255, 255)
                                },
                            )),
                        )
                    }
                    _ => (GRID, Some(("—".to_string(), MUTED))),
                };
                d.push(Shape::Rect {
                    min,
                    max,
                    fill: Some(fill),
                    stroke: Some(Stroke {
                        width: 0.5,
                        color: Color::rgb(255, 255, 255),
                    }),
                });
                if self.flagged.get(k).copied().unwrap_or(false) {
                    d.push(Shape::Rect {
                        min: [min[0] + 1.5, min[1] + 1.5],
                        max: [max[0] - 1.5, max[1] - 1.5],
                        fill: None,
                        stroke: Some(Stroke {
                            width: 2.5,
                            color: colors::WEAK,
                        }),
                    });
                }
                if let (true, Some((s, color))) = (show_values, label) {
                    let size = (cw.min(ch) * 0.28).clamp(7.0, TICK_SIZE);
                    text(&mut d, centre, size, s, color);
                }
            }
        }
        // Axis values under and beside the cells (every k-th when crowded).
        let every = |n: usize| n.div_ceil(12).max(1);
        for (col, x) in self.xs.iter().enumerate().step_by(every(nx)) {
            let cx = x0 + (col as f32 + 0.5) * cw;
            text(
                &mut d,
                [cx, y0 + 16.0],
                TICK_SIZE,
                tick_text(*x, &self.xs),
                INK,
            );
        }
        for (row, y) in self.ys.iter().enumerate().step_by(every(ny)) {
            let cy = y0 - (row as f32 + 0.5) * ch;
            text(
                &mut d,
                [x0 - 30.0, cy],
                TICK_SIZE,
                tick_text(*y, &self.ys),
                INK,
            );
        }
        text(
            &mut d,
            [(x0 + x1) / 2.0, y0 + 38.0],
            LABEL_SIZE,
            self.x_label.clone(),
            INK,
        );
        text(
            &mut d,
            [x0, TOP - 14.0],
            LABEL_SIZE,
            self.y_label.clone(),
            INK,
        );
        // The colour bar: good at the top.
        let bx = x1 + 24.0;
        let steps = 24;
        for i in 0..steps {
            let t = 1.0 - i as f64 / steps as f64;
            let top = y1 + (y0 - y1) * i as f32 / steps as f32;
            d.push(Shape::Rect {
                min: [bx, top],
                max: [bx + BAR_W, top + (y0 - y1) / steps as f32 + 0.5],
                fill: Some(ramp(t)),
                stroke: None,
            });
        }
        let (good, bad) = if self.low_is_good {
            (range[0], range[1])
        } else {
            (range[1], range[0])
        };
        let shown = |v: f64| format_value(if self.log_scale { 10f64.powf(v) } else { v });
        text(
            &mut d,
            [bx + BAR_W / 2.0, y1 - 8.0],
            TICK_SIZE,
            shown(good),
            INK,
        );
        text(
            &mut d,
            [bx + BAR_W / 2.0, y0 + 12.0],
            TICK_SIZE,
            shown(bad),
            INK,
        );
        text(
            &mut d,
            [bx + BAR_W / 2.0, y0 + 30.0],
            TICK_SIZE,
            self.value_label.clone(),
            INK,
        );
        let mut entries = Vec::new();
        if self.flagged.iter().any(|&f| f) && !self.flag_name.is_empty() {
            entries.push((self.flag_name.clone(), colors::WEAK, true));
        }
        if self.unsettled.iter().any(|&u| u) {
            entries.push((
                "? not settled (budget or runs ran out)".to_string(),
                MUTED,
                false,
            ));
        }
        // Empty cells say why they are empty (a TTS99 needs a valid read).
        if self.cells.iter().any(|c| !c.is_some_and(f64::is_finite)) {
            let why = if self.low_is_good {
                "— never solved (no valid read)"
            } else {
                "— no value"
            };
            entries.push((why.to_string(), GRID, false));
        }
        if !entries.is_empty() {
            legend(&mut d, &entries, x1);
        }
        d
    }
}

/// A cell's value in at most about five characters.
fn format_value(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e4).contains(&a) {
        format!("{v:.1e}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
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
            }],
            flags: vec![[0.0, 0.1]],
            flag_name: "penalty too weak".into(),
            y_range: Some([0.0, 1.0]),
            note: "a note".into(),
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
            "penalty too weak",
            "? not settled (budget or runs ran out)",
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
