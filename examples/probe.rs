use qubo_workbench::qubo::{Qubo, StoredModel};
use qubo_workbench::sampler::*;
fn main() {
    let l = 12usize; let n = l*l*l;
    let mut s = 1u64;
    let mut terms = vec![]; let mut lin = vec![0.0; n]; let mut off = 0.0;
    let idx = |x: usize, y: usize, z: usize| (x % l) * l * l + (y % l) * l + (z % l);
    for x in 0..l { for y in 0..l { for z in 0..l {
        let i = idx(x,y,z);
        for (dx,dy,dz) in [(1,0,0),(0,1,0),(0,0,1)] {
            let j = idx(x+dx,y+dy,z+dz);
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let jv = if (s>>33)&1==1 {1.0} else {-1.0};
            terms.push((i,j,4.0*jv)); lin[i] -= 2.0*jv; lin[j] -= 2.0*jv; off += jv;
        }}}}
    let m = StoredModel::new(Qubo::new(lin, terms, off).unwrap());
    for kernel in [Kernel::Scalar, Kernel::Lanes] {
        let sa = SimulatedAnnealing { num_reads: 96, num_sweeps: 1000, seed: Some(1), kernel, ..Default::default() };
        let set = sa.sample(&m, &RunControl::new().with_threads(Some(1))).unwrap();
        let ns = set.info.sampling_ns as f64 / (96.0*1000.0*n as f64);
        println!("{kernel:?}: {ns:.2} ns/update, min E {}", set.rows[0].energy);
    }
}
