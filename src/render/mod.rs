//! Pictures: the `Drawing` description puzzles and charts produce, and its PNG/SVG export.
//! No GUI crate is used here; the GUI paints the same `Drawing` with its own painter.

pub mod chart;
mod drawing;
pub mod image;

pub use drawing::{Color, Drawing, Shape, Stroke, palette};
