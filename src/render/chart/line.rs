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
