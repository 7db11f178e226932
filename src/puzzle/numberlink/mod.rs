//! Numberlink (Arukone, Flow Free): a W×H grid with pairs of numbered endpoints; a solution
//! joins each pair by one path through orthogonally adjacent cells, paths never share a cell.
//! Two rules: *fill* (every cell on a path: Nikoli, Janko, Flow Free) and *no-fill* (cells may
//! stay empty: the ADC contest).
//!
//! This module is the kind's foundation — model, the corpus's forms, the referee and the exact
//! solver; the QUBO, generator, drawing and editor come next, and the kind joins the registry
//! when they are there.
//!
//! Forms read as they are:
//! - Ahle's (and ours): `W H` then H rows of W characters, `.` empty, any other character an
//!   endpoint label appearing exactly twice; `#` comments, blank lines between puzzles, `0 0`
//!   ends the input; ours may start with `rule no-fill`;
//! - Zucker's Flow Free files: rows of characters, no header, letters are colours;
//! - the SAT study's `.in`: rows of space-separated integers, 0 empty;
//! - ADC 2018: `SIZE XxYx1`, `LINE_NUM n`, `LINE#k (x,y,z) (x,y,z)` (single-layer only).
//!
//! Invariant: `endpoints.len() == width · height`; every label 1..=pairs appears exactly twice.

pub mod check;
pub mod solve;

use crate::puzzle::PuzzleError;

/// Largest side accepted.
pub const MAX_SIDE: usize = 128;

/// Whether every cell must be on a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Every cell is covered (Nikoli, Janko, Flow Free).
    Fill,
    /// Cells may stay empty (ADC).
    NoFill,
}

/// A Numberlink instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numberlink {
    width: usize,
    height: usize,
    /// Per cell: 0 empty, k the k-th pair's endpoint (1-based).
    endpoints: Vec<u16>,
    /// The pairs' names as the file wrote them (`A`, `7`, …), index k − 1.
    names: Vec<String>,
    rule: Rule,
}

impl Numberlink {
    /// An instance from per-cell labels (any names; each must appear exactly twice).
    pub fn new(
        width: usize,
        height: usize,
        cells: &[Option<String>],
        rule: Rule,
    ) -> Result<Self, PuzzleError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(PuzzleError::Invalid(format!(
                "a {width}×{height} grid: each side must be 1 to {MAX_SIDE}"
            )));
        }
        if cells.len() != width * height {
            return Err(PuzzleError::Invalid(format!(
                "a {width}×{height} grid needs {} cells, not {}",
                width * height,
                cells.len()
            )));
        }
        let mut names: Vec<String> = Vec::new();
        let mut count: Vec<usize> = Vec::new();
        let mut endpoints = vec![0u16; cells.len()];
        for (k, c) in cells.iter().enumerate() {
            let Some(name) = c else { continue };
            let id = match names.iter().position(|n| n == name) {
                Some(i) => i,
                None => {
                    if names.len() >= u16::MAX as usize - 1 {
                        return Err(PuzzleError::Invalid("too many pairs".into()));
                    }
                    names.push(name.clone());
                    count.push(0);
                    names.len() - 1
                }
            };
            count[id] += 1;
            endpoints[k] = id as u16 + 1;
        }
        if let Some(i) = count.iter().position(|&n| n != 2) {
            return Err(PuzzleError::Invalid(format!(
                "label '{}' appears {} time(s); every label marks exactly two endpoints",
                names[i], count[i]
            )));
        }
        // Number pairs in reading order of their first endpoint, as the files do.
        Ok(Numberlink {
            width,
            height,
            endpoints,
            names,
            rule,
        })
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Pairs to join.
    pub fn num_pairs(&self) -> usize {
        self.names.len()
    }

    /// The rule.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Pair k's name (k 1-based).
    pub fn name(&self, k: u16) -> &str {
        &self.names[k as usize - 1]
    }

    /// Per cell: 0, or the pair whose endpoint it is.
    pub fn endpoints(&self) -> &[u16] {
        &self.endpoints
    }

    /// Pair k's two endpoint cells (k 1-based).
    pub fn ends(&self, k: u16) -> [usize; 2] {
        let mut it = self
            .endpoints
            .iter()
            .enumerate()
            .filter(|&(_, &e)| e == k)
            .map(|(i, _)| i);
        [it.next().unwrap_or(0), it.next().unwrap_or(0)]
    }

    /// The up to 4 orthogonal neighbours of cell i.
    pub fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        let (r, c) = (i / self.width, i % self.width);
        [
            (r > 0).then(|| i - self.width),
            (c + 1 < self.width).then(|| i + 1),
            (r + 1 < self.height).then(|| i + self.width),
            (c > 0).then(|| i - 1),
        ]
        .into_iter()
        .flatten()
    }

    /// "row R, column C", 1-based.
    pub fn place(&self, i: usize) -> String {
        format!("row {}, column {}", i / self.width + 1, i % self.width + 1)
    }
}

/// Every puzzle in `text`, whichever form it is in (see the module header).
pub fn parse(text: &str, origin: &str) -> Result<Vec<Numberlink>, PuzzleError> {
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
        return Ok(vec![parse_adc(&content, origin)?]);
    }
    let tokens: Vec<&str> = first.split_whitespace().collect();
    let header = tokens.len() == 2 && tokens.iter().all(|t| t.parse::<usize>().is_ok());
    if header || first == "rule no-fill" || first == "rule fill" {
        return parse_headed(&content, origin);
    }
    if tokens.len() > 1 && tokens.iter().all(|t| t.parse::<u32>().is_ok()) {
        return Ok(vec![parse_numbers(&content, origin)?]);
    }
    Ok(vec![parse_letters(&content, origin)?])
}

/// Ahle's form (and ours): `W H` + rows, repeated; `0 0` ends.
fn parse_headed(content: &[&(usize, &str)], origin: &str) -> Result<Vec<Numberlink>, PuzzleError> {
    let mut out = Vec::new();
    let mut rule = Rule::Fill;
    let mut i = 0;
    while i < content.len() {
        let (ln, line) = *content[i];
        let at = format!("{origin}:{ln}");
        let line = line.trim();
        match line {
            "rule no-fill" => {
                rule = Rule::NoFill;
                i += 1;
                continue;
            }
            "rule fill" => {
                rule = Rule::Fill;
                i += 1;
                continue;
            }
            _ => {}
        }
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
            let chars: Vec<char> = row.trim().chars().collect();
            if chars.len() != w {
                return Err(PuzzleError::parse(
                    format!("{origin}:{rl}"),
                    format!("{} characters, but the grid is {w} wide", chars.len()),
                ));
            }
            cells.extend(
                chars
                    .into_iter()
                    .map(|ch| (ch != '.').then(|| ch.to_string())),
            );
        }
        out.push(
            Numberlink::new(w, h, &cells, rule).map_err(|e| PuzzleError::parse(&at, plain(e)))?,
        );
        i += 1 + h;
    }
    if out.is_empty() {
        return Err(PuzzleError::parse(origin, "the file has no puzzle"));
    }
    Ok(out)
}

/// Zucker's Flow Free files: rows of characters; letters are colours, anything else is blank.
fn parse_letters(content: &[&(usize, &str)], origin: &str) -> Result<Numberlink, PuzzleError> {
    let width = content[0].1.trim().chars().count();
    let mut cells = Vec::new();
    for &&(ln, row) in content {
        let chars: Vec<char> = row.trim().chars().collect();
        if chars.len() != width {
            return Err(PuzzleError::parse(
                format!("{origin}:{ln}"),
                format!("{} characters, but the first row has {width}", chars.len()),
            ));
        }
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
fn parse_numbers(content: &[&(usize, &str)], origin: &str) -> Result<Numberlink, PuzzleError> {
    let mut width = None;
    let mut cells = Vec::new();
    for &&(ln, row) in content {
        let values: Vec<u32> = row
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|_| {
                PuzzleError::parse(
                    format!("{origin}:{ln}"),
                    "expected whole numbers (0 = empty)",
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
fn parse_adc(content: &[&(usize, &str)], origin: &str) -> Result<Numberlink, PuzzleError> {
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
    for &&(l, line) in &content[1..] {
        let line = line.trim();
        if line.starts_with("LINE_NUM") {
            continue;
        }
        let Some(rest) = line.strip_prefix("LINE#") else {
            return Err(PuzzleError::parse(
                at(l),
                "expected `LINE#k (x,y,z) (x,y,z)`",
            ));
        };
        let (k, points) = rest
            .split_once(|ch: char| ch.is_whitespace() || ch == '(')
            .map(|(k, p)| (k, format!("({p}")))
            .ok_or_else(|| PuzzleError::parse(at(l), "expected `LINE#k (x,y,z) (x,y,z)`"))?;
        let coords: Vec<usize> = points
            .split(|ch: char| !ch.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap_or(usize::MAX))
            .collect();
        let [x1, y1, _, x2, y2, _] = coords[..] else {
            return Err(PuzzleError::parse(at(l), "expected two points (x,y,z)"));
        };
        for (px, py) in [(x1, y1), (x2, y2)] {
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
            cells[py * x + px] = Some(k.trim().to_string());
        }
    }
    Numberlink::new(x, y, &cells, Rule::NoFill).map_err(|e| PuzzleError::parse(origin, plain(e)))
}

/// A message without its `Invalid` wrapper.
fn plain(e: PuzzleError) -> String {
    match e {
        PuzzleError::Invalid(m) => m,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_forms_read_as_they_are() {
        let ahle = "# Copyright\n\n8 8\n........\n.E....F.\n...DF...\n........\n..B.....\nC....B..\n...C....\nED......\n\n0 0\n";
        let p = parse(ahle, "janko").unwrap();
        assert_eq!((p[0].width(), p[0].height(), p[0].num_pairs()), (8, 8, 5));
        assert_eq!(p[0].rule(), Rule::Fill);
        let zucker = "R.G.Y\n..B.O\n.....\n.G.Y.\n.RBO.\n";
        assert_eq!(parse(zucker, "z").unwrap()[0].num_pairs(), 5);
        let sat = "1 0 2\n0 0 0\n1 0 2\n";
        assert_eq!(parse(sat, "s").unwrap()[0].num_pairs(), 2);
        let adc = "SIZE 3X2X1\r\nLINE_NUM 1\r\nLINE#1 (0,0,1) (2,1,1)\r\n";
        let p = parse(adc, "q").unwrap();
        assert_eq!(p[0].rule(), Rule::NoFill);
        assert_eq!(p[0].ends(1), [0, 5]);
    }

    #[test]
    fn bad_files_name_the_line_and_the_problem() {
        let e = parse("3 2\n.A.\n..\n", "f").unwrap_err().to_string();
        assert!(e.contains("f:3") && e.contains("2 characters"), "{e}");
        let e = parse("3 1\nA.B\n", "f").unwrap_err().to_string();
        assert!(e.contains("label 'A' appears 1 time"), "{e}");
        let e = parse("SIZE 4X4X2\nLINE_NUM 0\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("only single-layer"), "{e}");
        let e = parse("500 1\n", "f").unwrap_err().to_string();
        assert!(e.contains("each side must be 1 to 128"), "{e}");
    }
}
