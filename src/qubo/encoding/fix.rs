//! Fixing variables (presolve): the smaller encoding over the free ones, and full
//! assignments back.

use super::*;

impl Encoding {
    /// Every variable of the original model with its value: the free ones from `sample`, the
    /// presolved ones from their fixed values.
    pub fn full_assignment<'a>(
        &'a self,
        sample: &'a [u8],
    ) -> impl Iterator<Item = (&'a Label, bool)> + 'a {
        self.labels
            .iter()
            .zip(sample)
            .map(|(l, &b)| (l, b != 0))
            .chain(self.fixed.iter().map(|(l, b)| (l, *b)))
    }

    /// Substitutes fixed values for some variables: the result has only the free variables,
    /// each group restricted to them (constants absorbed), so every assignment of the free
    /// variables has exactly the energy it had in the full model.
    pub fn fix(&self, values: &[Option<bool>]) -> Encoding {
        assert_eq!(values.len(), self.labels.len(), "one entry per variable");
        let mut new_index = vec![u32::MAX; self.labels.len()];
        let mut labels = Vec::new();
        let mut fixed = self.fixed.clone();
        for (v, val) in values.iter().enumerate() {
            match val {
                None => {
                    new_index[v] = labels.len() as u32;
                    labels.push(self.labels[v].clone());
                }
                Some(b) => fixed.push((self.labels[v].clone(), *b)),
            }
        }
        let value = |v: u32| values[v as usize].map(|b| if b { 1.0 } else { 0.0 });
        let groups = self
            .groups
            .iter()
            .map(|g| {
                let mut constant = g.constant;
                let mut linear: Vec<(u32, f64)> = Vec::new();
                let mut quadratic = Vec::new();
                for &(v, c) in &g.linear {
                    match value(v) {
                        Some(x) => constant += c * x,
                        None => linear.push((new_index[v as usize], c)),
                    }
                }
                for &(u, v, c) in &g.quadratic {
                    match (value(u), value(v)) {
                        (Some(xu), Some(xv)) => constant += c * xu * xv,
                        (Some(xu), None) => linear.push((new_index[v as usize], c * xu)),
                        (None, Some(xv)) => linear.push((new_index[u as usize], c * xv)),
                        (None, None) => {
                            quadratic.push((new_index[u as usize], new_index[v as usize], c))
                        }
                    }
                }
                linear.retain(|t| t.1 != 0.0);
                // A square's fixed terms move its target: (Σ_free cx + Σ_fixed cv − t)².
                let square = g.square.as_ref().map(|sq| {
                    let mut target = sq.target;
                    let mut terms = Vec::new();
                    for &(v, c) in &sq.terms {
                        match value(v) {
                            Some(x) => target -= c * x,
                            None => terms.push((new_index[v as usize], c)),
                        }
                    }
                    SquareTerms {
                        factor: sq.factor,
                        target,
                        terms,
                    }
                });
                Group {
                    label: g.label.clone(),
                    weight: g.weight,
                    constant,
                    linear,
                    quadratic,
                    square,
                    satisfied: g.satisfied,
                    role: match &g.role {
                        // The fixed terms move the bound, as they move a square's target.
                        Role::AtMost { terms, bound } => {
                            let mut bound = *bound;
                            let mut free = Vec::new();
                            for &(v, c) in terms {
                                match value(v) {
                                    Some(x) => bound -= c * x,
                                    None => free.push((new_index[v as usize], c)),
                                }
                            }
                            Role::AtMost { terms: free, bound }
                        }
                        other => other.clone(),
                    },
                }
            })
            .collect();
        // Refused by its encoder (no groups) stays so; otherwise the fixed model is judged anew.
        let forced = self
            .groups
            .is_empty()
            .then(|| self.unstored.clone())
            .flatten();
        let mut e = Encoding::compile(labels, self.specs.clone(), groups, fixed, forced);
        // Moot where presolve took a condition's terms away (`unmet_conditions` skips those).
        e.conditions = self.conditions.clone();
        e
    }
}
