#!/usr/bin/python3
"""The web app in a real browser (issue 12, docs/WEB.md).

Headless Chromium, driven by Selenium (Debian's chromium, chromium-driver and
python3-selenium; run with /usr/bin/python3, which sees python3-selenium),
plays on the page of `penk serve` by clicking, as a player would. Every check
is against an independent source: a `penk engine` process replaying the same
decisions (same seed, same dice) or the `penk hint` command.

    browser_test.py --penk build/penk --shots build/web_screens CASE
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

ARGS = None


def chromium(profile):
    """Debian's headless Chromium with a profile of its own (root: no sandbox;
    no background networking, which this machine's closed network refuses)."""
    options = webdriver.ChromeOptions()
    options.binary_location = '/usr/bin/chromium'
    for flag in ('--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                 '--disable-background-networking', '--disable-component-update', '--disable-sync',
                 '--disable-dev-shm-usage', f'--user-data-dir={profile}', '--window-size=1200,1000'):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path='/usr/bin/chromedriver') \
        if hasattr(webdriver, 'ChromeService') else None
    return webdriver.Chrome(options=options, service=service) if service else webdriver.Chrome(options=options)


def static_server(site, port='0', log=None):
    """Python's static file server on `site` (port 0: a free one); returns
    the process and its port. `log`: a file for its request log."""
    server = subprocess.Popen([sys.executable, '-u', '-m', 'http.server', port, '--bind', '127.0.0.1',
                               '--directory', site], stdout=subprocess.PIPE,
                              stderr=log if log is not None else subprocess.DEVNULL, text=True)
    line = server.stdout.readline()
    m = re.search(r'port (\d+)', line)
    if not m:
        server.kill()
        raise RuntimeError(f'python3 -m http.server did not start: {line!r}')
    return server, m.group(1)


class Engine:
    """A `penk engine` process: the independent replica of the page's game."""

    def __init__(self, penk):
        self.proc = subprocess.Popen([penk, 'engine'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True)

    def call(self, cmd, **fields):
        self.proc.stdin.write(json.dumps({'cmd': cmd, **fields}) + '\n')
        self.proc.stdin.flush()
        reply = json.loads(self.proc.stdout.readline())
        if 'error' in reply:
            raise AssertionError(f'engine refused {cmd} {fields}: {reply["error"]}')
        return reply['result']

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


class Page(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if ARGS.site:
            # The static site (tools/build_wasm.sh): any static file host,
            # here Python's; no penk process serves the page.
            cls.server, port = static_server(ARGS.site)
            cls.url = f'http://127.0.0.1:{port}/'
        else:
            cls.server = subprocess.Popen([ARGS.penk, 'serve', '--port', '0'], stderr=subprocess.PIPE,
                                          text=True)
            line = cls.server.stderr.readline()
            m = re.search(r'http://127\.0\.0\.1:(\d+)', line)
            if not m:
                cls.server.kill()
                raise RuntimeError(f'penk serve did not start: {line!r}')
            cls.url = f'http://127.0.0.1:{m.group(1)}/'
        cls.profile = tempfile.mkdtemp(prefix='penk_chromium_')
        cls.driver = chromium(cls.profile)
        os.makedirs(ARGS.shots, exist_ok=True)

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.server.terminate()
        cls.server.wait(timeout=30)
        shutil.rmtree(cls.profile, ignore_errors=True)

    # ---- helpers ----

    def open(self, fresh=True):
        """Loads the page; fresh: without the game an earlier case left in
        the browser's storage (the page would restore it)."""
        self.driver.get(self.url)
        if fresh:
            self.wait_ready()
            self.driver.execute_script('localStorage.clear()')
            self.driver.get(self.url)
        self.wait_ready()

    def wait_ready(self):
        self.wait_for(lambda d: d.execute_script('return document.body.dataset.ready === "1"'), 'page ready')

    def saved_steps(self):
        """The undo depth of the game the page saved in localStorage, or None."""
        return self.driver.execute_script(
            'const s = JSON.parse(localStorage.getItem("penk.game")); return s ? s.undo_steps : null')

    def set_checked(self, selector, on=True):
        """A checkbox set to `on`, whatever it was: a setting the page put
        back from a saved game (applySettings) is not toggled the wrong way."""
        box = self.el(selector)
        if box.is_selected() != on:
            # The element's own click, not a click at its place on screen:
            # the advisor's table, drawn when its reply comes, moves the
            # controls below it, and a pointer click aimed before the move
            # lands on whatever is there after it (the box stayed unchecked
            # in one CI run, and the test waited 120 s in vain).
            self.driver.execute_script('arguments[0].scrollIntoView({block: "center"}); arguments[0].click()', box)
        self.wait_for(lambda d: self.el(selector).is_selected() == on, f'{selector} {"on" if on else "off"}')

    def coach_note(self):
        box = self.el('#coach-note')
        return '' if box.get_attribute('hidden') is not None else box.text

    def wait_for(self, condition, what, timeout=120):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.05).until(condition)
        except TimeoutException:
            self.shot('timeout')
            raise AssertionError(f'timed out waiting for {what}; error shown: {self.error_text()!r}')

    def el(self, css):
        return self.driver.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.driver.find_elements(By.CSS_SELECTOR, css)

    def click(self, css):
        self.driver.execute_script('arguments[0].scrollIntoView({block: "center"})', self.el(css))
        self.el(css).click()

    def shot(self, name):
        self.driver.save_screenshot(os.path.join(ARGS.shots, f'{name}.png'))

    def error_text(self):
        box = self.el('#error')
        return '' if box.get_attribute('hidden') is not None else self.el('#error-text').text

    def page_state(self):
        """The page's idea of the state: for waiting only, never for checking."""
        return self.driver.execute_script('return window.penk.busy ? null : window.penk.state')

    def wait_human_or_over(self):
        def ready(d):
            s = self.page_state()
            if not s:
                return False
            if s['phase'] == 'over':
                return s
            if s['players'][s['current']]['seat'] == 'human' or s['phase'] == 'roll':
                return s
            return False
        return self.wait_for(ready, 'a human decision or the end of the game')

    def new_game(self, seats, seed, dice='engine'):
        self.open()
        while len(self.els('#seats select')) < len(seats):
            self.click('#add-seat')
        while len(self.els('#seats select')) > len(seats):
            self.click('#remove-seat')
        for i, seat in enumerate(seats):
            Select(self.el(f'#seat-{i}')).select_by_value(seat)
        self.el('#seed').clear()
        self.el('#seed').send_keys(str(seed))
        Select(self.el('#dice-source')).select_by_value(dice)
        # Instant AI moves (the speed control is part of the game's panel).
        self.driver.execute_script('document.getElementById("speed").value = "0"')
        self.click('#new-game')
        self.wait_for(lambda d: self.el('#play').get_attribute('hidden') is None, 'the game')

    def wait_synced(self, state):
        """Until the page shows the replica's step (same undo depth, phase, mover)."""
        def same(d):
            s = self.page_state()
            return s and all(s.get(k) == state.get(k) for k in ('undo_steps', 'phase', 'current', 'dice'))
        self.wait_for(same, f'the page at step {state["undo_steps"]} ({state["phase"]})')

    def dom_sheets(self):
        """Each player's sheet as the page draws it: R7.3 text, crossings,
        row and column scores, total, closed columns, read from the cells'
        classes and texts (one script call: the DOM, not the page's state)."""
        return self.driver.execute_script('''
          return [...document.querySelectorAll('#sheets .player')].map((card) => {
            const rows = [], by = [];
            for (let k = 1; k <= 5; k++) {
              let row = '', brow = '';
              for (let v = 1; v <= 5; v++) {
                const td = card.querySelector(`td[data-face="${v}"][data-size="${k}"]`);
                const c = td.classList;
                row += c.contains('circled') ? 'o' : c.contains('crossed') ? 'x' : '.';
                brow += td.dataset.by || (c.contains('failure') ? 'f' : '.');
              }
              rows.push(row);
              by.push(brow);
            }
            const ints = (sel) => [...card.querySelectorAll(sel)].map((e) => Number(e.textContent));
            return {sheet: rows.join('/'), penk_by: by.join('/'), row_scores: ints('.row-score'),
                    column_scores: ints('.col-score'), score: ints('.total')[0],
                    closed: ints('th.closed')};
          });''')

    def assert_page_matches(self, state, when):
        page = self.dom_sheets()
        self.assertEqual(len(page), len(state['players']), when)
        for i, (p, e) in enumerate(zip(page, state['players'])):
            self.assertEqual(p['sheet'], e['sheet'], f'{when}: sheet of P{i + 1}')
            # crossings: the page marks PENK crossings by player and failures
            want = re.sub(r'[?]', '.', e['crossings'])
            self.assertEqual(p['penk_by'], want, f'{when}: crossings of P{i + 1}')
            self.assertEqual(p['row_scores'], e['row_scores'], f'{when}: row scores of P{i + 1}')
            self.assertEqual(p['column_scores'], e['column_scores'], f'{when}: column scores of P{i + 1}')
            self.assertEqual(p['score'], e['score'], f'{when}: score of P{i + 1}')
            self.assertEqual(p['closed'], e['closed_columns'], f'{when}: closed columns of P{i + 1}')

    def dom_dice(self):
        return ''.join(d.get_attribute('data-face') for d in self.els('#dice .die'))

    def mark_by_clicking(self, state, action):
        """Circles the cells of `action` on the mover's sheet, then Mark."""
        for group in action.split('+'):
            v, k = group.rstrip('J').split(':')
            self.click(f'#player-{state["current"]} td[data-face="{v}"][data-size="{k}"]')
        self.wait_for(lambda d: self.el('#mark').is_enabled(), f'Mark enabled for {action}', 10)
        self.click('#mark')

    # ---- the cases ----

    def test_load(self):
        self.open()
        self.assertEqual(self.driver.title, 'PENK')
        levels = [o.get_attribute('value') for o in self.els('#seat-1 option')]
        hello = Engine(ARGS.penk)
        try:
            info = hello.call('hello')['level_info']
        finally:
            hello.close()
        want = ['human'] + [l['name'] for l in info]
        self.assertEqual(levels, want)
        # Each AI level shows its strength from the ladder (Elo, greedy = 0).
        labels = [o.text for o in self.els('#seat-1 option')][1:]
        for label, level in zip(labels, info):
            elo = level['elo']
            self.assertIn('(Elo %s%d)' % ('+' if elo > 0 else '', elo), label)
        self.assertEqual(self.error_text(), '')
        self.shot('setup')
        self.driver.set_window_size(390, 844)  # a phone
        self.shot('setup_phone')
        width = self.driver.execute_script('return document.documentElement.scrollWidth')
        self.assertLessEqual(width, 390, 'the page fits a phone-sized screen')
        try:
            self.new_game(['human', 'greedy', 'greedy'], 12)
            self.click('#stop')
            self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'mark', 'the mark phase')
            width = self.driver.execute_script('return document.documentElement.scrollWidth')
            self.assertLessEqual(width, 390, 'a game fits a phone-sized screen')
            self.shot('game_phone')
        finally:
            self.driver.set_window_size(1200, 1000)

    def test_game_vs_expert(self):
        seed = 20261130
        self.new_game(['human', 'expert'], seed)
        replica = Engine(ARGS.penk)
        try:
            state = replica.call('new_game', players=['human', 'expert'], seed=seed)
            turns = 0
            shot_taken = False
            while True:
                page = self.wait_human_or_over()
                # The replica plays the AI's decisions itself.
                while state['phase'] != 'over' and state['players'][state['current']]['seat'] != 'human':
                    state = replica.call('best_action', game=state['game'], apply=True)['state']
                self.assert_page_matches(state, f'after turn {turns}')
                if state['phase'] == 'over':
                    break
                self.assertEqual(self.dom_dice(), state['dice'], 'the dice shown')
                # Keep phase: keep the first die once, then stop.
                if state['rerolls_left'] == 2:
                    self.click('#dice .die:first-child')
                    keep = state['dice'][0]
                    self.click('#reroll')
                    state = replica.call('apply', game=state['game'], action=keep)
                    self.wait_for(lambda d: (self.page_state() or {}).get('rerolls_left') == 1, 'the reroll')
                    self.assertEqual(self.dom_dice(), state['dice'], 'the dice after the reroll')
                self.click('#stop')
                state = replica.call('apply', game=state['game'], action='stop')
                self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'mark', 'the mark phase')
                if not shot_taken and len(state['legal_actions']) > 3:
                    self.shot('game_mark')
                    shot_taken = True
                # A marking by clicking cells (the last listed circles the
                # most), or a failure by choosing a column.
                action = state['legal_actions'][-1]
                if action.startswith('fail:'):
                    self.click(f'#failure button[data-action="{action}"]')
                else:
                    self.mark_by_clicking(state, action)
                state = replica.call('apply', game=state['game'], action=action)
                turns += 1
                self.assertLess(turns, 60)
            self.assertEqual(self.error_text(), '')
            rows = self.els('#result-table tr')
            self.assertEqual(len(rows), 3)
            for i, p in enumerate(state['players']):
                self.assertEqual(rows[i + 1].find_elements(By.TAG_NAME, 'td')[-1].text, str(p['score']))
            self.assertGreater(len(self.els('#history li')), turns)
            self.assertIsNone(self.saved_steps(), 'a finished game is not kept')
            self.shot('game_over')
        finally:
            replica.close()

    def test_physical_dice(self):
        seed = 4
        self.new_game(['human', 'greedy'], seed, dice='manual')
        replica = Engine(ARGS.penk)
        try:
            state = replica.call('new_game', players=['human', 'greedy'], seed=seed, dice='manual')
            # Turn 1 (human): 11335J, keep 11, an impossible roll refused, then 11222J.
            self.wait_for(lambda d: self.el('#dice-entry').get_attribute('hidden') is None, 'dice entry')
            self.el('#dice-input').send_keys('1 1 3 3 5 !')
            self.click('#dice-submit')
            state = replica.call('roll', game=state['game'], dice='11335J')
            self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'keep', 'the keep phase')
            self.assertEqual(self.dom_dice(), '11335J')
            for n in (1, 2):  # each click redraws the dice
                self.click(f'#dice .die:nth-child({n})')
            self.click('#reroll')
            state = replica.call('apply', game=state['game'], action='11')
            self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'roll', 'the second roll')
            self.assertIn('11', self.el('#dice-kept').text)
            # A reload while the table rolls: the record has the physical
            # rolls, so the page waits for the same roll with the same keep.
            self.wait_for(lambda d: self.saved_steps() == state['undo_steps'], 'the game saved')
            self.driver.refresh()
            self.wait_ready()
            self.wait_synced(state)
            self.assertIn('11', self.el('#dice-kept').text)
            self.el('#dice-input').clear()
            self.el('#dice-input').send_keys('234555')  # the kept 1s are not there (R2.2)
            self.click('#dice-submit')
            self.wait_for(lambda d: self.error_text() != '', 'the refusal')
            self.assertIn('Not allowed now', self.error_text())
            self.shot('physical_refused')
            self.assertEqual(self.page_state()['phase'], 'roll', 'the refused roll changed nothing')
            self.el('#dice-input').clear()
            # Clicking faces: two 1s, three 2s and the jolly.
            for face in '11222J':
                self.click(f'#face-buttons .die[data-face="{face}"]')
            self.click('#dice-submit')
            state = replica.call('roll', game=state['game'], dice='11222J')
            self.wait_synced(state)
            self.assertEqual(self.error_text(), '', 'the refusal is gone once a roll is accepted')
            self.click('#stop')
            state = replica.call('apply', game=state['game'], action='stop')
            self.wait_synced(state)
            self.mark_by_clicking(state, '1:2+2:4')
            state = replica.call('apply', game=state['game'], action='1:2+2:4')
            # Turn 2 (greedy): the player rolls for it (the dice it kept and
            # 3s), the AI decides.
            while state['current'] == 1:
                self.wait_synced(state)
                dice = (state.get('kept', '').strip('-') + '333333')[:6]
                self.el('#dice-input').clear()
                self.el('#dice-input').send_keys(dice)
                self.click('#dice-submit')
                state = replica.call('roll', game=state['game'], dice=dice)
                while state['phase'] in ('keep', 'mark') and state['current'] == 1:
                    state = replica.call('best_action', game=state['game'], apply=True)['state']
            self.wait_synced(state)
            self.wait_for(lambda d: (self.page_state() or {}).get('current') == 0, "the human's turn again")
            self.assert_page_matches(state, 'after the turn with physical dice')
            self.assertEqual(self.error_text(), '')
        finally:
            replica.close()

    def test_undo(self):
        """Undo against a `penk engine` replica playing the same game (same
        seed, same decisions): after each undo the page shows the replica's
        state, which is the state recorded before those decisions."""
        seed = 99
        self.new_game(['human', 'greedy'], seed)
        replica = Engine(ARGS.penk)
        try:
            start = replica.call('new_game', players=['human', 'greedy'], seed=seed)
            self.wait_synced(start)
            self.assert_page_matches(start, 'at the start')
            self.assertEqual(self.dom_dice(), start['dice'])
            self.click('#stop')
            marking = replica.call('apply', game=start['game'], action='stop')
            self.wait_synced(marking)
            action = marking['legal_actions'][0]
            self.click(f'#legal button[data-action="{action}"]')
            state = replica.call('apply', game=start['game'], action=action)
            while state['players'][state['current']]['seat'] != 'human':  # greedy's turn
                state = replica.call('best_action', game=start['game'], apply=True)['state']
            self.wait_synced(state)
            self.assert_page_matches(state, 'in round 2')
            self.assertNotEqual(state['players'][0]['sheet'], '...../...../...../...../.....')
            # Undo: back to the human's marking of round 1, greedy's moves
            # taken back too.
            self.click('#undo')
            while state['undo_steps'] > marking['undo_steps']:
                state = replica.call('undo', game=start['game'])
            for key in ('phase', 'round', 'current', 'dice', 'legal_actions'):
                self.assertEqual(state[key], marking[key], f'the replica undone: {key}')
            self.wait_synced(state)
            self.assert_page_matches(state, 'after undoing the marking')
            self.assertEqual(self.dom_dice(), state['dice'])
            self.click('#undo')  # and the stop
            state = replica.call('undo', game=start['game'])
            for key in ('phase', 'rerolls_left', 'dice', 'undo_steps'):
                self.assertEqual(state[key], start[key], f'the replica undone to the start: {key}')
            self.wait_synced(state)
            self.assert_page_matches(state, 'after undoing the stop')
            self.assertEqual(self.dom_dice(), state['dice'])
            self.assertEqual(self.el('#rerolls').text.split(' —')[0], f'Rerolls left: {state["rerolls_left"]}')
            self.assertEqual(self.error_text(), '')
        finally:
            replica.close()

    def test_advisor_equals_penk_hint(self):
        self.new_game(['human'], 31)
        self.set_checked('#advisor-on')
        for step in range(3):
            s = self.wait_human_or_over()
            self.wait_for(lambda d: len(self.els('#advisor-table tr')) > 1, 'the advisor')
            best = self.els('#advisor-table tr.best')
            self.assertEqual(len(best), 1)
            sheet = self.dom_sheets()[0]['sheet']
            cli = json.loads(subprocess.run(
                [ARGS.penk, 'hint', '--json', '--sheet', sheet, '--roll', self.dom_dice(),
                 '--rerolls', str(s['rerolls_left']), '--top', '1'],
                check=True, capture_output=True, text=True).stdout)
            top = cli['actions'][0]
            self.assertEqual(best[0].get_attribute('data-action'), top['action'], f'step {step}')
            self.assertEqual(best[0].find_elements(By.TAG_NAME, 'td')[2].text, f'{top["value"]:.2f}')
            if step == 0:
                self.shot('advisor')
            if s['phase'] == 'keep':
                self.click('#stop')
                self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'mark', 'mark')
            else:
                self.click(f'#legal button[data-action="{s["legal_actions"][0]}"]')
                self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'keep', 'next turn')

    def test_coach_with_opponents(self):
        """Against greedy: the advisor ranks by win chance as `penk hint
        --opponent` does, and the coach flags exactly the decisions that lose
        win chance (threshold 0). Every decision is checked against an
        independent source: a `penk engine` replica plays the same game (same
        seed and decisions) and gives the position; `penk hint --json
        --opponent` on that position gives the loss of the decision taken; the
        page must flag it exactly when that loss is above 0, and its report
        must list exactly those decisions."""
        seed = 8
        self.new_game(['human', 'greedy'], seed)
        self.set_checked('#advisor-on')
        self.set_checked('#coach-on')
        self.el('#coach-threshold').clear()
        self.el('#coach-threshold').send_keys('0')
        # The AI paused while the coach's note on the human's last decision
        # is read (at instant speed greedy's turn would follow at once).
        self.set_checked('#pause')
        replica = Engine(ARGS.penk)
        expected = []  # (round, dice, loss) of each decision that should be flagged
        decisions = 0
        looked_at_analysis = False
        try:
            state = replica.call('new_game', players=['human', 'greedy'], seed=seed)
            while True:
                if state['phase'] != 'over' and state['players'][state['current']]['seat'] != 'human':
                    self.set_checked('#pause', False)  # greedy plays its turn
                    while state['phase'] != 'over' and state['players'][state['current']]['seat'] != 'human':
                        state = replica.call('best_action', game=state['game'], apply=True)['state']
                    self.wait_synced(state)
                    self.set_checked('#pause')
                self.wait_synced(state)
                if state['phase'] == 'over':
                    break
                if state['phase'] == 'keep' and state['rerolls_left'] == 2:
                    self.assertEqual(self.coach_note(), '', 'no flag of an earlier turn in a new turn')
                self.assert_page_matches(state, f'decision {decisions}')
                self.wait_for(lambda d: len(self.els('#advisor-table tr')) > 1, 'the advisor')
                me, other = state['players'][0], state['players'][1]
                cli = json.loads(subprocess.run(
                    [ARGS.penk, 'hint', '--json', '--sheet', me['sheet'], '--roll', state['dice'],
                     '--rerolls', str(state['rerolls_left']), '--opponent', other['sheet'], '--seat', '1',
                     '--turn', str(me['turns'])] + (['--last-round'] if state['last_round'] else []),
                    check=True, capture_output=True, text=True).stdout)['actions']
                head = [th.text for th in self.els('#advisor-table th')]
                self.assertEqual(head, ['#', 'option', 'win chance', 'score in this game', 'solitaire value'])
                best = self.el('#advisor-table tr.best')
                self.assertEqual(best.get_attribute('data-action'), cli[0]['action'])
                # The figures shown are the CLI's: win, then the expected score in this game.
                cells = [td.text for td in best.find_elements(By.TAG_NAME, 'td')]
                self.assertEqual(cells[2], f"{100 * cli[0]['win']:.2f}%")
                self.assertEqual(cells[3], f"{cli[0]['score']:.2f}")
                # Stop, or the last listed marking: often not the best.
                action = 'stop' if state['phase'] == 'keep' else state['legal_actions'][-1]
                chosen = state['dice'] if action == 'stop' else action
                loss = 100 * (cli[0]['win'] - next(a['win'] for a in cli if a['action'] == chosen))
                if loss > 0:
                    expected.append((state['round'], state['dice'], loss))
                if action == 'stop':
                    self.click('#stop')
                elif action.startswith('fail:'):
                    self.click(f'#failure button[data-action="{action}"]')
                else:
                    self.click(f'#legal button[data-action="{action}"]')
                before = state['undo_steps']
                self.wait_for(lambda d: (self.page_state() or {}).get('undo_steps', -1) > before, 'the decision')
                state = replica.call('apply', game=state['game'], action=action)
                decisions += 1
                shown = self.coach_note()
                # Flagged beside the dice and markings, never in the error bar.
                self.assertEqual(self.error_text(), '')
                if state['phase'] == 'over':  # the result lists the flags instead
                    self.assertEqual(shown, '')
                    continue
                if shown.startswith('Coach:') != (loss > 0):  # what the page had, to tell why
                    page = self.driver.execute_script(
                        'const c = (id) => document.getElementById(id); return {coach: c("coach-on").checked, '
                        'threshold: c("coach-threshold").value, pause: c("pause").checked, flagged: window.penk.flagged}')
                    self.fail(f'coach on {action} losing {loss}: {shown!r}; the page: {page}')
                if loss > 0:
                    self.assertIn(f'loses {loss:.2f} points of win chance', shown)
                    self.assertTrue(self.driver.execute_script(
                        'return document.getElementById("turn").contains(document.getElementById("coach-note"))'))
                if loss > 0 and not looked_at_analysis:
                    # The Analysis tab shows nothing of the game's coach.
                    self.click('#tab-analysis')
                    text = self.driver.execute_script('return document.body.innerText')
                    self.assertNotIn('Coach:', text, 'the coach in the Analysis tab')
                    self.click('#tab-game')
                    looked_at_analysis = True
            self.assertTrue(looked_at_analysis)
            self.assertGreater(decisions, 10)
            print(f"{decisions} decisions, {len(expected)} losing win chance", file=sys.stderr)
            self.assertGreater(len(expected), 0, 'some decisions must lose win chance')
            self.assertLess(len(expected), decisions, 'some decisions must lose none')
            items = [li.text for li in self.els('#coach-report li')]
            self.assertEqual(len(items), len(expected))
            for text, (rnd, dice, loss) in zip(items, expected):
                self.assertTrue(text.startswith(f'round {rnd}, dice {dice}: '), text)
                self.assertIn(f'(-{loss:.2f} % win chance)', text)
            self.shot('coach_report')
        finally:
            replica.close()

    def play_to_second_turn_keep(self, seats, seed):
        """A game on the page and its replica: the human's first turn (stop,
        the first legal marking), the AI's, then a keep of the first die in
        the human's second turn. Returns the replica and its state."""
        self.new_game(seats, seed)
        replica = Engine(ARGS.penk)
        state = replica.call('new_game', players=seats, seed=seed)
        self.wait_synced(state)
        self.click('#stop')
        state = replica.call('apply', game=state['game'], action='stop')
        self.wait_synced(state)
        action = state['legal_actions'][0]
        self.click(f'#legal button[data-action="{action}"]')
        state = replica.call('apply', game=state['game'], action=action)
        while state['players'][state['current']]['seat'] != 'human':
            state = replica.call('best_action', game=state['game'], apply=True)['state']
        self.wait_synced(state)
        self.click('#dice .die:first-child')
        self.click('#reroll')
        state = replica.call('apply', game=state['game'], action=state['dice'][0])
        self.wait_synced(state)
        return replica, state

    def assert_shows(self, state, when):
        """The page shows the replica's position: sheets, dice, phase, rerolls, undo depth."""
        self.wait_synced(state)
        self.assert_page_matches(state, when)
        self.assertEqual(self.dom_dice(), state['dice'], f'{when}: the dice')
        if state['phase'] == 'keep':  # the count is shown while dice can be kept
            self.assertEqual(self.el('#rerolls').text.split(' —')[0], f'Rerolls left: {state["rerolls_left"]}',
                             when)
        self.assertEqual(self.page_state()['undo_steps'], state['undo_steps'], f'{when}: undo steps')

    def test_reload(self):
        """A reload mid-turn shows the game where it was (the record saved in
        localStorage, restored with new_game + record), and the game goes on:
        one more decision, and undo back over the reload."""
        replica, state = self.play_to_second_turn_keep(['human', 'expert'], 77)
        try:
            self.wait_for(lambda d: self.saved_steps() == state['undo_steps'], 'the game saved')
            self.el('#advisor-on').click()  # a setting saved with the game
            self.driver.refresh()
            self.wait_ready()
            self.assertIsNone(self.el('#play').get_attribute('hidden'), 'the game is shown, not the set-up')
            self.assert_shows(state, 'after the reload')
            self.assertTrue(self.el('#advisor-on').is_selected(), 'the advisor setting kept')
            self.assertEqual(self.error_text(), '')
            self.shot('reload_restored')
            # The game goes on: stop, then undo twice (the stop, and the keep
            # made before the reload).
            self.click('#stop')
            marking = replica.call('apply', game=state['game'], action='stop')
            self.assert_shows(marking, 'the stop after the reload')
            self.click('#undo')
            replica.call('undo', game=state['game'])
            self.assert_shows(state, 'the stop undone')
            self.click('#undo')
            before_keep = replica.call('undo', game=state['game'])
            self.assert_shows(before_keep, 'the keep before the reload undone')
            # New game replaces the saved game; a finished one is not kept.
            self.click('#leave')
            self.click('#new-game')
            self.wait_for(lambda d: self.saved_steps() == 0, 'the new game saved')
        finally:
            replica.close()

    def test_reconnect(self):
        """A lost connection (the socket closed from the page's side; the
        server's side: test_server_restart) is recovered without a reload: the page
        reconnects, restores the saved game in the new session and goes on."""
        if ARGS.site:
            self.skipTest('penk serve only: the static site has no server to lose')
        replica, state = self.play_to_second_turn_keep(['human', 'greedy'], 5)
        try:
            self.wait_for(lambda d: self.saved_steps() == state['undo_steps'], 'the game saved')
            self.driver.execute_script('window.penk.lostSocket = window.penk.engine.ws; window.penk.lostSocket.close()')
            self.wait_for(lambda d: d.execute_script(
                'const e = window.penk.engine; return e.ws !== window.penk.lostSocket && e.ws.readyState === 1'
                ' && !window.penk.busy && !document.getElementById("connection").classList.contains("bad")'),
                'the page reconnected', 30)
            self.assert_shows(state, 'after the reconnection')
            self.assertEqual(self.error_text(), '', 'the lost connection is no longer reported')
            self.click('#stop')
            state = replica.call('apply', game=state['game'], action='stop')
            self.assert_shows(state, 'a decision after the reconnection')
        finally:
            replica.close()

    def test_server_restart(self):
        """The server stopped and started again on the same port (the
        connection lost from the server's side): the page notices, retries
        with backoff while nothing answers, then restores the saved game in
        the new server and goes on."""
        if ARGS.site:
            self.skipTest('penk serve only: the static site has no server to lose')
        replica, state = self.play_to_second_turn_keep(['human', 'greedy'], 6)
        try:
            self.wait_for(lambda d: self.saved_steps() == state['undo_steps'], 'the game saved')
            port = re.search(r':(\d+)/$', self.url).group(1)
            self.server.terminate()
            self.server.wait(timeout=30)
            self.wait_for(lambda d: 'bad' in self.el('#connection').get_attribute('class'), 'the loss noticed', 30)
            time.sleep(2)  # a few failed attempts while no server listens
            self.assertIn('reconnecting', self.el('#connection').text)
            server = subprocess.Popen([ARGS.penk, 'serve', '--port', port], stderr=subprocess.PIPE, text=True)
            type(self).server = server  # stopped by tearDownClass
            self.assertIn(f':{port}', server.stderr.readline())
            self.wait_for(lambda d: d.execute_script(
                'return !window.penk.busy && !document.getElementById("connection").classList.contains("bad")'),
                'the page reconnected', 60)
            self.assert_shows(state, 'after the server restarted')
            self.assertEqual(self.error_text(), '')
            self.click('#stop')
            state = replica.call('apply', game=state['game'], action='stop')
            self.assert_shows(state, 'a decision in the new server')
        finally:
            replica.close()

    def test_seed_field(self):
        """New game offers an empty seed (a new deal) unless "same seed" is
        ticked: then the last game's seed, which deals the same dice again."""
        self.new_game(['human'], '')
        first = self.wait_human_or_over()
        self.click('#leave')
        self.assertEqual(self.el('#seed').get_attribute('value'), '', 'a new deal by default')
        self.click('#same-seed')
        self.assertEqual(self.el('#seed').get_attribute('value'), str(first['seed']))
        self.click('#new-game')
        self.wait_for(lambda d: (self.page_state() or {}).get('game') != first['game'], 'the second game')
        again = self.wait_human_or_over()
        self.assertEqual(again['seed'], first['seed'])
        self.assertEqual(self.dom_dice(), first['dice'], 'the same seed rolls the same dice')
        self.click('#leave')
        self.assertEqual(self.el('#seed').get_attribute('value'), str(first['seed']), 'still the same seed')
        self.click('#same-seed')  # unticked
        self.click('#new-game')
        self.wait_for(lambda d: self.el('#play').get_attribute('hidden') is None, 'the game')
        self.click('#leave')
        self.assertEqual(self.el('#seed').get_attribute('value'), '', 'unticked: a new deal again')

    def test_row_labels(self):
        """Each row says its dice and its points (R1.2, R6.1) without a
        tooltip, and a marking v:k circles the cell of the row saying k dice."""
        self.new_game(['human'], 3)
        labels = [th.text for th in self.els('#player-0 th.row-label')]
        self.assertEqual(labels, ['1 die · 1', '2 dice · 2', '3 dice · 3', '4 dice · 5', '5 dice · 8'])
        self.wait_human_or_over()
        self.click('#stop')
        state = self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'mark' and self.page_state(), 'mark')
        groups = [a for a in state['legal_actions'] if '+' not in a and not a.startswith('fail:')]
        action = max(groups, key=lambda a: int(a.rstrip('J').split(':')[1]))  # the largest group
        face, size = (int(x) for x in action.rstrip('J').split(':'))
        self.click(f'#legal button[data-action="{action}"]')
        self.wait_for(lambda d: len(self.els('#player-0 td.circled')) == 1, 'the marking')
        row = self.driver.execute_script(
            'const td = document.querySelector("#player-0 td.circled");'
            'return [td.parentElement.querySelector("th.row-label").textContent,'
            '        td.closest("table").rows[0].cells[td.cellIndex].textContent];')
        self.assertTrue(row[0].startswith(f'{size} di'), f'{action} circled in the row {row[0]!r}')
        self.assertEqual(row[1], str(face), f'{action} circled in column {row[1]}')
        self.driver.set_window_size(390, 844)
        try:
            width = self.driver.execute_script('return document.documentElement.scrollWidth')
            self.assertLessEqual(width, 390, 'the labels fit a phone')
            self.shot('row_labels_phone')
        finally:
            self.driver.set_window_size(1200, 1000)

    def test_advisor_show_all(self):
        """The advisor lists the best 12 options, and every option of `penk
        hint` on asking (show all / show the best 12)."""
        self.new_game(['human'], 31)
        self.set_checked('#advisor-on')
        s = self.wait_human_or_over()
        cli = json.loads(subprocess.run(
            [ARGS.penk, 'hint', '--json', '--roll', s['dice'], '--rerolls', str(s['rerolls_left'])],
            check=True, capture_output=True, text=True).stdout)['actions']
        self.assertGreater(len(cli), 12, 'a roll with more options than the short list')
        self.wait_for(lambda d: len(self.els('#advisor-table tr')) == 13, 'the best 12')
        self.assertEqual(self.el('#advisor-more').text, f'show all {len(cli)}')
        self.click('#advisor-more')
        self.wait_for(lambda d: len(self.els('#advisor-table tr')) == len(cli) + 1, 'every option')
        shown = [tr.get_attribute('data-action') for tr in self.els('#advisor-table tr')[1:]]
        self.assertEqual(shown, [a['action'] for a in cli])
        self.click('#advisor-more')
        self.wait_for(lambda d: len(self.els('#advisor-table tr')) == 13, 'the best 12 again')

    def test_analysis_seat_last_round(self):
        """The analysis takes the seat to move, the turns played and the last
        round, ranks as `penk hint --seat 2 --turn 8 --last-round` does, and
        shows every sheet's score as `penk score` gives it."""
        mover = 'xoooo/xoooo/xoo.o/x.oo./xxxxx'  # columns 1 and 3 closed by seat 1's PENKs
        first = 'oooo./ooo.o/oo.oo/o.ooo/ooooo'
        self.open()
        self.click('#tab-analysis')
        self.assertIsNotNone(self.el('#an-game-fields').get_attribute('hidden'), 'no seat without opponents')
        box = self.el('#an-sheet-text')
        box.clear()
        box.send_keys(mover)
        self.driver.execute_script('document.getElementById("an-sheet-text").dispatchEvent(new Event("change"))')
        self.click('#an-add-opponent')
        for k, row in enumerate(first.split('/'), start=1):  # clicks: free -> circled -> crossed
            for v, c in enumerate(row, start=1):
                for _ in range({'.': 0, 'o': 1, 'x': 2}[c]):
                    self.click(f'#an-opponents td[data-face="{v}"][data-size="{k}"]')
        Select(self.el('#an-seat')).select_by_value('2')
        self.el('#an-turns').send_keys('8')
        self.click('#an-last-round')
        self.el('#an-roll').send_keys('2222J4')
        Select(self.el('#an-rerolls')).select_by_value('0')
        self.click('#an-rank')
        cli = json.loads(subprocess.run(
            [ARGS.penk, 'hint', '--json', '--sheet', mover, '--roll', '2222J4', '--rerolls', '0',
             '--opponent', first, '--seat', '2', '--turn', '8', '--last-round'],
            check=True, capture_output=True, text=True).stdout)
        self.wait_for(lambda d: len(self.els('#an-table tr')) == len(cli['actions']) + 1, 'the ranking')
        best = [td.text for td in self.el('#an-table tr.best').find_elements(By.TAG_NAME, 'td')]
        self.assertEqual(best[1], cli['actions'][0]['action'])
        self.assertEqual(best[2], f"{100 * cli['actions'][0]['win']:.2f}%")
        self.wait_for(lambda d: len(self.els('#an-scores li')) == 2, 'the scores')
        for li, sheet in zip(self.els('#an-scores li'), [first, mover]):  # seat order
            score = json.loads(subprocess.run([ARGS.penk, 'score', '--json', sheet], check=True,
                                              capture_output=True, text=True).stdout)['score']
            self.assertTrue(li.text.endswith(f': {score}'), li.text)
        self.assertIn('(to move)', self.els('#an-scores li')[1].text)
        self.assertEqual(self.error_text(), '')
        self.shot('analysis_seat')

    def assert_on_first_screen(self, selectors, when):
        """Each element's box is inside the viewport with the page scrolled to the top."""
        self.driver.execute_script('window.scrollTo(0, 0)')
        for css in selectors:
            r = self.driver.execute_script(
                'const r = document.querySelector(arguments[0]).getBoundingClientRect();'
                'return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,'
                '        h: window.innerHeight, w: window.innerWidth};', css)
            self.assertGreater(r['height'], 0, f'{when}: {css} shown')
            self.assertGreaterEqual(r['top'], 0, f'{when}: {css} {r}')
            self.assertLessEqual(r['bottom'], r['h'], f'{when}: {css} below the first screen {r}')
            self.assertLessEqual(r['right'], r['w'], f'{when}: {css} beyond the right edge {r}')

    def test_phone_layout(self):
        """On a 390x844 phone with four players: the dice, Reroll/Stop, then
        Mark, and the advisor's best line without scrolling; the other
        sheets can be hidden."""
        self.driver.execute_cdp_cmd('Emulation.setDeviceMetricsOverride',
                                    {'width': 390, 'height': 844, 'deviceScaleFactor': 3, 'mobile': True})
        try:
            self.new_game(['human', 'greedy', 'greedy', 'greedy'], 21)
            self.assertEqual(self.driver.execute_script('return window.innerHeight'), 844)
            self.set_checked('#advisor-on')
            self.wait_human_or_over()
            self.wait_for(lambda d: len(self.els('#advisor-table tr.best')) == 1, 'the advisor')
            self.assert_on_first_screen(['#dice', '#reroll', '#stop', '#advisor-table tr.best'], 'keep')
            self.shot('phone_keep')
            self.click('#stop')
            self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'mark', 'the mark phase')
            self.wait_for(lambda d: len(self.els('#advisor-table tr.best')) == 1, 'the advisor')
            self.assert_on_first_screen(['#dice', '#mark', '#advisor-table tr.best'], 'mark')
            self.shot('phone_mark')
            width = self.driver.execute_script('return document.documentElement.scrollWidth')
            self.assertLessEqual(width, 390, 'no sideways scrolling')
            self.assertEqual(len([e for e in self.els('#sheets .player') if e.is_displayed()]), 4)
            self.click('#others-toggle')
            self.assertEqual(len([e for e in self.els('#sheets .player') if e.is_displayed()]), 1)
            self.click('#others-toggle')
            self.assertEqual(len([e for e in self.els('#sheets .player') if e.is_displayed()]), 4)
        finally:
            self.driver.execute_cdp_cmd('Emulation.clearDeviceMetricsOverride', {})

    def test_analysis(self):
        self.open()
        self.click('#tab-analysis')
        sheet = 'ooo.o/..o.x/....x/..o.x/....x'  # R8 E3
        box = self.el('#an-sheet-text')
        box.clear()
        box.send_keys(sheet + '\n')
        self.driver.execute_script('document.getElementById("an-sheet-text").dispatchEvent(new Event("change"))')
        # A click on a cell edits the sheet: (2,1) free -> circled.
        self.click('#an-sheet td[data-face="2"][data-size="2"]')
        sheet = 'ooo.o/.oo.x/....x/..o.x/....x'
        self.assertEqual(self.el('#an-sheet-text').get_attribute('value'), sheet)
        self.el('#an-roll').send_keys('12345!')
        Select(self.el('#an-rerolls')).select_by_value('0')
        self.click('#an-rank')
        cli = json.loads(subprocess.run(
            [ARGS.penk, 'hint', '--json', '--sheet', sheet, '--roll', '12345J', '--rerolls', '0'],
            check=True, capture_output=True, text=True).stdout)
        self.wait_for(lambda d: len(self.els('#an-table tr')) == len(cli['actions']) + 1, 'the ranking')
        rows = self.els('#an-table tr')[1:]
        for row, want in zip(rows, cli['actions']):
            cells = row.find_elements(By.TAG_NAME, 'td')
            self.assertEqual(cells[1].text, want['action'])
            self.assertEqual(cells[2].text, f'{want["value"]:.4f}')
        # The position's value: `penk value` prints `value: N` on its last line.
        out = subprocess.run([ARGS.penk, 'value', '--sheet', sheet], check=True, capture_output=True,
                             text=True).stdout.strip().splitlines()
        m = re.fullmatch(r'value: (\d+\.\d+)', out[-1])
        self.assertIsNotNone(m, f'penk value printed {out!r}')
        self.wait_for(lambda d: self.el('#an-value').text != '', 'the value')
        self.assertIn(f'{float(m.group(1)):.2f}', self.el('#an-value').text)
        self.assertGreater(len(cli['actions']), 2)
        self.assertEqual(self.error_text(), '')
        self.shot('analysis')
        # The opening table: every roll of the empty sheet, best keep first.
        self.click('#an-empty')
        Select(self.el('#an-rerolls')).select_by_value('2')
        self.click('#an-opening')
        self.wait_for(lambda d: len(self.els('#an-table tr')) == 463, 'the 462 rolls')
        for row in self.els('#an-table tr')[1:][::97]:
            cells = [c.text for c in row.find_elements(By.TAG_NAME, 'td')]
            cli = json.loads(subprocess.run(
                [ARGS.penk, 'hint', '--json', '--roll', cells[0], '--rerolls', '2', '--top', '2'],
                check=True, capture_output=True, text=True).stdout)['actions']
            self.assertEqual(cells[1], cli[0]['action'], cells[0])
            self.assertEqual(cells[2], f'{cli[0]["value"]:.4f}', cells[0])
            self.assertEqual(cells[3], cli[1]['action'], cells[0])
        # A bad roll is an error in words, and the page goes on.
        self.el('#an-roll').clear()
        self.el('#an-roll').send_keys('3335J')
        self.click('#an-rank')
        self.wait_for(lambda d: self.error_text() != '', 'the error')
        self.assertIn('not possible', self.error_text())

    def test_offline(self):
        """The static site after a first visit, with its host gone (the file
        server stopped) and the browser offline: a reload shows the page from
        the service worker's cache, the engine starts from it and the tables
        kept in IndexedDB, and a turn is played against greedy."""
        if not ARGS.site:
            self.skipTest('the static site only')
        self.new_game(['human', 'greedy'], 5)
        self.wait_human_or_over()
        self.wait_for(lambda d: d.execute_script(
            'return navigator.serviceWorker.controller !== null'), 'the service worker in control')
        port = self.url.rsplit(':', 1)[1].strip('/')
        self.server.terminate()
        self.server.wait(timeout=30)
        self.driver.execute_cdp_cmd('Network.enable', {})
        self.driver.execute_cdp_cmd('Network.emulateNetworkConditions', {
            'offline': True, 'latency': 0, 'downloadThroughput': -1, 'uploadThroughput': -1})
        try:
            self.driver.refresh()
            self.wait_ready()
            self.assertIsNone(self.el('#play').get_attribute('hidden'), 'the saved game is shown offline')
            s = self.wait_human_or_over()
            self.click('#stop')
            self.wait_for(lambda d: (self.page_state() or {}).get('phase') == 'mark', 'the mark phase')
            s = self.page_state()
            action = s['legal_actions'][-1]
            if action.startswith('fail:'):
                self.click(f'#failure button[data-action="{action}"]')
            else:
                self.mark_by_clicking(s, action)
            # greedy answers, and the human's next turn comes: played offline.
            self.wait_for(lambda d: (self.page_state() or {}).get('round', 0) >= 2 or
                          (self.page_state() or {}).get('phase') == 'over', 'the next round, offline')
            self.assertEqual(self.error_text(), '')
            self.shot('offline')
        finally:
            self.driver.execute_cdp_cmd('Network.emulateNetworkConditions', {
                'offline': False, 'latency': 0, 'downloadThroughput': -1, 'uploadThroughput': -1})
            type(self).server, _ = static_server(ARGS.site, port)  # stopped by tearDownClass


    def idb_tables(self):
        """The names of the table files the engine keeps in IndexedDB
        (wasm/table_store.mjs: database penk-tables, store files, one record
        {name, size, blob} per file)."""
        return self.driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            const open = indexedDB.open('penk-tables');
            open.onerror = () => done([]);
            open.onsuccess = () => {
              const db = open.result;
              if (!db.objectStoreNames.contains('files')) { db.close(); done([]); return; }
              const keys = db.transaction('files', 'readonly').objectStore('files').getAllKeys();
              keys.onsuccess = () => { db.close(); done(keys.result.map(String)); };
              keys.onerror = () => { db.close(); done([]); };
            };""")

    def idb_digest(self, name):
        """SHA-256 (hex) of a table file the engine keeps in IndexedDB, or None."""
        return self.driver.execute_async_script("""
            const [name, done] = [arguments[0], arguments[arguments.length - 1]];
            const open = indexedDB.open('penk-tables');
            open.onerror = () => done(null);
            open.onsuccess = () => {
              const db = open.result;
              const get = db.transaction('files', 'readonly').objectStore('files').get(name);
              get.onerror = () => { db.close(); done(null); };
              get.onsuccess = async () => {
                db.close();
                if (!get.result || !get.result.blob) { done(null); return; }
                const bytes = await get.result.blob.arrayBuffer();
                if (bytes.byteLength !== get.result.size) { done('size ' + get.result.size); return; }
                const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
                done(Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join(''));
              };
            };""", name)

    def advise_solitaire_game(self, seed):
        """A new solitaire game of seed `seed` with the advisor on: its best
        row is `penk hint`'s."""
        self.new_game(['human'], seed)
        self.set_checked('#advisor-on')
        s = self.wait_human_or_over()
        self.wait_for(lambda d: len(self.els('#advisor-table tr')) > 1, 'the advisor')
        self.assert_advisor_best_is_penk_hint(s)

    def assert_advisor_best_is_penk_hint(self, s):
        """The advisor's best row (solitaire, state `s`) is `penk hint`'s best."""
        cli = json.loads(subprocess.run(
            [ARGS.penk, 'hint', '--json', '--sheet', self.dom_sheets()[0]['sheet'], '--roll',
             self.dom_dice(), '--rerolls', str(s['rerolls_left']), '--top', '1'],
            check=True, capture_output=True, text=True).stdout)
        best = self.els('#advisor-table tr.best')
        self.assertEqual(best[0].get_attribute('data-action'), cli['actions'][0]['action'])

    def test_spread_worker(self):
        """The two workers: the solitaire table they built together at the
        first visit (half of every layer each) is the native build's, byte
        for byte; the first worker builds value tables only, and their
        spread tables are built by the second (helper_worker.js) and handed
        back, kept in IndexedDB."""
        if not ARGS.site:
            self.skipTest('the static site only')
        self.new_game(['human'], 8)
        self.set_checked('#advisor-on')
        self.wait_for(lambda d: len(self.els('#advisor-table tr')) > 1, 'the advisor')
        spread = 'solitaire_line-min=3_penk-lines=all.penkspread'
        self.wait_for(lambda d: spread in self.idb_tables(), 'the spread table in IndexedDB', timeout=300)
        value = spread.replace('.penkspread', '.penktable')
        native = os.path.join(os.path.dirname(os.path.realpath(ARGS.penk)), 'tables', value)
        if not os.path.exists(native):
            subprocess.run([ARGS.penk, 'tables', 'build'], check=True, capture_output=True)
        with open(native, 'rb') as f:
            self.assertEqual(self.idb_digest(value), hashlib.sha256(f.read()).hexdigest())
        self.assertEqual(self.error_text(), '')

    def test_tables_beside_page(self):
        """A host that puts tables in a tables/ folder beside the page (the
        native `penk tables build` files): a first visit, in a browser of its
        own, fetches the solitaire value and spread tables from there, keeps
        them, and the advisor's hint is penk hint's."""
        if not ARGS.site:
            self.skipTest('the static site only')
        value = 'solitaire_line-min=3_penk-lines=all.penktable'
        spread = value.replace('.penktable', '.penkspread')
        native = os.path.join(os.path.dirname(os.path.realpath(ARGS.penk)), 'tables')
        if not all(os.path.exists(os.path.join(native, f)) for f in (value, spread)):
            subprocess.run([ARGS.penk, 'tables', 'build'], check=True, capture_output=True)
        site = tempfile.mkdtemp(prefix='penk_site_')
        profile = tempfile.mkdtemp(prefix='penk_chromium_')
        shutil.copytree(ARGS.site, site, dirs_exist_ok=True)
        os.makedirs(os.path.join(site, 'tables'))
        for f in (value, spread):
            shutil.copy(os.path.join(native, f), os.path.join(site, 'tables', f))
        log_path = os.path.join(profile, 'requests.log')
        log = open(log_path, 'w')
        server, port = static_server(site, log=log)
        driver, url = type(self).driver, type(self).url
        type(self).driver, type(self).url = chromium(profile), f'http://127.0.0.1:{port}/'

        def served(name):
            with open(log_path) as f:
                return any(f'GET /tables/{name} ' in urllib.parse.unquote(line) and '" 200 ' in line
                           for line in f)
        try:
            self.open()
            self.new_game(['human'], 12)
            self.set_checked('#advisor-on')
            s = self.wait_human_or_over()
            self.wait_for(lambda d: len(self.els('#advisor-table tr')) > 1, 'the advisor')
            self.assertTrue(served(value), 'the value table fetched from the host')
            self.wait_for(lambda d: served(spread), 'the spread table fetched from the host', timeout=60)
            self.wait_for(lambda d: spread in self.idb_tables(), 'the fetched tables kept')
            self.assertIn(value, self.idb_tables())
            self.assert_advisor_best_is_penk_hint(s)
            self.assertEqual(self.error_text(), '')
        finally:
            type(self).driver.quit()
            type(self).driver, type(self).url = driver, url
            server.terminate()
            server.wait(timeout=30)
            log.close()
            shutil.rmtree(site, ignore_errors=True)
            shutil.rmtree(profile, ignore_errors=True)

    def native_table(self, blocked=''):
        """The path of a native table file beside `penk` (built if missing):
        the solitaire value table, or the table of `blocked` rows (digits)."""
        folder = os.path.join(os.path.dirname(os.path.realpath(ARGS.penk)), 'tables')
        name = 'solitaire_line-min=3_penk-lines=all' + (f'_blocked={blocked}' if blocked else '') + '.penktable'
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            command = [ARGS.penk, 'tables', 'build'] + (['--blocked-rows', blocked, '--out', path] if blocked else [])
            subprocess.run(command, check=True, capture_output=True)
        return path

    def own_browser(self, site):
        """A static server on `site` and a browser with a profile of its own
        (nothing kept from the other cases); returns a function that ends
        both and restores the shared browser."""
        profile = tempfile.mkdtemp(prefix='penk_chromium_')
        server, port = static_server(site)
        driver, url = type(self).driver, type(self).url
        type(self).driver, type(self).url = chromium(profile), f'http://127.0.0.1:{port}/'

        def end():
            type(self).driver.quit()
            type(self).driver, type(self).url = driver, url
            server.terminate()
            server.wait(timeout=30)
            shutil.rmtree(site, ignore_errors=True)
            shutil.rmtree(profile, ignore_errors=True)
        return end

    def idb_put_served(self, names):
        """Puts files the server has under extra/ into the engine's IndexedDB
        store as it keeps them ({name, size, blob}), from the page: True, or why not."""
        return self.driver.execute_async_script("""
            const [names, done] = [arguments[0], arguments[arguments.length - 1]];
            (async () => {
              const db = await new Promise((ok, no) => {
                const open = indexedDB.open('penk-tables', 1);
                open.onupgradeneeded = () => open.result.createObjectStore('files', { keyPath: 'name' });
                open.onsuccess = () => ok(open.result);
                open.onerror = () => no(open.error);
              });
              for (const name of names) {
                const blob = await (await fetch('extra/' + encodeURIComponent(name))).blob();
                await new Promise((ok, no) => {
                  const t = db.transaction('files', 'readwrite');
                  t.objectStore('files').put({ name, size: blob.size, blob });
                  t.oncomplete = ok;
                  t.onerror = () => no(t.error);
                });
              }
              db.close();
              done(true);
            })().catch((err) => done(String(err)));""", names)

    def test_tables_read_when_needed(self):
        """A browser that keeps many tables (the solitaire tables and seven
        of blocked rows, 112 MB): the next visit reads only those its
        requests need. Between requests the engine's folder holds no file,
        and its heap holds less than the seven tables it never needed (the
        largest blocked-row tables, one or two rows blocked, 83 MB: since
        table format 6 a table holds only its rows' positions, and six of
        three or four rows would be smaller than the heap the solitaire
        game needs); the advisor's hint is penk hint's. (IDBFS, before,
        read every kept file into memory at start.)"""
        if not ARGS.site:
            self.skipTest('the static site only')
        value = self.native_table()
        spread = value.replace('.penktable', '.penkspread')
        if not os.path.exists(spread):
            subprocess.run([ARGS.penk, 'tables', 'build'], check=True, capture_output=True)
        blocked = [self.native_table(rows) for rows in ('1', '2', '3', '4', '5', '12', '13')]
        site = tempfile.mkdtemp(prefix='penk_site_')
        shutil.copytree(ARGS.site, site, dirs_exist_ok=True)
        os.makedirs(os.path.join(site, 'tables'))
        os.makedirs(os.path.join(site, 'extra'))
        for f in (value, spread):  # the first visit fetches them: no build here
            shutil.copy(f, os.path.join(site, 'tables'))
        for f in blocked:  # put in the store by the test: never fetched by the engine
            shutil.copy(f, os.path.join(site, 'extra'))
        end = self.own_browser(site)
        try:
            self.open()
            self.new_game(['human'], 12)
            self.set_checked('#advisor-on')
            self.wait_for(lambda d: len(self.els('#advisor-table tr')) > 1, 'the advisor')
            names = [os.path.basename(f) for f in blocked]
            self.wait_for(lambda d: os.path.basename(spread) in self.idb_tables(), 'the fetched tables kept')
            self.assertEqual(self.idb_put_served(names), True)
            kept = set(self.idb_tables())
            self.assertTrue({os.path.basename(value), os.path.basename(spread), *names} <= kept, kept)
            # The next visit: nine tables kept, a solitaire game needs two.
            self.open(fresh=False)
            self.advise_solitaire_game(13)
            memory = self.driver.execute_async_script(
                'const done = arguments[arguments.length - 1]; window.penk.engine.memory().then(done);')
            self.assertEqual(memory['held'], [], 'files left in the engine\'s folder between requests')
            seven = sum(os.path.getsize(f) for f in blocked)
            self.assertLess(memory['heapBytes'], seven, f'heap {memory["heapBytes"]} bytes')
            self.assertEqual(self.error_text(), '')
        finally:
            end()

    def test_damaged_kept_table_built_again(self):
        """A kept table that is damaged (one byte changed in IndexedDB) is
        refused when the engine reads it, built again, and the good table
        replaces it in the store, byte for byte the native build's; the
        advisor's hint is penk hint's."""
        if not ARGS.site:
            self.skipTest('the static site only')
        value = self.native_table()
        site = tempfile.mkdtemp(prefix='penk_site_')
        shutil.copytree(ARGS.site, site, dirs_exist_ok=True)
        os.makedirs(os.path.join(site, 'extra'))
        with open(value, 'rb') as f:
            data = bytearray(f.read())
        data[len(data) // 2] ^= 0x40
        with open(os.path.join(site, 'extra', os.path.basename(value)), 'wb') as f:
            f.write(data)
        end = self.own_browser(site)
        try:
            # Kept before the engine's first start (a page that starts none).
            self.driver.get(self.url + 'icon.svg')
            self.assertEqual(self.idb_put_served([os.path.basename(value)]), True)
            with open(value, 'rb') as f:
                good = hashlib.sha256(f.read()).hexdigest()
            self.assertNotEqual(self.idb_digest(os.path.basename(value)), good)
            self.driver.get(self.url)
            self.wait_ready()
            self.wait_for(lambda d: self.idb_digest(os.path.basename(value)) == good,
                          'the table built again and kept', timeout=300)
            self.advise_solitaire_game(15)
        finally:
            end()

    def test_idbfs_tables_moved(self):
        """Tables an earlier version kept with IDBFS (a database named /tables,
        store FILE_DATA, one record per path) are moved into the engine's
        store at the next visit, byte for byte, and that database is
        deleted."""
        if not ARGS.site:
            self.skipTest('the static site only')
        value = self.native_table()
        rows = self.native_table('1234')  # a table a solitaire visit never builds
        site = tempfile.mkdtemp(prefix='penk_site_')
        shutil.copytree(ARGS.site, site, dirs_exist_ok=True)
        os.makedirs(os.path.join(site, 'extra'))
        for f in (value, rows):
            shutil.copy(f, os.path.join(site, 'extra'))
        end = self.own_browser(site)
        try:
            # A page of the site that starts no engine, to write IDBFS's database.
            self.driver.get(self.url + 'icon.svg')
            written = self.driver.execute_async_script("""
                const [names, done] = [arguments[0], arguments[arguments.length - 1]];
                (async () => {
                  const db = await new Promise((ok, no) => {
                    const open = indexedDB.open('/tables', 21);
                    open.onupgradeneeded = () =>
                      open.result.createObjectStore('FILE_DATA').createIndex('timestamp', 'timestamp', { unique: false });
                    open.onsuccess = () => ok(open.result);
                    open.onerror = () => no(open.error);
                  });
                  const files = [];
                  for (const name of names)
                    files.push([name, new Uint8Array(await (await fetch('extra/' + encodeURIComponent(name))).arrayBuffer())]);
                  await new Promise((ok, no) => {
                    const t = db.transaction('FILE_DATA', 'readwrite');
                    const store = t.objectStore('FILE_DATA');
                    store.put({ timestamp: new Date(), mode: 16877 }, '/tables');
                    for (const [name, contents] of files)
                      store.put({ timestamp: new Date(), mode: 33206, contents }, '/tables/' + name);
                    t.oncomplete = ok;
                    t.onerror = () => no(t.error);
                  });
                  db.close();
                  done(true);
                })().catch((err) => done(String(err)));""", [os.path.basename(value), os.path.basename(rows)])
            self.assertEqual(written, True)
            self.driver.get(self.url)
            self.wait_ready()
            self.wait_for(lambda d: os.path.basename(rows) in self.idb_tables(), 'the IDBFS tables moved')
            for f in (value, rows):
                with open(f, 'rb') as fh:
                    self.assertEqual(self.idb_digest(os.path.basename(f)), hashlib.sha256(fh.read()).hexdigest())
            databases = self.driver.execute_async_script(
                'const done = arguments[arguments.length - 1];'
                'indexedDB.databases().then((list) => done(list.map((d) => d.name)));')
            self.assertNotIn('/tables', databases)
            self.advise_solitaire_game(14)
        finally:
            end()

    def test_helper_hangs(self):
        """A second worker that starts and then never answers (here a
        helper_worker.js that ignores its work): on a first visit, in a
        browser of its own, the first worker stops it after its time, says so
        (a warning, shown), builds the rest of the solitaire table alone, and
        the table it keeps is the native build's, byte for byte; the
        advisor's hint is penk hint's."""
        if not ARGS.site:
            self.skipTest('the static site only')
        value = 'solitaire_line-min=3_penk-lines=all.penktable'
        native = os.path.join(os.path.dirname(os.path.realpath(ARGS.penk)), 'tables', value)
        if not os.path.exists(native):
            subprocess.run([ARGS.penk, 'tables', 'build'], check=True, capture_output=True)
        site = tempfile.mkdtemp(prefix='penk_site_')
        profile = tempfile.mkdtemp(prefix='penk_chromium_')
        shutil.copytree(ARGS.site, site, dirs_exist_ok=True)
        with open(os.path.join(site, 'helper_worker.js'), 'w') as f:
            f.write("postMessage({ ready: true });\nonmessage = () => {};  // hangs: never answers\n")
        # No service worker cache of the real helper: this site's own copy.
        server, port = static_server(site)
        driver, url = type(self).driver, type(self).url
        type(self).driver, type(self).url = chromium(profile), f'http://127.0.0.1:{port}/'
        try:
            # Not open(): its reload comes after the build, and the page
            # clears the warning once the engine answers (its hello waits
            # for the build).
            self.driver.get(self.url)
            self.wait_for(lambda d: 'second worker was stopped' in self.error_text(),
                          'the warning that the second worker was stopped', timeout=120)
            self.assertIn('builds the table alone', self.error_text())
            self.wait_ready()
            self.wait_for(lambda d: value in self.idb_tables(), 'the table kept', timeout=300)
            with open(native, 'rb') as f:
                self.assertEqual(self.idb_digest(value), hashlib.sha256(f.read()).hexdigest())
            self.advise_solitaire_game(12)
            self.shot('helper_hangs')
        finally:
            type(self).driver.quit()
            type(self).driver, type(self).url = driver, url
            server.terminate()
            server.wait(timeout=30)
            shutil.rmtree(site, ignore_errors=True)
            shutil.rmtree(profile, ignore_errors=True)


def main():
    global ARGS
    parser = argparse.ArgumentParser()
    parser.add_argument('--penk', required=True)
    parser.add_argument('--shots', required=True, help='folder for the screenshots')
    parser.add_argument('--site', help='the static site (build-wasm/site) instead of penk serve: '
                        'the engine in the page\'s Web Worker')
    parser.add_argument('cases', nargs='*', help='test names, e.g. test_load (default: all)')
    ARGS, rest = parser.parse_known_args()
    names = [f'Page.{c}' for c in ARGS.cases] if ARGS.cases else None
    suite = (unittest.defaultTestLoader.loadTestsFromNames(names, sys.modules[__name__]) if names
             else unittest.defaultTestLoader.loadTestsFromTestCase(Page))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == '__main__':
    main()
