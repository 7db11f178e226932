//! Numberlink's text forms, read as published: ours and Ahle's, Zucker's letters, the SAT study's
//! integers, and ADC 2018 questions (see the module header of `numberlink`).

use super::*;

/// Every puzzle in `text`, whichever form it is in (see the module header).
pub fn parse(text: &str, origin: &str) -> Result<Vec<Numberlink>, PuzzleError> {
    Ok(parse_located(text, origin)?
        .into_iter()
        .map(|l| l.puzzle)
        .collect())
}

/// Every puzzle in `text` with the line its header is on (multi-puzzle files).
pub(super) fn parse_located(
    text: &str,
    origin: &str,
) -> Result<Vec<Located<Numberlink>>, PuzzleError> {
    let single = |puzzle| Located { line: None, puzzle };
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .collect();
    let content: Vec<&(usize, &str)> = lines
        .iter()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .collect();
    let Some(&&(_, first)) = content.first() else {
        return Err(PuzzleError::parse(origin, "the file has no puzzle"));
    };
    let first = first.trim();
    if first.starts_with("SIZE") {
        return Ok(vec![single(parse_adc(&content, origin)?)]);
    }
    if let Some(unknown) = unknown_rule(first) {
        let ln = content[0].0;
        return Err(unknown.at(format!("{origin}:{ln}")));
    }
    let tokens: Vec<&str> = first.split_whitespace().collect();
    let header = tokens.len() == 2 && tokens.iter().all(|t| t.parse::<usize>().is_ok());
    if header || first == "rule no-fill" || first == "rule fill" {
        return parse_headed(&content, origin);
    }
    // Whole numbers of any size mean the number form (one above u32 is then refused there,
    // rather than the row being read as letters).
    if tokens.len() > 1 && tokens.iter().all(|t| t.bytes().all(|b| b.is_ascii_digit())) {
        return Ok(vec![single(parse_numbers(&content, origin)?)]);
    }
    Ok(vec![single(parse_letters(&content, origin)?)])
}

/// A `rule` line naming no rule there is (`rule sometimes`): said as such, rather than read as
/// a row of letters.
fn unknown_rule(line: &str) -> Option<UnknownRule> {
    let mut words = line.split_whitespace();
    (words.next() == Some("rule") && !matches!(line, "rule fill" | "rule no-fill"))
        .then(|| UnknownRule(words.collect::<Vec<_>>().join(" ")))
}

struct UnknownRule(String);

impl UnknownRule {
    fn at(self, at: String) -> PuzzleError {
        PuzzleError::parse(
            at,
            format!(
                "`rule {}` names no rule: the rule is `fill` or `no-fill`",
                self.0
            ),
        )
    }
}

/// Ahle's form (and ours): `W H` + rows, repeated; `0 0` ends.
pub(super) fn parse_headed(
    content: &[&(usize, &str)],
    origin: &str,
) -> Result<Vec<Located<Numberlink>>, PuzzleError> {
    let mut out = Vec::new();
    let mut rule = Rule::Fill;
    // The rule line given since the last puzzle, and its line: a second one that disagrees
    // before the next puzzle is an error, not "the last wins".
    let mut rule_at: Option<(Rule, usize)> = None;
    let mut i = 0;
    while i < content.len() {
        let (ln, line) = *content[i];
        let at = format!("{origin}:{ln}");
        let line = line.trim();
        let said = match line {
            "rule no-fill" => Some(Rule::NoFill),
            "rule fill" => Some(Rule::Fill),
            _ => None,
        };
        if let Some(r) = said {
            if let Some((before, l)) = rule_at
                && before != r
            {
                return Err(PuzzleError::parse(
                    at,
                    format!("`{line}` contradicts the rule given on line {l}"),
                ));
            }
            rule = r;
            rule_at = Some((r, ln));
            i += 1;
            continue;
        }
        if let Some(unknown) = unknown_rule(line) {
            return Err(unknown.at(at));
        }
        rule_at = None;
        let nums: Vec<usize> = line
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| PuzzleError::parse(&at, "expected a `WIDTH HEIGHT` line"))?;
        let [w, h] = nums[..] else {
            return Err(PuzzleError::parse(&at, "expected a `WIDTH HEIGHT` line"));
        };
        if (w, h) == (0, 0) {
            break;
        }
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
            return Err(PuzzleError::parse(
                &at,
                format!("a {w}×{h} grid: each side must be 1 to {MAX_SIDE}"),
            ));
        }
        let mut cells = Vec::with_capacity(w * h);
        for r in 0..h {
            let &&(rl, row) = content.get(i + 1 + r).ok_or_else(|| {
                PuzzleError::parse(&at, format!("the grid needs {h} rows after its header"))
            })?;
            let row = row.trim();
            // Rows of space-separated names (ours, for names longer than a character).
            let spaced = row.contains(char::is_whitespace);
            let tokens: Vec<String> = if spaced {
                row.split_whitespace().map(str::to_string).collect()
            } else {
                row.chars().map(|ch| ch.to_string()).collect()
            };
            if tokens.len() != w {
                let what = if spaced {
                    "space-separated cells"
                } else {
                    "characters"
                };
                return Err(PuzzleError::parse(
                    format!("{origin}:{rl}"),
                    format!("{} {what}, but the grid is {w} wide", tokens.len()),
                ));
            }
            cells.extend(tokens.into_iter().map(|t| (t != ".").then_some(t)));
        }
        out.push(Located {
            line: Some(ln),
            puzzle: Numberlink::new(w, h, &cells, rule)
                .map_err(|e| PuzzleError::parse(&at, plain(e)))?,
        });
        i += 1 + h;
    }
    if out.is_empty() {
        return Err(PuzzleError::parse(origin, "the file has no puzzle"));
    }
    Ok(out)
}

/// Refuses a grid larger than `MAX_SIDE` on a side before its cells are built (the message
/// `Numberlink::new` gives).
fn check_side(width: usize, height: usize, origin: &str) -> Result<(), PuzzleError> {
    if width > MAX_SIDE || height > MAX_SIDE {
        return Err(PuzzleError::parse(
            origin,
            format!("a {width}×{height} grid: each side must be 1 to {MAX_SIDE}"),
        ));
    }
    Ok(())
}

/// Zucker's Flow Free files: rows of characters; letters are colours, anything else is blank.
pub(super) fn parse_letters(
    content: &[&(usize, &str)],
    origin: &str,
) -> Result<Numberlink, PuzzleError> {
    let width = content[0].1.trim().chars().count();
    // The grid's size is checked before any cell is built: a 196 MB file of letters used to
    // ask for gigabytes (a cell per character) before the size was refused.
    check_side(width, content.len(), origin)?;
    let mut cells = Vec::new();
    for &&(ln, row) in content {
        let count = row.trim().chars().count();
        if count != width {
            return Err(PuzzleError::parse(
                format!("{origin}:{ln}"),
                format!("{count} characters, but the first row has {width}"),
            ));
        }
        let chars: Vec<char> = row.trim().chars().collect();
        cells.extend(
            chars
                .into_iter()
                .map(|ch| ch.is_alphanumeric().then(|| ch.to_string())),
        );
    }
    Numberlink::new(width, content.len(), &cells, Rule::Fill)
        .map_err(|e| PuzzleError::parse(origin, plain(e)))
}

/// The SAT study's `.in`: rows of integers, 0 empty.
pub(super) fn parse_numbers(
    content: &[&(usize, &str)],
    origin: &str,
) -> Result<Numberlink, PuzzleError> {
    let mut width = None;
    let mut cells = Vec::new();
    let first = content
        .first()
        .map_or(0, |(_, row)| row.split_whitespace().count());
    check_side(first, content.len(), origin)?;
    for &&(ln, row) in content {
        if row.split_whitespace().count() > MAX_SIDE {
            return Err(PuzzleError::parse(
                format!("{origin}:{ln}"),
                format!("more than {MAX_SIDE} numbers in a row: each side must be 1 to {MAX_SIDE}"),
            ));
        }
        let values: Vec<u32> = row
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| {
                PuzzleError::parse(
                    format!("{origin}:{ln}"),
                    format!(
                        "expected whole numbers from 0 (empty) to {} (a pair's label)",
                        u32::MAX
                    ),
                )
            })?;
        if *width.get_or_insert(values.len()) != values.len() {
            return Err(PuzzleError::parse(
                format!("{origin}:{ln}"),
                "rows of different lengths",
            ));
        }
        cells.extend(values.into_iter().map(|v| (v != 0).then(|| v.to_string())));
    }
    Numberlink::new(width.unwrap_or(0), content.len(), &cells, Rule::Fill)
        .map_err(|e| PuzzleError::parse(origin, plain(e)))
}

/// ADC 2018: `SIZE XxYxZ` (Z = 1), `LINE_NUM n`, `LINE#k (x,y,z) (x,y,z)`; no-fill rule.
pub(super) fn parse_adc(
    content: &[&(usize, &str)],
    origin: &str,
) -> Result<Numberlink, PuzzleError> {
    let (ln, size) = *content[0];
    let at = |l: usize| format!("{origin}:{l}");
    let dims: Vec<usize> = size
        .trim()
        .trim_start_matches("SIZE")
        .trim()
        .split(['X', 'x'])
        .map(|t| t.trim().parse())
        .collect::<Result<_, _>>()
        .map_err(|_| PuzzleError::parse(at(ln), "expected `SIZE XxYxZ`"))?;
    let [x, y, z] = dims[..] else {
        return Err(PuzzleError::parse(at(ln), "expected `SIZE XxYxZ`"));
    };
    if z != 1 {
        return Err(PuzzleError::parse(
            at(ln),
            format!(
                "{z} layers: only single-layer (2-D) ADC problems are supported, such as Q2 and Q12"
            ),
        ));
    }
    if x == 0 || y == 0 || x > MAX_SIDE || y > MAX_SIDE {
        return Err(PuzzleError::parse(
            at(ln),
            format!("a {x}×{y} grid: each side must be 1 to {MAX_SIDE}"),
        ));
    }
    let mut cells: Vec<Option<String>> = vec![None; x * y];
    let mut declared: Option<(usize, usize)> = None;
    let mut names: Vec<String> = Vec::new();
    for &&(l, line) in &content[1..] {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("LINE_NUM") {
            let n: usize = n.trim().parse().map_err(|_| {
                PuzzleError::parse(at(l), format!("`{line}`: LINE_NUM takes a whole number"))
            })?;
            if declared.is_some_and(|(m, _)| m != n) {
                return Err(PuzzleError::parse(
                    at(l),
                    "a second LINE_NUM that disagrees",
                ));
            }
            declared = Some((n, l));
            continue;
        }
        let Some(rest) = line.strip_prefix("LINE#") else {
            // An answer file (`A12.txt` beside `Q12.txt`) has the same SIZE line, then layers
            // of numbers: say what it is and how it is used rather than a bare syntax error.
            let message = if line.starts_with("LAYER") {
                "this is an ADC answer file (SIZE, then LAYER grids), not a problem: open the \
                 problem file (Q…) as the puzzle and give this file as its solution, e.g. \
                 `check Q12.txt A12.txt`"
            } else {
                "expected `LINE#k (x,y,z) (x,y,z)`"
            };
            return Err(PuzzleError::parse(at(l), message));
        };
        let cut = rest
            .find(|ch: char| ch.is_whitespace() || ch == '(')
            .ok_or_else(|| PuzzleError::parse(at(l), "expected `LINE#k (x,y,z) (x,y,z)`"))?;
        let (k, points) = rest.split_at(cut);
        let k = k.trim();
        if k.is_empty() {
            return Err(PuzzleError::parse(
                at(l),
                "a LINE# line without its name: expected `LINE#k (x,y,z) (x,y,z)`",
            ));
        }
        if names.iter().any(|n| n == k) {
            return Err(PuzzleError::parse(at(l), format!("LINE#{k} a second time")));
        }
        names.push(k.to_string());
        let ends = adc_points(points).map_err(|m| PuzzleError::parse(at(l), m))?;
        for (px, py, pz) in ends {
            if pz != 1 {
                return Err(PuzzleError::parse(
                    at(l),
                    format!("({px},{py},{pz}): layer {pz}, but the board has one layer (1)"),
                ));
            }
            let (px, py) = (px as usize, py as usize);
            if px >= x || py >= y {
                return Err(PuzzleError::parse(
                    at(l),
                    format!("({px},{py}) is off the {x}×{y} grid"),
                ));
            }
            if cells[py * x + px].is_some() {
                return Err(PuzzleError::parse(
                    at(l),
                    format!("({px},{py}) is already an endpoint"),
                ));
            }
            cells[py * x + px] = Some(k.to_string());
        }
    }
    if let Some((n, l)) = declared
        && n != names.len()
    {
        return Err(PuzzleError::parse(
            at(l),
            format!("LINE_NUM {n}, but the file has {} LINE# lines", names.len()),
        ));
    }
    Numberlink::new(x, y, &cells, Rule::NoFill).map_err(|e| PuzzleError::parse(origin, plain(e)))
}

/// The two points of an ADC `LINE#` line, `(x,y,z) (x,y,z)`: each exactly three whole numbers
/// from 0 (a sign or a stray character is an error, never skipped).
fn adc_points(text: &str) -> Result<Vec<(u64, u64, u64)>, String> {
    let mut points = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let Some(body) = rest.strip_prefix('(') else {
            return Err(format!("expected `(x,y,z)` at `{}`", short(rest)));
        };
        let Some((inside, after)) = body.split_once(')') else {
            return Err(format!("`({}`: no closing parenthesis", short(body)));
        };
        let numbers: Vec<&str> = inside.split(',').map(str::trim).collect();
        let parsed: Option<Vec<u64>> = numbers
            .iter()
            .map(|t| {
                (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| t.parse().ok())
                    .flatten()
            })
            .collect();
        match parsed.as_deref() {
            Some(&[px, py, pz]) => points.push((px, py, pz)),
            _ => {
                return Err(format!(
                    "`({inside})`: a point is three whole numbers from 0, x,y,z"
                ));
            }
        }
        rest = after.trim_start();
    }
    if points.len() != 2 {
        return Err(format!("{} points: a line joins two (x,y,z)", points.len()));
    }
    Ok(points)
}

/// The first characters of `s`, for messages.
fn short(s: &str) -> String {
    s.chars().take(20).collect()
}

/// A message without its `Invalid` wrapper.
pub(super) fn plain(e: PuzzleError) -> String {
    match e {
        PuzzleError::Invalid(m) => m,
        other => other.to_string(),
    }
}
