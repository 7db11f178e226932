//! Minesweeper games played whole by a strategy, for win rates (`play` in the CLI): a pipeline
//! beside `solve` and `sweep` that drives a sampler, not puzzle logic. After the first click
//! (the centre, always safe), every move opens the cells the strategy believes safe
//! (probability 0) — or, when there are
//! none, the cell it believes least likely to hold a mine (a guess). Ties go to the
//! cell with the fewest neighbours (corners, then edges: the likeliest to be a 0 and open an
//! area), then reading order. Cells the strategy is sure of (probability 1) are flagged.
//!
//! Strategies: `exact` asks the exact engine; `sampled` asks a sampler for the seed's estimate
//! (the share of reads with a mine in each cell), so the win rates show what the estimate's
//! errors cost a player.

use crate::puzzle::minesweeper::probability::{ENGINE_NODE_BUDGET, exact_probabilities};
use crate::puzzle::minesweeper::{Cell, GameState, Minesweeper};
use crate::puzzle::{EncodeOptions, Puzzle};
use crate::qubo::StoredModel;
use crate::sampler::{RunControl, Sampler};

/// Where a strategy's probabilities come from.
pub enum Strategy<'a> {
    /// The exact engine.
    Exact,
    /// A sampler on the position's QUBO, at default weights.
    Sampled {
        /// The sampler.
        sampler: &'a dyn Sampler,
        /// Its run control (threads, cancellation).
        control: &'a RunControl,
    },
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameRecord {
    /// Every safe cell opened.
    pub won: bool,
    /// Moves made (the first click included).
    pub moves: usize,
    /// Moves that opened a cell not known to be safe.
    pub guesses: usize,
    /// Safe cells opened by the end.
    pub opened: usize,
    /// Positions whose probabilities the strategy computed.
    pub positions: usize,
    /// Seconds spent computing them, in total and at most for one position.
    pub probability_s: f64,
    /// The longest of those.
    pub max_probability_s: f64,
}

/// The probabilities `strategy` gives for position `p` (None: it could not tell — an exact
/// component too large, or a sampler error — and the move is a guess among all cells).
fn probabilities(p: &Minesweeper, strategy: &Strategy) -> Result<Option<Vec<f64>>, String> {
    match strategy {
        Strategy::Exact => Ok(exact_probabilities(p, ENGINE_NODE_BUDGET).ok().map(|x| x.p)),
        Strategy::Sampled { sampler, control } => {
            let enc = p
                .encode(&EncodeOptions::default())
                .map_err(|e| e.to_string())?;
            if enc.num_variables() == 0 {
                return Ok(None);
            }
            let weights = enc.default_weights();
            let model = StoredModel::new(enc.qubo(&weights).map_err(|e| e.to_string())?);
            let set = sampler.sample(&model, control).map_err(|e| e.to_string())?;
            let decoded: Vec<_> = set
                .rows
                .iter()
                .map(|r| (p.decode(&enc, &r.sample), r.num_occurrences as u64))
                .collect();
            let candidates: Vec<_> = decoded.iter().map(|(s, n)| (s, *n)).collect();
            Ok(Some(
                crate::puzzle::minesweeper::probability::sampled(p, &candidates).p,
            ))
        }
    }
}

/// Plays one `width` × `height` game with `mines` mines dealt from `seed`.
pub fn play_game(
    width: usize,
    height: usize,
    mines: usize,
    seed: u64,
    strategy: &Strategy,
) -> Result<GameRecord, String> {
    let mut g = Minesweeper::undealt(width, height, mines, seed).map_err(|e| e.to_string())?;
    g.open(height / 2, width / 2);
    let (mut moves, mut guesses) = (1, 0);
    let (mut positions, mut probability_s, mut max_probability_s) = (0, 0.0f64, 0.0f64);
    while g.game_state() == GameState::Playing {
        if strategy_cancelled(strategy) {
            break;
        }
        let closed: Vec<usize> = (0..width * height)
            .filter(|&k| g.cells()[k] == Cell::Unopened)
            .collect();
        let t = std::time::Instant::now();
        let prob = probabilities(&g, strategy)?;
        let spent = t.elapsed().as_secs_f64();
        positions += 1;
        probability_s += spent;
        max_probability_s = max_probability_s.max(spent);
        let p_of = |k: usize| prob.as_ref().map_or(0.5, |p| p[k]);
        if let Some(pr) = &prob {
            for &k in &closed {
                if pr[k] >= 1.0 - 1e-12 {
                    g.toggle_flag(k / width, k % width);
                }
            }
        }
        let safe: Vec<usize> = closed
            .iter()
            .copied()
            .filter(|&k| g.cells()[k] == Cell::Unopened && p_of(k) <= 1e-12)
            .collect();
        if !safe.is_empty() {
            for k in safe {
                g.open(k / width, k % width);
            }
            moves += 1;
            continue;
        }
        let choice = closed
            .iter()
            .copied()
            .filter(|&k| g.cells()[k] == Cell::Unopened)
            .min_by(|&a, &b| {
                p_of(a)
                    .total_cmp(&p_of(b))
                    .then(g.neighbours(a).len().cmp(&g.neighbours(b).len()))
                    .then(a.cmp(&b))
            });
        let Some(k) = choice else { break };
        g.open(k / width, k % width);
        moves += 1;
        guesses += 1;
    }
    let layout = g.layout().map(<[bool]>::to_vec).unwrap_or_default();
    let opened = (0..width * height)
        .filter(|&k| {
            matches!(g.cells()[k], Cell::Opened(_)) && !layout.get(k).copied().unwrap_or(false)
        })
        .count();
    Ok(GameRecord {
        won: g.game_state() == GameState::Won,
        moves,
        guesses,
        opened,
        positions,
        probability_s,
        max_probability_s,
    })
}

fn strategy_cancelled(strategy: &Strategy) -> bool {
    matches!(strategy, Strategy::Sampled { control, .. } if control.is_cancelled())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exact_strategy_wins_easy_games_and_never_guesses_without_need() {
        // Beginner-sized boards are mostly won by logic alone.
        let games: Vec<GameRecord> = (0..30)
            .map(|s| play_game(9, 9, 10, s, &Strategy::Exact).unwrap())
            .collect();
        let wins = games.iter().filter(|g| g.won).count();
        assert!(wins >= 20, "{wins} of 30 beginner games won");
        // A won game opened every safe cell.
        for g in games.iter().filter(|g| g.won) {
            assert_eq!(g.opened, 81 - 10);
        }
        // A game with one mine far from the centre is won without a guess.
        let g = play_game(9, 9, 1, 3, &Strategy::Exact).unwrap();
        assert!(g.won && g.guesses == 0, "{g:?}");
    }
}
