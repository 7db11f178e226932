//! The editor's operations on an instance. Each keeps the invariant in the module header of
//! `edge_matching`: pieces and numbers move together, fixed positions stay on the board on
//! distinct pieces and cells.

use super::{EdgeMatching, EdgeSolution, Fixed, Placed, rotated};
use crate::puzzle::PuzzleError;

impl EdgeMatching {
    /// Sets one side of a piece (as listed) to a colour.
    pub fn set_colour(&mut self, piece: usize, side: usize, colour: u8) -> Result<(), PuzzleError> {
        let p = self
            .pieces
            .get_mut(piece)
            .ok_or_else(|| PuzzleError::Invalid(format!("there is no piece {}", piece + 1)))?;
        p[side % 4] = colour;
        Ok(())
    }

    /// Turns a piece's listed colours clockwise by `quarter_turns` (a fixed piece keeps how it
    /// looks on the board: its fixed rotation absorbs the turn the other way).
    pub fn rotate_piece(&mut self, piece: usize, quarter_turns: u8) -> Result<(), PuzzleError> {
        let p = self
            .pieces
            .get_mut(piece)
            .ok_or_else(|| PuzzleError::Invalid(format!("there is no piece {}", piece + 1)))?;
        *p = rotated(*p, quarter_turns % 4);
        Ok(())
    }

    /// Turns the fixed piece at a cell clockwise on the board.
    pub fn rotate_fixed(&mut self, row: usize, col: usize) {
        if let Some(f) = self.fixed.iter_mut().find(|f| (f.row, f.col) == (row, col)) {
            f.rotation = (f.rotation + 1) % 4;
        }
    }

    /// Exchanges two pieces' places in the list (and so in the layout); each keeps its number,
    /// and fixed positions follow their pieces.
    pub fn swap_pieces(&mut self, a: usize, b: usize) -> Result<(), PuzzleError> {
        if a >= self.pieces.len() || b >= self.pieces.len() {
            return Err(PuzzleError::Invalid("no such piece".into()));
        }
        self.pieces.swap(a, b);
        self.numbers.swap(a, b);
        for f in &mut self.fixed {
            if f.piece == a {
                f.piece = b;
            } else if f.piece == b {
                f.piece = a;
            }
        }
        Ok(())
    }

    /// Fixes `piece` at (row, col) with `rotation`, or clears the fixed position there when
    /// `piece` is `None`. A piece fixed elsewhere, or another piece fixed there, moves.
    pub fn set_fixed(
        &mut self,
        row: usize,
        col: usize,
        piece: Option<(usize, u8)>,
    ) -> Result<(), PuzzleError> {
        if row >= self.rows || col >= self.cols {
            return Err(PuzzleError::Invalid("that cell is off the board".into()));
        }
        self.fixed.retain(|f| (f.row, f.col) != (row, col));
        if let Some((piece, rotation)) = piece {
            if piece >= self.pieces.len() {
                return Err(PuzzleError::Invalid(format!(
                    "there is no piece {}",
                    piece + 1
                )));
            }
            self.fixed.retain(|f| f.piece != piece);
            self.fixed.push(Fixed {
                piece,
                row,
                col,
                rotation: rotation % 4,
            });
        }
        Ok(())
    }

    /// The board as the editor and the bare picture show it: fixed pieces at their cells with
    /// their rotations, every other piece in list order filling the free cells row by row,
    /// unturned. (A puzzle designed in solution order shows solved.)
    pub fn layout(&self) -> Vec<Option<Placed>> {
        let mut cells: Vec<Option<Placed>> = vec![None; self.rows * self.cols];
        let mut is_fixed = vec![false; self.pieces.len()];
        for f in &self.fixed {
            cells[f.row * self.cols + f.col] = Some(Placed {
                piece: f.piece,
                rotation: f.rotation,
            });
            is_fixed[f.piece] = true;
        }
        let mut free = (0..self.pieces.len()).filter(|&p| !is_fixed[p]);
        for cell in cells.iter_mut().filter(|c| c.is_none()) {
            *cell = free.next().map(|piece| Placed { piece, rotation: 0 });
        }
        cells
    }

    /// The layout as a candidate solution (the editor referees it live).
    pub fn layout_solution(&self) -> EdgeSolution {
        EdgeSolution::new(
            self.rows,
            self.cols,
            self.layout()
                .into_iter()
                .map(|c| c.into_iter().collect())
                .collect(),
        )
    }
}
