//! Edge matching's piece lists, read as published: `top right bottom left` per piece (`ID T R
//! B L` as in Le Bail's files), optional `size` and `fixed` lines; the board's shape inferred
//! from the pieces when no size is given.

use super::*;
use crate::puzzle::Hint;

/// Rows and cols from the pieces' classes: 4 corners, edges = 2(r + c) − 8, r·c = pieces.
/// `None` when the counts fit no board (rows ≤ cols is returned).
pub fn infer_shape(pieces: &[Colours]) -> Option<(usize, usize)> {
    let mut corners = 0usize;
    let mut edges = 0usize;
    for &p in pieces {
        match class_of(p) {
            PieceClass::Corner => corners += 1,
            PieceClass::Edge => edges += 1,
            PieceClass::Inner => {}
            PieceClass::Misfit => return None,
        }
    }
    if corners != 4 || !edges.is_multiple_of(2) {
        return None;
    }
    let sum = edges / 2 + 4;
    let n = pieces.len();
    let disc = (sum * sum).checked_sub(4 * n)?;
    let root = (disc as f64).sqrt().round() as usize;
    if root * root != disc || !(sum - root).is_multiple_of(2) {
        return None;
    }
    let rows = (sum - root) / 2;
    let cols = sum - rows;
    (rows >= 2 && rows * cols == n).then_some((rows, cols))
}

/// One piece line's numbers, or `None` if the line is not all numbers.
pub(super) fn numbers(line: &str) -> Option<Vec<u64>> {
    line.split_whitespace()
        .map(|w| w.parse::<u64>().ok())
        .collect()
}

/// Reads a piece list (see the module header). Errors name `origin:LINE`.
pub fn parse(text: &str, origin: &str, hints: &ParseHints) -> Result<EdgeMatching, PuzzleError> {
    let at = |line: usize, message: String| PuzzleError::parse(format!("{origin}:{line}"), message);
    let mut pieces: Vec<Colours> = Vec::new();
    // Piece ids of the `ID T R B L` form, in list order (`fixed` then names a piece by its id).
    let mut ids: Vec<(usize, usize)> = Vec::new();
    // `fixed` lines as written: (line, piece as written, row, col, rotation).
    let mut fixed_lines: Vec<(usize, usize, usize, usize, usize)> = Vec::new();
    let mut size: Option<(usize, usize, usize)> = None;
    let mut columns: Option<(usize, usize)> = None;
    let max_pieces = MAX_SIDE * MAX_SIDE;
    for (k, raw) in text.lines().enumerate() {
        let line_no = k + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        let ints = |what: &str, want: usize| -> Result<Vec<usize>, PuzzleError> {
            let v: Option<Vec<usize>> = rest.iter().map(|w| w.parse().ok()).collect();
            match v {
                Some(v) if v.len() == want => Ok(v),
                _ => Err(at(
                    line_no,
                    format!("'{first}' takes {want} whole numbers: {what}"),
                )),
            }
        };
        match first.to_ascii_lowercase().as_str() {
            "size" => {
                let v = ints("size ROWS COLS", 2)?;
                if let Some((r, c, l)) = size
                    && (r, c) != (v[0], v[1])
                {
                    return Err(at(
                        line_no,
                        format!(
                            "'size {} {}' contradicts 'size {r} {c}' on line {l}",
                            v[0], v[1]
                        ),
                    ));
                }
                size = Some((v[0], v[1], line_no));
            }
            "fixed" => {
                let v = ints("fixed PIECE ROW COL ROTATION (1-based; rotation 0-3)", 4)?;
                fixed_lines.push((line_no, v[0], v[1], v[2], v[3]));
            }
            _ => {
                let Some(v) = numbers(line) else {
                    // Whole numbers too long for any count: the number is the fault.
                    if let Some(huge) = line.split_whitespace().find(|w| {
                        w.bytes().all(|b| b.is_ascii_digit()) && w.parse::<u64>().is_err()
                    }) {
                        return Err(at(
                            line_no,
                            format!(
                                "{} is too large (colours are 0 to 255)",
                                crate::params::shown_within(huge, 24)
                            ),
                        ));
                    }
                    return Err(at(
                        line_no,
                        format!(
                            "'{line}' is not a piece: write its four edge colours, top right bottom left (0 = border)"
                        ),
                    ));
                };
                let colours = match v.len() {
                    4 => &v[..],
                    5 => {
                        let id = usize::try_from(v[0]).unwrap_or(usize::MAX);
                        if let Some(&(_, l)) = ids.iter().find(|(i, _)| *i == id) {
                            return Err(at(
                                line_no,
                                format!("piece id {id} again (first on line {l})"),
                            ));
                        }
                        ids.push((id, line_no));
                        &v[1..]
                    }
                    n => {
                        return Err(at(
                            line_no,
                            format!(
                                "a piece line has 4 colours (top right bottom left) or an id and 4 colours; this one has {n} numbers"
                            ),
                        ));
                    }
                };
                match columns {
                    Some((n, first_line)) if n != v.len() => {
                        return Err(at(
                            line_no,
                            format!(
                                "this piece line has {} numbers, but line {first_line} has {n}: one file uses one form",
                                v.len()
                            ),
                        ));
                    }
                    None => columns = Some((v.len(), line_no)),
                    _ => {}
                }
                let mut c = [0u8; 4];
                for (s, &x) in colours.iter().enumerate() {
                    c[s] = u8::try_from(x).map_err(|_| {
                        at(
                            line_no,
                            format!("colour {x} is too large (colours are 0 to 255)"),
                        )
                    })?;
                }
                if pieces.len() == max_pieces {
                    return Err(at(
                        line_no,
                        format!(
                            "more than {max_pieces} pieces ({MAX_SIDE}×{MAX_SIDE} is the largest board)"
                        ),
                    ));
                }
                pieces.push(c);
            }
        }
    }
    if pieces.is_empty() {
        return Err(PuzzleError::parse(origin, "no pieces found"));
    }
    // `fixed PIECE …` counts list lines from 1, or names an id when the pieces carry ids.
    // Each line is checked here, so its errors name it (and the value as written).
    let mut fixed: Vec<Fixed> = Vec::new();
    let mut fixed_at: Vec<usize> = Vec::new();
    for (line_no, piece, row, col, rotation) in fixed_lines {
        if rotation > 3 {
            return Err(at(
                line_no,
                format!("fixed: rotation {rotation}: rotations are 0 to 3 quarter turns"),
            ));
        }
        let number = if ids.is_empty() {
            if piece == 0 || piece > pieces.len() {
                return Err(at(
                    line_no,
                    format!(
                        "fixed: there is no piece {piece} (pieces are 1 to {})",
                        pieces.len()
                    ),
                ));
            }
            piece
        } else {
            ids.iter()
                .position(|(id, _)| *id == piece)
                .map(|k| k + 1)
                .ok_or_else(|| at(line_no, format!("fixed: no piece has id {piece}")))?
        };
        let f = super::json::from_one_based(number, row, col, rotation as u8)
            .map_err(|e| at(line_no, e.to_string()))?;
        if let Some(k) = fixed
            .iter()
            .position(|g| g.piece == f.piece || (g.row, g.col) == (f.row, f.col))
        {
            let what = if fixed[k].piece == f.piece {
                format!("piece {piece} is fixed")
            } else {
                format!("row {row}, column {col} is held")
            };
            return Err(at(
                line_no,
                format!("fixed: {what} already (line {})", fixed_at[k]),
            ));
        }
        fixed.push(f);
        fixed_at.push(line_no);
    }
    let n = pieces.len();
    let (rows, cols) = match (hints.rows, hints.cols, size) {
        (Some(r), Some(c), _) => (r, c),
        (Some(r), None, _) if r > 0 && n.is_multiple_of(r) => (r, n / r),
        (None, Some(c), _) if c > 0 && n.is_multiple_of(c) => (n / c, c),
        (Some(_), None, _) | (None, Some(_), _) => {
            return Err(PuzzleError::parse(
                origin,
                format!("{n} pieces do not fill a board with that many rows or columns"),
            ));
        }
        (None, None, Some((r, c, _))) => (r, c),
        (None, None, None) => infer_shape(&pieces).ok_or_else(|| {
            let [corners, edges, inner, misfits] = EdgeMatching {
                rows: 0,
                cols: 0,
                pieces: pieces.clone(),
                numbers: Vec::new(),
                fixed: Vec::new(),
            }
            .class_counts();
            PuzzleError::NeedsHint {
                origin: origin.to_string(),
                message: format!(
                    "cannot tell the board size from {corners} corner, {edges} edge and {inner} inner pieces{}: add a line 'size ROWS COLS', or give the board's rows and cols",
                    if misfits > 0 { format!(" ({misfits} fit no cell)") } else { String::new() }
                ),
                hint: Hint::Size,
            }
        })?,
    };
    let where_ = match size {
        Some((_, _, line)) if hints.rows.is_none() && hints.cols.is_none() => {
            format!("{origin}:{line}")
        }
        _ => origin.to_string(),
    };
    // Ids that number the pieces 1..=N become their numbers; other ids (0-based, gaps) only
    // name pieces for `fixed` lines.
    let mut numbers: Vec<usize> = ids.iter().map(|&(id, _)| id).collect();
    let numbered = numbers.len() == n && {
        let mut sorted = numbers.clone();
        sorted.sort_unstable();
        sorted.iter().enumerate().all(|(k, &id)| id == k + 1)
    };
    if !numbered {
        numbers = (1..=n).collect();
    }
    EdgeMatching::new(rows, cols, pieces, fixed)
        .and_then(|p| p.with_numbers(numbers))
        .map_err(|e| {
            PuzzleError::parse(
                where_,
                match e {
                    PuzzleError::Invalid(m) => m,
                    other => other.to_string(),
                },
            )
        })
}

/// Whether text looks like a piece list: its first content line is a piece (4 or 5 whole
/// numbers), a `size` or a `fixed` line. (A later bad line is then reported as a bad piece.)
pub fn looks_like(text: &str) -> bool {
    let Some(line) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
    else {
        return false;
    };
    let first = line.split_whitespace().next().unwrap_or("");
    first.eq_ignore_ascii_case("size")
        || first.eq_ignore_ascii_case("fixed")
        || numbers(line).is_some_and(|v| v.len() == 4 || v.len() == 5)
}
