//! LP text cut into sections (by their keywords at a line's start) and tokens: numbers,
//! names (CPLEX's characters; brackets inside a name), operators.

use super::Direction;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Section {
    Objective(Direction),
    Constraints,
    Bounds,
    Binary,
    General,
    Unsupported(&'static str),
    End,
}

/// The section a line opens, and the rest of the line after its keyword.
pub(super) fn section_of(line: &str) -> Option<(Section, &str)> {
    let lower = line.to_ascii_lowercase();
    const KEYWORDS: &[(&str, Section)] = &[
        ("minimize", Section::Objective(Direction::Minimize)),
        ("minimise", Section::Objective(Direction::Minimize)),
        ("minimum", Section::Objective(Direction::Minimize)),
        ("min", Section::Objective(Direction::Minimize)),
        ("maximize", Section::Objective(Direction::Maximize)),
        ("maximise", Section::Objective(Direction::Maximize)),
        ("maximum", Section::Objective(Direction::Maximize)),
        ("max", Section::Objective(Direction::Maximize)),
        ("subject to", Section::Constraints),
        ("such that", Section::Constraints),
        ("s.t.", Section::Constraints),
        ("st.", Section::Constraints),
        ("st", Section::Constraints),
        ("bounds", Section::Bounds),
        ("bound", Section::Bounds),
        ("binaries", Section::Binary),
        ("binary", Section::Binary),
        ("bin", Section::Binary),
        ("generals", Section::General),
        ("general", Section::General),
        ("gen", Section::General),
        ("integers", Section::General),
        ("integer", Section::General),
        (
            "semi-continuous",
            Section::Unsupported("semi-continuous variables"),
        ),
        ("semis", Section::Unsupported("semi-continuous variables")),
        ("semi", Section::Unsupported("semi-continuous variables")),
        ("sos", Section::Unsupported("SOS constraints")),
        ("end", Section::End),
    ];
    for &(word, section) in KEYWORDS {
        if let Some(rest) = lower.strip_prefix(word) {
            // The keyword alone on its line or followed by a space: `min` is not `minx`.
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                // "subject to" may be followed by a constraint on the same line.
                return Some((section, line[word.len()..].trim_start()));
            }
        }
    }
    None
}

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Num(f64),
    Name(String),
    Op(&'static str),
}

pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) line: usize,
}

/// Characters a name may hold besides letters and digits (CPLEX's list, with `[`/`]` only
/// inside a name, as writers that index variables `x[3]` use them).
pub(super) fn name_char(c: char) -> bool {
    c.is_alphanumeric() || "!\"#$%&()/,.;?@_`'{}|~".contains(c)
}

pub(super) fn tokenize(text: &str, first_line: usize, origin: &str) -> Result<Vec<Token>, String> {
    let mut out = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line_no = first_line + k;
        let line = line.split('\\').next().unwrap_or("");
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_whitespace() {
                i += 1;
                continue;
            }
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let op = match two.as_str() {
                "<=" | "=<" => Some(("<=", 2)),
                ">=" | "=>" => Some((">=", 2)),
                _ => match c {
                    '<' => Some(("<=", 1)),
                    '>' => Some((">=", 1)),
                    '=' => Some(("=", 1)),
                    '+' => Some(("+", 1)),
                    '-' => Some(("-", 1)),
                    '*' => Some(("*", 1)),
                    '^' => Some(("^", 1)),
                    '[' => Some(("[", 1)),
                    ']' => Some(("]", 1)),
                    ':' => Some((":", 1)),
                    // At a token's start `/` divides (`]/2`); inside a name it is a name's.
                    '/' => Some(("/", 1)),
                    _ => None,
                },
            };
            if let Some((op, len)) = op {
                out.push(Token {
                    tok: Tok::Op(op),
                    line: line_no,
                });
                i += len;
                continue;
            }
            if c.is_ascii_digit()
                || (c == '.' && chars.get(i + 1).is_some_and(char::is_ascii_digit))
            {
                let start = i;
                while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                    i += 1;
                }
                // An exponent only when digits follow it (`2e3`, not `2 e3x`).
                if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                    let mut j = i + 1;
                    if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
                        j += 1;
                    }
                    if j < chars.len() && chars[j].is_ascii_digit() {
                        while j < chars.len() && chars[j].is_ascii_digit() {
                            j += 1;
                        }
                        i = j;
                    }
                }
                let s: String = chars[start..i].iter().collect();
                let v: f64 = s
                    .parse()
                    .map_err(|_| format!("{origin}:{line_no}: '{s}' is not a number"))?;
                out.push(Token {
                    tok: Tok::Num(v),
                    line: line_no,
                });
                continue;
            }
            if name_char(c) {
                let start = i;
                while i < chars.len() {
                    let d = chars[i];
                    if name_char(d) {
                        i += 1;
                    } else if d == '[' {
                        // `x[3]` is a name; `[ x * y ]` opens a quadratic part.
                        match chars[i..].iter().position(|&e| e == ']') {
                            Some(p)
                                if chars[i + 1..i + p].iter().all(|&e| name_char(e)) && p > 1 =>
                            {
                                i += p + 1
                            }
                            _ => break,
                        }
                    } else {
                        break;
                    }
                }
                let s: String = chars[start..i].iter().collect();
                let lower = s.to_ascii_lowercase();
                let tok = if lower == "inf" || lower == "infinity" {
                    Tok::Num(f64::INFINITY)
                } else {
                    Tok::Name(s)
                };
                out.push(Token { tok, line: line_no });
                continue;
            }
            return Err(format!("{origin}:{line_no}: unexpected character '{c}'"));
        }
    }
    Ok(out)
}
