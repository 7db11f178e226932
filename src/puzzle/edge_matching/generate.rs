//! Random solvable boards, Eternity II style: a solved board is painted joint by joint — joints
//! between two frame pieces along the border take one of the frame colours (1..=F), every
//! other joint one of the inner colours (F+1..=F+I) — then cut into pieces, each turned a
//! random number of quarter turns and the list shuffled. The same parameters give the same
//! instance. The painted board is a perfect tiling, so the instance is solvable; with few
//! colours it usually has many solutions.

use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::{Colours, EdgeMatching, MAX_SIDE, rotated};
use crate::puzzle::{GenerateControl, PuzzleError};

/// Boards a unique generation draws before it gives up.
pub const UNIQUE_ATTEMPTS: u64 = 500;
/// Search nodes per uniqueness proof (a board the search cannot settle within it is skipped).
const UNIQUE_NODE_BUDGET: u64 = 2_000_000;
/// Wall time a unique generation may take in all: one proof on a 64×64 board takes about 4 s
/// (building its 6·10⁷ placements), so 500 draws would run for half an hour without a word.
pub const UNIQUE_TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(60);
/// Draws in a row the search could not settle, none settled before, after which boards of
/// this size and palette are taken to be beyond proof here.
const UNSETTLED_IN_A_ROW: u64 = 5;

/// As `generate`, but only a board with exactly one solution, proved by the exact search:
/// boards from seed, seed + 1, … (each reported to `control`) until one is unique, within
/// `UNIQUE_ATTEMPTS` draws and `UNIQUE_TIME_BUDGET`; it stops early when the first
/// `UNSETTLED_IN_A_ROW` draws were all too large to settle.
pub fn generate_unique(
    rows: usize,
    cols: usize,
    frame_colours: usize,
    inner_colours: usize,
    seed: u64,
    control: &GenerateControl,
) -> Result<EdgeMatching, PuzzleError> {
    let started = std::time::Instant::now();
    let (mut many, mut unsettled) = (0u64, 0u64);
    let mut draws = 0;
    let mut stopped = "";
    for t in 0..UNIQUE_ATTEMPTS {
        control.next_try(t, UNIQUE_ATTEMPTS)?;
        if started.elapsed() > UNIQUE_TIME_BUDGET {
            stopped = "time";
            break;
        }
        let p = generate(
            rows,
            cols,
            frame_colours,
            inner_colours,
            seed.wrapping_add(t),
        )?;
        let found = super::solve::search_one_scan(&p, 2, UNIQUE_NODE_BUDGET);
        draws += 1;
        match (found.solutions.len(), found.gave_up) {
            (1, false) => return Ok(p),
            (_, true) => unsettled += 1,
            _ => many += 1,
        }
        if many == 0 && unsettled >= UNSETTLED_IN_A_ROW {
            stopped = "unsettled";
            break;
        }
    }
    let board =
        format!("{rows}×{cols} board with {frame_colours} frame and {inner_colours} inner colours");
    let tally = format!("{many} had several solutions, {unsettled} were too large to settle");
    let advice = if many == 0 {
        format!(
            "the exact search gives up after {UNIQUE_NODE_BUDGET} nodes on boards like these, so \
             their uniqueness cannot be proved here: try a smaller board"
        )
    } else if unsettled == 0 {
        "use more colours (fewer boards then share solutions)".to_string()
    } else {
        "use more colours, or a smaller board".to_string()
    };
    let why = match stopped {
        "time" => format!("within the {} s budget", UNIQUE_TIME_BUDGET.as_secs()),
        "unsettled" => "before stopping".to_string(),
        _ => "in all".to_string(),
    };
    Err(PuzzleError::Invalid(format!(
        "no {board} had one solution in {draws} draws {why} ({tally}): {advice}"
    )))
}

/// A `rows` × `cols` board with `frame_colours` frame and `inner_colours` inner colours.
pub fn generate(
    rows: usize,
    cols: usize,
    frame_colours: usize,
    inner_colours: usize,
    seed: u64,
) -> Result<EdgeMatching, PuzzleError> {
    if !(2..=MAX_SIDE).contains(&rows) || !(2..=MAX_SIDE).contains(&cols) {
        return Err(PuzzleError::Invalid(format!(
            "a {rows}×{cols} board is not supported: rows and columns are 2 to {MAX_SIDE}"
        )));
    }
    if frame_colours == 0 || inner_colours == 0 || frame_colours + inner_colours > 255 {
        return Err(PuzzleError::Invalid(format!(
            "{frame_colours} frame and {inner_colours} inner colours: each at least 1, together at most 255"
        )));
    }
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    let frame =
        |rng: &mut rand::rngs::Xoshiro256PlusPlus| rng.random_range(1..=frame_colours) as u8;
    let inner = |rng: &mut rand::rngs::Xoshiro256PlusPlus| {
        (frame_colours + rng.random_range(1..=inner_colours)) as u8
    };
    // right[r][c]: the joint between (r, c) and (r, c + 1); down[r][c]: (r, c) and (r + 1, c).
    let mut right = vec![vec![0u8; cols]; rows];
    let mut down = vec![vec![0u8; cols]; rows];
    for (r, row) in right.iter_mut().enumerate() {
        let on_frame = r == 0 || r + 1 == rows;
        for joint in row.iter_mut().take(cols - 1) {
            *joint = if on_frame {
                frame(&mut rng)
            } else {
                inner(&mut rng)
            };
        }
    }
    for row in down.iter_mut().take(rows - 1) {
        for (c, joint) in row.iter_mut().enumerate() {
            let on_frame = c == 0 || c + 1 == cols;
            *joint = if on_frame {
                frame(&mut rng)
            } else {
                inner(&mut rng)
            };
        }
    }
    let mut pieces: Vec<Colours> = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let solved: Colours = [
                if r > 0 { down[r - 1][c] } else { 0 },
                if c + 1 < cols { right[r][c] } else { 0 },
                if r + 1 < rows { down[r][c] } else { 0 },
                if c > 0 { right[r][c - 1] } else { 0 },
            ];
            // Listed turned back by a random amount: the solution turns it forward again.
            let turn = rng.random_range(0..4u8);
            pieces.push(rotated(solved, (4 - turn) % 4));
        }
    }
    pieces.shuffle(&mut rng);
    EdgeMatching::new(rows, cols, pieces, Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unique_boards_have_one_solution() {
        let p = generate_unique(4, 4, 3, 6, 1, &GenerateControl::new()).unwrap();
        let found = super::super::solve::search(&p, 2, 10_000_000);
        assert_eq!((found.solutions.len(), found.gave_up), (1, false));
        // Cancelled before the first draw.
        let control = GenerateControl::new();
        control.cancel();
        assert!(generate_unique(4, 4, 3, 6, 1, &control).is_err());
    }
    use crate::puzzle::{Puzzle, REFERENCE_NODE_BUDGET};

    #[test]
    fn unique_generation_stops_early_on_boards_the_search_cannot_settle() {
        // Eternity II's palette on a 16×16 board: every proof gives up, so after a few draws
        // the generator says why instead of drawing 500 boards for minutes.
        let e = generate_unique(16, 16, 5, 17, 1, &GenerateControl::new()).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains(&format!("in {UNSETTLED_IN_A_ROW} draws"))
                && text.contains("cannot be proved here: try a smaller board"),
            "{text}"
        );
    }

    #[test]
    fn generated_boards_are_solvable_and_deterministic() {
        for (r, c, f, i) in [(2, 2, 1, 1), (3, 5, 2, 3), (5, 5, 3, 4), (6, 6, 2, 4)] {
            let a = generate(r, c, f, i, 11).unwrap();
            assert_eq!(a, generate(r, c, f, i, 11).unwrap());
            assert_ne!(a, generate(r, c, f, i, 12).unwrap());
            assert!(a.conflicts().is_empty(), "{:?}", a.conflicts());
            let solved = a.solve_classically(REFERENCE_NODE_BUDGET);
            let s = solved.solution().expect("solvable");
            assert!(a.check(s).is_empty());
            if r > 2 && c > 2 {
                let words = a.colours_in_words();
                assert!(words.contains("frame +"), "{words}");
            }
        }
    }
}
