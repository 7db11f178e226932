//! Pictures: the `Drawing` description puzzles and charts produce, and its PNG/SVG export.
//! No GUI crate is used here; the GUI paints the same `Drawing` with its own painter.

pub mod chart;
mod drawing;
pub mod image;

pub use drawing::{Color, Drawing, Shape, Stroke, palette};

/// Pixels per puzzle unit in exported images: `render` and the window's Export image… alike.
pub const PX_PER_UNIT: f32 = 48.0;
