//! Compiling the groups into a table of (matrix entry → weight → coefficient), so `qubo`
//! rebuilds the matrix for any weights in one linear pass; the stored-size limit.

use super::*;

/// The one CSR row builder: gathers `(key, tag, value)` items into one row per distinct key,
/// each row a list of `(tag, Σ value)` sorted by tag (items with equal key and tag merge).
/// Returns the distinct keys, the row starts (`keys.len() + 1` of them) and the terms.
pub(super) fn merge_rows<K: Copy + Ord, T: Copy + Ord>(
    mut items: Vec<(K, T, f64)>,
) -> (Vec<K>, Vec<u32>, Vec<(T, f64)>) {
    items.sort_unstable_by_key(|t| (t.0, t.1));
    let mut keys = Vec::new();
    let mut start = vec![0u32];
    let mut terms: Vec<(T, f64)> = Vec::new();
    for (k, tag, c) in items {
        if keys.last() != Some(&k) {
            if !keys.is_empty() {
                start.push(terms.len() as u32);
            }
            keys.push(k);
            terms.push((tag, c));
        } else if let Some(last) = terms.last_mut().filter(|t| t.0 == tag) {
            last.1 += c;
        } else {
            terms.push((tag, c));
        }
    }
    if !keys.is_empty() {
        start.push(terms.len() as u32);
    }
    (keys, start, terms)
}

/// Row starts indexed by variable (`n + 1` of them) from `merge_rows`' sparse rows, so that a
/// variable without items has an empty row.
pub(super) fn rows_by_variable(n: usize, keys: &[u32], start: &[u32]) -> Vec<u32> {
    let mut by_var = Vec::with_capacity(n + 1);
    let mut k = 0;
    for v in 0..n as u32 {
        while k < keys.len() && keys[k] < v {
            k += 1;
        }
        by_var.push(start[k]);
    }
    by_var.push(start[keys.len()]);
    by_var
}

/// Couplings a stored model may have. Past this a model is not stored but sampled through its
/// structure (`Encoding::structure`): storing 10⁷ couplings already takes about a GiB on the way
/// to a sampler, and the structure anneals the same energies in a fraction of it.
pub const MAX_STORED_PAIRS: u64 = 10_000_000;

/// Bytes per stored coupling on the way to a sampler: its spelled-out term while compiling, the
/// re-weighting table, the weighted QUBO and the sampler's adjacency (both directions).
pub(super) const BYTES_PER_STORED_PAIR: u64 = 128;

/// Why groups spelling out `pairs` couplings are not stored, if they are not.
pub(super) fn too_large_to_store(pairs: u64) -> Option<String> {
    let tail = "it is sampled through its structure (simulated annealing, parallel tempering) and not stored";
    if pairs > MAX_STORED_PAIRS {
        return Some(format!(
            "the QUBO has {pairs} couplings, more than the {MAX_STORED_PAIRS} a stored model may have: {tail}"
        ));
    }
    let needed = pairs.saturating_mul(BYTES_PER_STORED_PAIR);
    crate::budget::check_memory(|| format!("the QUBO's {pairs} couplings"), needed)
        .err()
        .map(|e| format!("{e}: {tail}"))
}

impl Encoding {
    /// Compiles the re-weighting table, unless the model is too large to store (or `unstored`
    /// says why it is not): then only the groups are kept, for reports and the structure.
    pub(super) fn compile(
        labels: Vec<Label>,
        specs: Vec<WeightSpec>,
        groups: Vec<Group>,
        fixed: Vec<(Label, bool)>,
        unstored: Option<String>,
    ) -> Encoding {
        let n = labels.len();
        let unstored = unstored
            .or_else(|| too_large_to_store(groups.iter().map(Group::num_pairs).sum::<u64>()));
        let store = unstored.is_none();
        let mut lin_items = Vec::new();
        let mut pair_items = Vec::new();
        let mut touch_items = Vec::new();
        let mut const_by_weight = vec![0.0; specs.len()];
        for (g, group) in groups.iter().enumerate() {
            let g = g as u32;
            touch_items.extend(group.variables().map(|v| (v, g, 0.0)));
            if !store {
                continue;
            }
            const_by_weight[group.weight as usize] += group.constant;
            for &(i, c) in &group.linear {
                lin_items.push((i, group.weight, c));
            }
            for &(a, b, c) in &group.quadratic {
                let (i, j) = if a < b { (a, b) } else { (b, a) };
                if i == j {
                    lin_items.push((i, group.weight, c));
                } else {
                    pair_items.push(((i, j), group.weight, c));
                }
            }
            if let Some(sq) = &group.square {
                // f·(Σ cx − t)² spelled out with x² = x.
                let (f, t) = (sq.factor, sq.target);
                const_by_weight[group.weight as usize] += f * t * t;
                for (k, &(u, cu)) in sq.terms.iter().enumerate() {
                    lin_items.push((u, group.weight, f * cu * (cu - 2.0 * t)));
                    for &(v, cv) in &sq.terms[k + 1..] {
                        let (i, j) = if u < v { (u, v) } else { (v, u) };
                        pair_items.push(((i, j), group.weight, 2.0 * f * cu * cv));
                    }
                }
            }
        }
        let mut term_counts = vec![0usize; specs.len()];
        for g in &groups {
            let square = (g.square.as_ref())
                .map_or(0, |sq| sq.terms.len() + SquareTerms::num_pairs(sq) as usize);
            term_counts[g.weight as usize] += g.linear.len() + g.quadratic.len() + square;
        }
        let (lin_vars, lin_rows, lin_terms) = merge_rows(lin_items);
        let lin_start = rows_by_variable(n, &lin_vars, &lin_rows);
        let (pairs, pair_start, pair_terms) = merge_rows(pair_items);
        let (touched, touch_rows, touch_terms) = merge_rows(touch_items);
        let var_groups_start = rows_by_variable(n, &touched, &touch_rows);
        let var_groups = touch_terms.into_iter().map(|(g, _)| g).collect();
        Encoding {
            labels,
            specs,
            groups,
            fixed,
            lin_start,
            lin_terms,
            pairs,
            pair_start,
            pair_terms,
            const_by_weight,
            var_groups_start,
            var_groups,
            unstored,
            term_counts,
            conditions: Vec::new(),
        }
    }

    /// Weight values in spec order; unknown names and non-finite values are errors.
    pub(super) fn resolve(&self, weights: &Weights) -> Result<Vec<f64>, QuboError> {
        for (name, value) in weights.iter() {
            if !self.specs.iter().any(|s| s.name == name) {
                return Err(QuboError::UnknownWeight {
                    name: name.to_string(),
                    known: self.weight_names().join(", "),
                });
            }
            if !value.is_finite() {
                return Err(QuboError::NonFinite {
                    what: format!("weight '{name}'"),
                    value,
                });
            }
        }
        Ok(self
            .specs
            .iter()
            .map(|s| weights.get(&s.name).unwrap_or(s.default))
            .collect())
    }

    /// The weighted matrix. Re-weighting never re-encodes: one pass over the compiled table.
    pub fn qubo(&self, weights: &Weights) -> Result<Qubo, QuboError> {
        if let Some(reason) = &self.unstored {
            return Err(QuboError::Unstored(reason.clone()));
        }
        let w = self.resolve(weights)?;
        let n = self.labels.len();
        let mut linear = vec![0.0; n];
        for (v, lin) in linear.iter_mut().enumerate() {
            let r = self.lin_start[v] as usize..self.lin_start[v + 1] as usize;
            *lin = self.lin_terms[r]
                .iter()
                .map(|&(k, c)| w[k as usize] * c)
                .sum();
        }
        let mut couplings = Vec::with_capacity(self.pairs.len());
        for (p, &(i, j)) in self.pairs.iter().enumerate() {
            let r = self.pair_start[p] as usize..self.pair_start[p + 1] as usize;
            let value = self.pair_terms[r]
                .iter()
                .map(|&(k, c)| w[k as usize] * c)
                .sum();
            couplings.push(Coupling { i, j, value });
        }
        let offset = self
            .const_by_weight
            .iter()
            .zip(&w)
            .map(|(c, w)| c * w)
            .sum();
        let q = Qubo::from_canonical(linear, couplings, offset);
        q.check_energy_range()?;
        Ok(q)
    }
}
