//! `Drawing`: one picture description, in puzzle units, for the screen (GUI painter) and for
//! files (PNG and SVG). Puzzles build it; nothing below knows which puzzle it shows.

use serde::Serialize;

/// An sRGB colour with straight (not premultiplied) alpha (default: opaque black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Color {
    /// Red, 0–255.
    pub r: u8,
    /// Green, 0–255.
    pub g: u8,
    /// Blue, 0–255.
    pub b: u8,
    /// Opacity, 0 (transparent) – 255 (opaque).
    pub a: u8,
}

impl Default for Color {
    fn default() -> Self {
        Color::rgb(0, 0, 0)
    }
}

impl Color {
    /// An opaque colour.
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    /// `#rrggbb`, as SVG writes it (alpha is written separately).
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// The colours the puzzles draw with, kept together so screen and files agree.
pub mod palette {
    use super::Color;
    /// Behind everything.
    pub const BACKGROUND: Color = Color::rgb(255, 255, 255);
    /// Box borders and the outer frame.
    pub const GRID: Color = Color::rgb(40, 40, 40);
    /// Cell borders inside a box.
    pub const GRID_THIN: Color = Color::rgb(170, 170, 170);
    /// Givens: the instance's own digits.
    pub const GIVEN: Color = Color::rgb(20, 20, 20);
    /// Digits a sample put in.
    pub const SAMPLED: Color = Color::rgb(30, 90, 200);
    /// Cells that break a rule.
    pub const CONFLICT_FILL: Color = Color::rgb(255, 214, 214);
    /// Digits that break a rule.
    pub const CONFLICT_TEXT: Color = Color::rgb(200, 30, 30);
    /// The border colour 0 of edge-matching pieces.
    pub const TILE_BORDER: Color = Color::rgb(150, 150, 150);

    /// Edge-matching colours 1, 2, …: Kelly's colours of maximum contrast (grey left out, it
    /// is the border) and five more, so Eternity II's 22 colours are told apart; beyond
    /// these, hues step by the golden angle.
    const TILES: [Color; 25] = [
        Color::rgb(255, 179, 0),
        Color::rgb(128, 62, 117),
        Color::rgb(255, 104, 0),
        Color::rgb(166, 189, 215),
        Color::rgb(193, 0, 32),
        Color::rgb(206, 162, 98),
        Color::rgb(0, 125, 52),
        Color::rgb(246, 118, 142),
        Color::rgb(0, 83, 138),
        Color::rgb(255, 122, 92),
        Color::rgb(83, 55, 122),
        Color::rgb(244, 200, 0),
        Color::rgb(179, 40, 81),
        Color::rgb(127, 24, 13),
        Color::rgb(147, 170, 0),
        Color::rgb(89, 51, 21),
        Color::rgb(241, 58, 19),
        Color::rgb(35, 44, 22),
        Color::rgb(0, 181, 204),
        Color::rgb(224, 64, 251),
        Color::rgb(26, 35, 126),
        Color::rgb(38, 166, 154),
        Color::rgb(156, 204, 101),
        Color::rgb(255, 236, 179),
        Color::rgb(121, 85, 72),
    ];

    /// The fill of edge-matching colour `k` (0 = border grey).
    pub fn tile(k: u8) -> Color {
        match k {
            0 => TILE_BORDER,
            k if (k as usize) <= TILES.len() => TILES[k as usize - 1],
            k => {
                let hue = (k as f32 * 137.508).rem_euclid(360.0);
                let light = if k % 2 == 0 { 0.45 } else { 0.65 };
                hsl(hue, 0.7, light)
            }
        }
    }

    /// An opaque colour from hue (degrees), saturation and lightness (0–1).
    fn hsl(h: f32, s: f32, l: f32) -> Color {
        let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
        let x = c * (1.0 - ((h / 60.0).rem_euclid(2.0) - 1.0).abs());
        let m = l - c / 2.0;
        let (r, g, b) = match (h / 60.0) as u32 {
            0 => (c, x, 0.0),
            1 => (x, c, 0.0),
            2 => (0.0, c, x),
            3 => (0.0, x, c),
            4 => (x, 0.0, c),
            _ => (c, 0.0, x),
        };
        let to = |v: f32| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
        Color::rgb(to(r), to(g), to(b))
    }
}

/// An outline: width and colour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stroke {
    /// Width in puzzle units.
    pub width: f32,
    /// Line colour.
    pub color: Color,
}

/// One primitive of a drawing; coordinates in puzzle units, y down.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Shape {
    /// An axis-aligned rectangle from `min` to `max`.
    Rect {
        /// Top-left corner.
        min: [f32; 2],
        /// Bottom-right corner.
        max: [f32; 2],
        /// Fill colour, if filled.
        fill: Option<Color>,
        /// Outline, if outlined.
        stroke: Option<Stroke>,
    },
    /// A straight segment.
    Line {
        /// Start point.
        from: [f32; 2],
        /// End point.
        to: [f32; 2],
        /// Its line style.
        stroke: Stroke,
    },
    /// A closed polygon through `points` (for triangles and path segments).
    Polygon {
        /// Corners, in order.
        points: Vec<[f32; 2]>,
        /// Fill colour, if filled.
        fill: Option<Color>,
        /// Outline, if outlined.
        stroke: Option<Stroke>,
    },
    /// A circle (path end points, mine markers).
    Circle {
        /// Centre.
        center: [f32; 2],
        /// Radius in puzzle units.
        radius: f32,
        /// Fill colour, if filled.
        fill: Option<Color>,
        /// Outline, if outlined.
        stroke: Option<Stroke>,
    },
    /// Text centred on `center`; `size` is the font's em size in puzzle units.
    Text {
        /// Where the text's centre goes.
        center: [f32; 2],
        /// Em size in puzzle units.
        size: f32,
        /// The text itself.
        text: String,
        /// Its colour.
        color: Color,
        /// Bold face (givens) or regular.
        bold: bool,
    },
}

impl Shape {
    /// Moves the shape `dy` units down.
    fn shift_down(&mut self, dy: f32) {
        match self {
            Shape::Rect { min, max, .. } => {
                min[1] += dy;
                max[1] += dy;
            }
            Shape::Line { from, to, .. } => {
                from[1] += dy;
                to[1] += dy;
            }
            Shape::Polygon { points, .. } => points.iter_mut().for_each(|p| p[1] += dy),
            Shape::Circle { center, .. } | Shape::Text { center, .. } => center[1] += dy,
        }
    }
}

/// A picture `width` × `height` puzzle units, y pointing down.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Drawing {
    /// Width in puzzle units.
    pub width: f32,
    /// Height in puzzle units.
    pub height: f32,
    /// Fills the whole picture first.
    pub background: Color,
    /// Painted in order, later on top.
    pub shapes: Vec<Shape>,
    /// Pixels per unit at the default export size (`PX_PER_UNIT` for puzzles, whose unit is
    /// a cell; charts, laid out in points, set their own).
    pub base_px_per_unit: f32,
}

impl Drawing {
    /// An empty picture on the standard background.
    pub fn new(width: f32, height: f32) -> Self {
        Drawing {
            width,
            height,
            background: palette::BACKGROUND,
            shapes: Vec::new(),
            base_px_per_unit: super::PX_PER_UNIT,
        }
    }

    /// This drawing with `below` under it (the width the wider's, both left-aligned): two
    /// charts that share an x axis, one above the other.
    pub fn stacked(mut self, below: Drawing) -> Drawing {
        let dy = self.height;
        self.shapes.extend(below.shapes.into_iter().map(|mut s| {
            s.shift_down(dy);
            s
        }));
        self.height += below.height;
        self.width = self.width.max(below.width);
        self
    }

    /// Appends a shape on top of the others.
    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    /// The same picture under a title line: a band above it as tall as a tenth of the width
    /// (0.6 to 1 unit, so a board's title is about a cell high), the text centred, sized to
    /// fit the width.
    pub fn with_title(mut self, title: &str) -> Drawing {
        let band = (0.1 * self.width).clamp(0.6, 1.0);
        for shape in &mut self.shapes {
            shape.shift_down(band);
        }
        self.height += band;
        // About 0.55 em per character, so the line fits 90 % of the width.
        let size =
            (0.9 * self.width / (0.55 * title.chars().count().max(1) as f32)).min(0.55 * band);
        self.shapes.insert(
            0,
            Shape::Text {
                center: [self.width / 2.0, band / 2.0],
                size,
                text: title.to_string(),
                color: palette::GIVEN,
                bold: true,
            },
        );
        self
    }

    /// The texts drawn, in order (handy for tests and accessibility).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.shapes.iter().filter_map(|s| match s {
            Shape::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
    }
}
