//! LP text written: CPLEX's names only, numbers that read back exactly, fixing bounds as
//! Bounds lines; `None` when LP cannot say the whole model (the JSON form says it then).

use super::lexer::{Tok, name_char, section_of, tokenize};
use crate::puzzle::constrained::model::{
    ConstrainedModel, Constraint, Direction, Expr, Sense, VarType,
};

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
