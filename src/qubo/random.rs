//! The one random-QUBO generator (benchmarks, the inspector's stress models, sampler tests):
//! integer coefficients in ±1..=±10 and `degree` couplings per variable on average (n·degree/2
//! distinct pairs, so no pair sums past the range), all from a seed.

use super::{Qubo, QuboError};
use crate::rng::splitmix64;

/// A random model of `n` variables with n·degree/2 distinct coupled pairs (every pair when
/// `degree ≥ n − 1`), each coefficient in ±1..=±10. The same (n, degree, seed) always gives the
/// same model.
pub fn random_qubo(n: usize, degree: usize, seed: u64) -> Result<Qubo, QuboError> {
    let pairs = if degree + 1 >= n {
        n.saturating_mul(n.saturating_sub(1)) / 2
    } else {
        n.saturating_mul(degree) / 2
    };
    // Terms (24 bytes), the set of pairs drawn (32), then sorted couplings (16) and the linear
    // part; a CSR doubles them.
    crate::budget::check_memory(
        || format!("a random model of {n} variables with {pairs} couplings"),
        crate::budget::bytes_of(&[pairs, 24 + 16 + 24 + 32])
            .saturating_add(crate::budget::bytes_of(&[n, 24])),
    )?;
    let mut state = seed;
    let mut value = || {
        let v = (splitmix64(&mut state) % 20) as i64 - 10;
        (if v >= 0 { v + 1 } else { v }) as f64
    };
    let linear = (0..n).map(|_| value()).collect();
    let mut terms = Vec::new();
    if degree + 1 >= n {
        for i in 0..n {
            for j in i + 1..n {
                terms.push((i, j, value()));
            }
        }
    } else {
        // Distinct pairs: a repeated draw is drawn again (a pair drawn twice would sum two
        // coefficients past the documented range and leave the degree short).
        let mut pick = seed ^ 0xA5A5_A5A5;
        let mut chosen = std::collections::HashSet::with_capacity(pairs);
        terms.reserve(pairs);
        while terms.len() < pairs {
            let i = (splitmix64(&mut pick) % n as u64) as usize;
            let j = (splitmix64(&mut pick) % n as u64) as usize;
            if i != j && chosen.insert((i.min(j), i.max(j))) {
                terms.push((i, j, value()));
            }
        }
    }
    Qubo::new(linear, terms, 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dense_and_sparse_models_have_the_asked_shape() {
        let dense = random_qubo(10, 9, 1).unwrap();
        assert_eq!(dense.num_interactions(), 45);
        let sparse = random_qubo(1000, 8, 1).unwrap();
        assert_eq!(
            sparse.num_interactions(),
            4000,
            "degree 8 on average, no pair twice"
        );
        let within = |v: f64| (1.0..=10.0).contains(&v.abs());
        assert!(sparse.couplings().iter().all(|c| within(c.value)));
        assert!(sparse.linear().iter().all(|&v| within(v)));
        assert_eq!(random_qubo(50, 4, 7), random_qubo(50, 4, 7));
    }
}
