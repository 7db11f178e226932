//! The JSON form of an instance (`EdgeMatching` reads and writes itself through `EdgeFile`),
//! and the checks both file forms make: piece numbers, and fixed positions counted from 1.

use serde::{Deserialize, Serialize};

use super::{Colours, EdgeMatching, Fixed};
use crate::puzzle::PuzzleError;

/// The JSON shape: `{"kind": "edge-matching", "rows": 4, "cols": 4, "pieces": [[t, r, b, l], …],
/// "numbers": [2, 1, …], "fixed": [{"piece": 139, "row": 9, "col": 8, "rotation": 2}]}` (piece
/// numbers, 1-based row and col; `numbers` only when they differ from list order).
#[derive(Serialize, Deserialize)]
pub(super) struct EdgeFile {
    rows: usize,
    cols: usize,
    pieces: Vec<Colours>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    numbers: Vec<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    fixed: Vec<FixedFile>,
}

#[derive(Serialize, Deserialize)]
struct FixedFile {
    piece: usize,
    row: usize,
    col: usize,
    #[serde(default)]
    rotation: u8,
}

impl TryFrom<EdgeFile> for EdgeMatching {
    type Error = PuzzleError;
    fn try_from(f: EdgeFile) -> Result<Self, Self::Error> {
        let numbers = if f.numbers.is_empty() {
            (1..=f.pieces.len()).collect()
        } else {
            f.numbers
        };
        let index = check_numbers(&numbers, f.pieces.len())?;
        let fixed = f
            .fixed
            .iter()
            .map(|x| {
                let piece = index.get(x.piece).copied().flatten().map_or(0, |i| i + 1);
                if piece == 0 && x.piece != 0 {
                    return Err(PuzzleError::Invalid(format!(
                        "fixed piece {} does not exist (there are {} pieces)",
                        x.piece,
                        numbers.len()
                    )));
                }
                from_one_based(piece, x.row, x.col, x.rotation)
            })
            .collect::<Result<Vec<_>, _>>()?;
        EdgeMatching::new(f.rows, f.cols, f.pieces, fixed)?.with_numbers(numbers)
    }
}

impl From<EdgeMatching> for EdgeFile {
    fn from(p: EdgeMatching) -> Self {
        EdgeFile {
            rows: p.rows,
            cols: p.cols,
            fixed: p
                .fixed
                .iter()
                .map(|x| FixedFile {
                    piece: p.numbers[x.piece],
                    row: x.row + 1,
                    col: x.col + 1,
                    rotation: x.rotation,
                })
                .collect(),
            numbers: if p.numbered_in_order() {
                Vec::new()
            } else {
                p.numbers
            },
            pieces: p.pieces,
        }
    }
}

/// Checks that `numbers` name `pieces` pieces 1..=pieces once each; returns, per number, the
/// index of its piece (entry 0 unused).
pub(super) fn check_numbers(
    numbers: &[usize],
    pieces: usize,
) -> Result<Vec<Option<usize>>, PuzzleError> {
    if numbers.len() != pieces {
        return Err(PuzzleError::Invalid(format!(
            "{} piece numbers for {pieces} pieces",
            numbers.len()
        )));
    }
    let mut index = vec![None; pieces + 1];
    for (i, &n) in numbers.iter().enumerate() {
        match index.get(n) {
            Some(None) if n >= 1 => index[n] = Some(i),
            Some(Some(_)) => {
                return Err(PuzzleError::Invalid(format!(
                    "piece number {n} is given twice"
                )));
            }
            _ => {
                return Err(PuzzleError::Invalid(format!(
                    "piece number {n} is out of range: pieces are numbered 1 to {pieces}"
                )));
            }
        }
    }
    Ok(index)
}

/// A fixed position from its 1-based file form.
pub(super) fn from_one_based(
    piece: usize,
    row: usize,
    col: usize,
    rotation: u8,
) -> Result<Fixed, PuzzleError> {
    if piece == 0 || row == 0 || col == 0 {
        return Err(PuzzleError::Invalid(
            "fixed positions count pieces, rows and columns from 1".into(),
        ));
    }
    if rotation > 3 {
        return Err(PuzzleError::Invalid(format!(
            "rotation {rotation} of fixed piece {piece}: rotations are 0 to 3 quarter turns"
        )));
    }
    Ok(Fixed {
        piece: piece - 1,
        row: row - 1,
        col: col - 1,
        rotation,
    })
}
