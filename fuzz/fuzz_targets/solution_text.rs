#![no_main]
//! Solutions given as text (one line or JSON) against one instance of every registered kind.

use libfuzzer_sys::fuzz_target;
use qubo_workbench::puzzle::Kind;

fuzz_target!(|text: &str| {
    for &kind in Kind::ALL {
        for (_, preset) in kind.presets().iter().take(1) {
            if let Ok(s) = preset.parse_solution(text) {
                let _ = preset.check(&s);
                let _ = preset.draw(Some(&s));
            }
        }
    }
});
