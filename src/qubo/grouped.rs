//! Models whose couplings follow from structure, so nothing is stored per coupling: every
//! variable sits in up to two one-hot groups (weight·(Σx − 1)²) and owns up to four labelled
//! *ports*; each port is linked to a partner port, and a pair of variables on linked ports
//! couples by `same` when their labels agree, else by `diff`. Edge matching is this shape
//! (groups: piece and cell; ports: a cell's sides; labels: colours; same = −match, diff =
//! +mismatch), and its full Eternity II model (3.4·10⁸ couplings) fits in a few megabytes.
//!
//! Invariant: the energy is exactly that of the QUBO the same structure spells out pair by pair
//! (`for_each_neighbour` reports it), and a flip's energy change is computed from counts — per
//! group the variables on, per port the variables on and how many show each label — so a sweep
//! costs O(variables), not O(couplings). Two variables never share a port, and a variable never
//! owns a port and its partner.

use super::Model;

/// No group / no port in a slot.
pub const NONE: u32 = u32::MAX;

/// A structured model (see the module header).
#[derive(Clone, Debug)]
pub struct GroupedModel {
    offset: f64,
    linear: Vec<f64>,
    /// Per variable: its (up to two) groups.
    groups_of: Vec<[u32; 2]>,
    group_weight: Vec<f64>,
    group_members: Vec<Vec<u32>>,
    /// Per variable: its (up to four) ports and the label it shows on each.
    ports_of: Vec<[(u32, u8); 4]>,
    /// Per port: the linked port (NONE when unlinked).
    partner: Vec<u32>,
    port_members: Vec<Vec<u32>>,
    same: f64,
    diff: f64,
}

impl GroupedModel {
    /// A model from its structure: per variable its groups and its (port, label) slots (NONE
    /// for unused), the groups' weights, the links between ports, and the pair coefficients.
    /// Panics when the structure breaks the invariant (a caller's bug, not input).
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
        let mut group_members = vec![Vec::new(); group_weight.len()];
        let mut linear = vec![0.0; n];
        for (v, gs) in groups_of.iter().enumerate() {
            for &g in gs.iter().filter(|&&g| g != NONE) {
                group_members[g as usize].push(v as u32);
                // w(Σx − 1)² = w(1 − Σx + 2Σ_{pairs} x_i x_j) with x² = x.
                linear[v] -= group_weight[g as usize];
            }
        }
        let offset = group_weight.iter().sum();
        let mut partner = vec![NONE; num_ports];
        for &(a, b) in links {
            partner[a as usize] = b;
            partner[b as usize] = a;
        }
        let mut port_members = vec![Vec::new(); num_ports];
        for (v, ps) in ports_of.iter().enumerate() {
            for &(p, _) in ps.iter().filter(|(p, _)| *p != NONE) {
                port_members[p as usize].push(v as u32);
            }
        }
        GroupedModel {
            offset,
            linear,
            groups_of,
            group_weight,
            group_members,
            ports_of,
            partner,
            port_members,
            same,
            diff,
        }
    }

    /// Couplings the equivalent stored QUBO would have, at most (pairs within groups plus pairs
    /// across links; a pair that is both counts twice), for reports.
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
        within + across
    }

    /// dwave-samplers' default β range (`schedule::default_beta_range`) computed from the
    /// structure in O(variables) rather than by visiting every coupling. (Pairs that are both
    /// group mates and linked count their two terms separately here: a range, not an energy.)
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
        let mut max_field = 0.0f64;
        let mut min_field = f64::INFINITY;
        let mut at_min = 0usize;
        for i in 0..n {
            let mut sum_q = 0.0;
            let mut sum_abs_j = 0.0;
            let mut min_j = f64::INFINITY;
            for &g in self.groups_of[i].iter().filter(|&&g| g != NONE) {
                let mates = self.group_members[g as usize].len().saturating_sub(1) as f64;
                let q = 2.0 * self.group_weight[g as usize];
                sum_q += q * mates;
                sum_abs_j += q.abs() / 4.0 * mates;
                if mates > 0.0 && q != 0.0 {
                    min_j = min_j.min(q.abs() / 4.0);
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
        GroupedKernel {
            linear: self.linear.clone(),
            groups: self
                .groups_of
                .iter()
                .map(|gs| {
                    gs.map(|g| {
                        if g == NONE {
                            self.group_weight.len() as u32
                        } else {
                            g
                        }
                    })
                })
                .collect(),
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
        }
    }
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
        // Group mates and link partners; a pair may be both (one piece in two neighbouring
        // cells), so terms are merged per neighbour before they are reported.
        let mut terms: Vec<(u32, f64)> = Vec::new();
        for &g in self.groups_of[i].iter().filter(|&&g| g != NONE) {
            let w2 = 2.0 * self.group_weight[g as usize];
            terms.extend(
                self.group_members[g as usize]
                    .iter()
                    .filter(|&&j| j as usize != i)
                    .map(|&j| (j, w2)),
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
        // From counts, as the kernel sees it: O(variables).
        let k = self.kernel();
        let mut state = GroupedState::new(&k, x);
        state.energy(&k, x)
    }

    fn grouped(&self) -> Option<&GroupedModel> {
        Some(self)
    }
}

/// The annealing kernel's flat view of a `GroupedModel`: per variable its two group indices and
/// four (port, port · labels + label) slots for itself and for the partner it reads.
#[derive(Clone, Debug)]
pub struct GroupedKernel {
    /// Linear coefficient per variable.
    pub linear: Vec<f64>,
    /// Groups per variable (the spare group, weight 0, for an empty slot).
    pub groups: Vec<[u32; 2]>,
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
}

/// One read's counts: variables on per group, per port, and per (port, label).
#[derive(Clone, Debug)]
pub struct GroupedState {
    /// On-count per group.
    pub in_group: Vec<i32>,
    /// On-count per port.
    pub at_port: Vec<i32>,
    /// On-count per port and label (port · labels + label).
    pub with_label: Vec<i32>,
}

impl GroupedState {
    /// The counts of assignment `x`.
    pub fn new(k: &GroupedKernel, x: &[u8]) -> Self {
        let mut s = GroupedState {
            in_group: vec![0; k.num_groups],
            at_port: vec![0; k.num_ports],
            with_label: vec![0; k.num_ports * k.num_labels],
        };
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
        for &g in &k.groups[v] {
            self.in_group[g as usize] += d;
        }
        for &(p, pl) in &k.own[v] {
            self.at_port[p as usize] += d;
            self.with_label[pl as usize] += d;
        }
    }

    /// The energy change of turning `v` on, the others as they are (`v` itself off or its own
    /// counts excluded by `self_on`).
    #[inline(always)]
    pub fn gain_on(&self, k: &GroupedKernel, v: usize, self_on: i32) -> f64 {
        let mut f = k.linear[v];
        for &g in &k.groups[v] {
            f += k.twice_weight[g as usize] * (self.in_group[g as usize] - self_on) as f64;
        }
        for &(q, ql) in &k.other[v] {
            f += k.diff * self.at_port[q as usize] as f64
                + k.same_minus_diff * self.with_label[ql as usize] as f64;
        }
        f
    }

    /// The energy of `x` (whose counts these are), without the model's offset added twice:
    /// offset + Σ_on linear + ½ Σ_on (pair terms).
    pub fn energy(&mut self, k: &GroupedKernel, x: &[u8]) -> f64 {
        // Add the variables one at a time: each adds its gain against those before it.
        let mut e = 0.0;
        *self = GroupedState {
            in_group: vec![0; k.num_groups],
            at_port: vec![0; k.num_ports],
            with_label: vec![0; k.num_ports * k.num_labels],
        };
        for (v, &b) in x.iter().enumerate() {
            if b != 0 {
                e += self.gain_on(k, v, 0);
                self.add(k, v, 1);
            }
        }
        e + k.twice_weight[..k.num_groups - 1].iter().sum::<f64>() / 2.0
    }
}
