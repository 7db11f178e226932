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
            // A header such as "Sudoku,solution" or "puzzle1234,solution": no grid symbol
            // at all, or a letter no grid uses (16×16 grids write A–G).
            Err(_)
                if k == 0
                    && (!puzzle_field.chars().any(|c| c == '.' || c.is_ascii_digit())
                        || puzzle_field
                            .chars()
                            .any(|c| c.is_ascii_alphabetic() && c.to_ascii_lowercase() > 'g')) => {}
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_line_with_digits_in_its_name_is_skipped() {
        let grid = "1.3...1.2.......";
        let text = format!("puzzle1234,solution\n{grid},\n");
        let found = parse_lines(&text, "t").unwrap();
        assert_eq!((found.len(), found[0].line), (1, Some(2)));
        // A first line that is a broken grid is still an error, named.
        let e = parse_lines("1.3..\n", "t").unwrap_err().to_string();
        assert!(e.starts_with("t:1:"), "{e}");
    }
}
