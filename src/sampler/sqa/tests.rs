//! Tests of `sqa`.

use super::*;
use crate::qubo::{Qubo, StoredModel};

fn small_model() -> StoredModel {
    StoredModel::new(
        Qubo::new(
            vec![0.5, -1.0, 0.25, -0.75, 0.3],
            vec![
                (0, 1, 1.5),
                (1, 2, -1.0),
                (2, 3, 1.0),
                (0, 3, -0.5),
                (3, 4, 0.8),
                (1, 4, -0.6),
            ],
            0.0,
        )
        .unwrap(),
    )
}

/// Eigenvalues and eigenvectors (columns) of a symmetric matrix, by cyclic Jacobi rotations.
fn jacobi_eigen(mut a: Vec<Vec<f64>>) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = a.len();
    let mut v: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| (i == j) as u8 as f64).collect())
        .collect();
    for _ in 0..100 {
        let off: f64 = (0..n)
            .flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if off < 1e-22 {
            break;
        }
        for p in 0..n {
            for q in p + 1..n {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let (c, s) = (1.0 / (t * t + 1.0).sqrt(), t / (t * t + 1.0).sqrt());
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (row_p, row_q) = (a[p].clone(), a[q].clone());
                for (k, (apk, aqk)) in row_p.into_iter().zip(row_q).enumerate() {
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for row in v.iter_mut() {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    ((0..n).map(|i| a[i][i]).collect(), v)
}

/// ⟨H_p⟩ in the thermal state of s·H_p + Γ(1 − s)·Σσ^x at β, by exact diagonalisation.
fn exact_mean_energy(m: &StoredModel, beta: f64, gamma: f64, s: f64) -> f64 {
    let n = m.num_variables();
    let dim = 1 << n;
    let diag: Vec<f64> = (0..dim)
        .map(|k| m.energy(&(0..n).map(|i| ((k >> i) & 1) as u8).collect::<Vec<_>>()))
        .collect();
    let mut h = vec![vec![0.0; dim]; dim];
    for k in 0..dim {
        h[k][k] = s * diag[k];
        for i in 0..n {
            h[k][k ^ (1 << i)] += gamma * (1.0 - s);
        }
    }
    let (values, vectors) = jacobi_eigen(h);
    let lowest = values.iter().copied().fold(f64::INFINITY, f64::min);
    let (mut num, mut z) = (0.0, 0.0);
    for (e, &lambda) in values.iter().enumerate() {
        let w = (-beta * (lambda - lowest)).exp();
        let expect: f64 = (0..dim).map(|k| vectors[k][e].powi(2) * diag[k]).sum();
        num += w * expect;
        z += w;
    }
    num / z
}

/// ⟨H_p⟩ estimated by path-integral Monte Carlo at fixed s: the mean slice energy over
/// 8 lanes, every slice and every sweep after a burn-in.
fn pimc_mean_energy(m: &StoredModel, beta: f64, gamma: f64, s: f64, slices: usize) -> f64 {
    let csr = Csr::of_model(m);
    let km = KernelModel::new(&csr, 1.0);
    let n = km.n;
    let mut sign = vec![[1f32; 8]; n * slices];
    let mut states = [[0u32; 4]; 8];
    for (l, st) in states.iter_mut().enumerate() {
        let mut rng = Xoshiro128p::for_read(42, l as u64);
        for row in sign.iter_mut() {
            row[l] = if rng.next_u32() >> 31 != 0 { -1.0 } else { 1.0 };
        }
        *st = rng.state();
    }
    let mut rng = LaneRng::<8>::from_states(&states);
    let mut field = vec![[0f32; 8]; n * slices];
    let mut energy = vec![[0f32; 8]; slices];
    for k in 0..slices {
        for l in 0..8 {
            let x: Vec<u8> = (0..n).map(|i| (sign[k * n + i][l] < 0.0) as u8).collect();
            let (f, e) = km.fields(&x);
            for i in 0..n {
                field[k * n + i][l] = f[i];
            }
            energy[k][l] = e as f32;
        }
    }
    let a = (beta * s / slices as f64) as f32;
    let b = if slices > 1 {
        (2.0 * slice_coupling(beta, gamma * (1.0 - s), slices)) as f32
    } else {
        0.0
    };
    let (burn, sweeps) = (2_000, 40_000);
    let mut total = 0.0;
    for t in 0..burn + sweeps {
        sweep_slices(
            &km,
            slices,
            a,
            b,
            &mut field,
            &mut sign,
            &mut energy,
            &mut rng,
        );
        if t >= burn {
            total += energy.iter().flatten().map(|&e| e as f64).sum::<f64>();
        }
    }
    total / (sweeps * slices * 8) as f64
}

#[test]
fn pimc_agrees_with_exact_diagonalisation_of_the_transverse_field_model() {
    let m = small_model();
    // Regimes where single-slice moves mix (β·Γ(1 − s)/M not tiny): near s = 1 with a weak
    // field the world lines freeze, a known limit of local PIMC moves.
    for (beta, gamma, s) in [(2.0, 1.0, 0.5), (3.0, 2.0, 0.3), (1.0, 2.0, 0.6)] {
        let exact = exact_mean_energy(&m, beta, gamma, s);
        let pimc = pimc_mean_energy(&m, beta, gamma, s, 32);
        assert!(
            (pimc - exact).abs() < 0.02,
            "β={beta} Γ={gamma} s={s}: PIMC {pimc}, exact {exact}"
        );
    }
}

#[test]
fn one_slice_is_classical_annealing_at_beta_times_s() {
    // With one slice there is no transverse coupling: Metropolis at β·s, whose mean energy
    // is the classical Boltzmann average (Γ → 0 gives the same limit).
    let m = small_model();
    let (beta, s) = (2.0, 0.75);
    let n = m.num_variables();
    let (mut num, mut z) = (0.0, 0.0);
    for k in 0..1 << n {
        let e = m.energy(&(0..n).map(|i| ((k >> i) & 1) as u8).collect::<Vec<_>>());
        let w = (-beta * s * e).exp();
        num += w * e;
        z += w;
    }
    let pimc = pimc_mean_energy(&m, beta, 1.0, s, 1);
    assert!((pimc - num / z).abs() < 0.02, "{pimc} vs {}", num / z);
    // And the quantum model without its field is the classical one.
    let classical = exact_mean_energy(&m, beta * s, 1.0, 1.0);
    assert!((classical - num / z).abs() < 1e-9);
}

#[test]
fn the_schedule_stays_in_range_at_any_length() {
    for shape in [SqaSchedule::Linear, SqaSchedule::Quartic] {
        for num_sweeps in [1, 2, 7, 10_000, 1_000_003] {
            let plan = QuantumAnnealing {
                num_sweeps,
                schedule: shape,
                ..Default::default()
            }
            .plan();
            for t in [0, num_sweeps / 3, num_sweeps / 2, num_sweeps - 1] {
                let (s, field, k) = plan.at(t);
                assert!((0.0..=1.0).contains(&s) && field.is_finite() && k.is_finite());
                assert!((0.0..=MAX_COUPLING).contains(&k));
            }
            assert_eq!(plan.s(num_sweeps - 1), 1.0, "{shape:?} ends at s = 1");
        }
    }
    let quartic = QuantumAnnealing {
        num_sweeps: 101,
        schedule: SqaSchedule::Quartic,
        ..Default::default()
    }
    .plan();
    assert_eq!(quartic.s(0), 0.0);
    assert!(
        (quartic.s(50) - 0.5).abs() < 1e-12,
        "symmetric about the middle"
    );
    let custom = QuantumAnnealing {
        num_sweeps: 4,
        schedule: SqaSchedule::Custom,
        s_schedule: Some(vec![0.2, 0.9]),
        ..Default::default()
    }
    .plan();
    assert_eq!(
        (0..4).map(|t| custom.s(t)).collect::<Vec<_>>(),
        vec![0.2, 0.2, 0.9, 0.9]
    );
    // Γ(1 − s) = 0 locks the slices with the finite ceiling, never ∞ or NaN.
    assert_eq!(slice_coupling(5.0, 0.0, 4), MAX_COUPLING);
}

#[test]
fn rejects_bad_parameters() {
    let m = small_model();
    let ctl = RunControl::new();
    for (bad, name) in [
        (
            QuantumAnnealing {
                beta: f64::NAN,
                ..Default::default()
            },
            "beta",
        ),
        (
            QuantumAnnealing {
                schedule: SqaSchedule::Custom,
                ..Default::default()
            },
            "s_schedule",
        ),
        (
            QuantumAnnealing {
                schedule: SqaSchedule::Custom,
                s_schedule: Some(vec![0.5, 1.5]),
                ..Default::default()
            },
            "s_schedule",
        ),
    ] {
        let e = bad.sample(&m, &ctl).unwrap_err().to_string();
        assert!(e.contains(name), "{e}");
    }
}
