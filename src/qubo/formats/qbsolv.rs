//! qbsolv `.qubo`: `c` comment lines, one `p qubo 0 maxNodes nNodes nCouplers` line, then
//! `i j value` clauses (i = j: node, i < j: coupler). The format has no offset or labels; we
//! carry them in comments (`c offset X`, `c label K = "…"`), which other readers ignore.
//! A `c` line that is not exactly one of those two forms is an ordinary comment.

use std::collections::HashMap;
use std::fmt::Write;

use super::{FormatError, ModelFile, parse_count, parse_index, parse_real};
use crate::qubo::Qubo;

/// Our two comment forms.
enum Ours<'a> {
    /// `c offset X`
    Offset(&'a str),
    /// `c label K = "name"`
    Label(&'a str, String),
}

/// Reads a `c` line's body as one of our forms; anything else is a plain comment.
fn our_comment(body: &str) -> Option<Ours<'_>> {
    let mut tokens = body.split_whitespace();
    match tokens.next()? {
        "offset" => {
            let value = tokens.next()?;
            tokens.next().is_none().then_some(Ours::Offset(value))
        }
        "label" => {
            let rest = body.trim_start().strip_prefix("label")?;
            let (idx, name) = rest.split_once('=')?;
            let idx = idx.trim();
            if idx.is_empty() || !idx.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let name: String = serde_json::from_str(name.trim()).ok()?;
            Some(Ours::Label(idx, name))
        }
        _ => None,
    }
}

struct Header {
    max_nodes: usize,
    n_nodes: usize,
    n_couplers: usize,
    line: usize,
}

pub(super) fn parse(text: &str, origin: &str) -> Result<ModelFile, FormatError> {
    let err = |line: usize, msg: String| FormatError::at(origin, line, msg);
    let mut header: Option<Header> = None;
    let mut offset = 0.0;
    let mut offset_line = None;
    let mut labels: HashMap<usize, String> = HashMap::new();
    let mut nodes: Vec<(usize, f64)> = Vec::new();
    let mut max_used: Option<usize> = None;
    let mut node_seen: HashMap<usize, usize> = HashMap::new();
    let mut coupler_seen: HashMap<(usize, usize), usize> = HashMap::new();
    let mut couplers: Vec<(usize, usize, f64)> = Vec::new();
    let mut warnings = Vec::new();

    for (k, raw) in text.lines().enumerate() {
        let lineno = k + 1;
        let line = raw.trim_end_matches('\r');
        if line.starts_with(['c', 'C']) {
            match our_comment(&line[1..]) {
                Some(Ours::Offset(v)) => {
                    if let Some(first) = offset_line {
                        return Err(err(
                            lineno,
                            format!("a second 'c offset' line (the first is line {first})"),
                        ));
                    }
                    offset = parse_real(v, "offset").map_err(|m| err(lineno, m))?;
                    offset_line = Some(lineno);
                }
                Some(Ours::Label(idx, name)) => {
                    let idx = parse_index(idx, "label index").map_err(|m| err(lineno, m))?;
                    if let Some(earlier) = labels.insert(idx, name) {
                        return Err(err(
                            lineno,
                            format!("variable {idx} is labelled twice (first as {earlier:?})"),
                        ));
                    }
                }
                None => {}
            }
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if fields[0].eq_ignore_ascii_case("p") {
            if header.is_some() {
                return Err(err(lineno, "a second 'p' line".into()));
            }
            if fields.len() != 6 || !fields[1].starts_with("qubo") {
                return Err(err(
                    lineno,
                    "the program line must read: p qubo 0 maxNodes nNodes nCouplers".into(),
                ));
            }
            if fields[2] != "0" && fields[2] != "unconstrained" {
                return Err(err(
                    lineno,
                    format!(
                        "topology '{}' is not supported (only 0 / unconstrained)",
                        fields[2]
                    ),
                ));
            }
            let num = |t: &str, what: &str| parse_count(t, what).map_err(|m| err(lineno, m));
            let h = Header {
                max_nodes: num(fields[3], "maxNodes")?,
                n_nodes: num(fields[4], "nNodes")?,
                n_couplers: num(fields[5], "nCouplers")?,
                line: lineno,
            };
            header = Some(h);
            continue;
        }
        let Some(h) = header.as_ref() else {
            // qbsolv itself skips anything before the program line; we say so instead.
            return Err(err(
                lineno,
                format!("expected a comment or the 'p qubo …' line before data, found '{line}'"),
            ));
        };
        if fields.len() != 3 {
            return Err(err(lineno, format!("expected 'i j value', found '{line}'")));
        }
        let i = parse_index(fields[0], "index").map_err(|m| err(lineno, m))?;
        let j = parse_index(fields[1], "index").map_err(|m| err(lineno, m))?;
        let v = parse_real(fields[2], "value").map_err(|m| err(lineno, m))?;
        for idx in [i, j] {
            if idx >= h.max_nodes {
                return Err(err(
                    lineno,
                    format!("index {idx} is out of range: maxNodes is {}", h.max_nodes),
                ));
            }
        }
        max_used = Some(max_used.unwrap_or(0).max(j));
        if i > j {
            return Err(err(
                lineno,
                format!("coupler {i} {j} is below the diagonal: qbsolv requires i < j"),
            ));
        }
        if i == j {
            if let Some(first) = node_seen.insert(i, lineno) {
                return Err(err(
                    lineno,
                    format!("node {i} appears twice (first on line {first})"),
                ));
            }
            nodes.push((i, v));
        } else {
            if let Some(first) = coupler_seen.insert((i, j), lineno) {
                return Err(err(
                    lineno,
                    format!("coupler ({i}, {j}) appears twice (first on line {first})"),
                ));
            }
            if v == 0.0 {
                warnings.push(format!("{origin}:{lineno}: coupler ({i}, {j}) is zero"));
            }
            couplers.push((i, j, v));
        }
    }
    let h = header.ok_or_else(|| {
        FormatError::whole(origin, "no 'p qubo 0 maxNodes nNodes nCouplers' line found")
    })?;
    if node_seen.len() != h.n_nodes || couplers.len() != h.n_couplers {
        return Err(err(
            h.line,
            format!(
                "the program line declares {} nodes and {} couplers, but the file has {} and {}",
                h.n_nodes,
                h.n_couplers,
                node_seen.len(),
                couplers.len()
            ),
        ));
    }
    let used = max_used.map_or(0, |m| {
        super::distinct_indices(
            nodes
                .iter()
                .map(|&(i, _)| i)
                .chain(couplers.iter().flat_map(|&(i, j, _)| [i, j])),
            m + 1,
        )
    });
    super::check_declared_size(h.max_nodes, used, nodes.len() + couplers.len())
        .map_err(|m| err(h.line, m))?;
    if let Some(&k) = labels.keys().find(|&&k| k >= h.max_nodes) {
        return Err(FormatError::whole(
            origin,
            format!(
                "a label names variable {k}, but maxNodes is {}",
                h.max_nodes
            ),
        ));
    }
    super::check_model_memory(origin, h.max_nodes, nodes.len() + couplers.len())?;
    let mut linear = vec![0.0; h.max_nodes];
    for (i, v) in nodes {
        linear[i] = v;
    }
    let labels = if labels.is_empty() {
        None
    } else {
        let mut out = Vec::with_capacity(h.max_nodes);
        for k in 0..h.max_nodes {
            out.push(labels.remove(&k).unwrap_or_else(|| k.to_string()));
        }
        Some(out)
    };
    let qubo = Qubo::new(linear, couplers, offset)
        .map_err(|e| FormatError::whole(origin, e.to_string()))?;
    Ok(ModelFile {
        qubo,
        labels,
        warnings,
    })
}

pub(super) fn write(q: &Qubo, labels: Option<&[String]>) -> String {
    let n = q.num_variables();
    let mut s = String::new();
    s.push_str("c qbsolv QUBO written by qubo-workbench\n");
    let _ = writeln!(s, "c offset {}", q.offset());
    if let Some(labels) = labels {
        for (k, l) in labels.iter().enumerate() {
            let _ = writeln!(
                s,
                "c label {k} = {}",
                serde_json::to_string(l).unwrap_or_default()
            );
        }
    }
    let _ = writeln!(s, "p qubo 0 {n} {n} {}", q.num_interactions());
    for (i, v) in q.linear().iter().enumerate() {
        let _ = writeln!(s, "{i} {i} {v}");
    }
    for c in q.couplings().iter().filter(|c| c.value != 0.0) {
        let _ = writeln!(s, "{} {} {}", c.i, c.j, c.value);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    const README_EXAMPLE: &str = "c a sample\np qubo 0 4 4 6\n0 0 3.4\n1 1 4.5\n2 2 2.1\n3 3 -2.4\n\
        0 1 2.2\n0 2 3.4\n1 2 4.5\n0 3 -2\n1 3 4.5678\n2 3 -3.22\n";

    #[test]
    fn reads_the_readme_example() {
        let m = parse(README_EXAMPLE, "ex.qubo").unwrap();
        assert_eq!(m.qubo.num_variables(), 4);
        assert_eq!(m.qubo.num_interactions(), 6);
        assert_eq!(m.qubo.linear()[3], -2.4);
        assert_eq!(m.qubo.energy(&[1, 0, 0, 1]).unwrap(), 3.4 - 2.4 - 2.0);
    }

    #[test]
    fn malformed_files_name_the_line() {
        let cases = [
            (
                "p qubo 0 2 1 0\n1 0 1.0\n",
                "x.qubo:2: coupler 1 0 is below the diagonal",
            ),
            (
                "p qubo 0 2 1 0\n0 5 1.0\n",
                "x.qubo:2: index 5 is out of range",
            ),
            (
                "p qubo 0 2 2 0\n0 0 1\n",
                "x.qubo:1: the program line declares 2 nodes",
            ),
            ("p qubo 0 2 1 0\n0 0 nan\n", "x.qubo:2: value is nan"),
            (
                "p qubo 0 2 1 0\n0 0 x\n",
                "x.qubo:2: value 'x' is not a number",
            ),
            ("p qubo 7 2 1 0\n", "x.qubo:1: topology '7'"),
            ("0 0 1\n", "x.qubo:1: expected a comment or the 'p qubo"),
            ("c nothing\n", "x.qubo: no 'p qubo"),
            (
                "p qubo 0 99999999999 0 0\n",
                "x.qubo:1: maxNodes 99999999999 is too large",
            ),
        ];
        for (text, want) in cases {
            let e = parse(text, "x.qubo").unwrap_err().to_string();
            assert!(e.starts_with(want), "{e:?} should start with {want:?}");
        }
    }
}
