//! QPLIB files (Furini et al., Math. Prog. Comp. 2019; the text format GALAHAD's RPD reads and
//! Fixstars Amplify writes), restricted to binary variables. The model is
//! ½ xᵀHx + gᵀx + f over `c_l ≤ Ax + ½ xᵀH_c x ≤ c_u`, with H and H_c given by their lower
//! triangles and every index 1-based. The sections follow the type code (objective, variables,
//! constraints, e.g. `QBL`): no H for a linear objective, no constraints for `N` or `B`, no H_c
//! for linear constraints, no variable bounds for all-binary problems, no variable types unless
//! the variables are mixed. Integer variables bounded within [0, 1] are binary (fixed ones become
//! `bound[x]` equalities, as in LP files); continuous and wider integer variables are refused by
//! name. A range `c_l ≤ … ≤ c_u` becomes two constraints: the upper side keeps the name, the
//! lower side is `lower[name]`. Lines starting with `!`, `#` or `%` are comments, and anything
//! after a line's values is ignored (the library's files annotate every line). The starting
//! point and duals are skipped; names, when the file has them, label variables and constraints
//! (default `x1…`, `c1…`). Errors carry `FILE:LINE`.

use super::model::{
    ConstrainedModel, Constraint, Direction, Expr, MAX_CONSTRAINTS, MAX_TERMS, MAX_VARIABLES,
    Sense, VarType, Variable, tidy,
};

/// Reads a QPLIB file's text.
pub fn parse(text: &str, origin: &str) -> Result<ConstrainedModel, crate::puzzle::PuzzleError> {
    read(text, origin).map_err(crate::puzzle::PuzzleError::Invalid)
}

/// Whether `text` looks like a QPLIB file: a name, then a three-letter type code, then the
/// sense.
pub fn looks_like(text: &str) -> bool {
    let mut lines = meaningful(text).map(|(_, l)| l);
    let (Some(_), Some(code), Some(sense)) = (lines.next(), lines.next(), lines.next()) else {
        return false;
    };
    let code = code.split_whitespace().next().unwrap_or("");
    let sense = sense
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    type_code(code).is_some() && (sense == "minimize" || sense == "maximize")
}

/// The lines that carry values, with their 1-based numbers.
fn meaningful(text: &str) -> impl Iterator<Item = (usize, &str)> + Clone {
    text.lines().enumerate().filter_map(|(k, l)| {
        let t = l.trim();
        (!t.is_empty() && !t.starts_with(['!', '#', '%'])).then_some((k + 1, t))
    })
}

/// The type code's three letters: objective (L, D, C, Q), variables (C, B, M, I, G),
/// constraints (N, B, L, D, C, Q).
fn type_code(code: &str) -> Option<(char, char, char)> {
    let c: Vec<char> = code.chars().collect();
    (c.len() == 3 && "LDCQ".contains(c[0]) && "CBMIG".contains(c[1]) && "NBLDCQ".contains(c[2]))
        .then(|| (c[0], c[1], c[2]))
}

/// Reads values line by line.
struct Lines<'a, I: Iterator<Item = (usize, &'a str)> + Clone> {
    lines: I,
    origin: &'a str,
    /// The last line read, for messages.
    line: usize,
}

impl<'a, I: Iterator<Item = (usize, &'a str)> + Clone> Lines<'a, I> {
    /// The next line's leading tokens, at least `count` of them; `what` names the value read.
    fn next(&mut self, count: usize, what: &str) -> Result<Vec<&'a str>, String> {
        let Some((line, text)) = self.lines.next() else {
            return Err(format!(
                "{}: the file ends before {what} (after line {})",
                self.origin, self.line
            ));
        };
        self.line = line;
        let toks: Vec<&str> = text.split_whitespace().take(count).collect();
        if toks.len() < count {
            return Err(self.err(&format!("expected {what}")));
        }
        Ok(toks)
    }

    /// Whether any line is left (the optional sections at the end).
    fn at_end(&self) -> bool {
        self.lines.clone().next().is_none()
    }

    fn err(&self, what: &str) -> String {
        format!("{}:{}: {what}", self.origin, self.line)
    }

    fn number(&self, tok: &str, what: &str) -> Result<f64, String> {
        // Fortran writes exponents with D as well as E.
        let v: f64 = tok
            .replace(['D', 'd'], "E")
            .parse()
            .map_err(|_| self.err(&format!("{what} '{tok}' is not a number")))?;
        if v.is_nan() {
            return Err(self.err(&format!("{what} is not a number (NaN)")));
        }
        Ok(v)
    }

    /// A count, at most `max`.
    fn count(&mut self, what: &str, max: usize) -> Result<usize, String> {
        let tok = self.next(1, what)?[0];
        let n: usize = tok
            .parse()
            .map_err(|_| self.err(&format!("{what} '{tok}' is not a whole number")))?;
        if n > max {
            return Err(self.err(&format!("{what} {n} is more than the {max} allowed")));
        }
        Ok(n)
    }

    /// A 1-based index within `1..=n`, returned 0-based.
    fn index(&self, tok: &str, n: usize, what: &str) -> Result<usize, String> {
        match tok.parse::<usize>() {
            Ok(i) if (1..=n).contains(&i) => Ok(i - 1),
            _ => Err(self.err(&format!("{what} '{tok}' is not within 1..{n}"))),
        }
    }

    fn value(&mut self, what: &str) -> Result<f64, String> {
        let tok = self.next(1, what)?[0];
        self.number(tok, what)
    }

    /// A default and its exceptions: `n` values.
    fn vector(&mut self, n: usize, what: &str) -> Result<Vec<f64>, String> {
        let default = self.value(&format!("the default {what}"))?;
        let mut v = vec![default; n];
        let count = self.count(&format!("the number of non-default {what}"), n)?;
        for _ in 0..count {
            let t = self.next(2, &format!("an index and a {what}"))?;
            let i = self.index(t[0], n, "index")?;
            v[i] = self.number(t[1], what)?;
        }
        Ok(v)
    }

    /// `count` entries of a lower triangle `i j value` (with a leading constraint index when
    /// `rows` is given), as ½·value products (the format's ½ xᵀHx).
    fn triangle(
        &mut self,
        n: usize,
        rows: Option<usize>,
        out: &mut Vec<(usize, (u32, u32, f64))>,
    ) -> Result<(), String> {
        let what = if rows.is_some() {
            "the number of quadratic constraint terms"
        } else {
            "the number of quadratic objective terms"
        };
        let count = self.count(what, MAX_TERMS)?;
        let width = if rows.is_some() { 4 } else { 3 };
        for _ in 0..count {
            let t = self.next(width, "a quadratic term")?;
            let (row, t) = match rows {
                Some(m) => (self.index(t[0], m, "constraint")?, &t[1..]),
                None => (0, &t[..]),
            };
            let i = self.index(t[0], n, "variable")? as u32;
            let j = self.index(t[1], n, "variable")? as u32;
            let v = self.number(t[2], "coefficient")?;
            // Off the diagonal the triangle's entry stands for two: ½(v + v).
            let coefficient = if i == j { v / 2.0 } else { v };
            out.push((row, (i, j, coefficient)));
        }
        Ok(())
    }
}

fn read(text: &str, origin: &str) -> Result<ConstrainedModel, String> {
    let mut r = Lines {
        lines: meaningful(text),
        origin,
        line: 0,
    };
    let name = r.next(1, "the problem's name")?[0].to_string();
    let code = r.next(1, "the problem's type")?[0];
    let Some((objective_kind, variable_kind, constraint_kind)) = type_code(code) else {
        return Err(r.err(&format!(
            "'{code}' is not a QPLIB type (three letters: objective L/D/C/Q, variables C/B/M/I/G, \
             constraints N/B/L/D/C/Q)"
        )));
    };
    if variable_kind == 'C' {
        return Err(r.err(&format!(
            "type {code}: every variable is continuous; only binary variables are supported"
        )));
    }
    let sense = r.next(1, "minimize or maximize")?[0].to_ascii_lowercase();
    let direction = match sense.as_str() {
        "minimize" => Direction::Minimize,
        "maximize" => Direction::Maximize,
        other => return Err(r.err(&format!("'{other}' is neither minimize nor maximize"))),
    };
    let n = r.count("the number of variables", MAX_VARIABLES)?;
    let has_constraints = !matches!(constraint_kind, 'N' | 'B');
    let m = if has_constraints {
        r.count("the number of constraints", MAX_CONSTRAINTS)?
    } else {
        0
    };
    let mut objective_terms = Vec::new();
    if objective_kind != 'L' {
        r.triangle(n, None, &mut objective_terms)?;
    }
    let g = r.vector(n, "linear objective coefficient")?;
    let f = r.value("the objective's constant")?;
    let mut rows: Vec<Expr> = vec![Expr::default(); m];
    if matches!(constraint_kind, 'D' | 'C' | 'Q') {
        let mut terms = Vec::new();
        r.triangle(n, Some(m), &mut terms)?;
        for (row, term) in terms {
            rows[row].quadratic.push(term);
        }
    }
    if has_constraints {
        let count = r.count("the number of linear constraint terms", MAX_TERMS)?;
        for _ in 0..count {
            let t = r.next(3, "a constraint, a variable and a coefficient")?;
            let row = r.index(t[0], m, "constraint")?;
            let j = r.index(t[1], n, "variable")? as u32;
            let v = r.number(t[2], "coefficient")?;
            rows[row].linear.push((j, v));
        }
    }
    let infinity = r.value("the value for infinity")?.abs();
    let finite = |v: f64| v.abs() < infinity;
    let (c_lower, c_upper) = if has_constraints {
        (
            r.vector(m, "constraint lower bound")?,
            r.vector(m, "constraint upper bound")?,
        )
    } else {
        (Vec::new(), Vec::new())
    };
    let (x_lower, x_upper) = if variable_kind == 'B' {
        (vec![0.0; n], vec![1.0; n])
    } else {
        (
            r.vector(n, "variable lower bound")?,
            r.vector(n, "variable upper bound")?,
        )
    };
    // Per variable: 0 continuous, 1 integer, 2 binary.
    let types: Vec<f64> = match variable_kind {
        'M' | 'G' => r.vector(n, "variable type")?,
        'I' => vec![1.0; n],
        _ => vec![2.0; n],
    };
    let mut var_names: Vec<String> = (1..=n).map(|i| format!("x{i}")).collect();
    let mut con_names: Vec<String> = (1..=m).map(|i| format!("c{i}")).collect();
    // The starting point and duals (skipped), then the names: optional at the end of the file.
    let mut skipped = vec![(n, "starting value")];
    if has_constraints {
        skipped.push((m, "starting constraint multiplier"));
    }
    skipped.push((n, "starting bound multiplier"));
    for (size, what) in skipped {
        if r.at_end() {
            break;
        }
        r.vector(size, what)?;
    }
    for (names, count_what) in [
        (&mut var_names, "the number of variable names"),
        (&mut con_names, "the number of constraint names"),
    ] {
        if r.at_end() {
            break;
        }
        let k = names.len();
        let count = r.count(count_what, k)?;
        for _ in 0..count {
            let t = r.next(2, "an index and a name")?;
            let i = r.index(t[0], k, "index")?;
            names[i] = t[1].to_string();
        }
    }
    let variables: Vec<Variable> = var_names
        .iter()
        .map(|label| Variable {
            label: label.clone(),
            vartype: VarType::Binary,
        })
        .collect();
    let mut fixed = Vec::new();
    for i in 0..n {
        let (lo, hi) = (x_lower[i], x_upper[i]);
        let label = &var_names[i];
        match types[i] as i64 {
            2 => {}
            1 if lo >= 0.0 && hi <= 1.0 => {}
            1 => {
                let shown = |v: f64| {
                    if finite(v) {
                        crate::io::number_text(v)
                    } else {
                        "∞".into()
                    }
                };
                return Err(format!(
                    "{origin}: integer variable '{label}' ranges over [{}, {}]: only binary variables \
                     are supported (bound it within 0..1, or expand it into binary digits in the model)",
                    shown(lo),
                    shown(hi)
                ));
            }
            _ => {
                return Err(format!(
                    "{origin}: variable '{label}' is continuous: only binary variables are supported"
                ));
            }
        }
        let (lo, hi) = (lo.max(0.0).ceil(), hi.min(1.0).floor());
        if lo > hi {
            return Err(format!(
                "{origin}: variable '{label}' has no value within its bounds"
            ));
        }
        if lo == hi {
            fixed.push((i as u32, lo));
        }
    }
    let mut objective = Expr {
        constant: f,
        linear: g
            .iter()
            .enumerate()
            .filter(|t| *t.1 != 0.0)
            .map(|(i, &v)| (i as u32, v))
            .collect(),
        quadratic: Vec::new(),
    };
    objective.quadratic = objective_terms.into_iter().map(|(_, t)| t).collect();
    let mut model = ConstrainedModel {
        name,
        direction,
        objective: tidy(&variables, objective),
        variables,
        ..Default::default()
    };
    let constraint = |label: String, lhs: &Expr, sense: Sense, rhs: f64| {
        Constraint::required(label, lhs.clone(), sense, rhs)
    };
    for (k, e) in rows.into_iter().enumerate() {
        let lhs = tidy(&model.variables, e);
        let (lo, hi) = (c_lower[k], c_upper[k]);
        let label = &con_names[k];
        match (finite(lo), finite(hi)) {
            (true, true) if lo == hi => {
                model
                    .constraints
                    .push(constraint(label.clone(), &lhs, Sense::Eq, lo))
            }
            (true, true) if lo > hi => {
                return Err(format!(
                    "{origin}: constraint '{label}' has lower bound {lo} above its upper bound {hi}"
                ));
            }
            (lower, upper) => {
                if upper {
                    model
                        .constraints
                        .push(constraint(label.clone(), &lhs, Sense::Le, hi));
                }
                if lower {
                    let name = if upper {
                        format!("lower[{label}]")
                    } else {
                        label.clone()
                    };
                    model
                        .constraints
                        .push(constraint(name, &lhs, Sense::Ge, lo));
                }
            }
        }
    }
    for (i, v) in fixed {
        let c = Constraint::fixed(&model.variables, i, v);
        model.constraints.push(c);
    }
    model.validate().map_err(|e| format!("{origin}: {e}"))?;
    Ok(model)
}
