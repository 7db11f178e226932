//! LP files (the CPLEX LP format that Gurobi, HiGHS, dimod's `lp.dump` and Fixstars Amplify
//! write), restricted to binary variables: a linear or quadratic objective (`[ … ] / 2`), linear
//! or quadratic constraints with `<=`, `>=`, `=`, bounds that fix a variable, `Binary` and
//! `General` sections. Continuous and non-binary integer variables are refused, naming the
//! variable; so are semi-continuous variables, SOS and indicator constraints.

mod lexer;
mod write;

use lexer::{Section, Tok, Token, section_of, tokenize};

pub use write::{is_lp_name, write};

use super::model::{
    ConstrainedModel, Constraint, Direction, Expr, ModelBuilder, Sense, VarType, tidy,
};

/// Reads an LP file's text; errors carry `origin:LINE`.
pub fn parse(text: &str, origin: &str) -> Result<ConstrainedModel, crate::puzzle::PuzzleError> {
    Reader::new(text, origin)
        .and_then(Reader::read)
        .map_err(crate::puzzle::PuzzleError::Invalid)
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
        let (sign, signed) = signs(cur);
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
        let (sign, signed) = signs(cur);
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

/// The run of `+` and `-` ahead: its sign (±1) and whether there was any.
fn signs(cur: &mut Cursor) -> (f64, bool) {
    let (mut sign, mut signed) = (1.0, false);
    while let Some(Tok::Op(op @ ("+" | "-"))) = cur.peek() {
        if *op == "-" {
            sign = -sign;
        }
        signed = true;
        cur.next();
    }
    (sign, signed)
}

fn signed_number(cur: &mut Cursor) -> Result<f64, String> {
    let (sign, _) = signs(cur);
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
            model
                .constraints
                .push(Constraint::required(label, lhs, sense, rhs));
        }
        for (i, v) in fixed {
            model.constraints.push(Constraint::fixed(&vars, i, v));
        }
        model.validate().map_err(|e| format!("{origin}: {e}"))?;
        Ok(model)
    }
}
