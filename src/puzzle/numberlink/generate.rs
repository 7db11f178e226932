//! Random instances with a unique solution (fill rule). Each attempt starts from every cell as
//! its own one-cell path and merges two paths whose ends touch, at random, until `pairs` paths
//! are left; a merge that would put a path alongside itself (two of its cells adjacent but not
//! consecutive, which the fill rule forbids) is made only when no other is left. The ends of the paths become the endpoints, and the exact solver must find exactly
//! one solution within its budget; otherwise the next attempt runs. The same parameters give
//! the same instance.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngExt, SeedableRng};

use super::difficulty::{Band, deduction_band};
use super::solve::search;
use super::{MAX_SIDE, Numberlink, Rule};
use crate::params::{ParamDefault, ParamSpec, ParamType, ParamValues};
use crate::puzzle::generating::band_tally;
use crate::puzzle::{GenerateControl, PuzzleError};

/// Largest side the generator offers (the uniqueness check is exact search).
pub const MAX_GENERATED_SIDE: usize = 16;
/// Attempts before giving up.
const ATTEMPTS: usize = 400;
/// Attempts for a difficulty band before giving up (deep bands are rare among random ones).
pub const BAND_ATTEMPTS: usize = 20_000;
/// Search nodes per uniqueness check.
const CHECK_NODES: u64 = 200_000;

/// The generator's parameters (CLI flags and the GUI's form).
pub(super) const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        name: "width",
        ty: ParamType::Int {
            min: 2,
            max: MAX_GENERATED_SIDE as u64,
        },
        default: ParamDefault::Int(7),
        help: "columns",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "height",
        ty: ParamType::Int {
            min: 2,
            max: MAX_GENERATED_SIDE as u64,
        },
        default: ParamDefault::Int(7),
        help: "rows",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "pairs",
        ty: ParamType::Int {
            min: 1,
            max: (MAX_GENERATED_SIDE * MAX_GENERATED_SIDE / 2) as u64,
        },
        default: ParamDefault::Int(6),
        help: "numbers to join (fewer pairs on a larger grid: longer paths, harder to make unique)",
        alias: None,
        exposed: true,
    },
    ParamSpec {
        name: "difficulty",
        ty: ParamType::Choice(&["any", "rules", "probing", "nested", "search"]),
        default: ParamDefault::Word("any"),
        help: "the depth of deduction it needs (unique solution always): rules: the local \
               rules decide it; probing: one level of cases; nested: cases within cases; \
               search: deductions leave it open, trial and error decides",
        alias: None,
        exposed: true,
    },
    ParamSpec::seed(
        ParamDefault::Int(1),
        "the same seed gives the same instance",
    ),
];

pub(super) fn from_params(
    params: &ParamValues,
    control: &GenerateControl,
) -> Result<Numberlink, PuzzleError> {
    let int = |name: &str| params.get(name).and_then(|v| v.as_u64()).unwrap_or(0);
    let band = params
        .get("difficulty")
        .and_then(|v| v.as_str())
        .and_then(Band::parse);
    generate_band(
        int("width") as usize,
        int("height") as usize,
        int("pairs") as usize,
        band,
        int("seed"),
        control,
    )
}

/// A `width` × `height` fill-rule instance with `pairs` pairs and one solution.
pub fn generate(
    width: usize,
    height: usize,
    pairs: usize,
    seed: u64,
) -> Result<Numberlink, PuzzleError> {
    generate_band(width, height, pairs, None, seed, &GenerateControl::new())
}

/// As `generate`, and when `band` is given, only an instance of that deduction depth (more
/// attempts: `BAND_ATTEMPTS`, each reported to `control`).
pub fn generate_band(
    width: usize,
    height: usize,
    pairs: usize,
    band: Option<Band>,
    seed: u64,
    control: &GenerateControl,
) -> Result<Numberlink, PuzzleError> {
    if !(2..=MAX_GENERATED_SIDE.min(MAX_SIDE)).contains(&width)
        || !(2..=MAX_GENERATED_SIDE).contains(&height)
    {
        return Err(PuzzleError::Invalid(format!(
            "a {width}×{height} grid: each side must be 2 to {MAX_GENERATED_SIDE}"
        )));
    }
    let n = width * height;
    if pairs == 0 || 2 * pairs > n {
        return Err(PuzzleError::Invalid(format!(
            "{pairs} pairs on {n} cells: each pair needs two cells (1 to {} pairs)",
            n / 2
        )));
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let attempts = if band.is_some() {
        BAND_ATTEMPTS
    } else {
        ATTEMPTS
    };
    let mut reached = [0usize; 4];
    for attempt in 0..attempts {
        control.next_try(attempt as u64, attempts as u64)?;
        let Some(paths) = random_paths(width, height, pairs, &mut rng) else {
            continue;
        };
        let mut cells: Vec<Option<String>> = vec![None; n];
        // Number the pairs in reading order of their first endpoint, as the files do.
        let mut ends: Vec<[usize; 2]> = paths
            .iter()
            .map(|p| {
                let (a, b) = (p[0], p[p.len() - 1]);
                [a.min(b), a.max(b)]
            })
            .collect();
        ends.sort_unstable();
        for (k, [a, b]) in ends.iter().enumerate() {
            cells[*a] = Some((k + 1).to_string());
            cells[*b] = Some((k + 1).to_string());
        }
        let p = Numberlink::new(width, height, &cells, Rule::Fill)?;
        let found = search(&p, 2, CHECK_NODES);
        if !found.gave_up && found.solutions.len() == 1 {
            let Some(want) = band else {
                return Ok(p);
            };
            let got = deduction_band(&p);
            reached[got as usize] += 1;
            if got == want {
                return Ok(p);
            }
        }
    }
    if let Some(want) = band {
        return Err(PuzzleError::Invalid(format!(
            "no {width}×{height} instance with {pairs} pairs of band {} in {attempts} attempts \
             (seed {seed}; unique ones by band: {}): try another size, pair count or band",
            want.name(),
            band_tally(Band::ALL.map(Band::name), &reached)
        )));
    }
    // Few pairs make long paths that can wind another way; a board crowded with endpoints
    // leaves no room to lay the paths out.
    let advice = if 4 * pairs > width * height {
        format!(
            "{} of the {} cells are endpoints: try fewer pairs or another seed",
            2 * pairs,
            width * height
        )
    } else {
        "try more pairs or another seed".to_string()
    };
    Err(PuzzleError::Invalid(format!(
        "no {width}×{height} instance with {pairs} pairs and a unique solution in {ATTEMPTS} attempts \
         (seed {seed}): {advice}"
    )))
}

/// `pairs` paths of at least two cells covering the grid, or `None` when the merging got stuck.
fn random_paths(
    width: usize,
    height: usize,
    pairs: usize,
    rng: &mut impl Rng,
) -> Option<Vec<Vec<usize>>> {
    let n = width * height;
    let neighbours = |i: usize| {
        let (r, c) = (i / width, i % width);
        [
            (r > 0).then(|| i - width),
            (c + 1 < width).then(|| i + 1),
            (r + 1 < height).then(|| i + width),
            (c > 0).then(|| i - 1),
        ]
        .into_iter()
        .flatten()
    };
    let mut paths: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut owner: Vec<usize> = (0..n).collect();
    let mut alive = n;
    while alive > pairs {
        // Every allowed merge: an end of one path next to an end of another; when none is
        // left, merges that put a path alongside itself too (the intended covering then breaks
        // the rule, but the instance may still have one answer: the solver decides).
        let mut merges: Vec<(usize, usize)> = Vec::new();
        let mut touching: Vec<(usize, usize)> = Vec::new();
        for (p, path) in paths.iter().enumerate() {
            if path.is_empty() {
                continue;
            }
            for &a in [path[0], path[path.len() - 1]].iter() {
                for b in neighbours(a) {
                    let q = owner[b];
                    let qp = &paths[q];
                    if q > p && (b == qp[0] || b == qp[qp.len() - 1]) {
                        if alongside(&paths, &owner, p, q, a, b, &neighbours) {
                            touching.push((a, b));
                        } else {
                            merges.push((a, b));
                        }
                    }
                }
            }
        }
        if merges.is_empty() {
            merges = touching;
        }
        // Prefer merging the shortest paths first, so few one-cell paths survive.
        let shortest = merges
            .iter()
            .map(|&(a, b)| paths[owner[a]].len().min(paths[owner[b]].len()))
            .min()?;
        let pool: Vec<(usize, usize)> = merges
            .into_iter()
            .filter(|&(a, b)| {
                paths[owner[a]].len().min(paths[owner[b]].len())
                    <= shortest + rng.random_range(0..3)
            })
            .collect();
        let &(a, b) = pool.choose(rng)?;
        let (p, q) = (owner[a], owner[b]);
        let mut left = std::mem::take(&mut paths[p]);
        let mut right = std::mem::take(&mut paths[q]);
        if left[left.len() - 1] != a {
            left.reverse();
        }
        if right[0] != b {
            right.reverse();
        }
        for &c in &right {
            owner[c] = p;
        }
        left.extend(right);
        paths[p] = left;
        alive -= 1;
    }
    let mut out: Vec<Vec<usize>> = paths.into_iter().filter(|p| !p.is_empty()).collect();
    if out.iter().any(|p| p.len() < 3) {
        return None;
    }
    out.shuffle(rng);
    Some(out)
}

/// Whether joining path p's end a to path q's end b puts a cell of one next to a cell of the
/// other anywhere but at (a, b).
fn alongside<I: Iterator<Item = usize>>(
    paths: &[Vec<usize>],
    owner: &[usize],
    p: usize,
    q: usize,
    a: usize,
    b: usize,
    neighbours: &impl Fn(usize) -> I,
) -> bool {
    let (small, other) = if paths[p].len() <= paths[q].len() {
        (p, q)
    } else {
        (q, p)
    };
    paths[small].iter().any(|&c| {
        neighbours(c).any(|d| owner[d] == other && !((c == a && d == b) || (c == b && d == a)))
    })
}

#[cfg(test)]
mod tests {
    use super::super::check::check;
    use super::*;

    #[test]
    fn generated_instances_are_unique_and_seeded() {
        for seed in 1..=4 {
            let p = generate(6, 6, 5, seed).unwrap();
            assert_eq!(p.num_pairs(), 5);
            let found = search(&p, 2, 1_000_000);
            assert_eq!(found.solutions.len(), 1, "seed {seed}");
            assert!(check(&p, &found.solutions[0]).is_empty());
            assert_eq!(generate(6, 6, 5, seed).unwrap(), p);
        }
        let e = generate(3, 3, 9, 1).unwrap_err().to_string();
        assert!(e.contains("each pair needs two cells"), "{e}");
    }
}
