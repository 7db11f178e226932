//! The edge-matching referee. It knows the rules, never the QUBO: every cell holds exactly one
//! piece, every piece is used once, fixed pieces stay where they are fixed, border sides face
//! out and only out, and neighbours show one colour on their joint. The **score** is the number
//! of joints between two single-piece cells whose colours agree (and are not border): a partial
//! board has a score too, so large instances report progress.

use super::{Colours, EdgeMatching, PieceClass, class_of, rotated};
use crate::puzzle::{PuzzleError, Violation};

/// A piece on a cell: which (0-based) and how turned (clockwise quarter turns from its listing).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Placed {
    /// Piece index, 0-based (files and JSON count from 1).
    pub piece: usize,
    /// Clockwise quarter turns, 0..=3.
    pub rotation: u8,
}

/// A candidate board: per cell (row-major) the pieces a sample put there — none (empty), one,
/// or several (a broken one-hot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeSolution {
    rows: usize,
    cols: usize,
    cells: Vec<Vec<Placed>>,
}

impl EdgeSolution {
    /// A board from its cells, row by row; panics unless there are rows × cols of them.
    pub fn new(rows: usize, cols: usize, mut cells: Vec<Vec<Placed>>) -> Self {
        assert_eq!(cells.len(), rows * cols, "one entry per cell");
        for c in &mut cells {
            c.sort_unstable();
        }
        EdgeSolution { rows, cols, cells }
    }

    /// From one optional piece per cell.
    pub fn from_single(rows: usize, cols: usize, cells: &[Option<Placed>]) -> Self {
        EdgeSolution::new(
            rows,
            cols,
            cells.iter().map(|c| c.iter().copied().collect()).collect(),
        )
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The pieces on cell (r, c).
    pub fn cell(&self, r: usize, c: usize) -> &[Placed] {
        &self.cells[r * self.cols + c]
    }

    /// The piece on (r, c) when there is exactly one.
    pub fn single(&self, r: usize, c: usize) -> Option<Placed> {
        match self.cell(r, c) {
            [one] => Some(*one),
            _ => None,
        }
    }

    /// The one-line form: cells row-major as `P/R` (piece number / rotation), `.` for an empty
    /// cell, `P/R+P/R` for several, rows separated by `|`.
    pub fn to_line(&self, puzzle: &EdgeMatching) -> String {
        let mut rows = Vec::with_capacity(self.rows);
        for r in 0..self.rows {
            let cells: Vec<String> = (0..self.cols)
                .map(|c| match self.cell(r, c) {
                    [] => ".".to_string(),
                    many => many
                        .iter()
                        .map(|p| format!("{}/{}", puzzle.number(p.piece), p.rotation))
                        .collect::<Vec<_>>()
                        .join("+"),
                })
                .collect();
            rows.push(cells.join(" "));
        }
        rows.join(" | ")
    }

    /// The JSON form: row-major, `{"piece": P, "rotation": R}` (P the piece number), `null` for
    /// an empty cell, a list of such objects for a cell holding several.
    pub fn to_json(&self, puzzle: &EdgeMatching) -> serde_json::Value {
        let one = |p: &Placed| serde_json::json!({"piece": puzzle.number(p.piece), "rotation": p.rotation});
        self.cells
            .iter()
            .map(|c| match &c[..] {
                [] => serde_json::Value::Null,
                [p] => one(p),
                many => many.iter().map(one).collect(),
            })
            .collect()
    }

    /// Reads `to_line`'s or `to_json`'s form for `puzzle`'s board.
    pub fn parse(text: &str, puzzle: &EdgeMatching) -> Result<Self, PuzzleError> {
        let err = |m: String| PuzzleError::parse("solution", m);
        let n = puzzle.pieces().len();
        let index = puzzle.indices_by_number();
        let place = |piece: u64, rotation: u64| -> Result<Placed, PuzzleError> {
            let found = usize::try_from(piece)
                .ok()
                .and_then(|k| index.get(k).copied().flatten());
            match found {
                Some(piece) if rotation <= 3 => Ok(Placed {
                    piece,
                    rotation: rotation as u8,
                }),
                _ => Err(err(format!(
                    "piece {piece} rotation {rotation}: pieces are 1 to {n}, rotations 0 to 3"
                ))),
            }
        };
        let text = text.trim();
        let cells: Vec<Vec<Placed>> = if text.starts_with('[') {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| err(format!("invalid JSON: {e}")))?;
            let items = value
                .as_array()
                .ok_or_else(|| err("a list of cells, row-major".into()))?;
            let one = |v: &serde_json::Value| -> Result<Placed, PuzzleError> {
                let get = |k: &str| v.get(k).and_then(|x| x.as_u64());
                match (get("piece"), get("rotation")) {
                    (Some(p), Some(r)) => place(p, r),
                    _ => Err(err(format!(
                        "{v} is not a cell: write {{\"piece\": P, \"rotation\": R}} or null"
                    ))),
                }
            };
            items
                .iter()
                .map(|v| match v {
                    serde_json::Value::Null => Ok(Vec::new()),
                    serde_json::Value::Array(many) => many.iter().map(one).collect(),
                    other => Ok(vec![one(other)?]),
                })
                .collect::<Result<_, _>>()?
        } else {
            text.split(|c: char| c.is_whitespace() || c == '|')
                .filter(|w| !w.is_empty())
                .map(|w| {
                    if w == "." {
                        return Ok(Vec::new());
                    }
                    w.split('+')
                        .map(|pr| {
                            let (p, r) = pr.split_once('/').unwrap_or((pr, "0"));
                            match (p.parse(), r.parse()) {
                                (Ok(p), Ok(r)) => place(p, r),
                                _ => Err(err(format!(
                                    "'{w}' is not a cell: write PIECE/ROTATION, or . for empty"
                                ))),
                            }
                        })
                        .collect()
                })
                .collect::<Result<_, _>>()?
        };
        let want = puzzle.rows() * puzzle.cols();
        if cells.len() != want {
            return Err(err(format!(
                "{} cells given; the {}×{} board has {want}",
                cells.len(),
                puzzle.rows(),
                puzzle.cols()
            )));
        }
        Ok(EdgeSolution::new(puzzle.rows(), puzzle.cols(), cells))
    }
}

/// The referee's findings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Verdict {
    /// Every broken rule.
    pub violations: Vec<Violation>,
    /// Matched joints.
    pub score: u64,
    /// Joints whose two sides differ, as (row, col, side) of the upper/left cell.
    pub mismatched: Vec<(usize, usize, usize)>,
}

/// The colours cell (r, c) shows when it holds exactly one piece.
pub fn shown(p: &EdgeMatching, s: &EdgeSolution, r: usize, c: usize) -> Option<Colours> {
    let placed = s.single(r, c)?;
    Some(rotated(*p.pieces().get(placed.piece)?, placed.rotation))
}

/// The cells (fixed ones apart) where `candidate` shows the colours `solution` shows, under
/// the board turn that agrees most when no piece is fixed: a tiling turned is a tiling, and the
/// candidate may be near it in any of its turns.
pub fn agreement(
    p: &EdgeMatching,
    candidate: &EdgeSolution,
    solution: &EdgeSolution,
) -> Option<crate::puzzle::Agreement> {
    let (rows, cols) = (p.rows(), p.cols());
    let fits = |s: &EdgeSolution| s.rows() == rows && s.cols() == cols;
    if !fits(candidate) || !fits(solution) {
        return None;
    }
    let colours = |s: &EdgeSolution| -> Vec<Option<Colours>> {
        (0..rows * cols)
            .map(|k| shown(p, s, k / cols, k % cols))
            .collect()
    };
    let seen = colours(candidate);
    let open: Vec<usize> = (0..rows * cols)
        .filter(|&k| p.fixed_at(k / cols, k % cols).is_none())
        .collect();
    // The solution's board after each turn the shape allows (a quarter turn only when square).
    let mut turns = vec![colours(solution)];
    if p.fixed().is_empty() {
        let turn = |g: &[Option<Colours>], quarter: bool| -> Vec<Option<Colours>> {
            (0..rows * cols)
                .map(|k| {
                    let (r, c) = (k / cols, k % cols);
                    let (from, by) = if quarter {
                        ((cols - 1 - c) * cols + r, 1)
                    } else {
                        ((rows - 1 - r) * cols + (cols - 1 - c), 2)
                    };
                    g[from].map(|colours| rotated(colours, by))
                })
                .collect()
        };
        if rows == cols {
            for _ in 0..3 {
                let next = turn(turns.last().expect("one board"), true);
                turns.push(next);
            }
        } else {
            let half = turn(&turns[0], false);
            turns.push(half);
        }
    }
    let same = turns
        .iter()
        .map(|g| {
            open.iter()
                .filter(|&&k| seen[k].is_some() && seen[k] == g[k])
                .count()
        })
        .max()
        .unwrap_or(0);
    Some(crate::puzzle::Agreement {
        same,
        of: open.len(),
    })
}

/// The referee.
pub fn check(p: &EdgeMatching, s: &EdgeSolution) -> Verdict {
    let mut v = Verdict::default();
    let mut bad =
        |constraint: String, detail: String| v.violations.push(Violation { constraint, detail });
    if (s.rows(), s.cols()) != (p.rows(), p.cols()) {
        bad(
            "board".into(),
            format!(
                "the solution is {}×{}, the board {}×{}",
                s.rows(),
                s.cols(),
                p.rows(),
                p.cols()
            ),
        );
        return v;
    }
    let n = p.pieces().len();
    let mut uses: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    for r in 0..p.rows() {
        for c in 0..p.cols() {
            let here = s.cell(r, c);
            match here.len() {
                0 => bad(
                    format!("cell[{r}][{c}]"),
                    format!("row {}, column {} is empty", r + 1, c + 1),
                ),
                1 => {}
                k => bad(
                    format!("cell[{r}][{c}]"),
                    format!("row {}, column {} holds {k} pieces", r + 1, c + 1),
                ),
            }
            for placed in here {
                if placed.piece >= n {
                    bad(
                        format!("cell[{r}][{c}]"),
                        format!("there is no piece {}", placed.piece + 1),
                    );
                } else {
                    uses[placed.piece].push((r, c));
                }
            }
            if let Some(colours) = shown(p, s, r, c) {
                let out = p.outward(r, c);
                for side in 0..4 {
                    if out[side] && colours[side] != 0 {
                        bad(
                            format!("border[{r}][{c}]"),
                            format!(
                                "row {}, column {}: colour {} faces out of the board",
                                r + 1,
                                c + 1,
                                colours[side]
                            ),
                        );
                    } else if !out[side] && colours[side] == 0 {
                        bad(
                            format!("border[{r}][{c}]"),
                            format!("row {}, column {}: a border side faces in", r + 1, c + 1),
                        );
                    }
                }
            }
        }
    }
    for (piece, at) in uses.iter().enumerate() {
        match at.len() {
            0 => bad(
                format!("piece[{}]", p.number(piece)),
                format!("piece {} is not on the board", p.number(piece)),
            ),
            1 => {}
            k => bad(
                format!("piece[{}]", p.number(piece)),
                format!("piece {} is used {k} times", p.number(piece)),
            ),
        }
    }
    for f in p.fixed() {
        if s.cell(f.row, f.col)
            != [super::Placed {
                piece: f.piece,
                rotation: f.rotation,
            }]
        {
            bad(
                format!("fixed[{}]", p.number(f.piece)),
                format!(
                    "piece {} must be at row {}, column {} with rotation {}",
                    p.number(f.piece),
                    f.row + 1,
                    f.col + 1,
                    f.rotation
                ),
            );
        }
    }
    for r in 0..p.rows() {
        for c in 0..p.cols() {
            let Some(here) = shown(p, s, r, c) else {
                continue;
            };
            for (dr, dc, side, name) in
                [(0, 1, super::RIGHT, "right"), (1, 0, super::BOTTOM, "down")]
            {
                let (nr, nc) = (r + dr, c + dc);
                if nr >= p.rows() || nc >= p.cols() {
                    continue;
                }
                let Some(there) = shown(p, s, nr, nc) else {
                    continue;
                };
                let (a, b) = (here[side], there[(side + 2) % 4]);
                if a == b && a != 0 {
                    v.score += 1;
                } else {
                    v.mismatched.push((r, c, side));
                    v.violations.push(Violation {
                        constraint: format!("match[{r}][{c}]-{name}"),
                        detail: format!(
                            "row {}, column {} shows {a}, its neighbour {}",
                            r + 1,
                            c + 1,
                            if b == 0 {
                                "a border".to_string()
                            } else {
                                b.to_string()
                            }
                        ),
                    });
                }
            }
        }
    }
    v
}

/// Contradictions of the instance itself, before any solving: pieces that fit no cell, piece
/// classes that do not fill the board, fixed pieces that do not fit their cell or their fixed
/// neighbours. (Any of these leaves the QUBO without a placement for some cell or piece.)
pub fn instance_conflicts(p: &EdgeMatching) -> Vec<Violation> {
    let mut out = Vec::new();
    for (k, &colours) in p.pieces().iter().enumerate() {
        if class_of(colours) == PieceClass::Misfit {
            out.push(Violation {
                constraint: format!("piece[{}]", p.number(k)),
                detail: format!(
                    "piece {} has border sides that fit no cell (opposite, or three or more)",
                    p.number(k)
                ),
            });
        }
    }
    let [corners, edges, inner, _] = p.class_counts();
    let (r, c) = (p.rows(), p.cols());
    let want = [4, 2 * (r - 2) + 2 * (c - 2), (r - 2) * (c - 2)];
    if [corners, edges, inner] != want {
        out.push(Violation {
            constraint: "pieces".into(),
            detail: format!(
                "a {r}×{c} board takes {} corner, {} edge and {} inner pieces; there are {corners}, {edges} and {inner}",
                want[0], want[1], want[2]
            ),
        });
    }
    for f in p.fixed() {
        let colours = rotated(p.pieces()[f.piece], f.rotation);
        if !p.fits(colours, f.row, f.col) {
            out.push(Violation {
                constraint: format!("fixed[{}]", p.number(f.piece)),
                detail: format!(
                    "fixed piece {} at row {}, column {} with rotation {} does not fit: its border sides must face out",
                    p.number(f.piece),
                    f.row + 1,
                    f.col + 1,
                    f.rotation
                ),
            });
        }
        for g in p.fixed() {
            let right = (g.row, g.col) == (f.row, f.col + 1);
            let below = (g.row, g.col) == (f.row + 1, f.col);
            if !(right || below) {
                continue;
            }
            let side = if right { super::RIGHT } else { super::BOTTOM };
            let theirs = rotated(p.pieces()[g.piece], g.rotation);
            if colours[side] != theirs[(side + 2) % 4] {
                out.push(Violation {
                    constraint: format!("fixed[{}]", p.number(f.piece)),
                    detail: format!(
                        "fixed pieces {} and {} are neighbours with different colours",
                        p.number(f.piece),
                        p.number(g.piece)
                    ),
                });
            }
        }
    }
    out
}

/// A colour on an odd number of sides, in words, if any: a perfect tiling pairs every
/// non-border side with a neighbour's, so each colour needs an even count.
pub fn odd_colour(p: &EdgeMatching) -> Option<String> {
    let mut count = [0usize; 256];
    for piece in p.pieces() {
        for &c in piece {
            count[c as usize] += 1;
        }
    }
    let odd = (1..256).find(|&c| count[c] % 2 == 1)?;
    Some(format!(
        "colour {odd} is on {} sides (an odd number)",
        count[odd]
    ))
}
