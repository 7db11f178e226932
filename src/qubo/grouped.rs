//! Models whose couplings follow from structure, so nothing is stored per group pair:
//! - every variable sits in up to two *square groups*, weight·(Σ cᵢxᵢ − target)² (a one-hot
//!   group is coefficients 1, target 1), priced from the group's running sum;
//! - a variable owns up to four labelled *ports*; each port is linked to a partner port, and a
//!   pair of variables on linked ports couples by `same` when their labels agree, else by `diff`;
//! - a few *explicit* couplings, stored as a CSR (what fits neither shape).
//!
//! Edge matching is groups + ports (groups: piece and cell; ports: a cell's sides; labels:
//! colours; same = −match, diff = +mismatch), and its full Eternity II model (3.4·10⁸
//! couplings) fits in a few megabytes. Any `Encoding` whose big groups are squares is groups +
//! explicit couplings (`Encoding::structure`): Numberlink's one-hot cells and path counts.
//!
//! Invariant: the energy is exactly that of the QUBO the same structure spells out pair by pair
//! (`for_each_neighbour` reports it), and a flip's energy change is computed from sums — per
//! group Σ cᵢxᵢ, per port the variables on and how many show each label, plus the explicit
//! row — so a sweep costs O(variables + explicit couplings), not O(couplings). Two variables
//! never share a port, and a variable never owns a port and its partner.

use super::Model;

/// No group / no port in a slot.
pub const NONE: u32 = u32::MAX;

/// weight · (Σ cᵢxᵢ − target)² over distinct variables.
#[derive(Clone, Debug, PartialEq)]
pub struct Square {
    /// The group's weight (already resolved).
    pub weight: f64,
    /// The value the sum should take.
    pub target: f64,
    /// (variable, coefficient).
    pub terms: Vec<(u32, f64)>,
}

/// A structured model (see the module header).
#[derive(Clone, Debug)]
pub struct GroupedModel {
    offset: f64,
    /// Per variable: its own linear term plus its groups' x² and target terms.
    linear: Vec<f64>,
    /// Per variable: its (up to two) groups and its coefficient in each.
    groups_of: Vec<[u32; 2]>,
    coef_of: Vec<[f64; 2]>,
    group_weight: Vec<f64>,
    group_members: Vec<Vec<(u32, f64)>>,
    /// Per variable: its (up to four) ports and the label it shows on each.
    ports_of: Vec<[(u32, u8); 4]>,
    /// Per port: the linked port (NONE when unlinked).
    partner: Vec<u32>,
    port_members: Vec<Vec<u32>>,
    same: f64,
    diff: f64,
    /// Explicit couplings, both directions, as a CSR (`pair_start` has n + 1 entries).
    pair_start: Vec<u32>,
    pair_cols: Vec<u32>,
    pair_vals: Vec<f64>,
    /// Named families of one-hot groups (`with_one_hot_families`): ranges of group indices.
    one_hot_families: Vec<(String, std::ops::Range<u32>)>,
}

impl GroupedModel {
    /// A model of one-hot groups and ports: per variable its groups and its (port, label)
    /// slots (NONE for unused), the groups' weights, the links between ports, and the pair
    /// coefficients. Panics when the structure breaks the invariant (a caller's bug, not input).
    pub fn new(
        groups_of: Vec<[u32; 2]>,
        group_weight: Vec<f64>,
        ports_of: Vec<[(u32, u8); 4]>,
        links: &[(u32, u32)],
        num_ports: usize,
        same: f64,
        diff: f64,
    ) -> Self {
        let n = groups_of.len();
        assert_eq!(ports_of.len(), n);
        let coef_of = groups_of
            .iter()
            .map(|gs| gs.map(|g| if g == NONE { 0.0 } else { 1.0 }))
            .collect();
        let targets = vec![1.0; group_weight.len()];
        let mut m = Self::assemble(
            vec![0.0; n],
            0.0,
            groups_of,
            coef_of,
            group_weight,
            &targets,
            Vec::new(),
        );
        m.partner = vec![NONE; num_ports];
        for &(a, b) in links {
            m.partner[a as usize] = b;
            m.partner[b as usize] = a;
        }
        m.port_members = vec![Vec::new(); num_ports];
        for (v, ps) in ports_of.iter().enumerate() {
            for &(p, _) in ps.iter().filter(|(p, _)| *p != NONE) {
                m.port_members[p as usize].push(v as u32);
            }
        }
        m.ports_of = ports_of;
        m.same = same;
        m.diff = diff;
        m
    }

    /// A model of `n` variables from its terms: the offset, linear terms, squares and explicit
    /// couplings (i ≠ j; repeats add up). Each square whose variables all have a free slot is
    /// kept as a group (squares come first-come: put the large ones first); the others are
    /// spelled out as couplings, so every square is exact either way.
    pub fn from_terms(
        n: usize,
        mut offset: f64,
        mut linear: Vec<f64>,
        squares: Vec<Square>,
        mut pairs: Vec<(u32, u32, f64)>,
    ) -> Self {
        assert_eq!(linear.len(), n);
        let mut groups_of = vec![[NONE; 2]; n];
        let mut coef_of = vec![[0.0; 2]; n];
        let mut group_weight = Vec::new();
        let mut targets = Vec::new();
        for mut sq in squares {
            // Distinct variables: repeated terms add up.
            sq.terms.sort_unstable_by_key(|t| t.0);
            sq.terms.dedup_by(|b, a| {
                let same = a.0 == b.0;
                if same {
                    a.1 += b.1;
                }
                same
            });
            sq.terms.retain(|t| t.1 != 0.0);
            if sq.weight == 0.0 || sq.terms.is_empty() {
                offset += sq.weight * sq.target * sq.target;
                continue;
            }
            let fits = sq
                .terms
                .iter()
                .all(|&(v, _)| groups_of[v as usize].contains(&NONE));
            if fits {
                let g = group_weight.len() as u32;
                for &(v, c) in &sq.terms {
                    let slot = usize::from(groups_of[v as usize][0] != NONE);
                    groups_of[v as usize][slot] = g;
                    coef_of[v as usize][slot] = c;
                }
                group_weight.push(sq.weight);
                targets.push(sq.target);
            } else {
                // Spelled out: w·(Σ cx − t)² = w t² + Σ w c(c − 2t) x + Σ_{i<j} 2w cᵢcⱼ xᵢxⱼ.
                let (w, t) = (sq.weight, sq.target);
                offset += w * t * t;
                for (a, &(u, cu)) in sq.terms.iter().enumerate() {
                    linear[u as usize] += w * cu * (cu - 2.0 * t);
                    for &(v, cv) in &sq.terms[a + 1..] {
                        pairs.push((u, v, 2.0 * w * cu * cv));
                    }
                }
            }
        }
        Self::assemble(
            linear,
            offset,
            groups_of,
            coef_of,
            group_weight,
            &targets,
            pairs,
        )
    }

    /// The common part of the constructors: folds each group's x² and target terms into the
    /// linear terms and offset, lists the members, and stores the explicit couplings.
    fn assemble(
        mut linear: Vec<f64>,
        mut offset: f64,
        groups_of: Vec<[u32; 2]>,
        coef_of: Vec<[f64; 2]>,
        group_weight: Vec<f64>,
        targets: &[f64],
        pairs: Vec<(u32, u32, f64)>,
    ) -> Self {
        let n = linear.len();
        let mut group_members = vec![Vec::new(); group_weight.len()];
        for (v, (gs, cs)) in groups_of.iter().zip(&coef_of).enumerate() {
            for (&g, &c) in gs.iter().zip(cs) {
                if g == NONE {
                    continue;
                }
                let (w, t) = (group_weight[g as usize], targets[g as usize]);
                group_members[g as usize].push((v as u32, c));
                // w(Σ cx − t)² with x² = x: each member's c(c − 2t), the constant t².
                linear[v] += w * c * (c - 2.0 * t);
            }
        }
        offset += group_weight
            .iter()
            .zip(targets)
            .map(|(w, t)| w * t * t)
            .sum::<f64>();
        let (pair_start, pair_cols, pair_vals) = symmetric_rows(n, pairs);
        GroupedModel {
            offset,
            linear,
            groups_of,
            coef_of,
            group_weight,
            group_members,
            ports_of: vec![[(NONE, 0); 4]; n],
            partner: Vec::new(),
            port_members: Vec::new(),
            same: 0.0,
            diff: 0.0,
            pair_start,
            pair_cols,
            pair_vals,
            one_hot_families: Vec::new(),
        }
    }

    /// Names families of one-hot groups (coefficients 1, target 1, as `new` builds them) by
    /// ranges of group indices, for `one_hot_groups`.
    pub fn with_one_hot_families(mut self, families: Vec<(String, std::ops::Range<u32>)>) -> Self {
        self.one_hot_families = families;
        self
    }

    /// The named one-hot groups of positive weight, as samplers read them.
    pub fn one_hot_groups(&self) -> super::OneHotGroups {
        let labelled = self.one_hot_families.iter().flat_map(|(name, range)| {
            range
                .clone()
                .filter(|&g| self.group_weight.get(g as usize).is_some_and(|&w| w > 0.0))
                .map(move |g| {
                    let vars = self.group_members[g as usize].iter().map(|t| t.0).collect();
                    (name.as_str(), vars)
                })
        });
        super::OneHotGroups::from_labelled(self.linear.len(), labelled)
    }

    /// The explicit couplings of `i`: (neighbour, coefficient).
    fn explicit_row(&self, i: usize) -> impl Iterator<Item = (u32, f64)> + '_ {
        let r = self.pair_start[i] as usize..self.pair_start[i + 1] as usize;
        self.pair_cols[r.clone()]
            .iter()
            .copied()
            .zip(self.pair_vals[r].iter().copied())
    }

    /// Couplings the equivalent stored QUBO would have, at most (pairs within groups, across
    /// links and explicit; a pair that is two of these counts twice), for reports.
    pub fn num_couplings(&self) -> u64 {
        let within: u64 = self
            .group_members
            .iter()
            .map(|m| (m.len() as u64) * (m.len().saturating_sub(1) as u64) / 2)
            .sum();
        let across: u64 = (0..self.partner.len())
            .filter(|&p| self.partner[p] != NONE && (self.partner[p] as usize) > p)
            .map(|p| {
                self.port_members[p].len() as u64
                    * self.port_members[self.partner[p] as usize].len() as u64
            })
            .sum();
        within + across + self.pair_cols.len() as u64 / 2
    }

    /// Bytes the structure holds (for budgets and reports).
    pub fn bytes(&self) -> u64 {
        let n = self.linear.len() as u64;
        let members: u64 = self.group_members.iter().map(|m| m.len() as u64).sum();
        n * (8 + 8 + 16 + 32 + 4)
            + members * 12
            + self.group_weight.len() as u64 * 32
            + self.pair_cols.len() as u64 * 12
    }

    /// dwave-samplers' default β range (`schedule::default_beta_range`) computed from the
    /// structure in O(variables + members) rather than by visiting every coupling. (Pairs that
    /// are in two of the shapes count their terms separately here: a range, not an energy.)
    pub fn default_beta_range(&self) -> (f64, f64) {
        let n = self.linear.len();
        // Per port: members, and members per label.
        let mut members = vec![0u32; self.partner.len()];
        let mut by_label = vec![0u32; self.partner.len() * 256];
        for ps in &self.ports_of {
            for &(p, l) in ps.iter().filter(|(p, _)| *p != NONE) {
                members[p as usize] += 1;
                by_label[p as usize * 256 + l as usize] += 1;
            }
        }
        // Per group: Σ c, Σ |c| and the smallest |c| over its members.
        let sums: Vec<(f64, f64, f64)> = self
            .group_members
            .iter()
            .map(|m| {
                m.iter()
                    .fold((0.0, 0.0, f64::INFINITY), |(s, a, lo), &(_, c)| {
                        (s + c, a + c.abs(), lo.min(c.abs()))
                    })
            })
            .collect();
        let mut max_field = 0.0f64;
        let mut min_field = f64::INFINITY;
        let mut at_min = 0usize;
        for i in 0..n {
            let mut sum_q = 0.0;
            let mut sum_abs_j = 0.0;
            let mut min_j = f64::INFINITY;
            for (&g, &c) in self.groups_of[i].iter().zip(&self.coef_of[i]) {
                if g == NONE {
                    continue;
                }
                let (s, a, lo) = sums[g as usize];
                let w2c = 2.0 * self.group_weight[g as usize] * c;
                // Mates' couplings 2w·c·cⱼ: their sum, and their sizes.
                sum_q += w2c * (s - c);
                sum_abs_j += w2c.abs() * (a - c.abs()) / 4.0;
                if self.group_members[g as usize].len() > 1 && w2c != 0.0 {
                    min_j = min_j.min(w2c.abs() * lo / 4.0);
                }
            }
            for &(p, l) in self.ports_of[i].iter().filter(|(p, _)| *p != NONE) {
                let q = self.partner[p as usize];
                if q == NONE {
                    continue;
                }
                let same = by_label[q as usize * 256 + l as usize] as f64;
                let diff = members[q as usize] as f64 - same;
                sum_q += self.same * same + self.diff * diff;
                sum_abs_j += (self.same.abs() * same + self.diff.abs() * diff) / 4.0;
                if same > 0.0 && self.same != 0.0 {
                    min_j = min_j.min(self.same.abs() / 4.0);
                }
                if diff > 0.0 && self.diff != 0.0 {
                    min_j = min_j.min(self.diff.abs() / 4.0);
                }
            }
            for (_, q) in self.explicit_row(i) {
                sum_q += q;
                sum_abs_j += q.abs() / 4.0;
                if q != 0.0 {
                    min_j = min_j.min(q.abs() / 4.0);
                }
            }
            let h = self.linear[i] / 2.0 + sum_q / 4.0;
            if h != 0.0 {
                min_j = min_j.min(h.abs());
            }
            max_field = max_field.max(h.abs() + sum_abs_j);
            if min_j < min_field {
                min_field = min_j;
                at_min = 1;
            } else if min_j == min_field {
                at_min += 1;
            }
        }
        if !min_field.is_finite() {
            return (0.1, 1.0);
        }
        let hot = if max_field == 0.0 {
            1.0
        } else {
            std::f64::consts::LN_2 / (2.0 * max_field)
        };
        (hot, (at_min as f64 / 0.01).ln() / (2.0 * min_field))
    }

    /// The flat tables the annealing kernel reads (see `GroupedKernel`).
    pub fn kernel(&self) -> GroupedKernel {
        let num_ports = self.partner.len();
        // Labels renumbered densely, so the per-(port, label) counts stay small (in L1 for
        // boards up to a few hundred cells).
        let mut dense = [u32::MAX; 256];
        let mut num_labels = 0u32;
        for ps in &self.ports_of {
            for &(p, l) in ps {
                if p != NONE && dense[l as usize] == u32::MAX {
                    dense[l as usize] = num_labels;
                    num_labels += 1;
                }
            }
        }
        let stride = num_labels.max(1);
        // Two spare ports: slots without a port write to `sink` and read from `zero`.
        let sink = num_ports as u32;
        let zero = num_ports as u32 + 1;
        let mut own = Vec::with_capacity(self.linear.len());
        let mut other = Vec::with_capacity(self.linear.len());
        for ps in &self.ports_of {
            let mut o = [(sink, sink * stride); 4];
            let mut t = [(zero, zero * stride); 4];
            for (k, &(p, label)) in ps.iter().enumerate() {
                if p == NONE {
                    continue;
                }
                let label = dense[label as usize];
                o[k] = (p, p * stride + label);
                let q = self.partner[p as usize];
                if q != NONE {
                    t[k] = (q, q * stride + label);
                }
            }
            own.push(o);
            other.push(t);
        }
        let spare = self.group_weight.len() as u32;
        GroupedKernel {
            linear: self.linear.clone(),
            groups: self
                .groups_of
                .iter()
                .map(|gs| gs.map(|g| if g == NONE { spare } else { g }))
                .collect(),
            coef: self.coef_of.clone(),
            // A spare group of weight 0 for empty slots.
            twice_weight: self
                .group_weight
                .iter()
                .map(|w| 2.0 * w)
                .chain(std::iter::once(0.0))
                .collect(),
            own,
            other,
            num_groups: self.group_weight.len() + 1,
            num_ports: num_ports + 2,
            num_labels: stride as usize,
            same_minus_diff: self.same - self.diff,
            diff: self.diff,
            offset: self.offset,
            pair_start: self.pair_start.clone(),
            pair_cols: self.pair_cols.clone(),
            pair_vals: self.pair_vals.clone(),
        }
    }
}

/// Explicit couplings as rows by variable, both directions, repeats added up, zeros dropped.
fn symmetric_rows(n: usize, pairs: Vec<(u32, u32, f64)>) -> (Vec<u32>, Vec<u32>, Vec<f64>) {
    let mut both: Vec<(u32, u32, f64)> = Vec::with_capacity(pairs.len() * 2);
    for (i, j, q) in pairs {
        assert_ne!(i, j, "an explicit coupling joins two variables");
        both.push((i, j, q));
        both.push((j, i, q));
    }
    both.sort_unstable_by_key(|t| (t.0, t.1));
    let mut start = vec![0u32; n + 1];
    let mut cols: Vec<u32> = Vec::new();
    let mut vals: Vec<f64> = Vec::new();
    let mut rows: Vec<u32> = Vec::new();
    for (i, j, q) in both {
        if rows.last() == Some(&i) && cols.last() == Some(&j) {
            *vals.last_mut().expect("a row entry") += q;
        } else {
            rows.push(i);
            cols.push(j);
            vals.push(q);
        }
    }
    // Drop entries that cancelled out, then count each row.
    let mut k = 0;
    for e in 0..cols.len() {
        if vals[e] != 0.0 {
            rows[k] = rows[e];
            cols[k] = cols[e];
            vals[k] = vals[e];
            k += 1;
        }
    }
    rows.truncate(k);
    cols.truncate(k);
    vals.truncate(k);
    for &i in &rows {
        start[i as usize + 1] += 1;
    }
    for v in 0..n {
        start[v + 1] += start[v];
    }
    (start, cols, vals)
}

impl Model for GroupedModel {
    fn num_variables(&self) -> usize {
        self.linear.len()
    }

    fn offset(&self) -> f64 {
        self.offset
    }

    fn linear(&self, i: usize) -> f64 {
        self.linear[i]
    }

    fn for_each_neighbour(&self, i: usize, f: &mut dyn FnMut(usize, f64)) {
        // Group mates, link partners and explicit couplings; a pair may be more than one (one
        // piece in two neighbouring cells), so terms are merged per neighbour before they are
        // reported.
        let mut terms: Vec<(u32, f64)> = Vec::new();
        for (&g, &c) in self.groups_of[i].iter().zip(&self.coef_of[i]) {
            if g == NONE {
                continue;
            }
            let w2c = 2.0 * self.group_weight[g as usize] * c;
            terms.extend(
                self.group_members[g as usize]
                    .iter()
                    .filter(|&&(j, _)| j as usize != i)
                    .map(|&(j, cj)| (j, w2c * cj)),
            );
        }
        for &(p, label) in self.ports_of[i].iter().filter(|(p, _)| *p != NONE) {
            let q = self.partner[p as usize];
            if q == NONE {
                continue;
            }
            for &j in &self.port_members[q as usize] {
                let theirs = self.ports_of[j as usize]
                    .iter()
                    .find(|(pp, _)| *pp == q)
                    .map(|&(_, l)| l);
                let c = if theirs == Some(label) {
                    self.same
                } else {
                    self.diff
                };
                terms.push((j, c));
            }
        }
        terms.extend(self.explicit_row(i));
        terms.sort_unstable_by_key(|t| t.0);
        let mut k = 0;
        while k < terms.len() {
            let (j, mut q) = terms[k];
            k += 1;
            while k < terms.len() && terms[k].0 == j {
                q += terms[k].1;
                k += 1;
            }
            if q != 0.0 {
                f(j as usize, q);
            }
        }
    }

    fn energy(&self, x: &[u8]) -> f64 {
        // From sums: O(variables + explicit couplings + ports × labels), nothing per coupling.
        let mut e = self.offset;
        let mut sum = vec![0.0; self.group_weight.len()];
        let mut sum_sq = vec![0.0; self.group_weight.len()];
        let labels = 256;
        let mut at = vec![0u32; self.partner.len()];
        let mut with_label = vec![0u32; self.partner.len() * labels];
        for (v, _) in x.iter().enumerate().filter(|t| *t.1 != 0) {
            e += self.linear[v];
            for (&g, &c) in self.groups_of[v].iter().zip(&self.coef_of[v]) {
                if g != NONE {
                    sum[g as usize] += c;
                    sum_sq[g as usize] += c * c;
                }
            }
            for (j, q) in self.explicit_row(v) {
                if (j as usize) < v && x[j as usize] != 0 {
                    e += q;
                }
            }
            for &(p, l) in self.ports_of[v].iter().filter(|t| t.0 != NONE) {
                at[p as usize] += 1;
                with_label[p as usize * labels + l as usize] += 1;
            }
        }
        // Each group's pairs: w·Σ_{i≠j} cᵢcⱼxᵢxⱼ = w·((Σ cx)² − Σ c²x).
        for (g, w) in self.group_weight.iter().enumerate() {
            e += w * (sum[g] * sum[g] - sum_sq[g]);
        }
        // Each linked pair of ports once: diff per pair, same − diff per pair that agrees.
        for (p, &q) in self.partner.iter().enumerate() {
            if q == NONE || (q as usize) < p {
                continue;
            }
            let agree: u64 = (0..labels)
                .map(|l| {
                    with_label[p * labels + l] as u64 * with_label[q as usize * labels + l] as u64
                })
                .sum();
            e += self.diff * (at[p] as u64 * at[q as usize] as u64) as f64
                + (self.same - self.diff) * agree as f64;
        }
        e
    }

    fn grouped(&self) -> Option<&GroupedModel> {
        Some(self)
    }
}

/// The annealing kernel's flat view of a `GroupedModel`: per variable its two group indices
/// and coefficients, four (port, port · labels + label) slots for itself and for the partner
/// it reads, and its explicit row.
#[derive(Clone, Debug)]
pub struct GroupedKernel {
    /// Linear coefficient per variable (groups' x² and target terms folded in).
    pub linear: Vec<f64>,
    /// Groups per variable (the spare group, weight 0, for an empty slot).
    pub groups: Vec<[u32; 2]>,
    /// The variable's coefficient in each of its groups.
    pub coef: Vec<[f64; 2]>,
    /// 2 × weight per group.
    pub twice_weight: Vec<f64>,
    /// Per variable: its own ports and label slots (updated when it flips).
    pub own: Vec<[(u32, u32); 4]>,
    /// Per variable: the partner ports and label slots it reads.
    pub other: Vec<[(u32, u32); 4]>,
    /// Groups including the spare one.
    pub num_groups: usize,
    /// Ports including the two spare ones.
    pub num_ports: usize,
    /// Distinct labels (the stride of the per-(port, label) counts).
    pub num_labels: usize,
    /// same − diff.
    pub same_minus_diff: f64,
    /// The coefficient of a pair whose labels differ.
    pub diff: f64,
    /// The model's constant.
    pub offset: f64,
    /// Explicit couplings: row starts (n + 1), columns, values.
    pub pair_start: Vec<u32>,
    /// Columns of the explicit rows.
    pub pair_cols: Vec<u32>,
    /// Values of the explicit rows.
    pub pair_vals: Vec<f64>,
}

/// One read's sums: Σ cx per group, variables on per port and per (port, label).
#[derive(Clone, Debug)]
pub struct GroupedState {
    /// Σ cᵢxᵢ per group.
    pub in_group: Vec<f64>,
    /// On-count per port.
    pub at_port: Vec<i32>,
    /// On-count per port and label (port · labels + label).
    pub with_label: Vec<i32>,
}

impl GroupedState {
    fn zero(k: &GroupedKernel) -> Self {
        GroupedState {
            in_group: vec![0.0; k.num_groups],
            at_port: vec![0; k.num_ports],
            with_label: vec![0; k.num_ports * k.num_labels],
        }
    }

    /// The sums of assignment `x`.
    pub fn new(k: &GroupedKernel, x: &[u8]) -> Self {
        let mut s = Self::zero(k);
        for (v, &b) in x.iter().enumerate() {
            if b != 0 {
                s.add(k, v, 1);
            }
        }
        s
    }

    /// Adds `d` (±1) for variable `v` turning on (+1) or off (−1).
    #[inline(always)]
    pub fn add(&mut self, k: &GroupedKernel, v: usize, d: i32) {
        for (&g, &c) in k.groups[v].iter().zip(&k.coef[v]) {
            self.in_group[g as usize] += c * d as f64;
        }
        for &(p, pl) in &k.own[v] {
            self.at_port[p as usize] += d;
            self.with_label[pl as usize] += d;
        }
    }

    /// The energy change of turning `v` on, the others as these sums say (`v` itself off),
    /// explicit couplings left out (the caller adds its row).
    #[inline(always)]
    fn gain_on_structure(&self, k: &GroupedKernel, v: usize) -> f64 {
        let mut f = k.linear[v];
        for (&g, &c) in k.groups[v].iter().zip(&k.coef[v]) {
            f += k.twice_weight[g as usize] * c * self.in_group[g as usize];
        }
        for &(q, ql) in &k.other[v] {
            f += k.diff * self.at_port[q as usize] as f64
                + k.same_minus_diff * self.with_label[ql as usize] as f64;
        }
        f
    }

    /// The energy of `x`: offset + Σ_on linear + Σ pair terms, adding the variables one at a
    /// time (each adds its gain against those before it).
    pub fn energy_of(k: &GroupedKernel, x: &[u8]) -> f64 {
        let mut s = Self::zero(k);
        let mut e = 0.0;
        for (v, &b) in x.iter().enumerate() {
            if b == 0 {
                continue;
            }
            e += s.gain_on_structure(k, v);
            let r = k.pair_start[v] as usize..k.pair_start[v + 1] as usize;
            for (&j, &q) in k.pair_cols[r.clone()].iter().zip(&k.pair_vals[r]) {
                if (j as usize) < v && x[j as usize] != 0 {
                    e += q;
                }
            }
            s.add(k, v, 1);
        }
        e + k.offset
    }
}
