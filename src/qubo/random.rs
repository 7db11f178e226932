//! The one random-QUBO generator (benchmarks, the inspector's stress models, sampler tests):
//! integer coefficients in ±1..=±10 and about `degree` couplings per variable, all from a seed.

use super::{Qubo, QuboError};
use crate::rng::splitmix64;

/// A random model of `n` variables with about `degree` couplings per variable (every pair when
/// `degree ≥ n − 1`). The same (n, degree, seed) always gives the same model.
pub fn random_qubo(n: usize, degree: usize, seed: u64) -> Result<Qubo, QuboError> {
    let pairs = if degree + 1 >= n {
        n.saturating_mul(n.saturating_sub(1)) / 2
    } else {
        n.saturating_mul(degree) / 2
    };
    // Terms (24 bytes), then sorted couplings (16) and the linear part; a CSR doubles them.
    crate::budget::check_memory(
        || format!("a random model of {n} variables with {pairs} couplings"),
        crate::budget::bytes_of(&[pairs, 24 + 16 + 24])
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
        let mut pick = seed ^ 0xA5A5_A5A5;
        terms.reserve(n * degree / 2);
        for _ in 0..n * degree / 2 {
            let i = (splitmix64(&mut pick) % n as u64) as usize;
            let j = (splitmix64(&mut pick) % n as u64) as usize;
            if i != j {
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
        let per_var = 2.0 * sparse.num_interactions() as f64 / 1000.0;
        assert!((7.0..=8.0).contains(&per_var), "{per_var}");
        assert_eq!(random_qubo(50, 4, 7), random_qubo(50, 4, 7));
    }
}
