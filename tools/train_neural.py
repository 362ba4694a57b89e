#!/usr/bin/python3
"""Trains PENK's evaluation network (issue 21; docs/AI.md, "The evaluation
network: file and trainer") on self-play data written by `penk neural
selfplay`, and writes the net file that ai/neural_net.h reads.

    /usr/bin/python3 tools/train_neural.py --data F1 [F2 ...] \\
        --out data/neural.penknet --check data/neural_check.json \\
        --curve data/neural_curve.json --seed 1 --epochs 10 --threads 2

Debian's python3-torch is seen only by /usr/bin/python3. The split into
training and validation is by game (positions of one game are correlated)
and does not depend on --seed, so runs of other seeds or architectures are
compared on the same validation positions. Given the seed and the thread
count, a run is deterministic.

Exit code 2, with one line on stderr, for a refused data file or option.
"""
import argparse
import json
import os
import shlex
import struct
import sys
import time

import numpy as np

SELF_MAGIC = b"PENKSELF"
SELF_VERSION = 1
SELF_HEADER = 32
NET_MAGIC = b"PENKNET1"
NET_VERSION = 1
NET_HEADER = 48
OUTPUTS = 8
SCORE_SCALE = 50.0
MAX_UNITS = 4096
FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211
MASK64 = (1 << 64) - 1
# Floats per seat's slot of each feature layout (ai/neural_features.h): 4
# slots, then 10 for the game. Layout 2 is layout 1 with 7 more at the end of
# each slot, so a net of layout 1 reads layout 2's data through widen_net.
SLOT_FEATURES = {1: 56, 2: 63}
GAME_FEATURES = 10


def layout_inputs(layout):
    return 4 * SLOT_FEATURES[layout] + GAME_FEATURES


def layout_columns(narrow, wide):
    """Where each input of layout `narrow` sits in layout `wide` (a layout
    that holds it: every slot's first inputs, the game's last 10)."""
    a, b = SLOT_FEATURES[narrow], SLOT_FEATURES[wide]
    slots = [s * b + o for s in range(4) for o in range(a)]
    return np.array(slots + [4 * b + g for g in range(GAME_FEATURES)])


class Refused(Exception):
    """A one-line reason to stop with exit code 2."""


def read_header(path):
    """(layout, features, row_floats, rows) of a self-play file, its rows
    counted from the file size when the header says 0 (a killed writer)."""
    try:
        size = os.stat(path).st_size
        with open(path, "rb") as f:
            head = f.read(SELF_HEADER)
    except OSError as e:
        raise Refused(f"{path}: cannot read: {e.strerror}")
    if len(head) < 8 or head[:8] != SELF_MAGIC:
        raise Refused(f"{path}: not a PENK self-play file (its first bytes are not PENKSELF)")
    if len(head) < SELF_HEADER:
        raise Refused(f"{path}: truncated header: {len(head)} bytes, expected {SELF_HEADER}")
    version, layout, n, row_floats, rows = struct.unpack("<IIIIQ", head[8:])
    if version != SELF_VERSION:
        raise Refused(f"{path}: self-play format version {version}, this trainer reads {SELF_VERSION}")
    if layout not in SLOT_FEATURES:
        raise Refused(f"{path}: feature layout {layout}, this trainer reads layouts "
                      f"{', '.join(map(str, SLOT_FEATURES))}")
    if n != layout_inputs(layout):
        raise Refused(f"{path}: {n} features, layout {layout} has {layout_inputs(layout)}")
    if not 1 <= n <= MAX_UNITS or row_floats != n + 10:
        raise Refused(f"{path}: {n} features in rows of {row_floats} floats, expected 1..{MAX_UNITS} and features + 10")
    row_bytes = 4 * row_floats
    body = size - SELF_HEADER
    if rows == 0:
        rows = body // row_bytes
        if body % row_bytes:
            print(f"train_neural: {path}: the last row is partial (writer stopped?); "
                  f"reading the {rows} whole rows", file=sys.stderr)
    elif rows * row_bytes != body:
        raise Refused(f"{path}: {size} bytes, its header says {rows} rows "
                      f"({SELF_HEADER + rows * row_bytes} bytes)")
    return layout, n, row_floats, rows


def load_data(paths):
    """All rows of all files in one float32 array (one copy of the data in
    memory), with the file index of each row."""
    if sys.byteorder != "little":  # rows are read into native floats as they are
        raise Refused("this trainer reads the little-endian data files on little-endian machines only")
    headers = [read_header(p) for p in paths]
    layout, n = headers[0][0], headers[0][1]
    for p, h in zip(paths, headers):
        if (h[0], h[1]) != (layout, n):
            raise Refused(f"{p}: layout {h[0]} with {h[1]} features, {paths[0]} has layout {layout} "
                          f"with {n}; all data files must share one layout")
    total = sum(h[3] for h in headers)
    if total == 0:
        raise Refused(f"{paths[0]}: no rows in the data")
    data = np.empty((total, n + 10), dtype=np.float32)
    file_of = np.empty(total, dtype=np.int64)
    at = 0
    for i, (p, h) in enumerate(zip(paths, headers)):
        rows = h[3]
        # Read straight into place, in slices: no second copy of the data (a
        # memory map's pages counted twice: 2.1x the data size at the peak),
        # and the checks' temporaries stay small.
        with open(p, "rb") as f:
            f.seek(SELF_HEADER)
            for s in range(0, rows, 65536):
                part = data[at + s:at + min(rows, s + 65536)]
                if f.readinto(memoryview(part).cast("B")) != part.nbytes:
                    raise Refused(f"{p}: shorter than when its size was read")
                check_rows(p, part, n, s)
        file_of[at:at + rows] = i
        at += rows
    return layout, n, data, file_of


def check_rows(path, rows, n, first):
    """Refuses rows whose targets are not what the writer promises (`first`:
    the file's row number of rows[0], for the message)."""
    players = rows[:, n + 8]
    bad = ~np.isin(players, [2.0, 3.0, 4.0])
    if bad.any():
        raise Refused(f"{path}: row {first + int(np.argmax(bad))}: players {players[bad][0]:g}, "
                      "expected 2, 3 or 4")
    finite = np.isfinite(rows).all(axis=1)
    if not finite.all():
        raise Refused(f"{path}: row {first + int(np.argmax(~finite))}: a value is not a finite number")
    win = rows[:, n:n + 4]
    share = np.abs(win.sum(axis=1) - 1) > 1e-3
    if share.any():
        raise Refused(f"{path}: row {first + int(np.argmax(share))}: win shares sum to "
                      f"{win[share][0].sum():g}, expected 1")


def validation_mask(file_of, games, percent):
    """The validation rows: games whose hash of (file, game) falls in the
    first `percent` of 100 (splitmix64; fixed, not seeded)."""
    z = (file_of.astype(np.uint64) << np.uint64(40)) ^ games.astype(np.int64).astype(np.uint64)
    with np.errstate(over="ignore"):
        z = z + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z % np.uint64(100)) < np.uint64(percent)


def rows_make_penks(data, n, layout):
    """Per row: the penk-lines variant's input (R4.3: 1 when rows make PENKs,
    0 with penk-lines=columns), the 4th of the 10 game features of every
    layout (ai/neural_features.h)."""
    return data[:, n - 10 + 3] > 0.5


def group_mask(data, n, layout, players, variant):
    """The rows of the player counts in `players` (all if None) and of the
    variant `variant` ("rows", "columns" or None: both)."""
    keep = np.ones(len(data), dtype=bool)
    if players:
        keep &= np.isin(data[:, n + 8], np.array(players, dtype=np.float32))
    if variant:
        keep &= rows_make_penks(data, n, layout) == (variant == "rows")
    return keep


def validation_groups(data, val_idx, n, layout):
    """(players, variant, validation rows) of every group present, by player
    count then variant ("rows", "columns"); variant "both" for a layout that
    does not say it."""
    players = data[val_idx, n + 8]
    variants = rows_make_penks(data[val_idx], n, layout)
    out = []
    for k in (2, 3, 4):
        for variant in (("rows", "columns") if variants is not None else ("both",)):
            mask = players == k
            if variants is not None:
                mask &= variants == (variant == "rows")
            if mask.any():
                out.append((k, variant, val_idx[mask]))
    return out


def validation_stages(data, val_idx, n, layout):
    """(first turn, last turn, validation rows) by the turns the mover has
    played (slot 0's turns / 15, input 54 of every layout): 0-2, 3-5, 6-8, 9
    and more."""
    turns = np.rint(data[val_idx, 54] * 15).astype(np.int64)
    out = []
    for first, last in ((0, 2), (3, 5), (6, 8), (9, 99)):
        mask = (turns >= first) & (turns <= last)
        if mask.any():
            out.append((first, last, val_idx[mask]))
    return out


def fnv1a64(data, h=FNV_OFFSET):
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK64
    return h


def net_bytes(model, layout):
    """The net file of ai/neural_net.h for the model's weights."""
    l1, l2, l3 = model[0], model[2], model[4]
    parts = [l1.weight, l1.bias, l2.weight, l2.bias, l3.weight, l3.bias]
    payload = b"".join(p.detach().numpy().astype("<f4").tobytes() for p in parts)
    floats = len(payload) // 4
    header = NET_MAGIC + struct.pack("<IIIIIIQQ", NET_VERSION, layout, l1.in_features,
                                     l1.out_features, l2.out_features, OUTPUTS, floats, 0)
    checksum = fnv1a64(payload, fnv1a64(header))
    return header[:40] + struct.pack("<Q", checksum) + payload


def read_net(path, layout, torch):
    """The model of a net file (ai/neural_net.h), checked as the C++ loader
    checks it: magic, version, outputs, sizes, payload count, exact size,
    checksum, a known feature layout with its input count; one of the data's
    `layout`, or layout 1 for data of layout 2 (widened, widen_net)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise Refused(f"{path}: cannot read: {e.strerror}")
    if len(raw) < NET_HEADER or raw[:8] != NET_MAGIC:
        raise Refused(f"{path}: not a PENK net file (its first bytes are not PENKNET1)")
    version, net_layout, inputs, h1, h2, outputs, floats, checksum = struct.unpack("<IIIIIIQQ", raw[8:NET_HEADER])
    if version != NET_VERSION or outputs != OUTPUTS:
        raise Refused(f"{path}: net format version {version} with {outputs} outputs, "
                      f"this trainer reads version {NET_VERSION} with {OUTPUTS}")
    if not all(1 <= v <= MAX_UNITS for v in (inputs, h1, h2)):
        raise Refused(f"{path}: sizes {inputs}, {h1}, {h2}, expected 1..{MAX_UNITS} each")
    want = h1 * inputs + h1 + h2 * h1 + h2 + OUTPUTS * h2 + OUTPUTS
    if floats != want or len(raw) != NET_HEADER + 4 * want:
        raise Refused(f"{path}: {len(raw)} bytes, the sizes say {NET_HEADER + 4 * want}")
    if fnv1a64(raw[NET_HEADER:], fnv1a64(raw[:40] + bytes(8))) != checksum:
        raise Refused(f"{path}: checksum mismatch (corrupt file)")
    if net_layout not in SLOT_FEATURES or inputs != layout_inputs(net_layout):
        raise Refused(f"{path}: feature layout {net_layout} with {inputs} inputs, this trainer reads "
                      f"layouts {', '.join(f'{k} ({layout_inputs(k)} inputs)' for k in SLOT_FEATURES)}")
    if net_layout != layout and not (net_layout, layout) == (1, 2):
        raise Refused(f"{path}: feature layout {net_layout}, the data have layout {layout}")
    w = np.frombuffer(raw, dtype="<f4", offset=NET_HEADER).astype(np.float32)
    model = torch.nn.Sequential(
        torch.nn.Linear(inputs, h1), torch.nn.ReLU(),
        torch.nn.Linear(h1, h2), torch.nn.ReLU(),
        torch.nn.Linear(h2, OUTPUTS))
    at = 0
    with torch.no_grad():
        for layer in (model[0], model[2], model[4]):
            for p in (layer.weight, layer.bias):
                p.copy_(torch.from_numpy(w[at:at + p.numel()].reshape(p.shape)))
                at += p.numel()
    model.eval()
    return widen_net(model, net_layout, layout, torch) if net_layout != layout else model


def widen_net(model, narrow, wide, torch):
    """The model of layout `narrow` as a model of layout `wide` with the
    same outputs: its first layer's weights moved to their inputs' places,
    0 for the inputs it never read. A net goes on learning with inputs it did
    not have (--init), or values data of a layout it was not trained on
    (--bootstrap, --compare)."""
    old = model[0]
    first = torch.nn.Linear(layout_inputs(wide), old.out_features)
    with torch.no_grad():
        first.weight.zero_()
        first.weight[:, torch.from_numpy(layout_columns(narrow, wide))] = old.weight
        first.bias.copy_(old.bias)
    model[0] = first
    model.eval()
    return model


def slot_seats(data, n):
    """Per row, the absolute seat of each slot (slot i is seat (mover + i)
    mod players, ai/neural_features.h), -1 for absent slots."""
    mover = np.argmax(data[:, n - 10 + 6:n - 10 + 10], axis=1)
    players = data[:, n + 8].astype(np.int64)
    i = np.arange(4)[None, :]
    return np.where(i < players[:, None], (mover[:, None] + i) % players[:, None], -1)


def td_targets(data, n, file_of, model, lam, torch):
    """Training targets (win shares, scores / 50 by slot) that are the
    lambda-returns of `model`'s outputs along each game (TD(lambda), as
    TD-Gammon): G_t = (1 - lambda) V(t+1) + lambda G(t+1), and the outcome
    after a game's last position. lambda 1 is the outcome itself. Rows of a
    game are consecutive and in order of play (ai/selfplay.cc), and the
    values of one position are moved from its slots to the next position's
    through the seats."""
    rows = len(data)
    value = np.zeros((rows, 8), dtype=np.float32)  # slot-indexed: win shares, scores / 50
    with torch.no_grad():
        for s in range(0, rows, 65536):
            b = torch.from_numpy(data[s:s + 65536])
            present = torch.arange(4)[None, :] < b[:, n + 8:n + 9]
            out = model(b[:, :n])
            value[s:s + len(b), :4] = torch.softmax(out[:, :4].masked_fill(~present, float("-inf")), 1) \
                .masked_fill(~present, 0.0).numpy()
            value[s:s + len(b), 4:] = out[:, 4:].masked_fill(~present, 0.0).numpy()
    seats = slot_seats(data, n)
    at = np.arange(rows)

    def by_seat(slotted):  # (rows, 8) by slot -> by seat; absent seats stay 0
        out = np.zeros_like(slotted)
        for i in range(4):
            rr = np.flatnonzero(seats[:, i] >= 0)
            for half in (0, 4):
                out[rr, half + seats[rr, i]] = slotted[rr, half + i]
        return out

    outcome = by_seat(np.concatenate([data[:, n:n + 4], data[:, n + 4:n + 8] / SCORE_SCALE], axis=1))
    value = by_seat(value)
    games = data[:, n + 9].astype(np.int64)
    last = np.ones(rows, dtype=bool)
    last[:-1] = (games[1:] != games[:-1]) | (file_of[1:] != file_of[:-1])
    # Each row's steps to its game's last row: one vector step per depth.
    ends = np.flatnonzero(last)
    depth = ends[np.searchsorted(ends, np.arange(rows))] - np.arange(rows)
    target = outcome.copy()
    for d in range(1, int(depth.max()) + 1):
        t = np.flatnonzero(depth == d)
        target[t] = (1 - lam) * value[t + 1] + lam * target[t + 1]
    out = np.zeros((rows, 8), dtype=np.float32)
    for i in range(4):
        rr = np.flatnonzero(seats[:, i] >= 0)
        for half in (0, 4):
            out[rr, half + i] = target[rr, half + seats[rr, i]]
    return out


def write_file(path, data):
    """Through a temporary file beside it: a failed write leaves an old file whole."""
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data", nargs="+", required=True, help="self-play files (penk neural selfplay), one layout")
    p.add_argument("--out", required=True, help="the net file to write")
    p.add_argument("--check", help="write ~20 validation positions with the model's outputs (for penk neural check)")
    p.add_argument("--curve", help="write the training curve JSON (for penk neural curve)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--threads", type=int, default=2, help="torch threads (torch's default here is 1)")
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate in the first epoch")
    p.add_argument("--lr-decay", type=float, default=0.8, help="the learning rate's factor per epoch")
    p.add_argument("--score-weight", type=float, default=1.0,
                   help="weight of the score loss (MSE of score/50) beside the win cross-entropy")
    p.add_argument("--hidden1", type=int, help="units of the first hidden layer (default 128)")
    p.add_argument("--hidden2", type=int, help="units of the second hidden layer (default 32)")
    p.add_argument("--val-percent", type=int, default=10, help="the share of games held out for validation")
    p.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4),
                   help="train (and validate) on the positions of these player counts only: a net of its own")
    p.add_argument("--variant", choices=("rows", "columns"),
                   help="only the positions of this penk-lines variant (R4.3): a net of its own")
    p.add_argument("--bootstrap", metavar="NET",
                   help="train towards the lambda-returns of this net's outputs along each game (TD(lambda)) "
                        "instead of the outcome; validation stays on outcomes")
    p.add_argument("--lambda", dest="lam", type=float, default=1.0,
                   help="TD(lambda)'s lambda with --bootstrap (1: the outcome, 0: the next position's value)")
    p.add_argument("--init", metavar="NET",
                   help="start from this net's weights (its sizes replace --hidden1/--hidden2) rather than "
                        "from random ones: the next generation goes on learning where the last stopped")
    p.add_argument("--compare", metavar="NET",
                   help="also report this net's validation figures on the same positions (overall, by group, "
                        "by stage): a new net and the one it would replace, on the same games")
    a = p.parse_args(argv[1:])
    command = shlex.join([sys.executable] + argv)
    for name in ("epochs", "threads", "batch"):
        if getattr(a, name) < 1:
            raise Refused(f"--{name} must be at least 1")
    for name, default in (("hidden1", 128), ("hidden2", 32)):
        if getattr(a, name) is not None and a.init:
            raise Refused(f"--{name} with --init: the sizes are those of the net it starts from")
        if getattr(a, name) is None:
            setattr(a, name, default)
        if not 1 <= getattr(a, name) <= MAX_UNITS:
            raise Refused(f"--{name} must be 1..{MAX_UNITS}")
    if not 1 <= a.val_percent <= 50:
        raise Refused("--val-percent must be 1..50")
    if not 0 <= a.lam <= 1:
        raise Refused("--lambda must be 0..1")
    if a.lam < 1 and not a.bootstrap:
        raise Refused("--lambda below 1 needs --bootstrap NET (the net whose values are the targets)")

    # Idle OpenMP threads sleep instead of spinning: on a machine whose cores
    # are busy with other work, spinning made 2 threads 4x slower than 1
    # (18 s against 4.5 s per epoch of 200,000 rows); passive, 2 are as fast.
    # Read when torch starts its threads, so it is set before the import.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import torch  # late: --help and refused options need no torch
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = np.random.default_rng(a.seed)

    t0 = time.time()
    layout, n, data, file_of = load_data(a.data)
    if a.players or a.variant:
        # The subset is taken before the split, which is by (file, game) and
        # so leaves every kept position on the side it has in the whole data:
        # a net of its own is validated on the positions the shared net's
        # breakdown (below) reports for its group.
        keep = group_mask(data, n, layout, a.players, a.variant)
        if not keep.any():
            raise Refused(f"{a.data[0]}: no position of the players or variant asked for")
        data, file_of = data[keep], file_of[keep]
    games = data[:, n + 9]
    val = validation_mask(file_of, games, a.val_percent)
    if val.all() or not val.any():  # a tiny data set: hold out the first game (or keep one for training)
        first = (file_of == file_of[0]) & (games == games[0])
        val = first if not val.any() else ~first
    if val.all():
        raise Refused(f"{a.data[0]}: one game only; training needs at least two")
    train_idx, val_idx = np.flatnonzero(~val), np.flatnonzero(val)
    # Every net named is read and checked here, before the minutes of work
    # below, so a wrong file is refused at once.
    bootstrap = read_net(a.bootstrap, layout, torch) if a.bootstrap else None
    start = read_net(a.init, layout, torch) if a.init else None
    # Building a model draws torch's generator, which a fresh model's
    # weights draw next: the net compared with must not change the net trained.
    with torch.random.fork_rng(devices=[]):
        compare = read_net(a.compare, layout, torch) if a.compare else None
    # Training targets: the outcomes (win shares, scores / 50 by slot), or
    # their lambda-returns along each game under the bootstrap net.
    if a.bootstrap:
        t = time.time()
        targets = td_targets(data, n, file_of, bootstrap, a.lam, torch)
        print(f"train_neural: TD({a.lam:g}) targets from {a.bootstrap} in {time.time() - t:.1f} s",
              file=sys.stderr)
    else:
        targets = None
    n_games = len(np.unique(file_of * (1 << 40) + games.astype(np.int64)))
    print(f"train_neural: {len(data)} rows of {n} features (layout {layout}), {n_games} games; "
          f"{len(train_idx)} training, {len(val_idx)} validation rows; loaded in {time.time() - t0:.1f} s",
          file=sys.stderr)

    if start is not None:
        model = start
        model.train()
    else:
        model = torch.nn.Sequential(
            torch.nn.Linear(n, a.hidden1), torch.nn.ReLU(),
            torch.nn.Linear(a.hidden1, a.hidden2), torch.nn.ReLU(),
            torch.nn.Linear(a.hidden2, OUTPUTS))
    opt = torch.optim.Adam(model.parameters(), lr=a.lr)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=a.lr_decay)
    slots = torch.arange(4)

    def batch(rows):
        b = torch.from_numpy(rows)
        present = slots[None, :] < b[:, n + 8:n + 9]
        return b[:, :n], b[:, n:n + 4], b[:, n + 4:n + 8] / SCORE_SCALE, present

    def training_batch(idx):
        x, win, score, present = batch(data[idx])
        if targets is not None:
            t = torch.from_numpy(targets[idx])
            win, score = t[:, :4], t[:, 4:]
        return x, win, score, present

    def losses(x, win, score, present, net=None):
        """Per row: the cross-entropy of the win shares, the score MSE, the
        win shares (softmax over the present slots), of `net` (default: the
        model in training)."""
        out = (model if net is None else net)(x)
        logits = out[:, :4].masked_fill(~present, float("-inf"))
        logp = torch.log_softmax(logits, dim=1).masked_fill(~present, 0.0)
        ce = -(win * logp).sum(dim=1)
        sq = ((out[:, 4:] - score) ** 2).masked_fill(~present, 0.0)
        mse = sq.sum(dim=1) / present.sum(dim=1)
        return ce, mse, logp.exp().masked_fill(~present, 0.0), out[:, 4:]

    def evaluate(rows=None, net=None):
        """Validation log loss (per position), Brier and score MAE (per
        present slot) of `net` (default: the model) on `rows` (default:
        every validation row)."""
        rows = val_idx if rows is None else rows
        model.eval()
        ce_sum = brier_sum = mae_sum = slots_sum = 0.0
        with torch.no_grad():
            for s in range(0, len(rows), 8192):
                x, win, score, present = batch(data[rows[s:s + 8192]])
                ce, _, p, sc = losses(x, win, score, present, net)
                ce_sum += ce.sum().item()
                brier_sum += ((p - win) ** 2).masked_fill(~present, 0.0).sum().item()
                mae_sum += ((sc - score).abs() * SCORE_SCALE).masked_fill(~present, 0.0).sum().item()
                slots_sum += present.sum().item()
        model.train()
        return ce_sum / len(rows), brier_sum / slots_sum, mae_sum / slots_sum

    curve = []
    for epoch in range(1, a.epochs + 1):
        t = time.time()
        order = train_idx[rng.permutation(len(train_idx))]
        total = 0.0
        for s in range(0, len(order), a.batch):
            x, win, score, present = training_batch(order[s:s + a.batch])
            ce, mse, _, _ = losses(x, win, score, present)
            loss = ce.mean() + a.score_weight * mse.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(x)
        sched.step()
        logloss, brier, mae = evaluate()
        e = {"epoch": epoch, "train_loss": total / len(order), "val_logloss": logloss,
             "val_brier": brier, "val_score_mae": mae, "seconds": round(time.time() - t, 2)}
        curve.append(e)
        print(f"epoch {epoch}: train loss {e['train_loss']:.5f}, validation log loss {logloss:.5f}, "
              f"Brier {brier:.5f}, score MAE {mae:.2f} points, {e['seconds']:.1f} s", file=sys.stderr)

    def compared(rows, what):
        """--compare's figures on the same rows, as a line and a dict."""
        if compare is None:
            return {}
        logloss, brier, mae = evaluate(rows, compare)
        print(f"  {a.compare}, {what}: log loss {logloss:.5f}, Brier {brier:.5f}, score MAE {mae:.2f} points",
              file=sys.stderr)
        return {"compare": {"val_logloss": logloss, "val_brier": brier, "val_score_mae": mae}}

    overall = compared(val_idx, "all validation positions")
    # The final net's validation figures by player count and variant: what
    # a shared net is compared on against nets of their own (docs/AI.md).
    groups = []
    for players, variant, rows in validation_groups(data, val_idx, n, layout):
        logloss, brier, mae = evaluate(rows)
        print(f"validation, {players} players, {variant}: {len(rows)} positions, log loss {logloss:.5f}, "
              f"Brier {brier:.5f}, score MAE {mae:.2f} points", file=sys.stderr)
        groups.append({"players": players, "variant": variant, "positions": int(len(rows)),
                       "val_logloss": logloss, "val_brier": brier, "val_score_mae": mae,
                       **compared(rows, f"{players} players, {variant}")})
    # And by the stage of the game (the turns the mover has played), where
    # late positions are few and decide more.
    stages = []
    for first, last, rows in validation_stages(data, val_idx, n, layout):
        logloss, brier, mae = evaluate(rows)
        print(f"validation, turns {first}-{last}: {len(rows)} positions, log loss {logloss:.5f}, "
              f"Brier {brier:.5f}, score MAE {mae:.2f} points", file=sys.stderr)
        stages.append({"turns": [first, last], "positions": int(len(rows)),
                       "val_logloss": logloss, "val_brier": brier, "val_score_mae": mae,
                       **compared(rows, f"turns {first}-{last}")})
    model.eval()
    write_file(a.out, net_bytes(model, layout))
    if a.curve:
        write_file(a.curve, json.dumps({
            "epochs": curve, "groups": groups, "stages": stages, **overall, "seed": a.seed, "rows": int(len(data)),
            "games": int(n_games), "data": a.data, "command": command}, indent=1).encode() + b"\n")
    if a.check:
        write_file(a.check, json.dumps(check_positions(model, data, val_idx, n, layout, rng, torch)).encode() + b"\n")
    print(f"train_neural: wrote {a.out} in {time.time() - t0:.1f} s", file=sys.stderr)


def check_positions(model, data, val_idx, n, layout, rng, torch):
    """About 20 validation rows, of every player count present, with the
    model's float32 outputs as the C++ forward pass must give them: win
    shares over the present slots, scores in points, 0 for absent slots."""
    players = data[val_idx, n + 8]
    chosen = []
    for k in (2, 3, 4):
        rows = val_idx[players == k]
        chosen += list(rng.choice(rows, size=min(7, len(rows)), replace=False))
    positions = []
    with torch.no_grad():
        for r in sorted(chosen):
            x = torch.from_numpy(data[r:r + 1, :n])
            k = int(data[r, n + 8])
            out = model(x)[0]
            win = torch.zeros(4)
            win[:k] = torch.softmax(out[:k], dim=0)
            score = torch.zeros(4)
            score[:k] = out[4:4 + k] * SCORE_SCALE
            positions.append({"features": [float(v) for v in data[r, :n]], "players": k,
                              "win": [float(v) for v in win], "score": [float(v) for v in score]})
    return {"layout": int(layout), "inputs": int(n), "positions": positions}


if __name__ == "__main__":
    try:
        main(sys.argv)
    except Refused as e:
        print(f"train_neural: {e}", file=sys.stderr)
        sys.exit(2)
