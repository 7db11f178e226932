//! The Sudoku picture: givens bold, sampled digits in blue, cells in conflict shaded red,
//! cells holding several digits show them small in red.

use super::check::{Cell, SudokuSolution, check};
use super::{Sudoku, symbol};
use crate::render::{Drawing, Shape, Stroke, palette};

/// Space around the grid, in cells (editors map clicks with it).
pub const MARGIN: f32 = 0.2;

/// The picture; `answer` draws the answer key: every digit alike, no conflicts shaded.
pub(super) fn draw(p: &Sudoku, solution: Option<&SudokuSolution>, answer: bool) -> Drawing {
    let side = p.side();
    let bs = p.box_size();
    let extent = side as f32 + 2.0 * MARGIN;
    let mut d = Drawing::new(extent, extent);
    let at = |r: usize, c: usize| [MARGIN + c as f32, MARGIN + r as f32];
    let bad = solution.filter(|_| !answer).map(|s| check(p, s).bad_cells);
    for r in 0..side {
        for c in 0..side {
            let k = r * side + c;
            let [x, y] = at(r, c);
            if bad.as_ref().is_some_and(|b| b[k]) {
                d.push(Shape::Rect {
                    min: [x, y],
                    max: [x + 1.0, y + 1.0],
                    fill: Some(palette::CONFLICT_FILL),
                    stroke: None,
                });
            }
            let center = [x + 0.5, y + 0.5];
            let given = p.given(r, c);
            let shown = solution.map(|s| s.cell(r, c).clone());
            match (given, shown) {
                (_, Some(Cell::Digit(v))) if answer => d.push(text(
                    center,
                    0.62,
                    symbol(v).to_string(),
                    palette::GIVEN,
                    false,
                )),
                // A given is drawn as given unless the sample changed it.
                (g, None) if g != 0 => d.push(text(
                    center,
                    0.62,
                    symbol(g).to_string(),
                    palette::GIVEN,
                    true,
                )),
                (g, Some(Cell::Digit(v))) if g != 0 && v == g => d.push(text(
                    center,
                    0.62,
                    symbol(g).to_string(),
                    palette::GIVEN,
                    true,
                )),
                (_, Some(Cell::Digit(v))) => {
                    let color = if given != 0 {
                        palette::CONFLICT_TEXT
                    } else {
                        palette::SAMPLED
                    };
                    d.push(text(center, 0.62, symbol(v).to_string(), color, false))
                }
                (_, Some(Cell::Multiple(ds))) => {
                    let s: String = ds.iter().map(|&v| symbol(v)).collect();
                    let size = (0.9 / s.chars().count() as f32).clamp(0.18, 0.4);
                    d.push(text(center, size, s, palette::CONFLICT_TEXT, false))
                }
                _ => {}
            }
        }
    }
    // Thin lines first, so the box lines cross over them.
    for thick in [false, true] {
        for k in (0..=side).filter(|k| (k % bs == 0) == thick) {
            let stroke = Stroke {
                width: if thick { 0.06 } else { 0.02 },
                color: if thick {
                    palette::GRID
                } else {
                    palette::GRID_THIN
                },
            };
            let (a, b) = (MARGIN, MARGIN + side as f32);
            let t = MARGIN + k as f32;
            d.push(Shape::Line {
                from: [a, t],
                to: [b, t],
                stroke,
            });
            d.push(Shape::Line {
                from: [t, a],
                to: [t, b],
                stroke,
            });
        }
    }
    d
}

fn text(
    center: [f32; 2],
    size: f32,
    text: String,
    color: crate::render::Color,
    bold: bool,
) -> Shape {
    Shape::Text {
        center,
        size,
        text,
        color,
        bold,
    }
}
