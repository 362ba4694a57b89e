#!/usr/bin/python3
"""Writes a small self-play data file of random rows in the format of
`penk neural selfplay` (tools/train_neural.py reads it), for the trainer's
tests: binary features, random players, win shares and scores.

    make_selfplay.py OUT --games G [--features N] [--layout L] [--seed S] [--rows-zero]

--rows-zero writes 0 in the header's row count and half a row more, as a
killed writer leaves its file.
"""
import argparse
import struct

import numpy as np

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--games", type=int, default=60)
p.add_argument("--features", type=int, help="default: the layout's count (ai/neural_features.h)")
p.add_argument("--layout", type=int, default=1)
p.add_argument("--seed", type=int, default=1)
p.add_argument("--rows-zero", action="store_true")
a = p.parse_args()
rng = np.random.default_rng(a.seed)
n = a.features or {1: 234, 2: 262}[a.layout]
rows = []
for game in range(a.games):
    players = int(rng.integers(2, 5))
    for _ in range(int(rng.integers(10, 30))):
        row = np.zeros(n + 10, dtype=np.float32)
        row[:n] = rng.integers(0, 2, n)
        share = rng.dirichlet(np.ones(players)).astype(np.float32)
        row[n:n + players] = share / share.sum()
        row[n + 4:n + 4 + players] = rng.uniform(0, 150, players)
        row[n + 8] = players
        row[n + 9] = game
        rows.append(row)
body = np.stack(rows).astype("<f4").tobytes()
with open(a.out, "wb") as f:
    f.write(b"PENKSELF" + struct.pack("<IIIIQ", 1, a.layout, n, n + 10, 0 if a.rows_zero else len(rows)))
    f.write(body)
    if a.rows_zero:
        f.write(body[:2 * (n + 10)])
