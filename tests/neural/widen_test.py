#!/usr/bin/python3
"""widen_net of tools/train_neural.py (issue 21): a net of feature layout 1
read as a net of layout 2 gives, on layout 2's features, exactly what it
gives on the layout-1 inputs they hold (ai/neural_features.h: each slot's
first 56, the game's 10), whatever the 7 new inputs of each slot are; and
those inputs are placed by hand here, not by the trainer's own table.

    widen_test.py SOURCE_DIR NET_OF_LAYOUT_1
"""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(sys.argv[1], "tools"))
import train_neural as T  # noqa: E402

narrow = T.read_net(sys.argv[2], 1, torch)
wide = T.read_net(sys.argv[2], 2, torch)
assert wide[0].in_features == 262 and narrow[0].in_features == 234
rng = np.random.default_rng(3)
x2 = rng.random((500, 262)).astype(np.float32)
# Layout 1's inputs within layout 2's, written out: slot s's 56 at 63 s, the
# game's 10 at 252.
x1 = np.concatenate([x2[:, 63 * s:63 * s + 56] for s in range(4)] + [x2[:, 252:262]], axis=1)
with torch.no_grad():
    a = narrow(torch.from_numpy(x1))
    b = wide(torch.from_numpy(x2))
    assert torch.equal(a, b) or float((a - b).abs().max()) < 1e-5, float((a - b).abs().max())
    # The new inputs move nothing until trained.
    x3 = x2.copy()
    for s in range(4):
        x3[:, 63 * s + 56:63 * s + 63] = rng.random((500, 7))
    assert float((wide(torch.from_numpy(x3)) - b).abs().max()) < 1e-5
print("widen_test: ok")
