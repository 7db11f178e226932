//! The edge-matching picture: each piece as four coloured triangles meeting at its centre
//! (border grey), thin outlines, fixed pieces framed in black with a pin, mismatched joints
//! marked in red, empty cells blank, and a caption with the score. Without a solution the
//! pieces are shown in the layout the editor edits (`EdgeMatching::layout`), numbered.

use super::check::{EdgeSolution, check};
use super::{EdgeMatching, rotated};
use crate::render::{Color, Drawing, Shape, Stroke, palette};

/// Space above and below the board, in cells (the board is centred across; `side_at` maps
/// points to cells).
pub const MARGIN: f32 = 0.2;

/// A side of a cell: `TOP`, `RIGHT`, `BOTTOM` or `LEFT`.
pub type Side = usize;

/// Height of the caption line under the board.
const CAPTION: f32 = 0.7;

const OUTLINE: Stroke = Stroke {
    width: 0.015,
    color: Color::rgb(60, 60, 60),
};

/// Width of the picture: the board and its margins, at least wide enough for the caption.
fn picture_width(p: &EdgeMatching) -> f32 {
    (p.cols() as f32 + 2.0 * MARGIN).max(5.0)
}

/// Left edge of the board (centred in the picture).
fn board_x(p: &EdgeMatching) -> f32 {
    (picture_width(p) - p.cols() as f32) / 2.0
}

/// The cell and side under a point of the drawing (in puzzle units), if it is on the board.
pub fn side_at(p: &EdgeMatching, point: [f32; 2]) -> Option<(usize, usize, Side)> {
    let (x, y) = (point[0] - board_x(p), point[1] - MARGIN);
    if x < 0.0 || y < 0.0 {
        return None;
    }
    let (c, r) = (x.floor() as usize, y.floor() as usize);
    if r >= p.rows() || c >= p.cols() {
        return None;
    }
    let (dx, dy) = (x.fract() - 0.5, y.fract() - 0.5);
    let side = if dy.abs() > dx.abs() {
        if dy < 0.0 { super::TOP } else { super::BOTTOM }
    } else if dx < 0.0 {
        super::LEFT
    } else {
        super::RIGHT
    };
    Some((r, c, side))
}

/// Top-left corner of cell (r, c) in the picture.
pub fn cell_origin(p: &EdgeMatching, r: usize, c: usize) -> [f32; 2] {
    [board_x(p) + c as f32, MARGIN + r as f32]
}

/// The picture as the window shows it: piece numbers on the layout, refereed or not
/// (refereeing the layout must not take away what the designer reads it by); a sample's
/// arrangement is drawn without them.
pub(super) fn draw(p: &EdgeMatching, solution: Option<&EdgeSolution>) -> Drawing {
    let layout = p.layout_solution();
    let numbered = solution.is_none_or(|s| *s == layout);
    draw_with(p, solution, numbered, false, true)
}

/// The picture with piece numbers on any arrangement or none; `answer` draws the pieces only
/// (no fixed-piece frames, mismatch marks or caption); `with_caption` false leaves the score
/// line out (a picture with a title line says it there).
pub(super) fn draw_with(
    p: &EdgeMatching,
    solution: Option<&EdgeSolution>,
    numbered: bool,
    answer: bool,
    with_caption: bool,
) -> Drawing {
    let (rows, cols) = (p.rows(), p.cols());
    let width = picture_width(p);
    let x0 = board_x(p);
    let caption_height = if answer || !with_caption {
        0.0
    } else {
        CAPTION
    };
    let mut d = Drawing::new(width, rows as f32 + 2.0 * MARGIN + caption_height);
    let layout = p.layout_solution();
    let shown = solution.unwrap_or(&layout);
    for r in 0..rows {
        for c in 0..cols {
            let (x, y) = (x0 + c as f32, MARGIN + r as f32);
            let here = if shown.rows() == rows && shown.cols() == cols {
                shown.cell(r, c)
            } else {
                &[]
            };
            let Some(first) = here.first().filter(|f| f.piece < p.pieces().len()) else {
                d.push(Shape::Rect {
                    min: [x, y],
                    max: [x + 1.0, y + 1.0],
                    fill: Some(Color::rgb(244, 244, 244)),
                    stroke: Some(OUTLINE),
                });
                continue;
            };
            let colours = rotated(p.pieces()[first.piece], first.rotation);
            let centre = [x + 0.5, y + 0.5];
            let corners = [[x, y], [x + 1.0, y], [x + 1.0, y + 1.0], [x, y + 1.0]];
            for side in 0..4 {
                d.push(Shape::Polygon {
                    points: vec![corners[side], corners[(side + 1) % 4], centre],
                    fill: Some(palette::tile(colours[side])),
                    stroke: Some(OUTLINE),
                });
            }
            if here.len() > 1 {
                d.push(Shape::Rect {
                    min: [x + 0.04, y + 0.04],
                    max: [x + 0.96, y + 0.96],
                    fill: None,
                    stroke: Some(Stroke {
                        width: 0.06,
                        color: palette::CONFLICT_TEXT,
                    }),
                });
                d.push(label(
                    centre,
                    format!("×{}", here.len()),
                    palette::CONFLICT_TEXT,
                ));
            } else if numbered {
                d.push(Shape::Circle {
                    center: centre,
                    radius: 0.17,
                    fill: Some(palette::BACKGROUND),
                    stroke: None,
                });
                d.push(label(
                    centre,
                    p.number(first.piece).to_string(),
                    palette::GIVEN,
                ));
            }
            if !answer && p.fixed_at(r, c).is_some_and(|f| f.piece == first.piece) {
                d.push(Shape::Rect {
                    min: [x + 0.03, y + 0.03],
                    max: [x + 0.97, y + 0.97],
                    fill: None,
                    stroke: Some(Stroke {
                        width: 0.05,
                        color: palette::GRID,
                    }),
                });
                if !numbered {
                    d.push(Shape::Circle {
                        center: centre,
                        radius: 0.08,
                        fill: Some(palette::GRID),
                        stroke: None,
                    });
                }
            }
        }
    }
    if answer {
        return d;
    }
    let caption_y = MARGIN + rows as f32 + CAPTION / 2.0;
    let caption = if let Some(s) = solution {
        let verdict = check(p, s);
        for &(r, c, side) in &verdict.mismatched {
            let (x, y) = (x0 + c as f32, MARGIN + r as f32);
            let (from, to) = if side == super::RIGHT {
                ([x + 1.0, y + 0.1], [x + 1.0, y + 0.9])
            } else {
                ([x + 0.1, y + 1.0], [x + 0.9, y + 1.0])
            };
            d.push(Shape::Line {
                from,
                to,
                stroke: Stroke {
                    width: 0.09,
                    color: palette::CONFLICT_TEXT,
                },
            });
        }
        let others = verdict.violations.len() - verdict.mismatched.len();
        format!(
            "score {} / {}{}",
            verdict.score,
            p.max_score(),
            match (verdict.mismatched.len(), others) {
                (0, 0) => " · perfect".to_string(),
                (m, 0) => format!(" · {m} mismatched"),
                (m, o) => format!(" · {m} mismatched · {o} other rules broken"),
            }
        )
    } else {
        format!("{}×{} · {} pieces", rows, cols, p.pieces().len())
    };
    if !with_caption {
        return d;
    }
    // Em size so the caption (about 0.55 em per character) fits the picture's width.
    let size = (0.9 * width / (0.55 * caption.chars().count() as f32)).min(0.32);
    d.push(Shape::Text {
        center: [width / 2.0, caption_y],
        size,
        text: caption,
        color: palette::GIVEN,
        bold: false,
    });
    d
}

/// A piece number (drawn on a white disc, readable on any colour).
fn label(centre: [f32; 2], text: String, color: Color) -> Shape {
    Shape::Text {
        center: centre,
        size: if text.len() > 2 { 0.2 } else { 0.26 },
        text,
        color,
        bold: true,
    }
}

#[cfg(test)]
mod numbering_tests {
    use super::*;

    #[test]
    fn refereeing_the_layout_keeps_the_piece_numbers() {
        let crate::puzzle::AnyPuzzle::EdgeMatching(p) = crate::puzzle::Kind::EdgeMatching.example()
        else {
            panic!("an edge-matching example")
        };
        let numbers = |d: &Drawing| d.texts().filter(|t| t.parse::<usize>().is_ok()).count();
        let plain = draw(&p, None);
        let refereed = draw(&p, Some(&p.layout_solution()));
        assert!(numbers(&plain) >= p.pieces().len(), "{}", numbers(&plain));
        assert_eq!(numbers(&refereed), numbers(&plain));
        assert!(refereed.texts().any(|t| t.starts_with("score ")));
    }
}
