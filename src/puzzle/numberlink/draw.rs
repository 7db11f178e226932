//! The Numberlink picture: a grid, each pair's endpoints as discs in the pair's colour with its
//! name, and a candidate's paths as thick lines through cell centres with round joins (a disc
//! at every path cell). Where the referee objects — paths meeting, dead ends, branches, empty
//! cells under the fill rule — the cell is shaded red; a pair whose path does not join up, or
//! has a loop off its path, has its endpoints ringed red; the cells of an isolated loop are
//! shaded red too.

use super::check::{NumberlinkSolution, check};
use super::{Numberlink, Rule};
use crate::render::{Color, Drawing, Shape, Stroke, palette};

/// Space around the grid, in cells (editors map clicks with it).
pub const MARGIN: f32 = 0.2;
/// Width of a path, in cells.
const PATH_WIDTH: f32 = 0.34;
/// Radius of an endpoint disc, in cells.
const END_RADIUS: f32 = 0.36;

/// Pair k's colour (1-based), shared with the edge-matching palette.
pub fn pair_color(k: u16) -> Color {
    palette::tile(k.min(255) as u8)
}

/// Black or white, whichever reads on `fill`.
fn text_on(fill: Color) -> Color {
    let luma = 0.299 * fill.r as f32 + 0.587 * fill.g as f32 + 0.114 * fill.b as f32;
    if luma > 150.0 {
        Color::rgb(20, 20, 20)
    } else {
        Color::rgb(255, 255, 255)
    }
}

/// The centre of cell i in drawing units.
pub fn centre(p: &Numberlink, i: usize) -> [f32; 2] {
    [
        MARGIN + (i % p.width()) as f32 + 0.5,
        MARGIN + (i / p.width()) as f32 + 0.5,
    ]
}

pub(super) fn draw(p: &Numberlink, solution: Option<&NumberlinkSolution>) -> Drawing {
    draw_layer(p, solution, None)
}

/// The picture with only pair `layer`'s path (and the referee's marks about it) when given;
/// the other pairs' endpoints are drawn faded.
pub fn draw_layer(
    p: &Numberlink,
    solution: Option<&NumberlinkSolution>,
    layer: Option<u16>,
) -> Drawing {
    let (w, h) = (p.width(), p.height());
    let shown = |k: u16| layer.is_none_or(|l| l == k);
    let mut d = Drawing::new(w as f32 + 2.0 * MARGIN, h as f32 + 2.0 * MARGIN);
    let n = w * h;
    let violations = solution.map(|s| check(p, s)).unwrap_or_default();
    // Cells the referee names (`cell[r][c]`) and pairs it names (`pair[k]`).
    let mut bad_cell = vec![false; n];
    let mut bad_pair = vec![false; p.num_pairs() + 1];
    // Only conflicts are marked: an empty cell or a path still being drawn is unfinished work.
    for v in violations
        .iter()
        .filter(|v| !super::check::is_unfinished(v))
    {
        let idx: Vec<usize> = v
            .constraint
            .split(['[', ']'])
            .filter_map(|t| t.parse().ok())
            .collect();
        match (v.constraint.split('[').next(), &idx[..]) {
            (Some("cell"), &[r, c]) if r < h && c < w && layer.is_none() => {
                bad_cell[r * w + c] = true
            }
            (Some("pair"), &[k]) if k <= p.num_pairs() && shown(k as u16) => bad_pair[k] = true,
            _ => {}
        }
    }
    for (k, cycle) in solution
        .map(|s| super::check::cycles(p, s))
        .unwrap_or_default()
    {
        for i in cycle.into_iter().filter(|_| shown(k)) {
            bad_cell[i] = true;
        }
    }
    for (i, &bad) in bad_cell.iter().enumerate() {
        let [x, y] = [MARGIN + (i % w) as f32, MARGIN + (i / w) as f32];
        let fill = if bad {
            Some(palette::CONFLICT_FILL)
        } else {
            None
        };
        d.push(Shape::Rect {
            min: [x, y],
            max: [x + 1.0, y + 1.0],
            fill,
            stroke: Some(Stroke {
                width: 0.02,
                color: palette::GRID_THIN,
            }),
        });
    }
    d.push(Shape::Rect {
        min: [MARGIN, MARGIN],
        max: [MARGIN + w as f32, MARGIN + h as f32],
        fill: None,
        stroke: Some(Stroke {
            width: 0.06,
            color: palette::GRID,
        }),
    });
    if let Some(s) = solution.filter(|s| s.right.len() == n && s.down.len() == n) {
        for i in 0..n {
            for (k, j) in [(s.right[i], i + 1), (s.down[i], i + w)] {
                if k == 0 || k as usize > p.num_pairs() || !shown(k) {
                    continue;
                }
                d.push(Shape::Line {
                    from: centre(p, i),
                    to: centre(p, j),
                    stroke: Stroke {
                        width: PATH_WIDTH,
                        color: pair_color(k),
                    },
                });
            }
        }
        // Round joins: a disc on every cell the candidate's edges touch.
        for i in 0..n {
            if p.endpoints()[i] != 0 {
                continue;
            }
            if let Some(&(_, k)) = s.edges_at(p, i).iter().find(|e| shown(e.1))
                && (k as usize) <= p.num_pairs()
            {
                d.push(Shape::Circle {
                    center: centre(p, i),
                    radius: PATH_WIDTH / 2.0,
                    fill: Some(pair_color(k)),
                    stroke: None,
                });
            }
        }
    }
    for i in 0..n {
        let k = p.endpoints()[i];
        if k == 0 {
            continue;
        }
        let mut fill = pair_color(k);
        if !shown(k) {
            // Faded towards white.
            let fade = |v: u8| (v as u16 + 3 * 255) as f32 / 4.0;
            fill = Color::rgb(fade(fill.r) as u8, fade(fill.g) as u8, fade(fill.b) as u8);
        }
        d.push(Shape::Circle {
            center: centre(p, i),
            radius: END_RADIUS,
            fill: Some(fill),
            stroke: Some(Stroke {
                width: if bad_pair[k as usize] { 0.08 } else { 0.03 },
                color: if bad_pair[k as usize] {
                    palette::CONFLICT_TEXT
                } else {
                    palette::GRID
                },
            }),
        });
        let name = p.name(k);
        d.push(Shape::Text {
            center: centre(p, i),
            size: if name.chars().count() > 2 { 0.3 } else { 0.45 },
            text: name.to_string(),
            color: text_on(fill),
            bold: true,
        });
    }
    if p.rule() == Rule::NoFill {
        // Say so: an empty cell is then no mistake.
        d.push(Shape::Text {
            center: [d.width / 2.0, MARGIN / 2.0],
            size: 0.16,
            text: "cells may stay empty".into(),
            color: palette::GRID_THIN,
            bold: false,
        });
    }
    d
}
