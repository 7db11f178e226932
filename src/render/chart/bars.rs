//! Bar charts (broken constraints per weight) and grouped histograms (energies of several
//! runs on shared bins).

use super::*;

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
            ..Frame::default()
        };
        axes(&mut d, &f, &self.title, [&self.x_label, &self.y_label], &[]);
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
    pub(super) fn frame(&self) -> Frame {
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
            ..Frame::default()
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
        axes(&mut d, &f, &self.title, [&self.x_label, &self.y_label], &[]);
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
        let width_of = |t: &str| crate::render::image::text_width(t, TICK_SIZE, false);
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
