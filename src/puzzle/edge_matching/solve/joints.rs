//! Joint budgets: a count, per kind of joint and colour, of the joints between two open cells
//! that a completion will give that colour — read off the pieces still free and the colours the
//! open cells are already asked for. A scan keeps them as it places and takes back pieces, and
//! a piece that would ask for more joints of a colour than are left is refused at once, where
//! the bare scan found out only rows later, when the pieces of that colour ran out.
//!
//! Why the counts are fixed: on a board of at least 3×3, an edge piece always turns its inner
//! side (the one across from its border side) to an inner cell, its two other sides to the
//! frame; a corner's two sides face the frame; an inner piece's four sides face inner cells or
//! an edge piece's inner side. So, per colour c, with `open` the cells not yet filled:
//! - edge–inner joints between open cells: free edge pieces' inner sides of colour c, less the
//!   open edge cells already asked for c by a placed inner neighbour;
//! - twice the inner–inner joints between open cells: free inner pieces' sides of colour c,
//!   less what the open inner cells are asked for by placed neighbours, less the edge–inner
//!   joints above (those take one side of an inner piece each);
//! - twice the frame joints between open cells: free edge and corner pieces' frame sides of
//!   colour c, less what open frame cells are asked for along the frame.
//!
//! None of them can go below zero in a completion. Placing a piece changes only what its sides
//! facing open cells commit: 2 for an inner–inner or frame side, 1 for an edge–inner side
//! (its other end was already counted where the other piece's side is). This holds for any
//! fill order and from any partly filled board (a repair window's, whose placed part may
//! mismatch), since every count starts from what is free and what is asked for, not from a
//! solution. Boards narrower than three keep no budgets.
//!
//! A count below zero, or odd where a joint takes two sides, means no completion at all: every
//! scan looks once before its first piece. Where the counts pay for a look at every piece is
//! measured in `JointChecks`.

use crate::puzzle::edge_matching::encode::Placements;
use crate::puzzle::edge_matching::{EdgeMatching, PieceClass, class_of};

/// The three kinds of joint, as slots of `JointBudgets::spare` (kind × `COLOURS` + colour).
const INNER: usize = 0;
const EDGE_INNER: usize = 1;
const FRAME: usize = 2;
/// Slots per kind: every colour a side can show (a piece nothing fits may show one past the
/// scan's colours; it counts like the rest).
const COLOURS: usize = 256;

/// What a side of a step commits: the slot base of its joint kind, the amount, and the side.
#[derive(Clone, Copy, Default)]
struct Commit {
    base: u32,
    amount: i32,
    side: u8,
}

/// The budgets of one scan, and per step what its piece's sides commit.
pub(super) struct JointBudgets {
    /// Per kind and colour: joints left between open cells (twice that for inner–inner and
    /// frame joints).
    spare: Vec<i32>,
    /// Per step: the commits of its sides that face a cell filled later, `count` of them.
    commits: Vec<([Commit; 4], u8)>,
}

impl JointBudgets {
    /// No budgets (every placement passes): boards narrower than three.
    fn none(steps: usize) -> JointBudgets {
        JointBudgets {
            spare: Vec::new(),
            commits: vec![([Commit::default(); 4], 0); steps],
        }
    }

    /// The budgets for a scan that fills `order`'s open cells of `board` (placements of `pl`
    /// where a piece is down) with the pieces not in `used`.
    pub(super) fn new(
        p: &EdgeMatching,
        pl: &Placements,
        board: &[Option<u32>],
        used: &[u64],
        order: &[usize],
    ) -> JointBudgets {
        let (rows, cols) = (p.rows(), p.cols());
        let open_cells: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&cell| board[cell].is_none())
            .collect();
        if rows < 3 || cols < 3 {
            return JointBudgets::none(open_cells.len());
        }
        let frame = |cell: usize| {
            let (r, c) = (cell / cols, cell % cols);
            r == 0 || c == 0 || r + 1 == rows || c + 1 == cols
        };
        let kind = |a: usize, b: usize| match (frame(a), frame(b)) {
            (true, true) => FRAME,
            (false, false) => INNER,
            _ => EDGE_INNER,
        };
        let slot = |kind: usize, colour: u8| kind * COLOURS + colour as usize;
        let mut spare = offered(p, |piece| used[piece / 64] >> (piece % 64) & 1 == 0);
        // Less what the open cells are asked for by placed neighbours.
        for &cell in &open_cells {
            for (side, nb) in p.across(cell).into_iter().enumerate() {
                let Some(nb) = nb else { continue };
                let Some(v) = board[nb] else { continue };
                let shown = pl.list[v as usize].colours[(side + 2) % 4];
                let asked = match kind(cell, nb) {
                    EDGE_INNER if frame(cell) => EDGE_INNER,
                    EDGE_INNER => INNER,
                    k => k,
                };
                spare[slot(asked, shown)] -= 1;
            }
        }
        // Each edge–inner joint between open cells takes one inner piece's side too.
        for colour in 0..COLOURS {
            spare[INNER * COLOURS + colour] -= spare[EDGE_INNER * COLOURS + colour];
        }
        // What each step's sides commit: those facing cells filled after it.
        let mut filled: Vec<bool> = board.iter().map(Option::is_some).collect();
        let commits = (open_cells.iter())
            .map(|&cell| {
                let mut out = ([Commit::default(); 4], 0u8);
                for (side, nb) in p.across(cell).into_iter().enumerate() {
                    let Some(nb) = nb else { continue };
                    if filled[nb] {
                        continue;
                    }
                    let k = kind(cell, nb);
                    out.0[out.1 as usize] = Commit {
                        base: (k * COLOURS) as u32,
                        amount: if k == EDGE_INNER { 1 } else { 2 },
                        side: side as u8,
                    };
                    out.1 += 1;
                }
                filled[cell] = true;
                out
            })
            .collect();
        JointBudgets { spare, commits }
    }

    /// Whether every budget can still be met: none below zero, and those counted twice even
    /// (a joint has two sides). False means no completion exists.
    pub(super) fn feasible(&self) -> bool {
        (self.spare.iter().enumerate()).all(|(at, &n)| {
            let twice = at / COLOURS != EDGE_INNER;
            n >= 0 && !(twice && n % 2 != 0)
        })
    }

    /// Step k's piece, showing `shown`, goes down: its sides' joints are committed. False (and
    /// nothing changed) when a budget would go below zero.
    #[inline(always)]
    pub(super) fn commit(&mut self, k: usize, shown: &[u8; 4]) -> bool {
        let (commits, n) = &self.commits[k];
        let commits = &commits[..*n as usize];
        let mut fits = true;
        for c in commits {
            let at = c.base as usize + shown[c.side as usize] as usize;
            self.spare[at] -= c.amount;
            fits &= self.spare[at] >= 0;
        }
        if !fits {
            self.release(k, shown);
        }
        fits
    }

    /// Step k's piece, showing `shown`, is taken back (after a `commit` that returned true).
    #[inline(always)]
    pub(super) fn release(&mut self, k: usize, shown: &[u8; 4]) {
        let (commits, n) = &self.commits[k];
        for c in &commits[..*n as usize] {
            self.spare[c.base as usize + shown[c.side as usize] as usize] += c.amount;
        }
    }

    /// The spare joints of each kind per colour: (inner–inner ×2, edge–inner, frame ×2).
    #[cfg(test)]
    pub(super) fn spare(&self) -> [Vec<i32>; 3] {
        let c = COLOURS;
        [INNER, EDGE_INNER, FRAME].map(|k| self.spare[k * c..(k + 1) * c].to_vec())
    }
}

/// What the pieces `free` admits offer, per kind and colour: inner pieces' sides, edge pieces'
/// inner sides, edge and corner pieces' frame sides.
fn offered(p: &EdgeMatching, free: impl Fn(usize) -> bool) -> Vec<i32> {
    let mut spare = vec![0i32; 3 * COLOURS];
    let slot = |kind: usize, colour: u8| kind * COLOURS + colour as usize;
    let pieces = p.pieces().iter().enumerate();
    for &c in pieces.filter(|(k, _)| free(*k)).map(|(_, c)| c) {
        match class_of(c) {
            PieceClass::Inner => (0..4).for_each(|s| spare[slot(INNER, c[s])] += 1),
            PieceClass::Edge => {
                let b = (0..4)
                    .find(|&s| c[s] == 0)
                    .expect("an edge piece has a border side");
                spare[slot(EDGE_INNER, c[(b + 2) % 4])] += 1;
                spare[slot(FRAME, c[(b + 1) % 4])] += 1;
                spare[slot(FRAME, c[(b + 3) % 4])] += 1;
            }
            PieceClass::Corner => (0..4)
                .filter(|&s| c[s] != 0)
                .for_each(|s| spare[slot(FRAME, c[s])] += 1),
            // It fits no cell: nothing completes the board, whatever is counted.
            PieceClass::Misfit => {}
        }
    }
    spare
}

/// Why the pieces cannot pair their colours up into a perfect tiling, by the joint counts of
/// the empty board (see the module header), in words; `None` when the counts allow one (or the
/// board is narrower than three).
pub(crate) fn no_tiling(p: &EdgeMatching) -> Option<String> {
    if p.rows() < 3 || p.cols() < 3 {
        return None;
    }
    let offer = offered(p, |_| true);
    (1..COLOURS).find_map(|c| {
        let frame = offer[FRAME * COLOURS + c];
        let edges = offer[EDGE_INNER * COLOURS + c];
        let inner = offer[INNER * COLOURS + c];
        if frame % 2 != 0 {
            Some(format!(
                "colour {c} is on {frame} frame sides (beside a border side): frame joints pair \
                 them, and the count is odd"
            ))
        } else if inner < edges {
            Some(format!(
                "colour {c} is on the inner side of {edges} edge pieces but on only {inner} \
                 sides of inner pieces"
            ))
        } else if (inner - edges) % 2 != 0 {
            Some(format!(
                "colour {c} is on {inner} sides of inner pieces and the inner side of {edges} \
                 edge pieces: the {} left over for joints between inner pieces are odd",
                inner - edges
            ))
        } else {
            None
        }
    })
}
