//! The encoding as a grouped model (its groups kept factored, never expanded to pairs) and
//! its exactly-one groups, for the structured kernels and the moves.

use super::*;

impl Encoding {
    /// The weighted model as a structure (`GroupedModel`): squares kept as groups (two per
    /// variable; further ones spelled out), every other term explicit. Its energies are those
    /// of `qubo(weights)`, and it exists when the model is too large to store.
    pub fn structure(&self, weights: &Weights) -> Result<crate::qubo::GroupedModel, QuboError> {
        use crate::qubo::grouped::Square;
        let w = self.resolve(weights)?;
        let n = self.labels.len();
        let mut offset = 0.0;
        let mut linear = vec![0.0; n];
        let mut squares = Vec::new();
        let mut pairs = Vec::new();
        // Large squares first: they are the ones worth a group slot.
        let mut order: Vec<usize> = (0..self.groups.len()).collect();
        order.sort_by_key(|&g| {
            std::cmp::Reverse(self.groups[g].square.as_ref().map_or(0, |s| s.terms.len()))
        });
        for g in order {
            let group = &self.groups[g];
            let wv = w[group.weight as usize];
            if wv == 0.0 {
                continue;
            }
            offset += wv * group.constant;
            for &(i, c) in &group.linear {
                linear[i as usize] += wv * c;
            }
            for &(i, j, c) in &group.quadratic {
                if i == j {
                    linear[i as usize] += wv * c;
                } else {
                    pairs.push((i, j, wv * c));
                }
            }
            if let Some(sq) = &group.square {
                squares.push(Square {
                    weight: wv * sq.factor,
                    target: sq.target,
                    terms: sq.terms.clone(),
                });
            }
        }
        Ok(crate::qubo::GroupedModel::from_terms(
            n, offset, linear, squares, pairs,
        ))
    }

    /// The exactly-one groups of the weighted model, as data for samplers: every group that
    /// is w·(Σx − 1)² over plain variables (`add_one_hot`, after presolve too) with w > 0.
    pub fn one_hot_groups(
        &self,
        weights: &Weights,
    ) -> Result<crate::qubo::OneHotGroups, QuboError> {
        let w = self.resolve(weights)?;
        let exactly_one = self.groups.iter().filter_map(|g| {
            let sq = g.square.as_ref()?;
            let plain = g.linear.is_empty()
                && g.quadratic.is_empty()
                && g.constant == 0.0
                && sq.target == 1.0
                && sq.factor * w[g.weight as usize] > 0.0
                && sq.terms.iter().all(|t| t.1 == 1.0);
            plain.then(|| (g.label.as_str(), sq.terms.iter().map(|t| t.0).collect()))
        });
        Ok(crate::qubo::OneHotGroups::from_labelled(
            self.labels.len(),
            exactly_one,
        ))
    }
}
