//! Exact reference: backtracking over the same placements the QUBO uses (so the first corner is
//! held where the encoding holds it). Fixed pieces go down first; then the cells in a scan along
//! the board's shorter side (`fill_order`). Each cell's candidates are looked up by the colour
//! an already-placed anchor neighbour shows it, then checked against every other placed
//! neighbour. (Frame-first, the classic Eternity II order, was measured worse here: on a random
//! 5×8 board it gave up after 5·10⁶ nodes where the scan needs 0.01 s; both solve the clue
//! puzzles.) A node is one piece placed;
//! the search stops at `node_budget` and says so.
//!
//! Identical pieces (the same colours up to rotation) are interchangeable: the search uses them
//! in list order only, so it neither repeats work nor counts a swap of two twins as a second
//! solution — "2 solutions" means two different colour boards.

use super::EdgeMatching;
use super::check::{EdgeSolution, Placed};
use super::encode::Placements;

/// What a search found.
pub struct Found {
    /// Solutions, in the order found (at most the number asked for).
    pub solutions: Vec<EdgeSolution>,
    /// The same solutions as placements of `Placements::of` per cell.
    pub(super) boards: Vec<Vec<Option<u32>>>,
    /// Candidates tried.
    pub nodes: u64,
    /// True when the budget ran out before the search finished.
    pub gave_up: bool,
}

/// The order cells are filled in: a scan along the shorter side (row by row on a board at least
/// as tall as wide, else column by column), so each new cell meets two placed neighbours and
/// the open frontier is as short as the board allows.
fn fill_order(rows: usize, cols: usize) -> Vec<usize> {
    if cols > rows {
        (0..cols)
            .flat_map(|c| (0..rows).map(move |r| r * cols + c))
            .collect()
    } else {
        (0..rows * cols).collect()
    }
}

struct Search<'a> {
    pl: &'a Placements,
    /// Per step: the cell, and the anchor (neighbour cell, this cell's side facing it).
    steps: Vec<(usize, Option<(usize, usize)>)>,
    /// Per step: candidates by the colour the anchor shows (or one list without an anchor).
    tables: Vec<Vec<Vec<u32>>>,
    /// Per cell: (neighbour, this cell's side facing it).
    neighbours: Vec<Vec<(usize, usize)>>,
    board: Vec<Option<u32>>,
    used: Vec<bool>,
    /// Per piece: the previous identical piece in the list, which must be used first.
    twin_before: Vec<Option<usize>>,
    nodes: u64,
    budget: u64,
    want: usize,
    found: Vec<Vec<Option<u32>>>,
}

impl Search<'_> {
    fn fits(&self, cell: usize, v: u32) -> bool {
        let colours = self.pl.list[v as usize].colours;
        self.neighbours[cell]
            .iter()
            .all(|&(nb, side)| match self.board[nb] {
                Some(u) => self.pl.list[u as usize].colours[(side + 2) % 4] == colours[side],
                None => true,
            })
    }

    /// Fills steps `k..`; false when the search must stop (enough found or budget spent).
    fn fill(&mut self, k: usize) -> bool {
        if k == self.steps.len() {
            self.found.push(self.board.clone());
            return self.found.len() < self.want;
        }
        let (cell, anchor) = self.steps[k];
        let list = match anchor {
            None => 0,
            Some((nb, side)) => {
                let u = self.board[nb].expect("anchors are placed first");
                self.pl.list[u as usize].colours[(side + 2) % 4] as usize
            }
        };
        let count = self.tables[k].get(list).map_or(0, Vec::len);
        for i in 0..count {
            let v = self.tables[k][list][i];
            let piece = self.pl.list[v as usize].piece as usize;
            if self.used[piece] || self.twin_before[piece].is_some_and(|q| !self.used[q]) {
                continue;
            }
            if !self.fits(cell, v) {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                return false;
            }
            self.used[piece] = true;
            self.board[cell] = Some(v);
            let go_on = self.fill(k + 1);
            self.board[cell] = None;
            self.used[piece] = false;
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// Up to `want` solutions within `node_budget` candidates tried.
pub fn search(p: &EdgeMatching, want: usize, node_budget: u64) -> Found {
    let pl = Placements::of(p);
    let mut board: Vec<Option<u32>> = vec![None; p.rows() * p.cols()];
    // Fixed pieces are placed before the search (a fixed piece has exactly one placement).
    for f in p.fixed() {
        let cell = f.row * p.cols() + f.col;
        match pl.by_piece[f.piece].first() {
            Some(&v) if pl.list[v as usize].cell as usize == cell => board[cell] = Some(v),
            _ => {
                return Found {
                    solutions: Vec::new(),
                    boards: Vec::new(),
                    nodes: 0,
                    gave_up: false,
                };
            }
        }
    }
    let order = fill_order(p.rows(), p.cols());
    search_from(p, &pl, board, &order, want, node_budget)
}

/// Up to `want` completions of `board` (a placement of `pl` per cell already down, `None`
/// where the search fills in, cell by cell in `order`, which lists every such cell) with the
/// pieces not already down, within `node_budget` candidates tried. The placed cells must hold
/// distinct pieces.
pub(super) fn search_from(
    p: &EdgeMatching,
    pl: &Placements,
    board: Vec<Option<u32>>,
    order: &[usize],
    want: usize,
    node_budget: u64,
) -> Found {
    let (rows, cols) = (p.rows(), p.cols());
    let mut used = vec![false; p.pieces().len()];
    for v in board.iter().flatten() {
        used[pl.list[*v as usize].piece as usize] = true;
    }
    let neighbours: Vec<Vec<(usize, usize)>> = (0..rows * cols)
        .map(|cell| {
            (p.across(cell).into_iter().enumerate())
                .filter_map(|(side, nb)| Some((nb?, side)))
                .collect()
        })
        .collect();
    debug_assert!(
        (0..board.len()).all(|cell| board[cell].is_some() || order.contains(&cell)),
        "every open cell is in the order"
    );
    let mut placed_before: Vec<bool> = board.iter().map(Option::is_some).collect();
    let mut steps = Vec::new();
    let mut tables = Vec::new();
    for &cell in order {
        if board[cell].is_some() {
            continue;
        }
        let anchor = neighbours[cell]
            .iter()
            .copied()
            .find(|&(nb, _)| placed_before[nb]);
        let table = match anchor {
            None => vec![pl.by_cell[cell].clone()],
            Some((_, side)) => {
                let mut t: Vec<Vec<u32>> = vec![Vec::new(); 256];
                for &v in &pl.by_cell[cell] {
                    t[pl.list[v as usize].colours[side] as usize].push(v);
                }
                t
            }
        };
        steps.push((cell, anchor));
        tables.push(table);
        placed_before[cell] = true;
    }
    let canonical: Vec<[u8; 4]> = p
        .pieces()
        .iter()
        .map(|&c| (0..4).map(|k| super::rotated(c, k)).min().unwrap_or(c))
        .collect();
    let twin_before = (0..canonical.len())
        .map(|k| (0..k).rev().find(|&q| canonical[q] == canonical[k]))
        .collect();
    let mut s = Search {
        pl,
        twin_before,
        steps,
        tables,
        neighbours,
        board,
        used,
        nodes: 0,
        budget: node_budget,
        want: want.max(1),
        found: Vec::new(),
    };
    let finished = s.fill(0);
    let gave_up = !finished && s.found.len() < s.want;
    let solutions = s
        .found
        .iter()
        .map(|board| board_solution(p, pl, board))
        .collect();
    Found {
        solutions,
        boards: s.found,
        nodes: s.nodes,
        gave_up,
    }
}

/// A board of `pl`'s placements as a candidate solution.
pub(super) fn board_solution(
    p: &EdgeMatching,
    pl: &Placements,
    board: &[Option<u32>],
) -> EdgeSolution {
    let cells: Vec<Option<Placed>> = board
        .iter()
        .map(|v| {
            v.map(|v| {
                let place = pl.list[v as usize];
                Placed {
                    piece: place.piece as usize,
                    rotation: place.rotation,
                }
            })
        })
        .collect();
    EdgeSolution::from_single(p.rows(), p.cols(), &cells)
}
