#!/usr/bin/python3
"""TD(lambda) targets of tools/train_neural.py (issue 21 item 6) against a
plain loop written from the definition: per game, backwards from the
outcome, G_t = (1 - lambda) V(t+1) + lambda G(t+1), each value moved from
the slots of the position that has it to the seats of the game (slot i is
seat (mover + i) mod players, ai/neural_features.h). Games of 2, 3 and 4
players, movers going round the table, in two files whose game numbers
overlap (a game is a (file, game) pair).

    td_targets_test.py SOURCE_DIR
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
import train_neural as tn  # noqa: E402

N = 234  # kFeatureCount, layout 1
rng = np.random.default_rng(5)
rows, file_of = [], []
for f in range(2):
    for game in range(12):
        players = 2 + (game + f) % 3
        first = int(rng.integers(0, players))
        length = int(rng.integers(1, 14))
        share = rng.dirichlet(np.ones(players))
        score = rng.uniform(0, 150, players)
        for t in range(length):
            mover = (first + t) % players
            row = np.zeros(N + 10, dtype=np.float32)
            row[:N - 10] = rng.integers(0, 2, N - 10)
            row[N - 10 + 6 + mover] = 1  # the mover's absolute seat
            for i in range(players):  # the outcome, by slot of this row
                row[N + i] = share[(mover + i) % players]
                row[N + 4 + i] = score[(mover + i) % players]
            row[N + 8] = players
            row[N + 9] = game
            rows.append(row)
            file_of.append(f)
data = np.stack(rows)
file_of = np.array(file_of)
torch.manual_seed(3)
model = torch.nn.Sequential(torch.nn.Linear(N, 16), torch.nn.ReLU(), torch.nn.Linear(16, 8, bias=True),
                            torch.nn.ReLU(), torch.nn.Linear(8, 8))


def value_by_seat(r):
    """The model's win shares and scores / 50 of row r, by seat."""
    players = int(data[r, N + 8])
    mover = int(np.argmax(data[r, N - 10 + 6:N - 10 + 10]))
    with torch.no_grad():
        out = model(torch.from_numpy(data[r:r + 1, :N]))[0].numpy()
    win = np.exp(out[:players] - out[:players].max())
    win /= win.sum()
    v = np.zeros(8)
    for i in range(players):
        v[(mover + i) % players] = win[i]
        v[4 + (mover + i) % players] = out[4 + i]
    return v


def expected(lam):
    out = np.zeros((len(data), 8))
    r = len(data) - 1
    while r >= 0:
        end = r  # the game of row r ends here; walk it backwards
        players = int(data[r, N + 8])
        mover = int(np.argmax(data[r, N - 10 + 6:N - 10 + 10]))
        g = np.zeros(8)
        for i in range(players):
            g[(mover + i) % players] = data[r, N + i]
            g[4 + (mover + i) % players] = data[r, N + 4 + i] / 50
        t = end
        while t >= 0 and file_of[t] == file_of[end] and data[t, N + 9] == data[end, N + 9]:
            if t < end:
                g = (1 - lam) * value_by_seat(t + 1) + lam * g
            m = int(np.argmax(data[t, N - 10 + 6:N - 10 + 10]))
            for i in range(players):
                out[t, i] = g[(m + i) % players]
                out[t, 4 + i] = g[4 + (m + i) % players]
            t -= 1
        r = t
    return out


for lam in (1.0, 0.7, 0.0):
    got = tn.td_targets(data, N, file_of, model, lam, torch)
    want = expected(lam)
    err = np.abs(got - want).max()
    if err > 1e-5:
        bad = np.unravel_index(np.argmax(np.abs(got - want)), got.shape)
        sys.exit(f"td_targets, lambda {lam}: row {bad[0]} output {bad[1]}: {got[bad]:.6f}, expected {want[bad]:.6f}")
    if lam == 1.0 and np.abs(got[:, :4] - data[:, N:N + 4]).max() > 1e-6:
        sys.exit("td_targets, lambda 1: the win shares are not the outcome")
    # The win shares of the present slots still sum to 1.
    sums = got[:, :4].sum(axis=1)
    if np.abs(sums - 1).max() > 1e-5:
        sys.exit(f"td_targets, lambda {lam}: win shares sum to {sums.min():.6f}..{sums.max():.6f}")
print("td_targets: ok")
