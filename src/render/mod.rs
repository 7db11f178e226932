//! Pictures: the `Drawing` description puzzles produce, and its PNG/SVG export.
//! No GUI crate is used here; the GUI paints the same `Drawing` with its own painter.

mod drawing;
pub mod image;

pub use drawing::{Color, Drawing, Shape, Stroke, palette};
