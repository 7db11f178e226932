//! Edge matching → QUBO, the seed article's formulation with named weights.
//!
//! Variables are the placements that fit (`Placements`): x[P][r][c][R] = piece P (1-based) on
//! cell (r, c) turned R quarter turns, kept only when its border sides face exactly out of the
//! board (corners in corners, edge pieces on the frame, inner pieces inside); a rotation
//! showing the same colours as a smaller one is dropped; a fixed piece has only its fixed
//! placement and its cell only that piece. Without fixed pieces the first corner piece is
//! held in the top-left corner (on a rectangle: top-left or top-right, the 180° turn's
//! orbits), which removes the board's rotation symmetry. The seed's 4×4 has 138 variables.
//!
//! Groups: `piece[P]` and `cell[r][c]` one-hot (weights `piece`, `cell`); for each joint
//! between neighbours, `mismatch[r][c]-right|down` = +1 per pair of placements across it whose
//! touching colours differ and `match[…]` = −1 per pair whose colours agree (weights
//! `mismatch`, `match`). A perfect tiling has energy −match × joints.
//!
//! **Why the defaults keep every perfect tiling a ground state.** Let n_c be the placements on
//! in cell c, m_p those of piece p, d_c = n_c − 1, and deg(c) ≤ 4 its neighbours. Matched pairs
//! across a joint (a, b) are at most n_a·n_b = 1 + d_a + d_b + d_a·d_b, and d_a·d_b ≤ (d_a² +
//! d_b²)/2, so the rewards are at most match·(J + Σ_c deg(c)·d_c + Σ_c deg(c)·d_c²/2) with J the
//! number of joints. As pieces and cells are equally many, Σ_p (m_p − 1) = Σ_c d_c, and for
//! integers (m − 1)² ≥ m − 1, so the piece penalty is at least piece·Σ_c d_c. Mismatch terms
//! are ≥ 0. Hence E + match·J ≥ Σ_c g(d_c) with g(d) = (cell − match·deg/2)·d² + (piece −
//! match·deg)·d. g(0) = 0; g(−1) = cell − piece + match·deg/2 ≥ 0 when cell + match ≥ piece;
//! for d ≥ 1, g(d) ≥ 0 when cell ≥ 2·match and cell + piece ≥ 6·match. So with mismatch ≥ 0
//! and those three inequalities — the defaults cell = piece = 3, match = mismatch = 1 meet
//! them — no assignment goes below −match·J, the energy of a perfect tiling.
//! (`tests::defaults_keep_perfect_tilings_ground` checks it by enumeration and sampling.)

use super::check::{EdgeSolution, Placed};
use super::{BOTTOM, Colours, EdgeMatching, PieceClass, RIGHT, class_of, rotated};
use crate::budget;
use crate::puzzle::Puzzle;
use crate::puzzle::{EncodeOptions, PuzzleError};
use crate::qubo::grouped::{self, GroupedModel};
use crate::qubo::{Encoding, EncodingBuilder, Label};

/// One placement: a piece on a cell with a rotation, and the colours it then shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// Piece index, 0-based.
    pub piece: u32,
    /// Cell, row-major.
    pub cell: u32,
    /// Clockwise quarter turns.
    pub rotation: u8,
    /// Colours shown (top, right, bottom, left).
    pub colours: Colours,
}

/// Every placement that fits, indexed by cell and by piece. The QUBO's variables and the
/// classical solver's candidates are the same list.
#[derive(Clone, Debug)]
pub struct Placements {
    /// All placements, by piece, then cell, then rotation.
    pub list: Vec<Place>,
    /// Indices into `list` per cell.
    pub by_cell: Vec<Vec<u32>>,
    /// Indices into `list` per piece.
    pub by_piece: Vec<Vec<u32>>,
}

impl Placements {
    /// The placements of `p` (see the module header for which fit).
    pub fn of(p: &EdgeMatching) -> Placements {
        let (rows, cols) = (p.rows(), p.cols());
        let cells = rows * cols;
        let pieces = p.pieces();
        let mut fixed_piece_at: Vec<Option<usize>> = vec![None; cells];
        let mut fixed_of: Vec<Option<(usize, u8)>> = vec![None; pieces.len()];
        for f in p.fixed() {
            fixed_piece_at[f.row * cols + f.col] = Some(f.piece);
            fixed_of[f.piece] = Some((f.row * cols + f.col, f.rotation));
        }
        // Symmetry breaking only when nothing is fixed (a fixed piece already breaks it).
        let first_corner = if p.fixed().is_empty() {
            pieces
                .iter()
                .position(|&c| class_of(c) == PieceClass::Corner)
        } else {
            None
        };
        let square = rows == cols;
        let corner_cells: &[usize] = if square { &[0] } else { &[0, cols - 1] };
        let mut list = Vec::new();
        for (piece, &colours) in pieces.iter().enumerate() {
            #[allow(clippy::needless_range_loop)]
            // `cell` is the placement's cell, not an index only
            for cell in 0..cells {
                let (r, c) = (cell / cols, cell % cols);
                if let Some((at, rotation)) = fixed_of[piece] {
                    if at == cell && p.fits(rotated(colours, rotation), r, c) {
                        list.push(Place {
                            piece: piece as u32,
                            cell: cell as u32,
                            rotation,
                            colours: rotated(colours, rotation),
                        });
                    }
                    continue;
                }
                if fixed_piece_at[cell].is_some() {
                    continue;
                }
                match first_corner {
                    Some(fc) if fc == piece && !corner_cells.contains(&cell) => continue,
                    Some(fc) if fc != piece && square && cell == 0 => continue,
                    _ => {}
                }
                let mut seen: Vec<Colours> = Vec::with_capacity(4);
                for rotation in 0..4u8 {
                    let shown = rotated(colours, rotation);
                    if seen.contains(&shown) {
                        continue;
                    }
                    seen.push(shown);
                    if p.fits(shown, r, c) {
                        list.push(Place {
                            piece: piece as u32,
                            cell: cell as u32,
                            rotation,
                            colours: shown,
                        });
                    }
                }
            }
        }
        let mut by_cell = vec![Vec::new(); cells];
        let mut by_piece = vec![Vec::new(); pieces.len()];
        for (k, pl) in list.iter().enumerate() {
            by_cell[pl.cell as usize].push(k as u32);
            by_piece[pl.piece as usize].push(k as u32);
        }
        Placements {
            list,
            by_cell,
            by_piece,
        }
    }

    /// The joints as (upper/left cell, lower/right cell, side of the first), right then down.
    pub fn joints(rows: usize, cols: usize) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::with_capacity(2 * rows * cols);
        for r in 0..rows {
            for c in 0..cols {
                let cell = r * cols + c;
                if c + 1 < cols {
                    out.push((cell, cell + 1, RIGHT));
                }
                if r + 1 < rows {
                    out.push((cell, cell + cols, BOTTOM));
                }
            }
        }
        out
    }
}

/// Couplings the QUBO of `p` would have (an upper bound): pairs within a cell, within a piece,
/// and across every joint. Known before anything is built.
pub fn estimate_couplings(p: &EdgeMatching, pl: &Placements) -> u64 {
    let pairs = |k: usize| (k as u64).saturating_mul(k.saturating_sub(1) as u64) / 2;
    let within: u64 = pl
        .by_cell
        .iter()
        .chain(&pl.by_piece)
        .map(|v| pairs(v.len()))
        .sum();
    let across: u64 = Placements::joints(p.rows(), p.cols())
        .iter()
        .map(|&(a, b, _)| (pl.by_cell[a].len() as u64).saturating_mul(pl.by_cell[b].len() as u64))
        .sum();
    within.saturating_add(across)
}

/// Couplings beyond which the stored QUBO is refused whatever the memory: past this (the full
/// Eternity II has 3.4·10⁸) building and sampling a stored matrix is not a practical route.
pub const MAX_STORED_COUPLINGS: u64 = 200_000_000;

/// Bytes per coupling on the way from groups to a sampler: the group's term, the compiled
/// re-weighting table, the weighted QUBO and the sampler's adjacency (both directions).
const BYTES_PER_COUPLING: u64 = 128;

/// Bytes per placement whatever the route: its label and its entries in the groups (the
/// encoding), the placement tables, the structure's per-variable tables, and simulated
/// annealing's 32 lanes of state and fields (measured: a 32×32 board's 1.8 GB over its
/// placements, with margin).
const BYTES_PER_PLACEMENT: u64 = 512;

/// An upper bound on the placements, from the piece classes alone (nothing allocated): every
/// corner piece in every corner cell, edge piece on every edge cell, inner piece in four
/// rotations on every inner cell.
fn placements_bound(p: &EdgeMatching) -> u64 {
    let (rows, cols) = (p.rows() as u64, p.cols() as u64);
    let mut by_class = [0u64; 3];
    for &c in p.pieces() {
        by_class[match class_of(c) {
            PieceClass::Corner => 0,
            PieceClass::Edge => 1,
            _ => 2,
        }] += 1;
    }
    let corner_cells = 4.min(rows * cols);
    let edge_cells = (2 * (rows + cols)).saturating_sub(8);
    let inner_cells = rows.saturating_sub(2) * cols.saturating_sub(2);
    by_class[0] * corner_cells + by_class[1] * edge_cells + by_class[2] * inner_cells * 4
}

pub(super) fn encode(p: &EdgeMatching, options: &EncodeOptions) -> Result<Encoding, PuzzleError> {
    encode_within(p, options, budget::memory_budget())
}

/// `encode`, refusing (with the estimate) a model whose build would need more than
/// `limit_bytes`.
fn encode_within(
    p: &EdgeMatching,
    options: &EncodeOptions,
    limit_bytes: u64,
) -> Result<Encoding, PuzzleError> {
    if let Some(v) = p.conflicts().first() {
        return Err(PuzzleError::Invalid(format!(
            "cannot encode: {} (the model would have a cell or piece without a placement)",
            v.detail
        )));
    }
    // Placements are counted before they are made: each costs its label, its entries in the
    // groups, the structure's tables and the sampler's lanes, stored or not.
    let bound = placements_bound(p);
    let needed = bound.saturating_mul(BYTES_PER_PLACEMENT);
    if needed > limit_bytes {
        let e = budget::BudgetError {
            what: format!(
                "the model of this {}×{} edge matching (up to {bound} placements, even unstored)",
                p.rows(),
                p.cols()
            ),
            needed,
            limit: limit_bytes,
        };
        return Err(PuzzleError::Invalid(e.to_string()));
    }
    let pl = Placements::of(p);
    for (cell, v) in pl.by_cell.iter().enumerate() {
        if v.is_empty() {
            return Err(PuzzleError::Invalid(format!(
                "cannot encode: no piece fits row {}, column {}",
                cell / p.cols() + 1,
                cell % p.cols() + 1
            )));
        }
    }
    let couplings = estimate_couplings(p, &pl);
    let needed = couplings.saturating_mul(BYTES_PER_COUPLING);
    let too_large = if couplings > MAX_STORED_COUPLINGS {
        Some(format!(
            "the QUBO of this {}×{} edge matching has {} placements and {couplings} couplings, more than the {MAX_STORED_COUPLINGS} a stored model may have: it is sampled through its structure (SA) and not stored",
            p.rows(),
            p.cols(),
            pl.list.len()
        ))
    } else if needed > limit_bytes {
        let e = budget::BudgetError {
            what: format!(
                "the QUBO of this {}×{} edge matching ({} placements, {couplings} couplings)",
                p.rows(),
                p.cols(),
                pl.list.len()
            ),
            needed,
            limit: limit_bytes,
        };
        Some(format!(
            "{e}: it is sampled through its structure (SA) and not stored"
        ))
    } else {
        None
    };
    let mut b = EncodingBuilder::new();
    let w_piece = b.weight(
        "piece",
        3.0,
        (0.0, 20.0),
        "each piece on exactly one cell (perfect tilings stay ground while cell + piece ≥ 6 × match)",
    );
    let w_cell = b.weight(
        "cell",
        3.0,
        (0.0, 20.0),
        "each cell holds exactly one piece (keep cell ≥ 2 × match and cell + match ≥ piece)",
    );
    let w_mismatch = b.weight(
        "mismatch",
        1.0,
        (0.0, 10.0),
        "penalty per pair of neighbouring placements whose touching colours differ",
    );
    let w_match = b.weight(
        "match",
        1.0,
        (0.0, 10.0),
        "reward per pair of neighbouring placements whose touching colours agree",
    );
    // The bound in the module header: with these, no assignment goes below a perfect tiling.
    let lost = "perfect tilings are no longer sure to be the ground states (the module's bound \
                needs mismatch ≥ 0, cell + match ≥ piece, cell ≥ 2 × match and cell + piece ≥ \
                6 × match)";
    b.condition(&[(w_mismatch, 1.0)], false, "mismatch ≥ 0", lost);
    b.condition(
        &[(w_cell, 1.0), (w_match, 1.0), (w_piece, -1.0)],
        false,
        "cell + match ≥ piece",
        lost,
    );
    b.condition(
        &[(w_cell, 1.0), (w_match, -2.0)],
        false,
        "cell ≥ 2 × match",
        lost,
    );
    b.condition(
        &[(w_cell, 1.0), (w_piece, 1.0), (w_match, -6.0)],
        false,
        "cell + piece ≥ 6 × match",
        lost,
    );
    let cols = p.cols();
    for place in &pl.list {
        let cell = place.cell as usize;
        b.variable(Label::new(
            "x",
            &[
                p.number(place.piece as usize) as u32,
                (cell / cols) as u32,
                (cell % cols) as u32,
                place.rotation as u32,
            ],
        ));
    }
    if let Some(why) = too_large {
        // Not stored: the variables are all there is, and presolve (which rewrites stored
        // terms) does not apply; the structure samples the full model.
        return Ok(b.build_unstored(why));
    }
    for (piece, vars) in pl.by_piece.iter().enumerate() {
        b.add_one_hot(format!("piece[{}]", p.number(piece)), w_piece, vars);
    }
    for (cell, vars) in pl.by_cell.iter().enumerate() {
        b.add_one_hot(
            format!("cell[{}][{}]", cell / cols, cell % cols),
            w_cell,
            vars,
        );
    }
    for (a, bcell, side) in Placements::joints(p.rows(), cols) {
        let name = if side == RIGHT { "right" } else { "down" };
        let mut matching = Vec::new();
        let mut differing = Vec::new();
        for &u in &pl.by_cell[a] {
            let colour = pl.list[u as usize].colours[side];
            for &v in &pl.by_cell[bcell] {
                if pl.list[v as usize].colours[(side + 2) % 4] == colour {
                    matching.push((u, v, -1.0));
                } else {
                    differing.push((u, v, 1.0));
                }
            }
        }
        let (r, c) = (a / cols, a % cols);
        if !differing.is_empty() {
            b.add_group(
                format!("mismatch[{r}][{c}]-{name}"),
                w_mismatch,
                0.0,
                Vec::new(),
                differing,
                0.0,
            );
        }
        if !matching.is_empty() {
            b.add_group(
                format!("match[{r}][{c}]-{name}"),
                w_match,
                0.0,
                Vec::new(),
                matching,
                -1.0,
            );
        }
    }
    let full = b.build();
    if !options.presolve {
        return Ok(full);
    }
    Ok(full.fix(&presolve(p, &pl)))
}

/// The same energies as `encode` (without presolve) gives under `weights`, as a structured
/// model: groups piece and cell, one port per (cell, side) linked to the neighbour's facing
/// side, labels = colours shown. Nothing is stored per coupling, so it exists for boards whose
/// QUBO is too large to store (the full Eternity II).
pub fn structured_model(p: &EdgeMatching, weights: &crate::qubo::Weights) -> GroupedModel {
    let w = |name: &str, default: f64| weights.get(name).unwrap_or(default);
    let pl = Placements::of(p);
    let (rows, cols) = (p.rows(), p.cols());
    let pieces = p.pieces().len();
    let groups_of = pl
        .list
        .iter()
        .map(|x| [x.piece, pieces as u32 + x.cell])
        .collect();
    let mut group_weight = vec![w("piece", 3.0); pieces];
    group_weight.extend(std::iter::repeat_n(w("cell", 3.0), rows * cols));
    let port = |cell: usize, side: usize| (cell * 4 + side) as u32;
    let links: Vec<(u32, u32)> = Placements::joints(rows, cols)
        .into_iter()
        .map(|(a, b, side)| (port(a, side), port(b, (side + 2) % 4)))
        .collect();
    let mut linked = vec![false; rows * cols * 4];
    for &(a, b) in &links {
        linked[a as usize] = true;
        linked[b as usize] = true;
    }
    let ports_of = pl
        .list
        .iter()
        .map(|x| {
            let mut slots = [(grouped::NONE, 0u8); 4];
            for (side, slot) in slots.iter_mut().enumerate() {
                let q = port(x.cell as usize, side);
                if linked[q as usize] {
                    *slot = (q, x.colours[side]);
                }
            }
            slots
        })
        .collect();
    GroupedModel::new(
        groups_of,
        group_weight,
        ports_of,
        &links,
        rows * cols * 4,
        -w("match", 1.0),
        w("mismatch", 1.0),
    )
    .with_one_hot_families(vec![
        ("piece".into(), 0..pieces as u32),
        ("cell".into(), pieces as u32..(pieces + rows * cols) as u32),
    ])
}

/// What a perfect tiling forces, by propagation: a cell or piece with one placement left takes
/// it; a placement taken rules out the rest of its cell and piece and every placement of a
/// neighbouring cell whose touching colour differs. (Sound for perfect tilings: presolve, as
/// for Sudoku, keeps every valid solution and its energy.)
fn presolve(p: &EdgeMatching, pl: &Placements) -> Vec<Option<bool>> {
    let n = pl.list.len();
    let mut value: Vec<Option<bool>> = vec![None; n];
    let mut changed = true;
    while changed {
        changed = false;
        let groups = pl.by_cell.iter().chain(pl.by_piece.iter());
        let mut take = Vec::new();
        for g in groups {
            let open: Vec<u32> = g
                .iter()
                .copied()
                .filter(|&v| value[v as usize] != Some(false))
                .collect();
            if let [only] = open[..]
                && value[only as usize].is_none()
            {
                take.push(only);
            }
        }
        for v in take {
            if value[v as usize].is_some() {
                continue;
            }
            value[v as usize] = Some(true);
            changed = true;
            let place = pl.list[v as usize];
            let rule_out = pl.by_cell[place.cell as usize]
                .iter()
                .chain(&pl.by_piece[place.piece as usize]);
            for &u in rule_out {
                if u != v && value[u as usize].is_none() {
                    value[u as usize] = Some(false);
                }
            }
            for (side, other) in p.across(place.cell as usize).into_iter().enumerate() {
                let Some(other) = other else { continue };
                for &u in &pl.by_cell[other] {
                    if value[u as usize].is_none()
                        && pl.list[u as usize].colours[(side + 2) % 4] != place.colours[side]
                    {
                        value[u as usize] = Some(false);
                    }
                }
            }
        }
    }
    value
}

/// The pieces a sample (with presolved variables) puts on each cell.
pub(super) fn decode(p: &EdgeMatching, encoding: &Encoding, sample: &[u8]) -> EdgeSolution {
    let (rows, cols) = (p.rows(), p.cols());
    let mut cells: Vec<Vec<Placed>> = vec![Vec::new(); rows * cols];
    // Labels name pieces by number.
    let index = p.indices_by_number();
    for (label, on) in encoding.full_assignment(sample) {
        if !on || label.name != "x" {
            continue;
        }
        if let [number, r, c, rotation] = label.index[..] {
            let (r, c) = (r as usize, c as usize);
            if let Some(Some(piece)) = index.get(number as usize)
                && r < rows
                && c < cols
            {
                cells[r * cols + c].push(Placed {
                    piece: *piece,
                    rotation: (rotation % 4) as u8,
                });
            }
        }
    }
    EdgeSolution::new(rows, cols, cells)
}

/// The smallest rotation of `piece` that shows the same colours as `rotation` (the one the
/// placements keep).
fn canonical_rotation(p: &EdgeMatching, piece: usize, rotation: u8) -> u8 {
    let colours = p.pieces()[piece];
    let want = rotated(colours, rotation);
    (0..4)
        .find(|&k| rotated(colours, k) == want)
        .unwrap_or(rotation)
}

/// The sample that puts exactly the solution's pieces on their cells; `None` when a cell is
/// empty or doubly filled, or the solution contradicts a presolved variable.
pub(super) fn sample_of(
    p: &EdgeMatching,
    encoding: &Encoding,
    solution: &EdgeSolution,
) -> Option<Vec<u8>> {
    let (rows, cols) = (p.rows(), p.cols());
    if (solution.rows(), solution.cols()) != (rows, cols) {
        return None;
    }
    let mut chosen: Vec<Option<(usize, u8)>> = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let placed = solution.single(r, c)?;
            if placed.piece >= p.pieces().len() {
                return None;
            }
            chosen.push(Some((
                placed.piece,
                canonical_rotation(p, placed.piece, placed.rotation),
            )));
        }
    }
    let index = p.indices_by_number();
    let value = |label: &Label| -> Option<bool> {
        let [number, r, c, rotation] = label.index[..] else {
            return None;
        };
        let (r, c) = (r as usize, c as usize);
        if label.name != "x" || r >= rows || c >= cols {
            return None;
        }
        let piece = (*index.get(number as usize)?)?;
        Some(chosen[r * cols + c] == Some((piece, rotation as u8)))
    };
    for (label, fixed) in encoding.fixed() {
        if value(label)? != *fixed {
            return None;
        }
    }
    let sample: Vec<u8> = encoding
        .labels()
        .iter()
        .map(|l| value(l).map(u8::from))
        .collect::<Option<_>>()?;
    // Every chosen placement must be a variable or fixed on (a solution using a placement the
    // model left out, e.g. the first corner elsewhere, has no sample).
    let on = sample.iter().filter(|&&b| b == 1).count()
        + encoding.fixed().iter().filter(|(_, b)| *b).count();
    (on == rows * cols).then_some(sample)
}

#[cfg(test)]
mod tests;
