//! Reading puzzle files and text: our JSON, or a kind's text form (guessed when not named),
//! each puzzle with the line it came from.

use super::*;
use std::path::Path;

/// Parses puzzle text: our JSON (one object or an array), or the kind's text form (when no kind
/// is given, the kind whose form the text looks like, else Sudoku, whose messages then say
/// what is wrong). `origin` names the source in messages (`FILE`, then `FILE:LINE`).
pub fn parse_puzzles(
    text: &str,
    kind: Option<Kind>,
    origin: &str,
) -> Result<Vec<Located<AnyPuzzle>>, PuzzleError> {
    parse_puzzles_with(text, kind, origin, &ParseHints::default())
}

/// `parse_puzzles` with hints from outside the file (the CLI's `--rows/--cols`).
pub fn parse_puzzles_with(
    text: &str,
    kind: Option<Kind>,
    origin: &str,
    hints: &ParseHints,
) -> Result<Vec<Located<AnyPuzzle>>, PuzzleError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // Our JSON states every size and count: a hint would be dropped without a word.
        if hints.rows.is_some() || hints.cols.is_some() || hints.mines.is_some() {
            return Err(PuzzleError::parse(
                origin,
                "a JSON puzzle states its own size and mine count; the size and mine hints \
                 (--rows, --cols, --mines) are for text forms without them",
            ));
        }
        let value = crate::io::json_without_duplicate_keys(text).map_err(|e| {
            PuzzleError::parse(
                format!("{origin}:{}", e.line()),
                format!("invalid JSON: {e}"),
            )
        })?;
        let items = match value {
            serde_json::Value::Array(items) => items,
            one => vec![one],
        };
        return items
            .into_iter()
            .enumerate()
            .map(|(k, mut v)| {
                let at = format!("{origin}: puzzle {}", k + 1);
                // The kind first (naming the kinds there are), then its fields by their path.
                let named = v
                    .as_object_mut()
                    .and_then(|o| o.remove("kind"))
                    .ok_or_else(|| {
                        PuzzleError::parse(
                            &at,
                            format!("no \"kind\" field (one of {})", kind_names()),
                        )
                    })?;
                let this: Kind = named.as_str().and_then(|n| n.parse().ok()).ok_or_else(|| {
                    PuzzleError::parse(
                        &at,
                        format!("\"kind\": {named} is not one of {}", kind_names()),
                    )
                })?;
                let p = this.from_json(v).map_err(|m| PuzzleError::parse(&at, m))?;
                if let Some(want) = kind
                    && want != p.kind()
                {
                    return Err(PuzzleError::parse(
                        origin,
                        format!(
                            "puzzle {} is a {}, but a {want} was asked for",
                            k + 1,
                            p.kind()
                        ),
                    ));
                }
                Ok(Located {
                    line: None,
                    puzzle: p,
                })
            })
            .collect();
    }
    if let Some(k) = kind.or_else(|| Kind::sniff(text)) {
        return k.parse_text_with(text, origin, hints);
    }
    // No kind claims the text by its look: the kind that reads it whole, else say what each
    // kind found wrong (rather than reporting everything as a broken Sudoku).
    let mut tried = Vec::new();
    for &k in Kind::ALL {
        match k.parse_text_with(text, origin, hints) {
            Ok(found) if !found.is_empty() => return Ok(found),
            Ok(_) => tried.push(format!("{k}: no puzzle in it")),
            Err(e) => {
                let text = e.to_string();
                // `FILE:12: what` reads "line 12: what"; `FILE: what` just "what".
                let rest = text.strip_prefix(origin).unwrap_or(&text);
                let said = match rest.strip_prefix(':') {
                    Some(r) if r.starts_with(|c: char| c.is_ascii_digit()) => format!("line {r}"),
                    Some(r) => r.trim_start().to_string(),
                    None => rest.to_string(),
                };
                tried.push(format!("{k}: {said}"));
            }
        }
    }
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    Err(PuzzleError::parse(
        origin,
        format!(
            "not recognised as any puzzle kind (tried {}); name the kind if it is one",
            tried.join("; ")
        ),
    ))
}

/// A puzzle read from a file, with where it came from (`FILE:LINE` or `FILE: puzzle K`).
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedPuzzle {
    /// The puzzle.
    pub puzzle: AnyPuzzle,
    /// Where it came from, for messages.
    pub origin: String,
}

/// Reads a puzzle file (see `parse_puzzles`).
pub fn load_puzzles(path: &Path, kind: Option<Kind>) -> Result<Vec<LoadedPuzzle>, PuzzleError> {
    load_puzzles_with(path, kind, &ParseHints::default())
}

/// Reads a puzzle file with hints from outside it (see `parse_puzzles_with`).
pub fn load_puzzles_with(
    path: &Path,
    kind: Option<Kind>,
    hints: &ParseHints,
) -> Result<Vec<LoadedPuzzle>, PuzzleError> {
    let origin = path.display().to_string();
    // dimod's CQM files are binary: recognised by their first bytes before any text check.
    let head = crate::io::read_bytes_checked(path, MAX_PUZZLE_FILE_BYTES, |b| {
        if b.len() >= constrained::cqm_file::MAGIC.len() && !constrained::cqm_file::looks_like(b) {
            Err("text".into())
        } else {
            Ok(())
        }
    });
    if let Ok(bytes) = &head
        && constrained::cqm_file::looks_like(bytes)
    {
        if kind.is_some_and(|k| k != Kind::Constrained) {
            return Err(PuzzleError::parse(
                &origin,
                format!(
                    "a dimod CQM file, but a {} was asked for",
                    kind.unwrap_or(Kind::Constrained)
                ),
            ));
        }
        let mut model = constrained::cqm_file::parse(bytes, &origin)?;
        model.name = path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        return Ok(vec![LoadedPuzzle {
            puzzle: AnyPuzzle::Constrained(model),
            origin,
        }]);
    }
    let text = crate::io::read_text_limited(path, MAX_PUZZLE_FILE_BYTES)
        .map_err(|e| PuzzleError::parse(&origin, e.problem.to_string()))?;
    let puzzles = parse_puzzles_with(&text, kind, &origin, hints)?;
    if puzzles.is_empty() {
        return Err(PuzzleError::parse(&origin, "no puzzle found in the file"));
    }
    let many = puzzles.len() > 1;
    Ok(puzzles
        .into_iter()
        .enumerate()
        .map(|(k, l)| LoadedPuzzle {
            origin: match (l.line, many) {
                (Some(line), _) => format!("{origin}:{line}"),
                (None, true) => format!("{origin}: puzzle {}", k + 1),
                (None, false) => origin.clone(),
            },
            puzzle: l.puzzle,
        })
        .collect())
}

/// The conflict error for a puzzle whose givens contradict each other (checked before any
/// sampling), or `Ok` when they are consistent.
pub fn refuse_conflicts(puzzle: &AnyPuzzle, origin: &str) -> Result<(), PuzzleError> {
    match puzzle.conflicts().first() {
        None => Ok(()),
        Some(v) => Err(PuzzleError::Conflict {
            origin: origin.to_string(),
            detail: v.detail.clone(),
        }),
    }
}
