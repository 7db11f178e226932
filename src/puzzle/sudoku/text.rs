//! Sudoku's text form: one puzzle per line (`.` or `0` blank, `1-9A-G`), with an optional CSV
//! header and `,solution` field.

use super::*;

/// Parses a file of puzzles, one per line. A first line that is not a puzzle (a CSV header) is
/// skipped; a `,solution` field after the puzzle is ignored; blank and `#` lines are skipped.
pub fn parse_lines(text: &str, origin: &str) -> Result<Vec<Located<Sudoku>>, PuzzleError> {
    let mut out = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let puzzle_field = line.split(',').next().unwrap_or("");
        match Sudoku::from_line(puzzle_field) {
            Ok(s) => out.push(Located {
                line: Some(k + 1),
                puzzle: s,
            }),
            Err(_) if k == 0 && !puzzle_field.chars().any(|c| c == '.' || c.is_ascii_digit()) => {
                // A header such as "Sudoku,solution".
            }
            Err(e) => {
                return Err(PuzzleError::parse(
                    format!("{origin}:{}", k + 1),
                    match e {
                        PuzzleError::Invalid(m) => m,
                        other => other.to_string(),
                    },
                ));
            }
        }
    }
    Ok(out)
}
