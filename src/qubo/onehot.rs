//! Exactly-one groups as data for samplers: which sets of variables the model's penalties say
//! must hold exactly one 1 (a Sudoku cell's digits, a position's piece-rotations), sorted into
//! *families* of disjoint groups (all cells, all rows), and which two families form a
//! permutation (every variable in exactly one group of each: cells × pieces in edge matching,
//! cells × row-digits in Sudoku).
//!
//! Samplers that move inside groups (`sampler::moves`) read this to keep groups satisfied by
//! construction; the penalty terms of a held group are then constant, and every other term
//! (hints, paths, joints) stays a penalty, so weights still mean what they meant.
//!
//! Invariant: groups are non-empty, sorted, of distinct in-range variables; the groups of one
//! family are pairwise disjoint; `two_way` names two families over the same variables with
//! the same number of groups, each variable in one group of each.

/// A family of pairwise disjoint exactly-one groups, named after its groups' labels (`cell`
/// for `cell[3][4]`).
#[derive(Clone, Debug, PartialEq)]
pub struct Family {
    /// The label prefix its groups share.
    pub name: String,
    /// Each group's variables (sorted, distinct).
    pub groups: Vec<Vec<u32>>,
}

impl Family {
    /// Variables in the family's groups.
    pub fn num_variables(&self) -> usize {
        self.groups.iter().map(Vec::len).sum()
    }
}

/// A model's exactly-one groups by family (see the module header).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct OneHotGroups {
    /// Families, in the order their first group was given.
    pub families: Vec<Family>,
    /// Two families that form a permutation, when some do.
    pub two_way: Option<[usize; 2]>,
}

/// A group label's family: its text up to the first `[` or `#` (`row[2]#7` → `row`).
pub fn family_of(label: &str) -> &str {
    let end = label.find(['[', '#']).unwrap_or(label.len());
    &label[..end]
}

impl OneHotGroups {
    /// Sorts labelled exactly-one groups of a model of `n` variables into families (by
    /// `family_of` their labels) and finds a permutation pair. Groups with an out-of-range or
    /// repeated variable, or empty, are left out; so is a family whose groups overlap (moves
    /// could not hold them all) or whose groups are all single variables (nothing to move).
    /// A single-variable group in a family with wider ones is kept: moves then hold its
    /// variable at 1 (a piece fixed in its corner), where leaving it out would let single
    /// flips at a hot β clear it while the report says the family is held.
    pub fn from_labelled<'a>(
        n: usize,
        groups: impl IntoIterator<Item = (&'a str, Vec<u32>)>,
    ) -> Self {
        let mut families: Vec<Family> = Vec::new();
        for (label, mut vars) in groups {
            vars.sort_unstable();
            let distinct = vars.windows(2).all(|w| w[0] != w[1]);
            if vars.is_empty() || !distinct || vars.iter().any(|&v| v as usize >= n) {
                continue;
            }
            let name = family_of(label);
            match families.iter_mut().find(|f| f.name == name) {
                Some(f) => f.groups.push(vars),
                None => families.push(Family {
                    name: name.to_string(),
                    groups: vec![vars],
                }),
            }
        }
        families.retain(|f| f.groups.iter().any(|g| g.len() >= 2));
        let mut seen = vec![u32::MAX; n];
        // Keep only families whose groups are disjoint.
        let mut kept = Vec::new();
        for (k, f) in families.into_iter().enumerate() {
            let mark = k as u32;
            let disjoint = f.groups.iter().flatten().all(|&v| {
                let fresh = seen[v as usize] != mark;
                seen[v as usize] = mark;
                fresh
            });
            if disjoint {
                kept.push(f);
            }
        }
        let two_way = find_permutation_pair(n, &kept);
        OneHotGroups {
            families: kept,
            two_way,
        }
    }

    /// The family of this name.
    pub fn family(&self, name: &str) -> Option<usize> {
        self.families.iter().position(|f| f.name == name)
    }

    /// Whether families `a` and `b` form a permutation (two-way moves can hold them), over a
    /// model of `n` variables.
    pub fn is_permutation_pair(&self, n: usize, a: usize, b: usize) -> bool {
        a != b && is_permutation(n, &self.families[a], &self.families[b])
    }

    /// Whether there is nothing to hold.
    pub fn is_empty(&self) -> bool {
        self.families.is_empty()
    }

    /// The family one-hot moves hold: the one covering the most variables (the first when
    /// tied).
    pub fn widest(&self) -> Option<usize> {
        (0..self.families.len())
            .rev()
            .max_by_key(|&k| (self.families[k].num_variables(), std::cmp::Reverse(k)))
    }

    /// Whether `x` has exactly one 1 in every group of family `k`.
    pub fn holds(&self, k: usize, x: &[u8]) -> bool {
        self.families[k]
            .groups
            .iter()
            .all(|g| g.iter().filter(|&&v| x[v as usize] != 0).count() == 1)
    }
}

/// The first two families (in order) that form a permutation (`is_permutation`).
fn find_permutation_pair(n: usize, families: &[Family]) -> Option<[usize; 2]> {
    (0..families.len())
        .flat_map(|a| (a + 1..families.len()).map(move |b| [a, b]))
        .find(|&[a, b]| is_permutation(n, &families[a], &families[b]))
}

/// Whether two families over a model of `n` variables form a permutation: as many groups
/// each, over the same variables, every variable in one group of each.
fn is_permutation(n: usize, fa: &Family, fb: &Family) -> bool {
    let group_of = |f: &Family| {
        let mut of = vec![u32::MAX; n];
        for (g, vars) in f.groups.iter().enumerate() {
            for &v in vars {
                of[v as usize] = g as u32;
            }
        }
        of
    };
    if fa.groups.len() != fb.groups.len() || fa.num_variables() != fb.num_variables() {
        return false;
    }
    let (ga, gb) = (group_of(fa), group_of(fb));
    ga.iter()
        .zip(&gb)
        .all(|(&x, &y)| (x == u32::MAX) == (y == u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2×2 Latin square's variables x[r][c][d] = 4r + 2c + d: cells, rows and columns.
    fn latin() -> OneHotGroups {
        let x = |r: u32, c: u32, d: u32| 4 * r + 2 * c + d;
        let mut groups = Vec::new();
        for r in 0..2 {
            for c in 0..2 {
                groups.push((format!("cell[{r}][{c}]"), vec![x(r, c, 0), x(r, c, 1)]));
            }
        }
        for r in 0..2 {
            for d in 0..2 {
                groups.push((format!("row[{r}]#{d}"), vec![x(r, 0, d), x(r, 1, d)]));
            }
        }
        for c in 0..2 {
            for d in 0..2 {
                groups.push((format!("col[{c}]#{d}"), vec![x(0, c, d), x(1, c, d)]));
            }
        }
        OneHotGroups::from_labelled(8, groups.iter().map(|(l, v)| (l.as_str(), v.clone())))
    }

    #[test]
    fn families_come_from_label_prefixes_and_the_first_pair_is_the_permutation() {
        let g = latin();
        let names: Vec<&str> = g.families.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["cell", "row", "col"]);
        assert_eq!(g.two_way, Some([0, 1]));
        assert_eq!(g.widest(), Some(0));
        assert!(g.holds(0, &[1, 0, 0, 1, 0, 1, 1, 0]));
        assert!(!g.holds(0, &[1, 1, 0, 1, 0, 1, 1, 0]));
    }

    #[test]
    fn overlapping_families_and_bad_groups_are_left_out() {
        let groups = vec![
            ("a[0]", vec![0, 1]),
            ("a[1]", vec![1, 2]), // overlaps a[0]: family a is dropped
            ("b[0]", vec![0, 1]),
            ("b[1]", vec![2, 2]), // repeated variable
            ("b[2]", vec![3, 9]), // out of range
            ("b[3]", vec![2]),    // one variable, held at 1 with its family
            ("c[0]", vec![3]),    // a family of single variables holds nothing to move
        ];
        let g = OneHotGroups::from_labelled(4, groups);
        assert_eq!(g.families.len(), 1);
        assert_eq!(g.families[0].name, "b");
        assert_eq!(g.families[0].groups, vec![vec![0, 1], vec![2]]);
        assert_eq!(g.two_way, None);
        assert_eq!(family_of("row[2]#7"), "row");
        assert_eq!(family_of("mines"), "mines");
    }
}
