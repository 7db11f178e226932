//! Random games: mines placed uniformly among the cells away from the first click (its
//! neighbourhood too when there is room, so the first click opens an area, as in most modern
//! versions), then the first click — the board's centre — opened by the rules. The same
//! parameters give the same position.

use rand::SeedableRng;
use rand::seq::SliceRandom;

use super::logic::{LogicReport, clear_by_logic};
use super::{MAX_SIDE, Minesweeper};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::puzzle::{GenerateControl, PuzzleError};

/// The generator's parameters (CLI flags and the GUI's form).
pub(super) const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "width",
        ty: ParamType::Int {
            min: 2,
            max: MAX_SIDE as u64,
        },
        default: ParamDefault::Int(9),
        help: "columns (beginner 9, intermediate 16, expert 30)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "height",
        ty: ParamType::Int {
            min: 2,
            max: MAX_SIDE as u64,
        },
        default: ParamDefault::Int(9),
        help: "rows (beginner 9, intermediate 16, expert 16)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "mines",
        ty: ParamType::Int {
            min: 1,
            max: (MAX_SIDE * MAX_SIDE) as u64,
        },
        default: ParamDefault::Int(10),
        help: "mines (beginner 10, intermediate 40, expert 99); at most cells − 1",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "no_guess",
        ty: ParamType::Bool,
        default: ParamDefault::Bool(false),
        help: "only boards that logic alone clears from the opening (exact mine probabilities \
               0 and 1, the mine count included): no guess is ever needed",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(ParamDefault::Int(1), "the same seed gives the same board"),
];

/// Deals a no-guess generation tries before it gives up.
pub const NO_GUESS_DEALS: u64 = 5_000;
/// The exact engine's nodes per deal when checking that logic clears it (a frontier beyond
/// this counts as needing a guess: the board is dealt again).
const NO_GUESS_NODE_BUDGET: u64 = 2_000_000;

pub(super) fn from_params(
    params: &ParamValues,
    control: &GenerateControl,
) -> Result<Minesweeper, PuzzleError> {
    let int = |name: &str| params.get(name).and_then(|v| v.as_u64()).unwrap_or(0);
    let (width, height, mines, seed) = (
        int("width") as usize,
        int("height") as usize,
        int("mines") as usize,
        int("seed"),
    );
    if params.get("no_guess").and_then(|v| v.as_bool()) == Some(true) {
        return generate_no_guess(width, height, mines, seed, control).map(|(p, _)| p);
    }
    generate(width, height, mines, seed)
}

/// How a no-guess board was found.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct NoGuessReport {
    /// Deals tried (the last one kept).
    pub deals: u64,
    /// What logic needed to clear the kept board.
    pub logic: LogicReport,
}

/// A `width` × `height` game with `mines` mines that logic alone clears from the opening at the
/// centre: deals (seeded from `seed`, one after another) until one clears, at most
/// `NO_GUESS_DEALS`, reporting each deal to `control` (and stopping when it is cancelled).
pub fn generate_no_guess(
    width: usize,
    height: usize,
    mines: usize,
    seed: u64,
    control: &GenerateControl,
) -> Result<(Minesweeper, NoGuessReport), PuzzleError> {
    for deal in 0..NO_GUESS_DEALS {
        control.next_try(deal, NO_GUESS_DEALS)?;
        // Deal d of seed s: a fixed mix, so the same seed gives the same board.
        let p = generate(
            width,
            height,
            mines,
            seed.wrapping_add(deal.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
        )?;
        let Ok((_, logic)) = clear_by_logic(&p, NO_GUESS_NODE_BUDGET) else {
            continue;
        };
        if logic.cleared {
            return Ok((
                p,
                NoGuessReport {
                    deals: deal + 1,
                    logic,
                },
            ));
        }
    }
    Err(PuzzleError::Invalid(format!(
        "no board of {width}×{height} with {mines} mines cleared by logic alone in \
         {NO_GUESS_DEALS} deals: take fewer mines or a larger board"
    )))
}

/// A `width` × `height` game with `mines` mines after a safe first click at the centre.
pub fn generate(
    width: usize,
    height: usize,
    mines: usize,
    seed: u64,
) -> Result<Minesweeper, PuzzleError> {
    if !(2..=MAX_SIDE).contains(&width) || !(2..=MAX_SIDE).contains(&height) {
        return Err(PuzzleError::Invalid(format!(
            "a {width}×{height} board: each side must be 2 to {MAX_SIDE}"
        )));
    }
    let n = width * height;
    if mines == 0 || mines >= n {
        return Err(PuzzleError::Invalid(format!(
            "{mines} mines on {n} cells: at least 1 and at most {}",
            n - 1
        )));
    }
    let first = (height / 2) * width + width / 2;
    let mut p = Minesweeper::undealt(width, height, mines, seed)?;
    p.open(first / width, first % width);
    Ok(p)
}

/// `mines` mines placed uniformly on a `width` × `height` board away from cell `first` (and
/// its neighbours when there is room), from `seed`.
pub(super) fn deal(
    width: usize,
    height: usize,
    mines: usize,
    first: usize,
    seed: u64,
) -> Vec<bool> {
    let n = width * height;
    let (r, c) = ((first / width) as isize, (first % width) as isize);
    let mut keep_clear: Vec<usize> = (-1..=1isize)
        .flat_map(|dr| (-1..=1isize).map(move |dc| (r + dr, c + dc)))
        .filter(|&(rr, cc)| rr >= 0 && cc >= 0 && (rr as usize) < height && (cc as usize) < width)
        .map(|(rr, cc)| rr as usize * width + cc as usize)
        .collect();
    if n.saturating_sub(keep_clear.len()) < mines {
        // Too crowded for a clear neighbourhood: only the click itself is safe.
        keep_clear = vec![first];
    }
    let mut candidates: Vec<usize> = (0..n).filter(|k| !keep_clear.contains(k)).collect();
    let mut rng = rand::rngs::Xoshiro256PlusPlus::seed_from_u64(seed);
    candidates.shuffle(&mut rng);
    let mut layout = vec![false; n];
    for &k in candidates.iter().take(mines) {
        layout[k] = true;
    }
    layout
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::minesweeper::{Cell, GameState};

    #[test]
    fn the_first_click_is_safe_and_opens_an_area() {
        for seed in 0..20 {
            let p = generate(30, 16, 99, seed).unwrap();
            assert_eq!(p.mines(), 99);
            assert_eq!(p.game_state(), GameState::Playing);
            assert_eq!(p.cell(8, 15), Cell::Opened(0), "seed {seed}");
            assert!(p.num_opened() >= 9);
            assert_eq!(
                generate(30, 16, 99, seed).unwrap(),
                p,
                "same seed, same board"
            );
        }
        assert!(generate(3, 3, 9, 1).is_err());
        // Crowded: only the click is kept clear.
        let p = generate(3, 3, 8, 1).unwrap();
        assert!(matches!(p.cell(1, 1), Cell::Opened(8)));
    }
}
