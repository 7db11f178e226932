//! `play`: whole Minesweeper games by a strategy, for win rates (`crate::autoplay`).

use serde_json::json;

use super::args::{PlayArgs, PlayStrategy, build_sampler, threads};
use super::output::{long_run_note, print_json};
use super::{Failure, usage};
use crate::puzzle::PuzzleError;
use crate::samplers::Task;

/// `play --games N --strategy exact|sample`: Minesweeper games dealt from seeds deal_seed,
/// deal_seed + 1, …,
/// played in parallel (exact) or one after another with the sampler's threads (sample).
pub(super) fn play(a: PlayArgs) -> Result<i32, Failure> {
    use crate::autoplay::{GameRecord, Strategy, play_game};
    use rayon::prelude::*;
    let (w, h, m) = (a.width as usize, a.height as usize, a.mines as usize);
    if m >= w * h {
        return Err(usage(format!(
            "--mines {m}: a {w}×{h} board holds at most {} mines",
            w * h - 1
        )));
    }
    let t = std::time::Instant::now();
    let games: Vec<u64> = (0..a.games as u64)
        .map(|k| a.deal_seed.wrapping_add(k))
        .collect();
    let (records, sampler_name): (Vec<GameRecord>, String) = match a.strategy {
        PlayStrategy::Exact => {
            // The exact strategy samples nothing: sampler flags would be dropped unread.
            let s = &a.sampler;
            if s.sampler != crate::samplers::AUTO
                || !s.params.0.is_empty()
                || s.target_energy.is_some()
            {
                return Err(usage(
                    "--strategy exact counts mine layouts and samples nothing: --sampler, its \
                     parameters and --target-energy apply to --strategy sample",
                ));
            }
            let control = crate::sampler::RunControl::new().with_threads(threads(&a.sampler)?);
            let records = control.install(games.len(), || {
                games
                    .par_iter()
                    .map(|&s| play_game(w, h, m, s, &Strategy::Exact))
                    .collect::<Result<Vec<_>, String>>()
            });
            (records.map_err(PuzzleError::Invalid)?, "exact".into())
        }
        PlayStrategy::Sample => {
            let args = a.sampler.clone();
            // `auto` picks by the task: probabilities want many independent reads.
            let task = Task {
                stored: true,
                marginals: true,
                ..Task::default()
            };
            let (sampler, _) = build_sampler(&args, task)?;
            // A game samples every position it reaches: said before the wait when even one
            // position per game is long (a million reads of ten million sweeps sat silent).
            if let Some(note) = long_run_note(sampler.as_ref(), games.len(), w * h) {
                eprintln!(
                    "{note} (counting one position per game; a game samples each one it reaches)"
                );
            }
            let control = crate::sampler::RunControl::new().with_threads(threads(&args)?);
            let strategy = Strategy::Sampled {
                sampler: sampler.as_ref(),
                control: &control,
            };
            let records = games
                .iter()
                .map(|&s| play_game(w, h, m, s, &strategy))
                .collect::<Result<Vec<_>, String>>()
                .map_err(PuzzleError::Invalid)?;
            (records, sampler.name().to_string())
        }
    };
    let n = records.len() as f64;
    let wins = records.iter().filter(|r| r.won).count();
    let rate = wins as f64 / n;
    // Wilson's 95 % interval for the win rate.
    let z = 1.96f64;
    let centre = (rate + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (rate * (1.0 - rate) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    let mean = |f: &dyn Fn(&GameRecord) -> usize| records.iter().map(f).sum::<usize>() as f64 / n;
    let seconds = t.elapsed().as_secs_f64();
    let positions: usize = records.iter().map(|r| r.positions).sum();
    let probability_s: f64 = records.iter().map(|r| r.probability_s).sum();
    let max_probability_s = records
        .iter()
        .map(|r| r.max_probability_s)
        .fold(0.0, f64::max);
    if a.json {
        print_json(&json!({
            "board": {"width": w, "height": h, "mines": m},
            "strategy": format!("{:?}", a.strategy).to_lowercase(),
            "sampler": sampler_name,
            "games": records.len(),
            "wins": wins,
            "win_rate": rate,
            "win_rate_95": [centre - half, centre + half],
            "mean_moves": mean(&|r| r.moves),
            "mean_guesses": mean(&|r| r.guesses),
            "mean_opened_fraction": records.iter().map(|r| r.opened as f64 / (w * h - m) as f64).sum::<f64>() / n,
            "positions": positions,
            "mean_probability_ms": 1e3 * probability_s / positions.max(1) as f64,
            "max_probability_ms": 1e3 * max_probability_s,
            "seconds": seconds,
        }))?;
    } else {
        println!(
            "{w}×{h}, {}, strategy {:?} ({sampler_name}): won {wins} of {} games ({:.1} %, 95 % {:.1}–{:.1} %), {:.1} guesses per game, {seconds:.1} s; probabilities of {positions} positions, mean {:.3} ms, max {:.3} ms",
            crate::io::count(m, "mine"),
            a.strategy,
            records.len(),
            100.0 * rate,
            100.0 * (centre - half),
            100.0 * (centre + half),
            mean(&|r| r.guesses),
            1e3 * probability_s / positions.max(1) as f64,
            1e3 * max_probability_s,
        );
    }
    Ok(0)
}
