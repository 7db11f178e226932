//! `Drawing`: one picture description, in puzzle units, for the screen (GUI painter) and for
//! files (PNG and SVG). Puzzles build it; nothing below knows which puzzle it shows.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Color {
    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

/// The colours the puzzles draw with, kept together so screen and files agree.
pub mod palette {
    use super::Color;
    pub const BACKGROUND: Color = Color::rgb(255, 255, 255);
    pub const GRID: Color = Color::rgb(40, 40, 40);
    pub const GRID_THIN: Color = Color::rgb(170, 170, 170);
    /// Givens: the instance's own digits.
    pub const GIVEN: Color = Color::rgb(20, 20, 20);
    /// Digits a sample put in.
    pub const SAMPLED: Color = Color::rgb(30, 90, 200);
    /// Cells that break a rule.
    pub const CONFLICT_FILL: Color = Color::rgb(255, 214, 214);
    pub const CONFLICT_TEXT: Color = Color::rgb(200, 30, 30);
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stroke {
    /// Width in puzzle units.
    pub width: f32,
    pub color: Color,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Shape {
    Rect {
        min: [f32; 2],
        max: [f32; 2],
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    Line {
        from: [f32; 2],
        to: [f32; 2],
        stroke: Stroke,
    },
    Polygon {
        points: Vec<[f32; 2]>,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    Circle {
        center: [f32; 2],
        radius: f32,
        fill: Option<Color>,
        stroke: Option<Stroke>,
    },
    /// Text centred on `center`; `size` is the font's em size in puzzle units.
    Text {
        center: [f32; 2],
        size: f32,
        text: String,
        color: Color,
        bold: bool,
    },
}

/// A picture `width` × `height` puzzle units, y pointing down.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Drawing {
    pub width: f32,
    pub height: f32,
    pub background: Color,
    pub shapes: Vec<Shape>,
}

impl Drawing {
    pub fn new(width: f32, height: f32) -> Self {
        Drawing {
            width,
            height,
            background: palette::BACKGROUND,
            shapes: Vec::new(),
        }
    }

    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    /// The texts drawn, in order (handy for tests and accessibility).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.shapes.iter().filter_map(|s| match s {
            Shape::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
    }
}
