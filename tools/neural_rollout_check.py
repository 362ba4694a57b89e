#!/usr/bin/env python3
"""Discrimination of the neural player's win chances (issue 21 item 6).

On positions of real games of `neural` in every seat (seeded, played by
`penk engine`), the hint's fast figure for each of the best `--candidates`
markings is compared with a rollout of `--trials` games per candidate, the
neural player in every seat (`penk hint --rollouts N --policy neural`): the
fast figure should lie within the rollout's 95% interval. The issue's two
positions come first. Prints a Markdown table (docs/AI.md) and a summary.

    python3 tools/neural_rollout_check.py build/penk [--trials 2000] [--candidates 3]
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
    a = ap.parse_args()
    positions = ISSUE_POSITIONS + game_positions(a.penk, a.positions - len(ISSUE_POSITIONS))
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
