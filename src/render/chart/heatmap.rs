//! Heatmaps of a metric over two swept weights, with their colour ramp and legend.

use super::*;

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
    /// Category names of the x and y values, by value (a word parameter's index; empty:
    /// numbers).
    pub words: [Vec<String>; 2],
}

/// Viridis, sampled at five stops: dark (t = 0) to bright (t = 1), readable in grey too.
pub(super) fn ramp(t: f64) -> Color {
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
pub(super) const HEATMAP_AREA: [f32; 4] = [LEFT, WIDTH - RIGHT - 90.0, HEIGHT - BOTTOM, TOP];

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
    pub(super) fn shade(&self, value: f64, range: [f64; 2]) -> f64 {
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

    /// The cells, shaded by value over `range` (values written in when there is room), the
    /// flagged ones outlined; `[cw, ch]` a cell's size.
    fn draw_cells(&self, d: &mut Drawing, range: [f64; 2], [cw, ch]: [f32; 2]) {
        let (nx, ny) = (self.xs.len(), self.ys.len());
        let [x0, _, y0, _] = HEATMAP_AREA;
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
                    text(d, centre, size, s, color);
                }
            }
        }
    }

    /// The colour bar beside the cells (good at the top) and the legend: flagged cells,
    /// unsettled ones, and why empty cells are empty.
    fn draw_colour_bar(&self, d: &mut Drawing, range: [f64; 2]) {
        const BAR_W: f32 = 16.0;
        let [_, x1, y0, y1] = HEATMAP_AREA;
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
        text(d, [bx + BAR_W / 2.0, y1 - 8.0], TICK_SIZE, shown(good), INK);
        text(d, [bx + BAR_W / 2.0, y0 + 12.0], TICK_SIZE, shown(bad), INK);
        text(
            d,
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
                "? not settled (budget or runs ran out, or surely slower)".to_string(),
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
            legend(d, &entries, x1);
        }
    }

    /// The chart as a drawing: one cell per (x, y) pair, values written in cells when the grid
    /// is small enough to read them, a colour bar on the right.
    pub fn drawing(&self) -> Drawing {
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
        self.draw_cells(&mut d, range, [cw, ch]);
        // Axis values under and beside the cells (every k-th when crowded).
        let every = |n: usize| n.div_ceil(12).max(1);
        for (col, x) in self.xs.iter().enumerate().step_by(every(nx)) {
            let cx = x0 + (col as f32 + 0.5) * cw;
            text(
                &mut d,
                [cx, y0 + 16.0],
                TICK_SIZE,
                word_or_number(*x, &self.xs, &self.words[0]),
                INK,
            );
        }
        for (row, y) in self.ys.iter().enumerate().step_by(every(ny)) {
            let cy = y0 - (row as f32 + 0.5) * ch;
            text(
                &mut d,
                [x0 - 30.0, cy],
                TICK_SIZE,
                word_or_number(*y, &self.ys, &self.words[1]),
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
        self.draw_colour_bar(&mut d, range);
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

/// A tick: the category's word for a word axis (the value is its index), else the number.
fn word_or_number(v: f64, all: &[f64], words: &[String]) -> String {
    match words.get(v as usize) {
        Some(w) if v >= 0.0 && v.fract() == 0.0 => w.clone(),
        _ => tick_text(v, all),
    }
}
