//! What the groups say about a sample or an entry: satisfied energy, broken constraints,
//! which groups made a matrix entry, terms per weight.

use super::*;

impl Encoding {
    /// Energy every assignment that satisfies all groups has: the ground energy when the
    /// puzzle has a solution and all weights are ≥ 0 (each group is then at its minimum).
    /// An encoding whose groups do not decide the ground (`ground_from_groups` false) has
    /// none: `Unstored`'s sibling error says why.
    pub fn satisfied_energy(&self, weights: &Weights) -> Result<f64, QuboError> {
        let w = self.resolve(weights)?;
        if !self.ground_from_groups() {
            return Err(QuboError::NoGroundFromGroups);
        }
        Ok(self
            .groups
            .iter()
            .map(|g| w[g.weight as usize] * g.satisfied)
            .sum())
    }

    /// Whether every group holds at its minimum, so that an assignment satisfying all of them
    /// is a ground state: false with an objective (its minimum need not be feasible) or an
    /// inequality priced without slack.
    pub fn ground_from_groups(&self) -> bool {
        self.groups.iter().all(|g| g.role == Role::AtMinimum)
    }

    /// Whether every weight is ≥ 0 (needed for `satisfied_energy` to be the ground energy).
    pub fn weights_nonnegative(&self, weights: &Weights) -> Result<bool, QuboError> {
        Ok(self.resolve(weights)?.iter().all(|&w| w >= 0.0))
    }

    /// Each group's energy in `sample`, and whether it holds.
    pub fn report(
        &self,
        sample: &[u8],
        weights: &Weights,
        only_broken: bool,
    ) -> Result<Vec<ConstraintReport>, QuboError> {
        if sample.len() != self.labels.len() {
            return Err(QuboError::LengthMismatch {
                expected: self.labels.len(),
                found: sample.len(),
            });
        }
        let w = self.resolve(weights)?;
        let mut out = Vec::new();
        for (g, group) in self.groups.iter().enumerate() {
            if group.role == Role::Objective {
                continue;
            }
            let e = group.energy(sample);
            let holds = group.holds(sample, e);
            if only_broken && holds {
                continue;
            }
            let wv = w[group.weight as usize];
            out.push(ConstraintReport {
                group: g,
                constraint: group.label.clone(),
                weight: self.specs[group.weight as usize].name.clone(),
                energy: wv * e,
                satisfied_energy: wv * group.satisfied,
                holds,
                enforced: wv != 0.0,
            });
        }
        Ok(out)
    }

    /// Groups touching variable `v`.
    pub fn groups_of(&self, v: usize) -> &[u32] {
        &self.var_groups[self.var_groups_start[v] as usize..self.var_groups_start[v + 1] as usize]
    }

    /// Which constraint groups contributed to matrix entry (i, j) (i = j: the linear term).
    pub fn contributors(
        &self,
        i: usize,
        j: usize,
        weights: &Weights,
    ) -> Result<Vec<Contribution>, QuboError> {
        let w = self.resolve(weights)?;
        let (a, b) = (i.min(j) as u32, i.max(j) as u32);
        let mut out = Vec::new();
        for &g in self.groups_of(a as usize) {
            let group = &self.groups[g as usize];
            let mut coef = 0.0;
            let mut touched = false;
            if a == b {
                for &(v, c) in &group.linear {
                    if v == a {
                        coef += c;
                        touched = true;
                    }
                }
            }
            for &(u, v, c) in &group.quadratic {
                if (u.min(v), u.max(v)) == (a, b) {
                    coef += c;
                    touched = true;
                }
            }
            if let Some(sq) = &group.square {
                let ca = sq.terms.iter().find(|t| t.0 == a).map(|t| t.1);
                let cb = sq.terms.iter().find(|t| t.0 == b).map(|t| t.1);
                if let (Some(ca), Some(cb)) = (ca, cb) {
                    coef += if a == b {
                        sq.factor * ca * (ca - 2.0 * sq.target)
                    } else {
                        2.0 * sq.factor * ca * cb
                    };
                    touched = true;
                }
            }
            if touched {
                let wv = w[group.weight as usize];
                out.push(Contribution {
                    group: g as usize,
                    constraint: group.label.clone(),
                    weight: self.specs[group.weight as usize].name.clone(),
                    coefficient: coef,
                    value: wv * coef,
                });
            }
        }
        Ok(out)
    }

    /// Number of terms (linear + quadratic) per weight name: the inspector's statistics, and
    /// which weights scale nothing (counted once, at compile: panels ask every frame).
    pub fn terms_per_weight(&self) -> Vec<(String, usize)> {
        (self.specs.iter())
            .zip(&self.term_counts)
            .map(|(s, &c)| (s.name.clone(), c))
            .collect()
    }
}
