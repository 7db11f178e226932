//! LP files (the CPLEX LP format that Gurobi, HiGHS, dimod's `lp.dump` and Fixstars Amplify
//! write), restricted to binary variables: a linear or quadratic objective (`[ … ] / 2`), linear
//! or quadratic constraints with `<=`, `>=`, `=`, bounds that fix a variable, `Binary` and
//! `General` sections. Continuous and non-binary integer variables are refused, naming the
//! variable; so are semi-continuous variables, SOS and indicator constraints.

use super::model::{
    ConstrainedModel, Constraint, Direction, Expr, ModelBuilder, Sense, VarType, tidy,
};

/// Reads an LP file's text; errors carry `origin:LINE`.
pub fn parse(text: &str, origin: &str) -> Result<ConstrainedModel, String> {
    Reader::new(text, origin)?.read()
}

/// Whether `text` looks like an LP file: its first word (after comments) opens the objective
/// or the constraints.
pub fn looks_like(text: &str) -> bool {
    text.lines()
        .map(|l| l.split('\\').next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .is_some_and(|l| {
            matches!(
                section_of(l),
                Some((Section::Objective(_) | Section::Constraints, _))
            )
        })
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Section {
    Objective(Direction),
    Constraints,
    Bounds,
    Binary,
    General,
    Unsupported(&'static str),
    End,
}

/// The section a line opens, and the rest of the line after its keyword.
fn section_of(line: &str) -> Option<(Section, &str)> {
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
enum Tok {
    Num(f64),
    Name(String),
    Op(&'static str),
}

struct Token {
    tok: Tok,
    line: usize,
}

/// Characters a name may hold besides letters and digits (CPLEX's list, with `[`/`]` only
/// inside a name, as writers that index variables `x[3]` use them).
fn name_char(c: char) -> bool {
    c.is_alphanumeric() || "!\"#$%&()/,.;?@_`'{}|~".contains(c)
}

fn tokenize(text: &str, first_line: usize, origin: &str) -> Result<Vec<Token>, String> {
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

/// One section's tokens, read front to back.
struct Cursor<'a> {
    toks: &'a [Token],
    at: usize,
    origin: &'a str,
    /// The line to blame at the end of the section.
    last_line: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at).map(|t| &t.tok)
    }
    fn peek2(&self) -> Option<&Tok> {
        self.toks.get(self.at + 1).map(|t| &t.tok)
    }
    fn next(&mut self) -> Option<&Tok> {
        let t = self.toks.get(self.at).map(|t| &t.tok);
        self.at += 1;
        t
    }
    fn line(&self) -> usize {
        self.toks
            .get(self.at)
            .or_else(|| self.toks.last())
            .map_or(self.last_line, |t| t.line)
    }
    fn err(&self, what: impl std::fmt::Display) -> String {
        format!("{}:{}: {what}", self.origin, self.line())
    }
    fn done(&self) -> bool {
        self.at >= self.toks.len()
    }
    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(&Tok::Op(leak(op))) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    /// `name :` ahead.
    fn label(&mut self) -> Option<String> {
        if let (Some(Tok::Name(n)), Some(Tok::Op(":"))) = (self.peek(), self.peek2()) {
            let n = n.clone();
            self.at += 2;
            Some(n)
        } else {
            None
        }
    }
}

/// Operators compared by value: the token holds the tokenizer's `&'static str`.
fn leak(op: &str) -> &'static str {
    match op {
        "<=" => "<=",
        ">=" => ">=",
        "=" => "=",
        "+" => "+",
        "-" => "-",
        "*" => "*",
        "^" => "^",
        "[" => "[",
        "]" => "]",
        ":" => ":",
        "/" => "/",
        _ => "?",
    }
}

/// A term's variables by label (resolved to indices once every section is read).
type RawTerms = (f64, Vec<(String, f64)>, Vec<(String, String, f64)>);

/// Reads `± coef name`, `± coef`, and `[ … ]` parts until something else comes; `halve`:
/// the objective's bracket, which must be followed by `/ 2`.
fn expression(cur: &mut Cursor, halve: bool) -> Result<RawTerms, String> {
    let (mut constant, mut linear, mut quadratic) = (0.0, Vec::new(), Vec::new());
    let mut first = true;
    loop {
        let mut sign = 1.0;
        let mut signed = false;
        while let Some(Tok::Op(op @ ("+" | "-"))) = cur.peek() {
            if *op == "-" {
                sign = -sign;
            }
            signed = true;
            cur.next();
        }
        if !signed && !first {
            if matches!(cur.peek(), Some(Tok::Op("*" | "^"))) {
                return Err(cur.err(
                    "a product outside brackets: quadratic terms are written [ x * y ] (and \
                     halved, [ … ] / 2, in the objective)",
                ));
            }
            break;
        }
        match cur.peek() {
            Some(Tok::Op("[")) => {
                cur.next();
                let factor = sign;
                let inner = bracket(cur)?;
                let mut scale = factor;
                if halve {
                    if !(cur.eat("/") && matches!(cur.next(), Some(Tok::Num(v)) if *v == 2.0)) {
                        return Err(cur.err("the objective's quadratic part is written [ … ] / 2"));
                    }
                    scale *= 0.5;
                }
                quadratic.extend(inner.into_iter().map(|(a, b, c)| (a, b, c * scale)));
            }
            Some(Tok::Num(v)) => {
                let v = *v;
                cur.next();
                if !v.is_finite() {
                    return Err(cur.err("an infinite coefficient"));
                }
                if let Some(Tok::Name(n)) = cur.peek() {
                    let n = n.clone();
                    cur.next();
                    linear.push((n, sign * v));
                } else {
                    constant += sign * v;
                }
            }
            Some(Tok::Name(n)) if !(matches!(cur.peek2(), Some(Tok::Op(":")))) => {
                let n = n.clone();
                cur.next();
                linear.push((n, sign));
            }
            _ if signed => return Err(cur.err("a term is missing after a sign")),
            _ => break,
        }
        first = false;
    }
    Ok((constant, linear, quadratic))
}

/// The inside of `[ … ]`: `± coef a * b` and `± coef a ^ 2`.
fn bracket(cur: &mut Cursor) -> Result<Vec<(String, String, f64)>, String> {
    let mut out = Vec::new();
    let mut first = true;
    loop {
        if cur.eat("]") {
            return Ok(out);
        }
        let mut sign = 1.0;
        let mut signed = false;
        while let Some(Tok::Op(op @ ("+" | "-"))) = cur.peek() {
            if *op == "-" {
                sign = -sign;
            }
            signed = true;
            cur.next();
        }
        if !signed && !first {
            return Err(cur.err("expected + or - between quadratic terms"));
        }
        first = false;
        let mut coef = sign;
        if let Some(Tok::Num(v)) = cur.peek() {
            coef *= *v;
            cur.next();
        }
        let a = match cur.next() {
            Some(Tok::Name(n)) => n.clone(),
            _ => return Err(cur.err("expected a variable in the quadratic part [ … ]")),
        };
        if cur.eat("^") {
            match cur.next() {
                Some(Tok::Num(v)) if *v == 2.0 => out.push((a.clone(), a, coef)),
                _ => return Err(cur.err("only squares (^ 2) may appear in [ … ]")),
            }
        } else if cur.eat("*") {
            match cur.next() {
                Some(Tok::Name(b)) => out.push((a, b.clone(), coef)),
                _ => return Err(cur.err("expected a variable after *")),
            }
        } else {
            return Err(cur.err(
                "a term in [ … ] is a product (x * y) or a square (x ^ 2); linear terms go \
                 outside the brackets",
            ));
        }
        if cur.done() {
            return Err(cur.err("the quadratic part [ … ] is not closed"));
        }
    }
}

fn signed_number(cur: &mut Cursor) -> Result<f64, String> {
    let mut sign = 1.0;
    while let Some(Tok::Op(op @ ("+" | "-"))) = cur.peek() {
        if *op == "-" {
            sign = -sign;
        }
        cur.next();
    }
    match cur.next() {
        Some(Tok::Num(v)) => Ok(sign * v),
        _ => Err(cur.err("expected a number")),
    }
}

fn relation(cur: &mut Cursor) -> Option<Sense> {
    let s = match cur.peek() {
        Some(Tok::Op("<=")) => Sense::Le,
        Some(Tok::Op(">=")) => Sense::Ge,
        Some(Tok::Op("=")) => Sense::Eq,
        _ => return None,
    };
    cur.next();
    Some(s)
}

struct Reader<'a> {
    origin: &'a str,
    sections: Vec<(Section, usize, Vec<Token>)>,
    /// The `\Problem name:` comment's name, if any.
    problem_name: Option<String>,
}

impl<'a> Reader<'a> {
    fn new(text: &str, origin: &'a str) -> Result<Self, String> {
        let mut sections: Vec<(Section, usize, String)> = Vec::new();
        let mut problem_name = None;
        for (k, raw) in text.lines().enumerate() {
            let line_no = k + 1;
            if let Some(name) = raw
                .trim()
                .strip_prefix('\\')
                .and_then(|c| c.trim().strip_prefix("Problem name:"))
            {
                problem_name = Some(name.trim().to_string());
            }
            let code = raw.split('\\').next().unwrap_or("");
            if let Some((section, rest)) = section_of(code.trim()) {
                if let Section::Unsupported(what) = section {
                    return Err(format!(
                        "{origin}:{line_no}: {what} are not supported (binary variables and \
                         linear or quadratic constraints only)"
                    ));
                }
                if section == Section::End {
                    break;
                }
                sections.push((section, line_no, format!("{rest}\n")));
            } else if let Some(last) = sections.last_mut() {
                last.2.push_str(code);
                last.2.push('\n');
            } else if !code.trim().is_empty() {
                return Err(format!(
                    "{origin}:{line_no}: expected Minimize, Maximize or Subject To first"
                ));
            }
        }
        let sections = sections
            .into_iter()
            .map(|(s, line, text)| Ok((s, line, tokenize(&text, line, origin)?)))
            .collect::<Result<_, String>>()?;
        Ok(Reader {
            origin,
            sections,
            problem_name,
        })
    }

    fn read(self) -> Result<ConstrainedModel, String> {
        let origin = self.origin;
        let mut b = ModelBuilder::default();
        let mut objective: Option<(Direction, RawTerms)> = None;
        let mut constraints: Vec<(String, RawTerms, Sense, f64, usize)> = Vec::new();
        let mut binary: Vec<(String, usize)> = Vec::new();
        let mut general: Vec<(String, usize)> = Vec::new();
        // Bounds by variable: (lower, upper, line).
        let mut bounds: Vec<(String, f64, f64, usize)> = Vec::new();
        for (section, line, toks) in &self.sections {
            let mut cur = Cursor {
                toks,
                at: 0,
                origin,
                last_line: *line,
            };
            match section {
                Section::Objective(dir) => {
                    if objective.is_some() {
                        return Err(format!(
                            "{origin}:{line}: a second objective (one objective per model)"
                        ));
                    }
                    cur.label();
                    let e = expression(&mut cur, true)?;
                    if !cur.done() {
                        return Err(cur.err("unexpected text in the objective"));
                    }
                    objective = Some((*dir, e));
                }
                Section::Constraints => {
                    let mut k = constraints.len();
                    while !cur.done() {
                        let at = cur.line();
                        let label = cur.label().unwrap_or_else(|| format!("c{}", k + 1));
                        if let (Some(Tok::Op("-")), Some(Tok::Num(v))) = (cur.peek(), cur.peek2())
                            && v.is_infinite()
                        {
                            return Err(cur.err("ranged constraints (-inf <= …) are not supported"));
                        }
                        let (c, lin, quad) = expression(&mut cur, false)?;
                        let Some(sense) = relation(&mut cur) else {
                            return Err(cur.err(format!(
                                "constraint '{label}': expected <=, >= or = after its left side"
                            )));
                        };
                        if cur.eat("=") || matches!(cur.peek(), Some(Tok::Op("<=" | ">="))) {
                            return Err(
                                cur.err("indicator and ranged constraints are not supported")
                            );
                        }
                        // The right side: a constant, or (as some writers do) terms on the
                        // relation's line, moved to the left.
                        let line = cur.line();
                        let end =
                            cur.at + toks[cur.at..].iter().take_while(|t| t.line == line).count();
                        let mut right = Cursor {
                            toks: &toks[..end],
                            at: cur.at,
                            origin,
                            last_line: line,
                        };
                        let (rc, rlin, rquad) = expression(&mut right, false)?;
                        if right.at == cur.at {
                            return Err(cur.err(format!(
                                "constraint '{label}': expected its right side after the relation"
                            )));
                        }
                        cur.at = right.at;
                        if !rc.is_finite() {
                            return Err(
                                cur.err(format!("constraint '{label}': infinite right side"))
                            );
                        }
                        let mut lin = lin;
                        let mut quad = quad;
                        lin.extend(rlin.into_iter().map(|(n, a)| (n, -a)));
                        quad.extend(rquad.into_iter().map(|(x, y, b)| (x, y, -b)));
                        constraints.push((label, (c, lin, quad), sense, rc, at));
                        k += 1;
                    }
                }
                Section::Bounds => {
                    while !cur.done() {
                        let at = cur.line();
                        // `x free`, `x <= u`, `x >= l`, `x = v`, `l <= x`, `l <= x <= u`.
                        let (name, lo, hi) = match cur.peek() {
                            Some(Tok::Name(n)) => {
                                let n = n.clone();
                                cur.next();
                                if matches!(cur.peek(), Some(Tok::Name(w)) if w.eq_ignore_ascii_case("free"))
                                {
                                    cur.next();
                                    (n, f64::NEG_INFINITY, f64::INFINITY)
                                } else {
                                    let Some(sense) = relation(&mut cur) else {
                                        return Err(cur.err(format!(
                                            "bound on '{n}': expected <=, >=, = or free"
                                        )));
                                    };
                                    let v = signed_number(&mut cur)?;
                                    match sense {
                                        Sense::Le => (n, f64::NEG_INFINITY, v),
                                        Sense::Ge => (n, v, f64::INFINITY),
                                        Sense::Eq => (n, v, v),
                                    }
                                }
                            }
                            _ => {
                                let v = signed_number(&mut cur)?;
                                let first = relation(&mut cur);
                                let n = match cur.next() {
                                    Some(Tok::Name(n)) => n.clone(),
                                    _ => return Err(cur.err("expected a variable in the bound")),
                                };
                                let (mut lo, mut hi) = match first {
                                    Some(Sense::Le) => (v, f64::INFINITY),
                                    Some(Sense::Ge) => (f64::NEG_INFINITY, v),
                                    Some(Sense::Eq) => (v, v),
                                    None => {
                                        return Err(cur.err("expected <=, >= or = in the bound"));
                                    }
                                };
                                if let Some(s) = relation(&mut cur) {
                                    let w = signed_number(&mut cur)?;
                                    match s {
                                        Sense::Le => hi = w,
                                        Sense::Ge => lo = w,
                                        Sense::Eq => (lo, hi) = (w, w),
                                    }
                                }
                                (n, lo, hi)
                            }
                        };
                        bounds.push((name, lo, hi, at));
                    }
                }
                Section::Binary | Section::General => {
                    while let Some(t) = cur.next() {
                        let Tok::Name(n) = t else {
                            return Err(cur.err("expected variable names"));
                        };
                        let entry = (n.clone(), cur.line());
                        if *section == Section::Binary {
                            binary.push(entry);
                        } else {
                            general.push(entry);
                        }
                    }
                }
                Section::Unsupported(_) | Section::End => {}
            }
        }
        // Variables in the order the Binary and General sections declare them (every variable
        // must be declared there), so that a written model reads back in its own order.
        for (n, _) in binary.iter().chain(&general) {
            b.var(n)?;
        }
        let (direction, obj_terms) =
            objective.unwrap_or((Direction::Minimize, (0.0, Vec::new(), Vec::new())));
        let resolve = |b: &mut ModelBuilder, t: &RawTerms| -> Result<Expr, String> {
            let mut e = Expr {
                constant: t.0,
                ..Expr::default()
            };
            for (n, a) in &t.1 {
                e.linear.push((b.var(n)?, *a));
            }
            for (x, y, c) in &t.2 {
                e.quadratic.push((b.var(x)?, b.var(y)?, *c));
            }
            Ok(e)
        };
        let objective = resolve(&mut b, &obj_terms)?;
        let mut lhs = Vec::with_capacity(constraints.len());
        for (_, t, _, _, _) in &constraints {
            lhs.push(resolve(&mut b, t)?);
        }
        let declared_binary: std::collections::HashSet<&str> =
            binary.iter().map(|(n, _)| n.as_str()).collect();
        // Each variable's bounds: binary ones [0, 1]; general ones need bounds within [0, 1].
        let mut range: Vec<(f64, f64, Option<usize>)> =
            vec![(0.0, f64::INFINITY, None); b.model.variables.len()];
        for (n, lo, hi, line) in &bounds {
            let i = b.var(n)? as usize;
            if i >= range.len() {
                range.push((0.0, f64::INFINITY, None));
            }
            range[i] = (*lo, *hi, Some(*line));
        }
        let general_set: std::collections::HashSet<&str> =
            general.iter().map(|(n, _)| n.as_str()).collect();
        let mut fixed = Vec::new();
        for (i, v) in b.model.variables.iter().enumerate() {
            let (lo, hi, line) = range[i];
            let at = line.map_or(String::new(), |l| format!(":{l}"));
            if declared_binary.contains(v.label.as_str()) {
                if lo > 1.0 || hi < 0.0 || lo > hi {
                    return Err(format!(
                        "{origin}{at}: binary variable '{}' has bounds [{lo}, {hi}] that leave it no value",
                        v.label
                    ));
                }
            } else if general_set.contains(v.label.as_str()) {
                if !(lo >= 0.0 && hi <= 1.0) {
                    return Err(format!(
                        "{origin}{at}: integer variable '{}' ranges over [{lo}, {hi}]: only binary \
                         variables are supported (give it bounds 0 <= {0} <= 1, or expand it into \
                         binary digits in the model)",
                        v.label
                    ));
                }
            } else {
                return Err(format!(
                    "{origin}: variable '{}' is continuous (LP's default): only binary variables are \
                     supported; declare it in a Binary section",
                    v.label
                ));
            }
            let lo = lo.max(0.0).ceil();
            let hi = hi.min(1.0).floor();
            if lo > hi {
                return Err(format!(
                    "{origin}{at}: variable '{}' has no integer value within its bounds",
                    v.label
                ));
            }
            if lo == hi {
                fixed.push((i as u32, lo));
            }
        }
        let vars = b.model.variables.clone();
        debug_assert!(vars.iter().all(|v| v.vartype == VarType::Binary));
        let mut model = b.model;
        model.direction = direction;
        model.name = self.problem_name.clone().unwrap_or_default();
        model.objective = tidy(&vars, objective);
        for ((label, _, sense, rhs, _), e) in constraints.into_iter().zip(lhs) {
            let lhs = tidy(&vars, e);
            // Constants on the left move to the right.
            let rhs = rhs - lhs.constant;
            model.constraints.push(Constraint {
                label,
                lhs: Expr {
                    constant: 0.0,
                    ..lhs
                },
                sense,
                rhs,
                discrete: false,
                soft_weight: None,
                weight: None,
                penalty: false,
            });
        }
        for (i, v) in fixed {
            model.constraints.push(Constraint {
                label: format!("bound[{}]", vars[i as usize].label),
                lhs: Expr {
                    constant: 0.0,
                    linear: vec![(i, 1.0)],
                    quadratic: Vec::new(),
                },
                sense: Sense::Eq,
                rhs: v,
                discrete: false,
                soft_weight: None,
                weight: None,
                penalty: false,
            });
        }
        model.validate().map_err(|e| format!("{origin}: {e}"))?;
        Ok(model)
    }
}

/// Whether `label` can be written as an LP name that CPLEX's format allows (so the model
/// round-trips through LP text and other readers take it): brackets, which this reader
/// accepts inside names, are not written.
pub fn is_lp_name(label: &str) -> bool {
    let mut chars = label.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let lower = label.to_ascii_lowercase();
    let reserved =
        section_of(&lower).is_some() || lower == "free" || lower == "inf" || lower == "infinity";
    !reserved
        && (first.is_alphabetic() || ("!\"#$%&()/,;?@_`'{}|~".contains(first)))
        && !(matches!(first, 'e' | 'E') && chars.clone().next().is_some_and(|c| c.is_ascii_digit()))
        && label.chars().all(name_char)
        && tokenize(label, 1, "").is_ok_and(|t| t.len() == 1 && t[0].tok == Tok::Name(label.into()))
}

/// The model as LP text, if LP can say all of it (binary variables named as LP names, no soft
/// constraints, no weights of a constraint's own); else `None`.
pub fn write(model: &ConstrainedModel) -> Option<String> {
    let lp_able = model
        .variables
        .iter()
        .all(|v| v.vartype == VarType::Binary && is_lp_name(&v.label))
        && model.weights.is_empty()
        && model.constraints.iter().all(|c| {
            c.soft_weight.is_none()
                && !c.discrete
                && !c.penalty
                && c.weight.is_none()
                && (is_lp_name(&c.label) || fixing_bound(model, c).is_some())
        });
    if !lp_able {
        return None;
    }
    let name = |i: u32| model.variables[i as usize].label.as_str();
    let num = exact_number;
    let expr = |e: &Expr, halve: bool| -> String {
        let mut s = String::new();
        let mut push = |coef: f64, what: String| {
            let sign = if coef < 0.0 { "-" } else { "+" };
            if s.is_empty() {
                if coef < 0.0 {
                    s.push_str("- ");
                }
            } else {
                s.push_str(&format!(" {sign} "));
            }
            if coef.abs() == 1.0 && !what.is_empty() {
                s.push_str(&what);
            } else {
                s.push_str(format!("{} {what}", num(coef.abs())).trim_end());
            }
        };
        for &(i, a) in &e.linear {
            push(a, name(i).to_string());
        }
        if e.constant != 0.0 {
            push(e.constant, String::new());
        }
        if !e.quadratic.is_empty() {
            let factor = if halve { 2.0 } else { 1.0 };
            let mut q = String::new();
            for (k, &(i, j, b)) in e.quadratic.iter().enumerate() {
                let b = b * factor;
                let sign = if b < 0.0 { "-" } else { "+" };
                if k > 0 || b < 0.0 {
                    q.push_str(&format!("{sign} "));
                }
                q.push_str(&format!("{} {} * {} ", num(b.abs()), name(i), name(j)));
            }
            let tail = if halve { "] / 2" } else { "]" };
            if s.is_empty() {
                s = format!("[ {q}{tail}");
            } else {
                s.push_str(&format!(" + [ {q}{tail}"));
            }
        }
        if s.is_empty() {
            s.push('0');
        }
        s
    };
    let mut out = String::from("\\ a constrained model (qubo-workbench)\n");
    if !model.name.is_empty() && !model.name.contains('\n') {
        out.push_str(&format!("\\Problem name: {}\n", model.name));
    }
    out.push_str(match model.direction {
        Direction::Minimize => "Minimize\n",
        Direction::Maximize => "Maximize\n",
    });
    out.push_str(&format!(" obj: {}\n", expr(&model.objective, true)));
    out.push_str("Subject To\n");
    let mut bounds = Vec::new();
    for c in &model.constraints {
        if let Some((name, value)) = fixing_bound(model, c) {
            bounds.push(format!(" {name} = {}\n", num(value)));
            continue;
        }
        let op = match c.sense {
            Sense::Le => "<=",
            Sense::Ge => ">=",
            Sense::Eq => "=",
        };
        let lhs = Expr {
            constant: 0.0,
            ..c.lhs.clone()
        };
        out.push_str(&format!(
            " {}: {} {op} {}\n",
            c.label,
            expr(&lhs, false),
            num(c.rhs - c.lhs.constant)
        ));
    }
    if !bounds.is_empty() {
        out.push_str("Bounds\n");
        out.extend(bounds);
    }
    out.push_str("Binary\n");
    for chunk in model.variables.chunks(10) {
        let names: Vec<&str> = chunk.iter().map(|v| v.label.as_str()).collect();
        out.push_str(&format!(" {}\n", names.join(" ")));
    }
    out.push_str("End\n");
    Some(out)
}

/// The variable and value of a constraint that a Bounds line fixed (`bound[x]`: x = v, as the
/// reader makes them), written back as that line.
fn fixing_bound<'a>(model: &'a ConstrainedModel, c: &Constraint) -> Option<(&'a str, f64)> {
    let [(i, a)] = c.lhs.linear[..] else {
        return None;
    };
    let name = model.variables.get(i as usize)?.label.as_str();
    (c.sense == Sense::Eq
        && a == 1.0
        && c.lhs.quadratic.is_empty()
        && c.lhs.constant == 0.0
        && c.label == format!("bound[{name}]")
        && is_lp_name(name))
    .then_some((name, c.rhs))
}

/// A number as LP text that reads back to the same f64 (integers without a point).
fn exact_number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}
