"""The Zephyr reference figures in src/remote/topology.rs's test: sizes and the FNV-1a hash of
dwave-networkx's zephyr_graph(m, t) edge list (sorted pairs written "a,b;a,b;...").

    pip install dwave-networkx && python3 tools/zephyr_reference.py
"""
import dwave_networkx as dnx


def fnv(data):
    h = 0xCBF29CE484222325
    for x in data:
        h ^= x
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


for m, t in [(2, 2), (3, 4), (12, 4)]:
    g = dnx.zephyr_graph(m, t)
    edges = sorted((min(a, b), max(a, b)) for a, b in g.edges())
    text = ";".join(f"{a},{b}" for a, b in edges)
    print(m, t, g.number_of_nodes(), len(edges), hex(fnv(text.encode())))
