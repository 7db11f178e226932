#!/usr/bin/env python3
"""Checks our loopback fake SAPI server against D-Wave's own client (dwave-cloud-client).

If the official client can list the fake's solvers, submit a `qp` problem to its QPU and a
multipart-uploaded BQM to its hybrid solver, and read both answers, then the fake speaks the
protocol the way the real service does — and our client, tested against the fake, is tested
against that protocol. Not part of `cargo test` (it needs Python packages):

    pip install dwave-cloud-client dimod
    cargo build --release
    python3 tools/validate_fake_sapi.py [path/to/qubo-workbench]
"""

import os
import socket
import subprocess
import sys
import time

import dimod
from dwave.cloud import Client

TOKEN = "VALIDATE-0123456789abcdef0123456789"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/qubo-workbench"
    port = free_port()
    env = dict(os.environ, DWAVE_API_TOKEN=TOKEN)
    fake = subprocess.Popen([binary, "remote", "fake-sapi", "--port", str(port)], env=env)
    try:
        endpoint = f"http://127.0.0.1:{port}/sapi/v2/"
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        with Client(endpoint=endpoint, token=TOKEN) as client:
            solvers = client.get_solvers()
            print("solvers:", [(s.name, type(s).__name__) for s in solvers])

            qpu = client.get_solver(name="Advantage_mock")
            qubo = {(0, 0): -1.0, (1, 1): -1.0, (0, 1): 2.0, (2, 2): 0.5, (1, 2): -1.0}
            future = qpu.sample_qubo(qubo, num_reads=20)
            result = future.result()
            print("qp problem", future.id, "-> samples", result["solutions"][:3],
                  "energies", result["energies"][:3], "occurrences", result["num_occurrences"][:3])

            hybrid = client.get_solver(name="hybrid_binary_quadratic_model_version2")
            bqm = dimod.generators.gnp_random_bqm(30, 0.3, "BINARY", random_state=1)
            future = hybrid.sample_bqm(bqm, time_limit=3)
            sampleset = future.sampleset
            lowest = sampleset.first
            print("bqm problem", future.id, "-> rows", len(sampleset), "lowest energy",
                  round(lowest.energy, 6), "recomputed", round(bqm.energy(lowest.sample), 6),
                  "info", dict(sampleset.info))
            assert abs(lowest.energy - bqm.energy(lowest.sample)) < 1e-6
        print("the official client accepted every reply")
    finally:
        fake.terminate()
        fake.wait()


if __name__ == "__main__":
    main()
