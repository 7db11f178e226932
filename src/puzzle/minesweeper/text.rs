//! Minesweeper's text forms: ours, ADC packs (full layouts, opened at their largest 0-region),
//! ADC 2025 hex boards and LewisGaul's spaced cells.

use super::*;

pub(super) fn parse_all(
    text: &str,
    origin: &str,
    hints: &ParseHints,
) -> Result<Vec<Located<Minesweeper>>, PuzzleError> {
    let mut content = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !is_comment(l));
    let first = content.next().ok_or_else(|| {
        PuzzleError::parse(
            origin,
            "the file holds no board (only blank or comment lines)",
        )
    })?;
    let tokens: Vec<&str> = first.split_whitespace().collect();
    // Digits of any length: a header with a count too large for a number is still a header,
    // and is refused there with that reason.
    let numeric = |t: &&str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let hex_pair =
        |t: &&str| t.len() == 2 && t.starts_with('0') && u8::from_str_radix(t, 16).is_ok();
    // A hex board's second row is hex pairs too; `03 03 01` over `###` is our header with
    // leading zeros.
    let second_is_hex = content.next().is_none_or(|l| {
        let row: Vec<&str> = l.split_whitespace().collect();
        row.len() == tokens.len() && row.iter().all(hex_pair)
    });
    if tokens.len() > 1 && tokens.iter().all(hex_pair) && second_is_hex {
        return Ok(vec![Located {
            line: None,
            puzzle: parse_hex_board(text, origin)?,
        }]);
    }
    if tokens.len() >= 3
        && tokens[..3].iter().all(numeric)
        && (tokens.len() == 3 || tokens.len() == 4)
    {
        if tokens.len() == 4 {
            return parse_adc_pack(text, origin);
        }
        return Ok(vec![Located {
            line: None,
            puzzle: parse_ours(text, origin, hints)?,
        }]);
    }
    Ok(vec![Located {
        line: None,
        puzzle: parse_spaced(text, origin, hints)?,
    }])
}

/// Our form: `W H M`, H rows, optional `layout` + H rows.
/// A comment line of our form (before the header only): `#` followed by text with letters, as
/// `# TTS99 0.12 s …`; a board row is never one (its characters are `#*.0-8`).
pub(super) fn is_comment(line: &str) -> bool {
    line.starts_with('#') && line.chars().any(|c| c.is_alphabetic())
}

pub(super) fn parse_ours(
    text: &str,
    origin: &str,
    hints: &ParseHints,
) -> Result<Minesweeper, PuzzleError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        // Comment lines may come before the header: `#` and words (a row never has letters).
        .skip_while(|(_, l)| is_comment(l));
    let (hl, header) = lines
        .next()
        .ok_or_else(|| PuzzleError::parse(origin, "the file is empty"))?;
    let at = |line: usize| format!("{origin}:{line}");
    let nums: Vec<usize> = header
        .split_whitespace()
        .map(|t| match t.parse::<usize>() {
            Ok(n) => Ok(n),
            Err(_) if t.bytes().all(|b| b.is_ascii_digit()) => Err(PuzzleError::parse(
                at(hl),
                format!(
                    "{} is too large for a board side or mine count",
                    crate::params::shown_within(t, 24)
                ),
            )),
            Err(_) => Err(PuzzleError::parse(at(hl), "expected `WIDTH HEIGHT MINES`")),
        })
        .collect::<Result<_, _>>()?;
    let [width, height, mines] = nums[..] else {
        return Err(PuzzleError::parse(at(hl), "expected `WIDTH HEIGHT MINES`"));
    };
    check_sides(width, height).map_err(|e| PuzzleError::parse(at(hl), e))?;
    // The header gives the mine count: a different --mines would be dropped without a word.
    if let Some(m) = hints.mines.filter(|&m| m != mines) {
        return Err(PuzzleError::parse(
            at(hl),
            format!("the header says {mines} mines, but --mines says {m}: give one count"),
        ));
    }
    let mut cells = Vec::with_capacity(width * height);
    for _ in 0..height {
        let (ln, row) = lines.next().ok_or_else(|| {
            PuzzleError::parse(
                origin,
                format!("the board needs {height} rows after the header"),
            )
        })?;
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != width {
            return Err(PuzzleError::parse(
                at(ln),
                format!("{} characters, but the board is {width} wide", chars.len()),
            ));
        }
        for (c, ch) in chars.into_iter().enumerate() {
            cells.push(match ch {
                '#' => Cell::Unopened,
                '*' | 'F' | 'f' => Cell::Flagged,
                '.' => Cell::Opened(0),
                d @ '0'..='8' => Cell::Opened(d as u8 - b'0'),
                other => {
                    return Err(PuzzleError::parse(
                        at(ln),
                        format!(
                            "column {}: '{other}' is not a cell (# unopened, 0-8 or . opened, * flagged)",
                            c + 1
                        ),
                    ));
                }
            });
        }
    }
    let mut layout = None;
    if let Some((ln, word)) = lines.next() {
        if word != "layout" {
            return Err(PuzzleError::parse(
                at(ln),
                "after the board only a `layout` section may follow",
            ));
        }
        let mut l = Vec::with_capacity(width * height);
        for _ in 0..height {
            let (ln, row) = lines.next().ok_or_else(|| {
                PuzzleError::parse(origin, format!("the layout needs {height} rows"))
            })?;
            if row.chars().count() != width || row.chars().any(|ch| ch != '.' && ch != '*') {
                return Err(PuzzleError::parse(
                    at(ln),
                    format!("a layout row is {width} characters of . (safe) and * (mine)"),
                ));
            }
            l.extend(row.chars().map(|ch| ch == '*'));
        }
        layout = Some(l);
        if let Some((ln, _)) = lines.next() {
            return Err(PuzzleError::parse(at(ln), "text after the layout"));
        }
    }
    let p = Minesweeper::new(width, height, mines, cells, layout).map_err(|e| match e {
        PuzzleError::Invalid(m) => PuzzleError::parse(origin, m),
        other => other,
    })?;
    check_layout(&p, origin)?;
    Ok(p)
}

/// A layout must agree with the opened numbers: no mine under an opened cell, and every
/// number the count of mines around it.
fn check_layout(p: &Minesweeper, origin: &str) -> Result<(), PuzzleError> {
    if let Some(l) = &p.layout {
        for (k, cell) in p.cells.iter().enumerate() {
            let truth = p.neighbours(k).iter().filter(|&&j| l[j]).count() as u8;
            match cell {
                Cell::Opened(_) if l[k] => {
                    return Err(PuzzleError::parse(
                        origin,
                        format!("{}: opened, but the layout has a mine there", p.place(k)),
                    ));
                }
                Cell::Opened(v) if *v != truth => {
                    return Err(PuzzleError::parse(
                        origin,
                        format!(
                            "{}: shows {v}, but the layout puts {truth} mines around it",
                            p.place(k)
                        ),
                    ));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// ADC packs: `X Y M name` then Y rows of X digits (9 = mine); each record becomes a position.
pub(super) fn parse_adc_pack(
    text: &str,
    origin: &str,
) -> Result<Vec<Located<Minesweeper>>, PuzzleError> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    while let Some((hl, header)) = lines.by_ref().find(|(_, l)| !l.is_empty()) {
        let at = |line: usize| format!("{origin}:{line}");
        let t: Vec<&str> = header.split_whitespace().collect();
        let nums: Option<Vec<usize>> = t.iter().take(3).map(|v| v.parse().ok()).collect();
        let Some([x, y, m]) = nums.as_deref().and_then(|n| <[usize; 3]>::try_from(n).ok()) else {
            return Err(PuzzleError::parse(at(hl), "expected `X Y MINES NAME`"));
        };
        check_sides(x, y).map_err(|e| PuzzleError::parse(at(hl), e))?;
        let mut layout = Vec::with_capacity(x * y);
        let mut digits: Vec<(usize, u8)> = Vec::with_capacity(x * y);
        for _ in 0..y {
            let (ln, row) = lines
                .next()
                .ok_or_else(|| PuzzleError::parse(at(hl), format!("the board needs {y} rows")))?;
            if row.len() != x || !row.bytes().all(|b| b.is_ascii_digit()) {
                return Err(PuzzleError::parse(
                    at(ln),
                    format!("a row is {x} digits (9 = mine)"),
                ));
            }
            layout.extend(row.bytes().map(|b| b == b'9'));
            digits.extend(row.bytes().map(|b| (ln, b - b'0')));
        }
        numbers_agree(x, &layout, &digits, origin)?;
        let p = Minesweeper::with_layout(x, y, layout)
            .map_err(|e| PuzzleError::parse(at(hl), e.to_string()))?;
        if p.mines != m {
            return Err(PuzzleError::parse(
                at(hl),
                format!("the header says {m} mines, the rows hold {}", p.mines),
            ));
        }
        out.push(Located {
            line: Some(hl),
            puzzle: p.opened_at_largest_zero(),
        });
    }
    Ok(out)
}

/// ADC 2025 boards: rows of hex pairs, `0F` = mine.
/// Checks the numbers a full-layout form writes (`(line, value)` per cell, row-major; mines are
/// skipped) against the mines around each cell: a layout that contradicts its own numbers is
/// refused, naming the first cell that disagrees.
fn numbers_agree(
    width: usize,
    layout: &[bool],
    cells: &[(usize, u8)],
    origin: &str,
) -> Result<(), PuzzleError> {
    let height = layout.len() / width.max(1);
    for (k, &(line, said)) in cells.iter().enumerate() {
        if layout[k] {
            continue;
        }
        let (r, c) = (k / width, k % width);
        let around = (r.saturating_sub(1)..=(r + 1).min(height - 1))
            .flat_map(|rr| (c.saturating_sub(1)..=(c + 1).min(width - 1)).map(move |cc| (rr, cc)))
            .filter(|&(rr, cc)| (rr, cc) != (r, c) && layout[rr * width + cc])
            .count();
        if usize::from(said) != around {
            return Err(PuzzleError::parse(
                format!("{origin}:{line}"),
                format!(
                    "row {}, column {} says {said}, but {around} of its neighbours are mines",
                    r + 1,
                    c + 1
                ),
            ));
        }
    }
    Ok(())
}

pub(super) fn parse_hex_board(text: &str, origin: &str) -> Result<Minesweeper, PuzzleError> {
    let mut values: Vec<(usize, u8)> = Vec::new();
    let mut layout = Vec::new();
    let mut width = None;
    let mut height = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let cells: Vec<u8> = line
            .split_whitespace()
            .map(|t| u8::from_str_radix(t, 16))
            .collect::<Result<_, _>>()
            .map_err(|_| {
                PuzzleError::parse(
                    format!("{origin}:{}", i + 1),
                    "expected hex pairs (00–08, 0F = mine)",
                )
            })?;
        if *width.get_or_insert(cells.len()) != cells.len() {
            return Err(PuzzleError::parse(
                format!("{origin}:{}", i + 1),
                "rows of different lengths",
            ));
        }
        if let Some(v) = cells.iter().find(|&&v| v > 8 && v != 0x0F) {
            return Err(PuzzleError::parse(
                format!("{origin}:{}", i + 1),
                format!("{v:02X} is neither a number (00–08) nor a mine (0F)"),
            ));
        }
        layout.extend(cells.iter().map(|&v| v == 0x0F));
        values.extend(cells.iter().map(|&v| (i + 1, v)));
        height += 1;
    }
    numbers_agree(width.unwrap_or(1), &layout, &values, origin)?;
    let p = Minesweeper::with_layout(width.unwrap_or(0), height, layout)
        .map_err(|e| PuzzleError::parse(origin, e.to_string()))?;
    Ok(p.opened_at_largest_zero())
}

/// LewisGaul/minesolver positions: space-separated `#`, `.`, `N`, `*`; the mine count from
/// `hints.mines`.
pub(super) fn parse_spaced(
    text: &str,
    origin: &str,
    hints: &ParseHints,
) -> Result<Minesweeper, PuzzleError> {
    let mut cells = Vec::new();
    let mut width = None;
    let mut height = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let at = format!("{origin}:{}", i + 1);
        let row: Vec<Cell> = line
            .split_whitespace()
            .map(|t| match t {
                "#" => Ok(Cell::Unopened),
                "." => Ok(Cell::Opened(0)),
                "*" | "*1" => Ok(Cell::Flagged),
                t if t.starts_with('*') => Err(format!(
                    "'{t}': several mines in one cell are not supported"
                )),
                t => t
                    .parse::<u8>()
                    .ok()
                    .filter(|&v| v <= 8)
                    .map(Cell::Opened)
                    .ok_or_else(|| {
                        format!("'{t}' is not a cell (# unopened, . or 0-8 opened, * mine)")
                    }),
            })
            .collect::<Result<_, _>>()
            .map_err(|m| PuzzleError::parse(&at, m))?;
        if *width.get_or_insert(row.len()) != row.len() {
            return Err(PuzzleError::parse(at, "rows of different lengths"));
        }
        cells.extend(row);
        height += 1;
    }
    let mines = hints.mines.ok_or_else(|| PuzzleError::NeedsHint {
        origin: origin.to_string(),
        message: "this board form does not say how many mines there are: give the mine count"
            .to_string(),
        hint: crate::puzzle::Hint::Mines,
    })?;
    Minesweeper::new(width.unwrap_or(0), height, mines, cells, None)
        .map_err(|e| PuzzleError::parse(origin, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_with_leading_zeros_is_ours_not_a_hex_board() {
        let board = parse_all("03 03 01\n###\n#1#\n###\n", "m", &ParseHints::default()).unwrap();
        assert_eq!((board[0].puzzle.width(), board[0].puzzle.height()), (3, 3));
        // A real hex board still reads as one.
        let hex = parse_all("00 01 0F\n00 01 01\n", "h", &ParseHints::default()).unwrap();
        assert_eq!(hex[0].puzzle.width(), 3);
    }
}
