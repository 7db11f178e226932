//! What a 32-bit kernel can resolve of a model. The SA kernel (and the kernels to come) keep
//! local fields in f32 for speed, while models arrive in f64 with any magnitude.
//!
//! Two separate problems, two remedies:
//! - **Range**: coefficients near 1e39 overflow f32, and β from such a model underflows. The
//!   kernel therefore runs on the model scaled by a power of two that puts the largest
//!   coefficient in [1, 2), with β divided by the same factor. Scaling by a power of two is
//!   exact in binary floating point, so for ordinary models a read is bit-identical with or
//!   without it; it only matters where f32 would have overflowed or underflowed.
//! - **Spread**: no scaling helps when the smallest coefficients are below f32's resolution
//!   next to the largest (a weight of 1e10 beside weights of 1). That is reported as a warning
//!   in the `SampleSet`, naming both magnitudes, so a run that cannot see the small terms says so.

use crate::qubo::Csr;

/// Ratio of largest to smallest non-zero |coefficient| beyond which an f32 kernel keeps fewer
/// than 2 of the small terms' 24 significant bits when it adds them to the largest.
pub const F32_SPREAD_LIMIT: f64 = (1u64 << 22) as f64;

/// How an f32 kernel should see a model: the power-of-two factor to multiply coefficients by
/// (and divide β by), and a warning when the model's spread exceeds f32's resolution.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelScale {
    /// 2^k with the largest |coefficient| × factor in [1, 2); 1 for an all-zero model.
    pub factor: f64,
    /// Set when the coefficients' spread exceeds `F32_SPREAD_LIMIT`.
    pub warning: Option<String>,
}

impl KernelScale {
    /// The scale for `csr`'s linear and coupling coefficients.
    pub fn for_f32(csr: &Csr) -> KernelScale {
        let magnitudes = || {
            csr.linear
                .iter()
                .chain(&csr.values)
                .map(|v| v.abs())
                .filter(|&v| v > 0.0)
        };
        let largest = magnitudes().fold(0.0, f64::max);
        let smallest = magnitudes().fold(f64::INFINITY, f64::min);
        if largest == 0.0 || !largest.is_finite() {
            return KernelScale {
                factor: 1.0,
                warning: None,
            };
        }
        let factor = (-largest.log2().floor()).exp2();
        let spread = largest / smallest;
        let warning = (spread > F32_SPREAD_LIMIT).then(|| {
            format!(
                "the coefficients span {smallest:.3e} to {largest:.3e} (a ratio of {spread:.1e}); \
                 the kernel adds them in 32-bit floats (about 7 significant digits), so terms \
                 near the smallest are lost beside the largest and the run may not see them: \
                 narrow the spread of the weights"
            )
        });
        KernelScale { factor, warning }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::qubo::Qubo;

    fn scale_of(linear: Vec<f64>, couplings: Vec<(usize, usize, f64)>) -> KernelScale {
        KernelScale::for_f32(&Qubo::new(linear, couplings, 0.0).unwrap().csr())
    }

    #[test]
    fn the_largest_coefficient_lands_in_one_to_two() {
        for (big, factor) in [(1.0, 1.0), (1.5, 1.0), (6.0, 0.25), (0.3, 4.0), (1e39, 0.0)] {
            let s = scale_of(vec![big, 0.0], vec![]);
            let scaled = big * s.factor;
            assert!((1.0..2.0).contains(&scaled), "{big} → {scaled}");
            if factor > 0.0 {
                assert_eq!(s.factor, factor);
            }
            assert_eq!(s.warning, None);
        }
        assert_eq!(scale_of(vec![0.0; 3], vec![]).factor, 1.0);
    }

    #[test]
    fn a_spread_beyond_f32_is_named() {
        let s = scale_of(vec![1.0, 0.0], vec![(0, 1, 2e10)]);
        let w = s.warning.expect("a warning");
        assert!(w.contains("1.000e0 to 2.000e10"), "{w}");
        assert_eq!(scale_of(vec![1.0, 0.0], vec![(0, 1, 4e6)]).warning, None);
    }
}
