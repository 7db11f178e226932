//! dimod COO text: `u v bias` lines, `#` comments, an optional `# vartype=BINARY|SPIN` header,
//! and our `# n=N offset=C` header (read by the peer benchmark harness; README, "Comparing with
//! the Python peers").
//!
//! Only a real header sets `n` or the offset: a comment made of nothing but `key=value` tokens
//! with keys among `n`, `offset` and `vartype`. Free text such as `# note: offset=7` is a
//! comment. `vartype` is looked for on every comment line, as dimod does; two that disagree are
//! refused, naming both lines.
//!
//! We write values with Rust's `{}` for f64, which is plain decimal at full precision and never
//! uses exponents: dimod's own reader silently skips lines with exponents.

use std::fmt::Write;

use super::{FormatError, ModelFile, parse_count, parse_index, parse_real};
use crate::qubo::{Coupling, Ising, Qubo};

#[derive(Clone, Copy, PartialEq)]
enum Vartype {
    Binary,
    Spin,
}

/// Finds `vartype` followed by `=` or `:` and a name, anywhere in a comment (as dimod does).
fn vartype_in(comment: &str) -> Option<Result<Vartype, String>> {
    let at = comment.find("vartype")?;
    let rest = comment[at + "vartype".len()..].trim_start();
    let rest = rest.strip_prefix(['=', ':'])?.trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    Some(match name.to_ascii_uppercase().as_str() {
        "BINARY" => Ok(Vartype::Binary),
        "SPIN" => Ok(Vartype::Spin),
        _ => Err(format!("unknown vartype '{name}' (BINARY or SPIN)")),
    })
}

/// Would dimod's COO regex `[+-]?\d*(?:\.\d+)?` read this value token as written?
fn dimod_reads(token: &str) -> bool {
    let t = token.strip_prefix(['+', '-']).unwrap_or(token);
    let (int, frac) = match t.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (t, None),
    };
    int.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// The `key=value` pairs of a header comment, or `None` when the comment is free text.
fn header_fields(comment: &str) -> Option<Vec<(&str, &str)>> {
    let fields: Option<Vec<(&str, &str)>> = comment
        .split_whitespace()
        .map(|tok| {
            tok.split_once('=')
                .filter(|(k, _)| matches!(*k, "n" | "offset" | "vartype"))
        })
        .collect();
    fields.filter(|f| !f.is_empty())
}

pub(super) fn parse(text: &str, origin: &str) -> Result<ModelFile, FormatError> {
    let err = |line: usize, msg: String| FormatError::at(origin, line, msg);
    let mut vartype: Option<(Vartype, usize)> = None;
    let mut declared_n: Option<(usize, usize)> = None;
    let mut offset = 0.0;
    let mut offset_line = None;
    let mut terms: Vec<(usize, usize, f64)> = Vec::new();
    let mut max_index: Option<usize> = None;
    let mut undimod_lines = Vec::new();

    for (k, raw) in text.lines().enumerate() {
        let lineno = k + 1;
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            if let Some(v) = vartype_in(comment) {
                let v = v.map_err(|m| err(lineno, m))?;
                match vartype {
                    Some((earlier, first)) if earlier != v => {
                        return Err(err(
                            lineno,
                            format!(
                                "this vartype contradicts the one on line {first}: a model has one vartype"
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => vartype = Some((v, lineno)),
                }
            }
            for (key, value) in header_fields(comment).unwrap_or_default() {
                let again = |first: usize| {
                    err(
                        lineno,
                        format!("a second '{key}=' header (the first is on line {first})"),
                    )
                };
                match key {
                    "n" => {
                        if let Some((_, first)) = declared_n {
                            return Err(again(first));
                        }
                        let n = parse_count(value, "n").map_err(|m| err(lineno, m))?;
                        declared_n = Some((n, lineno));
                    }
                    "offset" => {
                        if let Some(first) = offset_line {
                            return Err(again(first));
                        }
                        offset = parse_real(value, "offset").map_err(|m| err(lineno, m))?;
                        offset_line = Some(lineno);
                    }
                    _ => {} // vartype: read above
                }
            }
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 3 {
            return Err(err(lineno, format!("expected 'i j value', found '{line}'")));
        }
        let i = parse_index(fields[0], "index").map_err(|m| err(lineno, m))?;
        let j = parse_index(fields[1], "index").map_err(|m| err(lineno, m))?;
        let v = parse_real(fields[2], "value").map_err(|m| err(lineno, m))?;
        if !dimod_reads(fields[2]) {
            undimod_lines.push(lineno);
        }
        max_index = Some(max_index.unwrap_or(0).max(i).max(j));
        terms.push((i, j, v));
    }
    let used = max_index.map_or(0, |m| {
        super::distinct_indices(terms.iter().flat_map(|&(i, j, _)| [i, j]), m + 1)
    });
    let n = match (declared_n, max_index) {
        (Some((n, line)), Some(m)) if m >= n => {
            return Err(err(
                line,
                format!("the header declares n={n}, but the file uses index {m}"),
            ));
        }
        (Some((n, line)), _) => {
            super::check_declared_size(n, used, terms.len()).map_err(|m| err(line, m))?;
            n
        }
        (None, Some(m)) => {
            // Indices are held to the header's rule: a two-line file naming variable 49 999 999
            // used to build a 50-million-variable model.
            super::check_declared_size(m + 1, used, terms.len()).map_err(|_| {
                FormatError::whole(
                    origin,
                    format!(
                        "the file uses index {m}, so {} variables, but mentions only {} in {} \
                         entries: too sparse for a file this size (renumber the variables, or \
                         write a '# n=N' header within the limit)",
                        m + 1,
                        used,
                        terms.len()
                    ),
                )
            })?;
            m + 1
        }
        (None, None) => {
            return Err(FormatError::whole(
                origin,
                "no entries and no '# n=N' header: the file is empty (write '# n=0' for an empty model)",
            ));
        }
    };
    super::check_model_memory(origin, n, terms.len())?;
    let mut warnings = Vec::new();
    if let Some(first) = undimod_lines.first() {
        warnings.push(format!(
            "{origin}:{first}: {} value(s) use a notation (such as an exponent) that dimod's COO \
             reader silently skips; re-export with `qubo-workbench encode` before giving it to dimod",
            undimod_lines.len()
        ));
    }
    let qubo = match vartype.map_or(Vartype::Binary, |v| v.0) {
        Vartype::Binary => Qubo::new(vec![0.0; n], terms, offset),
        Vartype::Spin => {
            let mut h = vec![0.0; n];
            let mut j = Vec::new();
            for (a, b, v) in terms {
                if a == b {
                    h[a] += v;
                } else {
                    j.push(Coupling {
                        i: a.min(b) as u32,
                        j: a.max(b) as u32,
                        value: v,
                    });
                }
            }
            Qubo::from_ising(&Ising { h, j, offset })
        }
    }
    .map_err(|e| FormatError::whole(origin, e.to_string()))?;
    Ok(ModelFile {
        qubo,
        labels: None,
        warnings,
    })
}

pub(super) fn write(q: &Qubo) -> String {
    let mut s = String::with_capacity(32 * (q.num_variables() + q.couplings().len()));
    s.push_str("# vartype=BINARY\n");
    let _ = writeln!(s, "# n={} offset={}", q.num_variables(), q.offset());
    // Row-major i ≤ j: the linear term of i, then its couplings (couplings are sorted by (i, j)).
    let mut c = 0;
    let couplings = q.couplings();
    for (i, &v) in q.linear().iter().enumerate() {
        if v != 0.0 {
            let _ = writeln!(s, "{i} {i} {v}");
        }
        while c < couplings.len() && couplings[c].i as usize == i {
            if couplings[c].value != 0.0 {
                let _ = writeln!(s, "{} {} {}", i, couplings[c].j, couplings[c].value);
            }
            c += 1;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_dimod_and_peer_harness_files() {
        let m = parse(
            "# vartype=BINARY\n0 0 -1.000000\n0 1 1.000000\n1 2 -4.500000\n",
            "a.coo",
        )
        .unwrap();
        assert_eq!(m.qubo.num_variables(), 3);
        assert_eq!(m.qubo.energy(&[1, 1, 1]).unwrap(), -4.5);
        let m = parse("# n=5 offset=2.5\n1 0 3\n0 1 -1\n", "b.coo").unwrap();
        assert_eq!(m.qubo.num_variables(), 5);
        assert_eq!(m.qubo.couplings()[0].value, 2.0, "both orders add up");
        assert_eq!(m.qubo.offset(), 2.5);
    }

    #[test]
    fn spin_files_become_equivalent_qubos() {
        let m = parse("# vartype=SPIN\n0 0 1\n0 1 -2\n", "s.coo").unwrap();
        // E(s) = s0 - 2 s0 s1 at s = (+1, -1): 1 + 2 = 3; x = (1, 0)
        assert_eq!(m.qubo.energy(&[1, 0]).unwrap(), 3.0);
        assert_eq!(m.qubo.energy(&[0, 0]).unwrap(), -1.0 - 2.0);
    }

    #[test]
    fn warns_where_dimod_would_drop_lines_and_rejects_garbage() {
        let m = parse("0 1 1e-3\n", "w.coo").unwrap();
        assert_eq!(m.qubo.couplings()[0].value, 1e-3);
        assert!(m.warnings[0].starts_with("w.coo:1:"), "{:?}", m.warnings);
        let e = parse("0 0 1\n0 1\n", "g.coo").unwrap_err().to_string();
        assert_eq!(e, "g.coo:2: expected 'i j value', found '0 1'");
        let e = parse("# n=2\n0 3 1\n", "g.coo").unwrap_err().to_string();
        assert!(e.starts_with("g.coo:1: the header declares n=2"), "{e}");
        let e = parse("-1 0 1\n", "g.coo").unwrap_err().to_string();
        assert!(e.contains("g.coo:1: index '-1'"), "{e}");
        let e = parse("0 0 inf\n", "g.coo").unwrap_err().to_string();
        assert!(e.starts_with("g.coo:1: value is inf"), "{e}");
    }

    #[test]
    fn a_header_cannot_vouch_for_variables_the_file_never_mentions() {
        // The size rule counts the variables named, not the largest index: one entry at
        // 49 999 999 under an n=5·10⁷ header used to build a 50-million-variable model.
        let e = parse("# n=50000000\n0 49999999 1\n1 49999998 1\n", "h.coo")
            .unwrap_err()
            .to_string();
        assert!(e.contains("mentions only 4 in 2 entries"), "{e}");
        // n may be the largest count itself; an index may not.
        let e = parse("# n=50000001\n0 1 1\n", "h.coo")
            .unwrap_err()
            .to_string();
        assert!(e.contains("n 50000001 is too large"), "{e}");
        let e = parse("50000000 1 1\n", "h.coo").unwrap_err().to_string();
        assert!(e.contains("indices are 0 to 49999999"), "{e}");
        assert_eq!(
            super::super::distinct_indices([3, 3, 0, 64, 63, 64].into_iter(), 70),
            4
        );
    }
}
