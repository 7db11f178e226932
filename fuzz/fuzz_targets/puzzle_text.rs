#![no_main]
//! Puzzle files of every registered kind (and kind detection) on arbitrary text; what parses is
//! drawn, encoded and written back.

use libfuzzer_sys::fuzz_target;
use qubo_workbench::puzzle::{EncodeOptions, Kind, parse_puzzles};

fuzz_target!(|text: &str| {
    let kinds = std::iter::once(None).chain(Kind::ALL.iter().copied().map(Some));
    for kind in kinds {
        if let Ok(parsed) = parse_puzzles(text, kind, "fuzz") {
            for p in parsed.iter().take(2) {
                let p = &p.puzzle;
                let _ = p.draw(None);
                let _ = p.to_text();
                let _ = p.conflicts();
                // Kinds with per-cell probabilities: the exact engine within a small budget.
                let _ = p.exact_probabilities(100_000);
                // Encoding is bounded by each kind's own budget; large instances are left out so
                // the fuzzer spends its time on parsing, not on building big models.
                if p.conflicts().is_empty() && p.to_text().lines().count() <= 40 {
                    let _ = p.encode(&EncodeOptions::default());
                }
            }
        }
    }
});
