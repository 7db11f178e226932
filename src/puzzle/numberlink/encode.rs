//! Numberlink → QUBO, two formulations over the same edge variables: `h[r][c][k]` joins cell
//! (r, c) to (r, c + 1) in pair k's layer, `v[r][c][k]` joins (r, c) to (r + 1, c) (k is the
//! pair's 1-based number). The decoder reads only these, so both formulations decode, cut and
//! check the same way.
//!
//! **seed** (the second seed article): every edge in every layer. Per endpoint of pair k,
//! `endpoint` = (Σ own-layer edges − 1)² and `foreign_endpoint` = Σ edges of other layers; per
//! other cell, `pass` = (Σ edges of all layers − 2)² under the fill rule, (Σ − 2u)² with a
//! "used" bit `u[r][c]` under no-fill; and the weak reward `pairing` (−0.1 in the seed) per
//! pair of same-layer edges meeting in a cell, only under the fill rule (there every valid
//! answer earns it in every non-endpoint cell, so all share one energy; under no-fill it would
//! reward detours). Its known failures: a cell's two edges in different layers, paths split
//! across layers, isolated loops.
//!
//! **cells** (ours, the default): one-hot `x[r][c][k]` says which path covers a non-endpoint
//! cell (`cell`: exactly one under fill, at most one under no-fill), and per cell and layer
//! `path` = (Σ layer-k edges at the cell − 2·x[r][c][k])² (endpoints: `endpoint` = (Σ own-layer
//! edges − 1)²). An edge of layer k can then only be on between two cells of layer k, so a
//! cell's edges never mix layers and a path never changes layer; endpoints get edge variables
//! in their own layer only. Under the fill rule, `touch` per adjacent cells and layer charges
//! two cells of one path side by side but not joined (the rule's "no path alongside itself";
//! see `add_touch` for why its weight stays below 1), and `parallel` per 2×2 block and layer
//! charges two parallel edges of one path across it (`add_parallel`). Every group is 0 when it holds, so every
//! valid answer has energy 0 and nothing has less.
//!
//! Neither formulation can see every isolated cycle (a loop of one layer away from its
//! endpoints; under the fill rule `cells` prices the four-cell one) — it is a ground state too. `EncodeOptions::cuts` carries the cycles decoded in
//! earlier rounds; each becomes a nogood group `cut#i` (weight `cut`) forbidding that cycle's
//! edges all together, which no valid answer breaks (it has no cycles).
//!
//! With presolve, `presolve.rs`'s deductions (sound for every answer) fix the variables they
//! decide.

use std::collections::HashMap;

use super::check::NumberlinkSolution;
use super::presolve::{self, Deductions, EdgeState};
use super::{Numberlink, Rule};
use crate::puzzle::{EncodeOptions, Formulation, Kind, PuzzleError};
use crate::qubo::encoding::slack_weights;
use crate::qubo::{Encoding, EncodingBuilder, Label};

/// Largest QUBO (estimated couplings) the encoder builds.
pub const MAX_COUPLINGS: f64 = 2e8;

/// Peak bytes per variable of the full model, stored or not: its label, its terms in the
/// groups (kept factored, so a cell's one-hot costs its K terms, not K²/2 pairs), presolve's
/// copy, the structure and simulated annealing's 32 lanes per thread (measured on ADC 2018:
/// Q2's 1.35·10⁶ variables peaked at 1.7 GB, Q12's at 0.8 GB; with margin).
const BYTES_PER_VARIABLE: f64 = 1400.0;

/// The formulations, the default first.
pub const FORMULATIONS: &[Formulation] = &[
    Formulation {
        name: "cells",
        summary: "cell-to-path one-hot variables: an edge is on only between two cells of its path, so no answer mixes layers",
    },
    Formulation {
        name: "seed",
        summary: "the seed article's: edges in every layer, endpoint and pass counts, a weak same-layer pairing reward",
    },
];

/// The label of the edge from cell i towards its right (`h`) or lower (`v`) neighbour, layer k.
pub(super) fn edge_label(p: &Numberlink, i: usize, down: bool, k: u16) -> Label {
    let (r, c) = ((i / p.width()) as u32, (i % p.width()) as u32);
    Label::new(if down { "v" } else { "h" }, &[r, c, k as u32])
}

/// Every edge of the grid: (lower cell, higher cell, vertical).
fn grid_edges(p: &Numberlink) -> Vec<(usize, usize, bool)> {
    let (w, n) = (p.width(), p.width() * p.height());
    let mut out = Vec::new();
    for i in 0..n {
        if i % w + 1 < w {
            out.push((i, i + 1, false));
        }
        if i + w < n {
            out.push((i, i + w, true));
        }
    }
    out
}

pub(super) fn encode(p: &Numberlink, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
    let mut b = EncodingBuilder::new();
    let seed = options.formulation_index(Kind::Numberlink)? == 1;
    let w = p.width();
    let n = w * p.height();
    let pairs = p.num_pairs() as u16;
    // Budget: the per-cell squares grow with the pairs squared (one-hot over K layers; in
    // `seed`, a square over 4K edges). Refuse before allocating.
    let k = pairs as f64;
    let per_cell = if seed {
        8.0 * k * k
    } else {
        k * k / 2.0 + 12.0 * k
    };
    let estimate = n as f64 * per_cell;
    if estimate > MAX_COUPLINGS {
        return Err(PuzzleError::Invalid(format!(
            "a {w}×{} grid with {pairs} pairs makes a QUBO of about {estimate:.1e} couplings \
             (formulation {}); the limit is {MAX_COUPLINGS:.0e}: take fewer pairs or a smaller grid",
            p.height(),
            FORMULATIONS[usize::from(seed)].name
        )));
    }
    // The layers a cell may be in: an endpoint only its own (in `seed`, every cell every one).
    let allowed = |i: usize, k: u16| seed || p.endpoints()[i] == 0 || p.endpoints()[i] == k;
    // The memory it takes, checked before any of it is taken: the variables, counted (each
    // edge in each layer both its cells allow, and under `cells` a variable per free cell and
    // layer).
    let variables = {
        let both = |a: usize, c: usize| {
            (1..=pairs)
                .filter(|&k| allowed(a, k) && allowed(c, k))
                .count()
        };
        let edges: usize = grid_edges(p).into_iter().map(|(a, c, _)| both(a, c)).sum();
        let free = p.endpoints().iter().filter(|&&e| e == 0).count();
        edges as f64
            + if seed {
                n as f64
            } else {
                (free * pairs as usize) as f64
            }
    };
    crate::budget::check_memory(
        || {
            format!(
                "the model of this {w}×{} grid with {pairs} pairs (about {variables:.1e} variables)",
                p.height()
            )
        },
        (variables * BYTES_PER_VARIABLE) as u64,
    )
    .map_err(|e| PuzzleError::Invalid(e.to_string()))?;
    let cell_name = |i: usize| format!("[{}][{}]", i / w, i % w);
    // Edge variables, and per cell the (variable, layer) pairs of the edges at it.
    let mut at: Vec<Vec<(u32, u16)>> = vec![Vec::new(); n];
    let mut var_of: HashMap<Label, u32> = HashMap::new();
    for (a, c, down) in grid_edges(p) {
        for k in 1..=pairs {
            if allowed(a, k) && allowed(c, k) {
                let label = edge_label(p, a, down, k);
                let v = b.variable(label.clone());
                var_of.insert(label, v);
                at[a].push((v, k));
                at[c].push((v, k));
            }
        }
    }
    let w_end = b.weight(
        "endpoint",
        1.0,
        (0.0, 10.0),
        "an endpoint has exactly one edge of its own path",
    );
    if seed {
        let w_foreign = b.weight(
            "foreign_endpoint",
            1.0,
            (0.0, 10.0),
            "an endpoint has no edge of another path",
        );
        let w_pass = b.weight(
            "pass",
            1.0,
            (0.0, 10.0),
            "a cell that is not an endpoint has two edges (or, under no-fill, none)",
        );
        let w_pair = b.weight(
            "pairing",
            0.1,
            (0.0, 2.0),
            "a weak reward for two edges of one path meeting in a cell (fill rule only)",
        );
        for (i, edges) in at.iter().enumerate() {
            let name = cell_name(i);
            match p.endpoints()[i] {
                0 => {
                    let mut terms: Vec<(u32, f64)> = edges.iter().map(|&(v, _)| (v, 1.0)).collect();
                    if p.rule() == Rule::NoFill {
                        let u = b.variable(Label::new("u", &[(i / w) as u32, (i % w) as u32]));
                        terms.push((u, -2.0));
                        b.add_square(format!("pass{name}"), w_pass, &terms, 0.0);
                    } else {
                        b.add_square(format!("pass{name}"), w_pass, &terms, 2.0);
                        let mut quadratic = Vec::new();
                        for (x, &(u, ku)) in edges.iter().enumerate() {
                            for &(v, kv) in &edges[x + 1..] {
                                if ku == kv {
                                    quadratic.push((u, v, -1.0));
                                }
                            }
                        }
                        b.add_group(
                            format!("pairing{name}"),
                            w_pair,
                            0.0,
                            Vec::new(),
                            quadratic,
                            -1.0,
                        );
                    }
                }
                k => {
                    let own: Vec<(u32, f64)> = edges
                        .iter()
                        .filter(|e| e.1 == k)
                        .map(|&(v, _)| (v, 1.0))
                        .collect();
                    b.add_square(format!("endpoint{name}"), w_end, &own, 1.0);
                    let foreign = edges
                        .iter()
                        .filter(|e| e.1 != k)
                        .map(|&(v, _)| (v, 1.0))
                        .collect();
                    b.add_group(
                        format!("foreign_endpoint{name}"),
                        w_foreign,
                        0.0,
                        foreign,
                        Vec::new(),
                        0.0,
                    );
                }
            }
        }
    } else {
        let w_cell = b.weight(
            "cell",
            1.0,
            (0.0, 10.0),
            "a cell is on exactly one path (no-fill: at most one)",
        );
        let w_path = b.weight(
            "path",
            1.0,
            (0.0, 10.0),
            "a cell on a path has two edges of that path and none of another",
        );
        let mut x_of: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (i, edges) in at.iter().enumerate() {
            let name = cell_name(i);
            let k_end = p.endpoints()[i];
            if k_end != 0 {
                let own: Vec<(u32, f64)> = edges.iter().map(|&(v, _)| (v, 1.0)).collect();
                b.add_square(format!("endpoint{name}"), w_end, &own, 1.0);
                continue;
            }
            let (r, c) = ((i / w) as u32, (i % w) as u32);
            let xs: Vec<u32> = (1..=pairs)
                .map(|k| b.variable(Label::new("x", &[r, c, k as u32])))
                .collect();
            x_of[i] = xs.clone();
            match p.rule() {
                Rule::Fill => b.add_one_hot(format!("cell{name}"), w_cell, &xs),
                Rule::NoFill => b.add_at_most_one(format!("cell{name}"), w_cell, &xs),
            }
            for (k, &x) in (1..=pairs).zip(&xs) {
                let mut terms: Vec<(u32, f64)> = edges
                    .iter()
                    .filter(|e| e.1 == k)
                    .map(|&(v, _)| (v, 1.0))
                    .collect();
                terms.push((x, -2.0));
                b.add_square(format!("path{name}#{}", p.name(k)), w_path, &terms, 0.0);
            }
        }
        if p.rule() == Rule::Fill {
            add_touch(&mut b, p, &x_of, &var_of, w_path);
            add_parallel(&mut b, p, &var_of);
        }
    }
    add_cuts(&mut b, &options.cuts, &var_of);
    let encoding = b.build();
    if !options.presolve {
        return Ok(encoding);
    }
    let Some(d) = presolve::deduce(p) else {
        return Ok(encoding);
    };
    let values: Vec<Option<bool>> = encoding
        .labels()
        .iter()
        .map(|l| fixed_value(p, &d, l))
        .collect();
    Ok(encoding.fix(&values))
}

/// The value presolve's deductions give a variable, if they decide it.
fn fixed_value(p: &Numberlink, d: &Deductions, label: &Label) -> Option<bool> {
    let w = p.width();
    let on_at = |i: usize| {
        p.neighbours(i)
            .map(|j| d.edge(p, i.min(j), i.max(j)))
            .collect::<Vec<_>>()
    };
    match (label.name.as_str(), &label.index[..]) {
        (name @ ("h" | "v"), &[r, c, k]) => {
            let a = r as usize * w + c as usize;
            let b = if name == "h" { a + 1 } else { a + w };
            let common: Vec<usize> = (0..p.num_pairs())
                .filter(|&j| d.may[a][j] && d.may[b][j])
                .collect();
            let state = d.edge(p, a, b);
            if state == EdgeState::Off || !common.contains(&(k as usize - 1)) {
                Some(false)
            } else if state == EdgeState::On && common.len() == 1 {
                Some(true)
            } else {
                None
            }
        }
        ("x", &[r, c, k]) => {
            let i = r as usize * w + c as usize;
            let may = &d.may[i];
            let only = may.iter().filter(|&&m| m).count() == 1;
            let used = p.rule() == Rule::Fill || on_at(i).contains(&EdgeState::On);
            if !may[k as usize - 1] {
                Some(false)
            } else if only && used {
                Some(true)
            } else {
                None
            }
        }
        ("u", &[r, c]) => {
            let edges = on_at(r as usize * w + c as usize);
            if edges.contains(&EdgeState::On) {
                Some(true)
            } else if edges.iter().all(|&e| e == EdgeState::Off) {
                Some(false)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The fill rule's "no path alongside itself": per adjacent cells a, b and layer k,
/// touch·(x[a][k]·x[b][k] − e[a,b][k]) (an endpoint's x is 1 in its own layer): 1 when both
/// cells are k's but not joined, 0 when they hold. The group dips to −1 only where an edge is on
/// without its cells in its layer, which `path` charges at least 1 for; so with touch < 1 every
/// such state still costs more than it saves, and the valid answers stay the ground states.
fn add_touch(
    b: &mut EncodingBuilder,
    p: &Numberlink,
    x_of: &[Vec<u32>],
    var_of: &HashMap<Label, u32>,
    w_path: u16,
) {
    // 1/16: any weight in (0, 1) keeps the valid answers the only ground states, and lower
    // weights sample better. With SA (64 reads × 10 000 sweeps, generated 5×5–7×7) the valid
    // share at 5×5 / 6×6 was 0.24 / 0.03 at 0.5 and 0.46 / 0.16 at 0.25. With the default
    // `solve --no-presolve` (tempering, 30 s each, Janko's sixteen 9×9 boards): 0 of 8 at 0.5,
    // 8 of 16 at 0.25, 11 of 16 at 0.125. Then 1/16 against 1/8 (single tempering ladders,
    // 60 s, each pair side by side, Janko's 92 boards 8×8–10×10): at 10×10 faster on 38 of
    // 58 (total 406 s against 624 s, median 3.8 s against 6.7 s), 9×9 in half the total
    // time, 8×8 alike (under a second). 1/16 is exact in binary, so the model keeps the
    // 16-bit lanes.
    let w_touch = b.weight(
        "touch",
        0.0625,
        (0.0, 0.9),
        "fill rule: side-by-side cells of one path are joined (keep below 1: above, an edge into another path's cell could pay for itself)",
    );
    b.condition(
        &[(w_path, 1.0), (w_touch, -1.0)],
        true,
        "touch < path",
        "an edge drawn into a cell of another path can pay for itself, so a state that is no \
         answer may reach the ground",
    );
    let w = p.width();
    for (a, c, down) in grid_edges(p) {
        for k in 1..=p.num_pairs() as u16 {
            let Some(&y) = var_of.get(&edge_label(p, a, down, k)) else {
                continue;
            };
            // Each cell's x in layer k: a variable, or a constant for an endpoint.
            let x = |i: usize| -> Result<u32, f64> {
                match p.endpoints()[i] {
                    0 => Ok(x_of[i][k as usize - 1]),
                    e => Err(if e == k { 1.0 } else { 0.0 }),
                }
            };
            let (mut constant, mut linear, mut quadratic) = (0.0, vec![(y, -1.0)], Vec::new());
            match (x(a), x(c)) {
                (Ok(u), Ok(v)) => quadratic.push((u, v, 1.0)),
                (Ok(u), Err(f)) | (Err(f), Ok(u)) => linear.push((u, f)),
                (Err(f), Err(g)) => constant = f * g,
            }
            linear.retain(|t| t.1 != 0.0);
            b.add_group(
                format!(
                    "touch[{}][{}]{}#{}",
                    a / w,
                    a % w,
                    if down { "v" } else { "h" },
                    p.name(k)
                ),
                w_touch,
                constant,
                linear,
                quadratic,
                0.0,
            );
        }
    }
}

/// The fill rule forbids two parallel edges of one layer across a 2×2 block: per block and
/// layer, parallel·(h_top·h_bottom + v_left·v_right). In a valid answer two side-by-side cells
/// of a path are joined (`touch`), so parallel edges a–b over c–d would make a–b–d–c a cycle
/// inside the path: every valid answer pays 0. It prices the four-cell loop, which `cell`,
/// `path` and `touch` all leave at 0 (it was most of the loops cut rounds found on Janko's
/// boards without presolve), and the U-turns on the way to it.
fn add_parallel(b: &mut EncodingBuilder, p: &Numberlink, var_of: &HashMap<Label, u32>) {
    let w_parallel = b.weight(
        "parallel",
        1.0,
        (0.0, 10.0),
        "fill rule: no two parallel edges of one path across a 2×2 block (a four-cell loop, or a path alongside itself)",
    );
    let (w, h) = (p.width(), p.height());
    for r in 0..h.saturating_sub(1) {
        for c in 0..w.saturating_sub(1) {
            let i = r * w + c;
            for k in 1..=p.num_pairs() as u16 {
                let edge = |cell: usize, down: bool| var_of.get(&edge_label(p, cell, down, k));
                let quadratic: Vec<(u32, u32, f64)> = [
                    (edge(i, false), edge(i + w, false)),
                    (edge(i, true), edge(i + 1, true)),
                ]
                .into_iter()
                .filter_map(|pair| match pair {
                    (Some(&a), Some(&b)) => Some((a, b, 1.0)),
                    _ => None,
                })
                .collect();
                if quadratic.is_empty() {
                    continue;
                }
                b.add_group(
                    format!("parallel[{r}][{c}]#{}", p.name(k)),
                    w_parallel,
                    0.0,
                    Vec::new(),
                    quadratic,
                    0.0,
                );
            }
        }
    }
}

/// Each cut whose variables all exist becomes the nogood `cut#i` under the weight `cut`.
fn add_cuts(b: &mut EncodingBuilder, cuts: &[Vec<Label>], var_of: &HashMap<Label, u32>) {
    // Declared even before any cut, so `--weight cut=…` works from the first round.
    let w_cut = b.weight(
        "cut",
        1.0,
        (0.0, 10.0),
        "cycle cuts (added by cut rounds): a loop found in an earlier round may not come back whole",
    );
    for (i, cut) in cuts.iter().enumerate() {
        let vars: Option<Vec<u32>> = cut.iter().map(|l| var_of.get(l).copied()).collect();
        if let Some(vars) = vars.filter(|v| !v.is_empty()) {
            b.add_nogood(format!("cut#{i}"), w_cut, &vars, |j| {
                Label::new("s", &[i as u32, j])
            });
        }
    }
}

/// The labelled edges that are on. An edge on in several layers (possible in `seed`) is read
/// in its lowest layer; the cells at it then miss an edge, which the referee reports.
pub(super) fn decode(p: &Numberlink, encoding: &Encoding, sample: &[u8]) -> NumberlinkSolution {
    let (w, h) = (p.width(), p.height());
    let mut s = NumberlinkSolution::empty(w * h);
    for (label, on) in encoding.full_assignment(sample) {
        let [r, c, k] = label.index[..] else { continue };
        let (r, c) = (r as usize, c as usize);
        if !on || r >= h || c >= w || k == 0 || k as usize > p.num_pairs() {
            continue;
        }
        let slot = match label.name.as_str() {
            "h" if c + 1 < w => &mut s.right[r * w + c],
            "v" if r + 1 < h => &mut s.down[r * w + c],
            _ => continue,
        };
        if *slot == 0 {
            *slot = k as u16;
        }
    }
    s
}

/// The sample whose edges are the solution's (cells by the path covering them, `u` set on
/// used cells, cut slack at its best); `None` if the solution does not fit the grid.
pub(super) fn sample_of(
    p: &Numberlink,
    encoding: &Encoding,
    solution: &NumberlinkSolution,
) -> Option<Vec<u8>> {
    let (w, n) = (p.width(), p.width() * p.height());
    if solution.right.len() != n || solution.down.len() != n {
        return None;
    }
    let cover = solution.cell_labels(p);
    let mut sample: Vec<u8> = encoding
        .labels()
        .iter()
        .map(|l| match (l.name.as_str(), &l.index[..]) {
            ("h", &[r, c, k]) => Some(u8::from(
                solution.right[r as usize * w + c as usize] == k as u16,
            )),
            ("v", &[r, c, k]) => Some(u8::from(
                solution.down[r as usize * w + c as usize] == k as u16,
            )),
            ("x", &[r, c, k]) => Some(u8::from(cover[r as usize * w + c as usize] == k as u16)),
            ("u", &[r, c]) => Some(u8::from(cover[r as usize * w + c as usize] != 0)),
            ("s", _) => Some(0),
            _ => None,
        })
        .collect::<Option<_>>()?;
    settle_cut_slack(encoding, &mut sample);
    Some(sample)
}

/// Sets each cut's slack so the nogood is at its minimum: the slack holds n − 1 − (edges on).
fn settle_cut_slack(encoding: &Encoding, sample: &mut [u8]) {
    let labels = encoding.labels();
    for g in 0..encoding.num_groups() {
        if !encoding.group_label(g).starts_with("cut#") {
            continue;
        }
        let (slack, edges): (Vec<u32>, Vec<u32>) = encoding
            .group_variables(g)
            .into_iter()
            .partition(|&v| labels[v as usize].name == "s");
        let on = edges.iter().filter(|&&v| sample[v as usize] != 0).count() as u64;
        let bound = edges.len().saturating_sub(1) as u64;
        // The slack bits were added in order with `slack_weights(bound)`; greedy from the
        // largest is exact for them.
        let mut left = bound.saturating_sub(on);
        let weights = slack_weights(bound);
        for (&v, &wt) in slack.iter().zip(&weights).rev() {
            sample[v as usize] = u8::from(wt <= left);
            if wt <= left {
                left -= wt;
            }
        }
    }
}
