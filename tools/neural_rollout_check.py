#!/usr/bin/env python3
"""Discrimination of the neural player's win chances (issue 21 item 6).

On positions of real games of `neural` in every seat (the 18 listed in
docs/AI.md, or with --from-games new seeded games played by `penk
engine`), the hint's fast figure for each of the best `--candidates`
markings is compared with a rollout of `--trials` games per candidate, the
neural player in every seat (`penk hint --rollouts N --policy neural`): the
fast figure should lie within the rollout's 95% interval. The issue's two
positions come first. Prints a Markdown table (docs/AI.md) and a summary.

    python3 tools/neural_rollout_check.py build/penk [--trials 2000] [--candidates 3] [--from-games]
"""
import argparse
import json
import os
import subprocess
import sys

# The engine through the project's own Python client (one copy of it).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'examples', 'python'))
from penk_client import PenkEngine  # noqa: E402

ISSUE_POSITIONS = [
    # (sheet, opponents, roll, seat, turns, last_round)
    ('...../...../...../...../.....', ['...../...../...../...../.....', 'ooo../...../...../...../.....'],
     '44455J', 2, 0, False),
    ('...../...../...../...../.....', ['...../...../...../...../.....'], '11335J', 1, 0, False),
]


# The 18 positions of real games listed in docs/AI.md (marking decisions of
# seeded games of neural on the first committed net, drawn by
# game_positions below on 2026-12-03): fixed, so that nets are compared on
# the same positions (the games a new net plays are other games).
LISTED_POSITIONS = [
    ('ooooo/...../...../....o/.....', ['oxxxo/o.o.o/...../.o.../.....'], '2223JJ', 1, 2, False),
    ('o.oo./o.o.o/ooo../...../.....', ['.o.oo/...../...../o..../oo...'], '1225JJ', 1, 3, False),
    ('oxooo/xxxxx/...../ooo.o/.....', ['xoxxo/ooooo/..oo./.o.../.....', 'ooooo/xxxxx/o..../....o/o....'],
     '2444JJ', 1, 4, False),
    ('ooooo/oxoxx/ooooo/...../.....', ['xoxox/ooooo/xxoxx/....o/...o.'], '12445J', 1, 5, False),
    ('ooooo/xxxxo/.o.o./oooo./.....', ['xoxxx/ooooo/o.o.o/.o.../....o'], '115555', 1, 6, False),
    ('ooooo/xxxxo/o..oo/.oo../..o.o', ['oxooo/oooxo/xoooo/oo.../x....', 'xoooo/ooooo/.o.oo/.ooo./.....'],
     '1335JJ', 1, 7, False),
    ('...o./...../...../...../....o', ['.o.../o..../.o.../...../.....'], '13355J', 1, 1, False),
    ('o.o../.o.../...o./.o.../.....', ['..oo./....o/...o./...../.o...'], '23444J', 1, 2, False),
    ('ooooo/o..../o..o./...../.....', ['xooxx/ooo.o/.o.../....o/.....', 'xoooo/.ooo./...../.o.o./.....'],
     '22334J', 1, 3, False),
    ('ooooo/oooo./...../oo.../.....', ['xoxxo/..o../...../...oo/oo...'], '333355', 1, 4, False),
    ('ooooo/oxoox/...../ooo../.....', ['oxxoo/ooooo/...o./..ooo/.....'], '122244', 1, 5, False),
    ('oxxox/ooooo/.o.o./oo.o./.....', ['oxooo/oxoxx/.o.oo/o.oo./.....', 'ooooo/xxxxx/...o./o..o./..o.o'],
     '11155J', 1, 6, False),
    ('xxoxx/ooooo/ooo../xooo./x....', ['ooooo/oxxxx/o..oo/o.oo./o....'], '355JJJ', 1, 7, False),
    ('..o../....o/o..../...../.....', ['o...o/...../...../..o../.....'], '11245J', 1, 1, False),
    ('ooxoo/...../...../..oo./.....', ['oxooo/...../..o../o..../.....', 'ooooo/...../...../....o/.....'],
     '2224JJ', 1, 2, False),
    ('ooooo/.o..o/...o./o..../.....', ['xooox/o.o.o/.o.../.o.../.....'], '11344J', 1, 3, False),
    ('oooox/.oooo/.o.../o...o/.....', ['ooooo/oo.../..o../o.oo./.....'], '122223', 1, 4, False),
    ('ooxxo/ooooo/.o.oo/.o.../.....', ['oooxo/oxoxx/ooo../..oo./.....', 'ooooo/xxxxx/.oo../.ooo./.....'],
     '1133JJ', 1, 5, False),
]


def game_positions(penk, count):
    """Marking decisions (rerolls 0) of seeded games of neural, spread over the game."""
    out = []
    seed = 1
    with PenkEngine(penk) as engine:
        while len(out) < count:
            players = 2 if seed % 3 else 3
            state = engine.request('new_game', players=['neural'] * players, seed=seed)
            want_turn = 1 + seed % 7  # the mover's turns played at the position
            while state['phase'] != 'over':
                me = state['players'][state['current']]
                if (state['phase'] == 'mark' and me['turns'] == want_turn and not state['last_round']):
                    opponents = [state['players'][(state['current'] + i) % players]['sheet']
                                 for i in range(1, players)]
                    out.append((me['sheet'], opponents, state['dice'], state['current'] + 1,
                                me['turns'], False))
                    break
                state = engine.request('best_action', game=state['game'], apply=True)['state']
            seed += 1
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('penk')
    ap.add_argument('--trials', type=int, default=2000)
    ap.add_argument('--candidates', type=int, default=3)
    ap.add_argument('--positions', type=int, default=20)
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--from-games', action='store_true',
                    help='draw the positions from new seeded games of this build instead of the listed ones')
    a = ap.parse_args()
    count = a.positions - len(ISSUE_POSITIONS)
    drawn = game_positions(a.penk, count) if a.from_games else LISTED_POSITIONS[:count]
    positions = ISSUE_POSITIONS + drawn
    print('| # | sheet | opponents | roll | seat | turn | action | neural | rollout (95%) | within |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    inside = total = 0
    for i, (sheet, opponents, roll, seat, turns, last) in enumerate(positions, 1):
        cmd = [a.penk, 'hint', '--json', '--sheet', sheet, '--roll', roll, '--rerolls', '0',
               '--seat', str(seat), '--turn', str(turns), '--rollouts', str(a.trials),
               '--candidates', str(a.candidates), '--policy', 'neural', '--threads', str(a.threads)]
        for o in opponents:
            cmd += ['--opponent', o]
        if last:
            cmd.append('--last-round')
        answer = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        for act in answer['actions']:
            r = act['rollout']
            ok = r['win_ci95'][0] <= act['win'] <= r['win_ci95'][1]
            inside += ok
            total += 1
            print(f"| {i} | `{sheet}` | {' '.join('`' + o + '`' for o in opponents)} | `{roll}` | {seat} | "
                  f"{turns} | `{act['action']}` | {100 * act['win']:.1f}% | {100 * r['win']:.1f}% "
                  f"[{100 * r['win_ci95'][0]:.1f}, {100 * r['win_ci95'][1]:.1f}] ({r['trials']}) | "
                  f"{'yes' if ok else 'no'} |")
        sys.stdout.flush()
    print(f'\n{inside} of {total} figures within the rollout\'s 95% interval '
          f'({len(positions)} positions, {a.trials} trials per candidate)')


if __name__ == '__main__':
    main()
