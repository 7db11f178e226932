//! Generator of Sudoku puzzles with a unique solution and a chosen number of givens:
//! a random full grid, then givens removed in random order while the solution stays unique.

use rand::SeedableRng;
use rand::rngs::Xoshiro256PlusPlus;
use rand::seq::SliceRandom;

use super::Sudoku;
use super::grade::{Band, grade};
use super::solve::{is_unique, random_grid};
use crate::puzzle::generating::band_tally;
use crate::puzzle::{GenerateControl, PuzzleError};

/// Grids tried for a difficulty band before giving up.
pub const BAND_ATTEMPTS: u64 = 2_000;

/// Grids tried before giving up on a too-small number of givens.
const ATTEMPTS: usize = 20;
/// Search nodes allowed per uniqueness check, and for a whole generation: bounds the work (a few
/// a second) deterministically when the asked number of givens is out of reach.
const NODE_BUDGET: u64 = 200_000;
const TOTAL_NODE_BUDGET: u64 = 8_000_000;

/// The box side of a grid of side `size` (4, 9 or 16).
fn box_size_of(size: usize) -> Result<usize, PuzzleError> {
    match size {
        4 => Ok(2),
        9 => Ok(3),
        16 => Ok(4),
        _ => Err(PuzzleError::Invalid(format!(
            "Sudoku size {size} is not supported (4, 9 or 16)"
        ))),
    }
}

/// A random complete grid, every cell a given: where digging starts.
fn full_grid(box_size: usize, rng: &mut Xoshiro256PlusPlus) -> Result<Sudoku, PuzzleError> {
    let size = box_size * box_size;
    let solution = random_grid(box_size, rng);
    let mut puzzle = Sudoku::empty(box_size)?;
    for (k, &d) in solution.iter().enumerate() {
        puzzle.set_given(k / size, k % size, d)?;
    }
    Ok(puzzle)
}

/// A puzzle of side `size` (4, 9, 16) with exactly `givens` givens and one solution.
/// The same (size, givens, seed) always gives the same puzzle.
pub fn generate(size: usize, givens: usize, seed: u64) -> Result<Sudoku, PuzzleError> {
    let box_size = box_size_of(size)?;
    let cells = size * size;
    if givens > cells {
        return Err(PuzzleError::Invalid(format!(
            "a {size}×{size} Sudoku has {cells} cells; {givens} givens do not fit"
        )));
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut fewest = cells;
    let mut spent = 0u64;
    'attempts: for _ in 0..ATTEMPTS {
        let mut puzzle = full_grid(box_size, &mut rng)?;
        let mut order: Vec<usize> = (0..cells).collect();
        order.shuffle(&mut rng);
        let mut count = cells;
        for k in order {
            if count == givens {
                break;
            }
            let (r, c) = (k / size, k % size);
            let d = puzzle.given(r, c);
            puzzle.set_given(r, c, 0)?;
            let (unique, nodes) = is_unique(&puzzle, NODE_BUDGET);
            spent += nodes;
            if unique == Some(true) {
                count -= 1;
            } else {
                puzzle.set_given(r, c, d)?;
            }
            if spent > TOTAL_NODE_BUDGET {
                fewest = fewest.min(count);
                break 'attempts;
            }
        }
        if count == givens {
            return Ok(puzzle);
        }
        fewest = fewest.min(count);
    }
    Err(PuzzleError::Invalid(format!(
        "could not make a {size}×{size} Sudoku with a unique solution and only {} \
         (the fewest reached was {fewest}); ask for more givens",
        crate::io::count(givens, "given")
    )))
}

/// A puzzle of side `size` in difficulty band `band`, with a unique solution: a random full
/// grid, then givens removed in random order, each removal kept only while the solution stays
/// unique and the band at most `band` (never below `min_givens` givens); the grid is kept when
/// the band reached is `band`, else the next grid is dug. Tries are reported to `control`.
pub fn generate_band(
    size: usize,
    band: Band,
    min_givens: usize,
    seed: u64,
    control: &GenerateControl,
) -> Result<Sudoku, PuzzleError> {
    let box_size = box_size_of(size)?;
    let cells = size * size;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut reached = [0usize; 4];
    for attempt in 0..BAND_ATTEMPTS {
        control.next_try(attempt, BAND_ATTEMPTS)?;
        let mut puzzle = full_grid(box_size, &mut rng)?;
        let mut order: Vec<usize> = (0..cells).collect();
        order.shuffle(&mut rng);
        let mut count = cells;
        for k in order {
            if count <= min_givens {
                break;
            }
            let (r, c) = (k / size, k % size);
            let d = puzzle.given(r, c);
            puzzle.set_given(r, c, 0)?;
            let keep =
                grade(&puzzle).band <= band && is_unique(&puzzle, NODE_BUDGET).0 == Some(true);
            if keep {
                count -= 1;
            } else {
                puzzle.set_given(r, c, d)?;
            }
        }
        let got = grade(&puzzle).band;
        reached[got as usize] += 1;
        if got == band {
            return Ok(puzzle);
        }
    }
    Err(PuzzleError::Invalid(format!(
        "no {size}×{size} Sudoku of band {} in {BAND_ATTEMPTS} grids (their bands: {}): try \
         another seed or band",
        band.name(),
        band_tally(Band::ALL.map(Band::name), &reached)
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::sudoku::count_solutions;

    #[test]
    fn generated_puzzles_are_unique_with_the_asked_givens() {
        for (size, givens) in [(4, 6), (9, 30)] {
            let p = generate(size, givens, 7).unwrap();
            assert_eq!(p.side(), size);
            assert_eq!(p.num_givens(), givens);
            assert_eq!(count_solutions(&p, 2), 1);
            assert_eq!(
                generate(size, givens, 7).unwrap(),
                p,
                "same seed, same puzzle"
            );
        }
    }

    #[test]
    fn each_band_gives_a_unique_puzzle_of_that_band() {
        for band in Band::ALL {
            let p = generate_band(9, band, 0, 3, &GenerateControl::new()).unwrap();
            assert_eq!(count_solutions(&p, 2), 1, "{band:?}");
            let g = grade(&p);
            assert_eq!(g.band, band, "{}", p.to_line());
            // No less: below the band the techniques stall before the grid is full.
            assert_eq!(g.filled == g.empty, band != Band::Expert);
        }
        // Cancelled: stops at the next grid.
        let control = GenerateControl::new();
        control.cancel();
        let e = generate_band(9, Band::Hard, 0, 3, &control).unwrap_err();
        assert!(e.to_string().contains("cancelled"), "{e}");
    }

    #[test]
    fn impossible_requests_are_refused_clearly() {
        let e = generate(4, 1, 1).unwrap_err().to_string();
        assert!(e.contains("only 1 given "), "{e}");
        assert!(
            generate(5, 3, 1)
                .unwrap_err()
                .to_string()
                .contains("not supported")
        );
        assert!(
            generate(4, 17, 1)
                .unwrap_err()
                .to_string()
                .contains("do not fit")
        );
        // Out of reach on 16×16: gives up within its node budget instead of searching for minutes.
        let e = generate(16, 40, 1).unwrap_err().to_string();
        assert!(e.contains("only 40 givens (the fewest reached was"), "{e}");
    }
}
