"""Our samplers against dwave-samplers and OpenJij, from Python, on the same BQMs and sweeps.

    pip install ./python dwave-samplers==1.8.0 openjij==0.12.2
    cargo run --release -- encode puzzles/sudoku/euler96_g1.txt --presolve -o /tmp/e96p.coo
    OMP_NUM_THREADS=1 python python/benchmarks/peers.py /tmp/e96p.coo [more .coo files]

Each sampler gets the same dimod BQM, 100 reads and 1000 sweeps (SQA: 4 Trotter slices), and is
timed over its whole `sample()` call, best of three; ours run on one thread (`threads=1`) and on
every core. Printed: seconds, ns per spin update (seconds / (reads x sweeps x n); SQA per slice),
the lowest energy and the share of reads reaching it. Not a test: the figures go in notes.
"""

import sys
import time

import dimod
import numpy as np

import qubo_workbench as qw

READS, SWEEPS, SLICES = 100, 1000, 4


def read_coo(path):
    linear, quadratic, offset = {}, {}, 0.0
    n = None
    for line in open(path):
        line = line.strip()
        if line.startswith("#"):
            for word in line[1:].split():
                if word.startswith("n="):
                    n = int(word[2:])
                elif word.startswith("offset="):
                    offset = float(word[7:])
            continue
        if not line:
            continue
        i, j, v = line.split()
        i, j, v = int(i), int(j), float(v)
        if i == j:
            linear[i] = linear.get(i, 0.0) + v
        else:
            quadratic[(i, j)] = quadratic.get((i, j), 0.0) + v
    bqm = dimod.BinaryQuadraticModel(linear, quadratic, offset, dimod.BINARY)
    bqm.add_variables_from((v, 0.0) for v in range(n or 0))
    return bqm


def best_of_three(run):
    times, last = [], None
    for _ in range(3):
        t = time.perf_counter()
        last = run()
        times.append(time.perf_counter() - t)
    return min(times), last


def contenders():
    yield "ours SA, 1 thread", lambda b: qw.SimulatedAnnealingSampler().sample(
        b, num_reads=READS, num_sweeps=SWEEPS, seed=1, threads=1), 1
    yield "ours SA, all cores", lambda b: qw.SimulatedAnnealingSampler().sample(
        b, num_reads=READS, num_sweeps=SWEEPS, seed=1), 1
    try:
        from dwave.samplers import SimulatedAnnealingSampler

        yield "dwave-samplers SA", lambda b: SimulatedAnnealingSampler().sample(
            b, num_reads=READS, num_sweeps=SWEEPS, seed=1), 1
    except ImportError:
        print("(dwave-samplers not installed)")
    try:
        import openjij as oj

        yield "OpenJij SA", lambda b: oj.SASampler().sample(
            b, num_reads=READS, num_sweeps=SWEEPS), 1
        yield "OpenJij SQA (4 slices)", lambda b: oj.SQASampler().sample(
            b, num_reads=READS, num_sweeps=SWEEPS, trotter=SLICES), SLICES
    except ImportError:
        print("(openjij not installed)")
    yield "ours SQA (4 slices), 1 thread", lambda b: qw.SimulatedQuantumAnnealingSampler().sample(
        b, num_reads=READS, num_sweeps=SWEEPS, trotter=SLICES, seed=1, threads=1), SLICES
    yield "ours PT, 1 thread", lambda b: qw.ParallelTemperingSampler().sample(
        b, num_reads=READS, num_sweeps=SWEEPS, seed=1, threads=1), None


def main(paths):
    for path in paths:
        bqm = read_coo(path)
        n = bqm.num_variables
        print(f"\n{path}: n = {n}, {bqm.num_interactions} interactions; "
              f"{READS} reads x {SWEEPS} sweeps")
        print(f"| sampler | s | ns/update | min energy | share at min |")
        print(f"|---|---|---|---|---|")
        rows = []
        for name, run, slices in contenders():
            seconds, ss = best_of_three(lambda: run(bqm))
            energies = np.repeat(ss.record.energy, ss.record.num_occurrences)
            rows.append((name, seconds, slices, energies))
        low = min(e.min() for *_, e in rows)
        for name, seconds, slices, energies in rows:
            per = "—" if slices is None else f"{seconds / (READS * SWEEPS * n * slices) * 1e9:.2f}"
            share = np.mean(np.isclose(energies, low, atol=1e-6))
            print(f"| {name} | {seconds:.3f} | {per} | {energies.min():g} | {share:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
