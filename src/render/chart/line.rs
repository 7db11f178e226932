//! Line charts (sweeps against a weight, TTS99 curves): series with intervals and flags.

use super::*;

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
    /// Points only, not joined: one per instance, say, where a line between neighbours in x
    /// would mean nothing.
    pub unjoined: bool,
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
    /// A log x axis (a sweep over sweep counts in decades); points at x ≤ 0 are left out.
    pub x_log: bool,
    /// A log y axis (times to solution); points at y ≤ 0 are left out.
    pub y_log: bool,
    /// Category names for x = 0, 1, 2… (a sweep over a word parameter), as the x ticks.
    pub x_words: Vec<String>,
    /// Vertical lines with a label at the top: where a relation among the weights flips
    /// (`Encoding::condition_thresholds`), drawn where they fall inside the data's x range.
    pub marks: Vec<(f64, String)>,
}

impl LineChart {
    pub(super) fn frame(&self) -> Frame {
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
        let log = |on: bool, v: f64| if on { v.log10() } else { v };
        Frame {
            x: padded_range(xs.map(|x| log(self.x_log, x))),
            y: match self.y_range {
                Some(r) => r.map(|y| log(self.y_log, y)),
                None => padded_range(ys.map(|y| log(self.y_log, y))),
            },
            x_log: self.x_log,
            y_log: self.y_log,
        }
    }

    /// The x value under a point of the drawing (in its units), when it is over the plot area.
    pub fn x_at(&self, [x, y]: [f32; 2]) -> Option<f64> {
        let inside = (Frame::X0..=Frame::X1).contains(&x) && (Frame::Y1..=Frame::Y0).contains(&y);
        inside.then(|| self.frame().x_value(x))
    }

    /// The chart as a drawing.
    pub fn drawing(&self) -> Drawing {
        let mut d = chart_drawing();
        let f = self.frame();
        axes(
            &mut d,
            &f,
            &self.title,
            [&self.x_label, &self.y_label],
            &self.x_words,
        );
        for s in &self.series {
            let band: Vec<&[f64; 3]> = s
                .band
                .iter()
                .filter(|b| b.iter().all(|v| v.is_finite()))
                .collect();
            if band.len() >= 2 && self.x_words.is_empty() {
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
        // Categories have no order between them: their points are not joined.
        let joined = self.x_words.is_empty();
        // The first series is the main one: drawn last (on top) and thickest.
        for (k, s) in self.series.iter().enumerate().rev() {
            let width = if k == 0 { 2.5 } else { 1.5 };
            let points: Vec<[f32; 2]> = s
                .points
                .iter()
                .filter(|p| p[0].is_finite() && p[1].is_finite())
                .map(|p| [f.px(p[0]), f.py(p[1])])
                .collect();
            for w in points.windows(2).filter(|_| joined && !s.unjoined) {
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
        // Over the lines, labelled just above the x axis (the top holds the legend).
        let inside = |x: f64| {
            let x = if f.x_log { x.log10() } else { x };
            x.is_finite() && f.x[0] <= x && x <= f.x[1]
        };
        for (k, (x, label)) in self.marks.iter().enumerate() {
            if !inside(*x) {
                continue;
            }
            let px = f.px(*x);
            line(&mut d, [px, Frame::Y0], [px, Frame::Y1], 1.0, MUTED);
            // Beside the line, on the side with room for it.
            let half = crate::render::image::text_width(label, TICK_SIZE, false) / 2.0 + 5.0;
            let cx = if px + 2.0 * half <= Frame::X1 {
                px + half
            } else {
                px - half
            };
            let at = [cx, Frame::Y0 - 12.0 - 13.0 * k as f32];
            text(&mut d, at, TICK_SIZE, label.clone(), MUTED);
        }
        let mut entries: Vec<(String, Color, bool)> = self
            .series
            .iter()
            // A series without a name (one of many thin lines) has no legend entry.
            .filter(|s| !s.name.is_empty())
            .map(|s| (s.name.clone(), s.color, false))
            .collect();
        if !self.flag_name.is_empty() {
            entries.push((self.flag_name.clone(), colors::WEAK, true));
        }
        legend(&mut d, &entries, Frame::X1);
        // The note in one line, or two where it is wider than the chart.
        let lines = note_lines(&self.note, WIDTH - 20.0);
        let first = if lines.len() > 1 {
            HEIGHT - 19.0
        } else {
            HEIGHT - 10.0
        };
        for (k, l) in lines.into_iter().enumerate() {
            text(
                &mut d,
                [WIDTH / 2.0, first + 12.5 * k as f32],
                TICK_SIZE,
                l,
                MUTED,
            );
        }
        d
    }
}

/// A note split at spaces into at most two lines no wider than `width` (the second ends in
/// "…" when even two are not enough).
fn note_lines(note: &str, width: f32) -> Vec<String> {
    let fits = |t: &str| crate::render::image::text_width(t, TICK_SIZE, false) <= width;
    if note.is_empty() {
        return Vec::new();
    }
    if fits(note) {
        return vec![note.to_string()];
    }
    let words: Vec<&str> = note.split(' ').collect();
    let mut k = 1;
    while k < words.len() && fits(&words[..k + 1].join(" ")) {
        k += 1;
    }
    let mut second = words[k..].join(" ");
    while !fits(&second) && second.len() > 1 {
        let cut = second.char_indices().rev().nth(1).map_or(0, |(i, _)| i);
        second.truncate(cut);
        if fits(&format!("{second}…")) {
            second.push('…');
            break;
        }
    }
    vec![words[..k].join(" "), second]
}
