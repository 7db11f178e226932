"""minorminer beside `remote embed`: the same model on the same working graph.

Reads a solver's working graph from a SAPI endpoint (the loopback fake: `remote fake-sapi`)
and a COO model (`encode ... -o model.coo`), runs minorminer.find_embedding with three seeds,
and prints qubits used and the longest chain for each and for the best.

    pip install minorminer
    DWAVE_API_TOKEN=... python3 tools/embed_peer.py http://127.0.0.1:PORT/sapi/v2/ SOLVER model.coo
"""
import json
import os
import sys
import time
import urllib.request

import minorminer


def solver_graph(endpoint, name):
    req = urllib.request.Request(
        endpoint.rstrip("/") + "/solvers/remote/" + name,
        headers={
            "X-Auth-Token": os.environ["DWAVE_API_TOKEN"],
            "Accept": "application/vnd.dwave.sapi.solver-definition+json; version=3.0.0",
        },
    )
    props = json.load(urllib.request.urlopen(req))["properties"]
    return props["qubits"], [tuple(c) for c in props["couplers"]]


def coo_edges(path):
    edges = set()
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        i, j, v = line.split()
        i, j = int(i), int(j)
        if i != j and float(v) != 0.0:
            edges.add((min(i, j), max(i, j)))
    return sorted(edges)


def main():
    endpoint, name, model = sys.argv[1:4]
    qubits, couplers = solver_graph(endpoint, name)
    edges = coo_edges(model)
    results = []
    for seed in (1, 2, 3):
        t = time.time()
        emb = minorminer.find_embedding(edges, couplers, random_seed=seed)
        dt = time.time() - t
        if not emb:
            print(f"seed {seed}: no embedding ({dt:.1f} s)")
            continue
        used = sum(len(c) for c in emb.values())
        longest = max(len(c) for c in emb.values())
        results.append((used, longest))
        print(f"seed {seed}: {used} qubits, longest chain {longest} ({dt:.1f} s)")
    if results:
        print("best qubits", min(r[0] for r in results), "best longest", min(r[1] for r in results))


main()
