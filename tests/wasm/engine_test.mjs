// The npm package against the native engine (issue 23 item 5): installed
// with `npm install ./penk-engine-VERSION.tgz` into a scratch project, then
// the same requests go to `createEngine()` and to `penk engine`, and every
// reply must be the same text: hints (solitaire and with opponents), values,
// bad requests, and whole seeded games played by the AI levels.
// Run by tests/wasm/run_tests.sh: PENK_BIN (the native penk), PENK_NPM_TGZ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const penk = process.env.PENK_BIN;
const tgz = process.env.PENK_NPM_TGZ;
assert.ok(penk && tgz, 'PENK_BIN and PENK_NPM_TGZ must be set (tests/wasm/run_tests.sh)');

const scratch = mkdtempSync(path.join(tmpdir(), 'penk_npm_'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const tables = path.join(scratch, 'tables');

// The package as a user installs it: from the tarball, offline.
writeFileSync(path.join(scratch, 'package.json'), '{"name":"scratch","private":true,"type":"module"}');
execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--silent', path.resolve(tgz)],
             { cwd: scratch, stdio: 'inherit' });
const { createEngine } = await import(path.join(scratch, 'node_modules', 'penk-engine', 'penk_engine.mjs'));

// `penk engine` as a child process: one line in, one line out.
function nativeEngine(dir) {
  const child = spawn(penk, ['engine', '--table-dir', dir], { stdio: ['pipe', 'pipe', 'ignore'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  lines.on('line', (line) => waiting.shift()(line));
  return {
    requestLine(line) {
      return new Promise((resolve) => {
        waiting.push(resolve);
        child.stdin.write(line + '\n');
      });
    },
    close() { child.stdin.end(); },
  };
}

// The solitaire table once, by the native engine (the module builds the same
// file: tests/wasm/run_tests.sh's transcript and the benchmark); both engines
// then share the folder, and the blocked-row tables the games need are built
// by whichever engine meets them first (the native one: it answers first).
const built = path.join(path.dirname(penk), 'tables', 'solitaire_line-min=3_penk-lines=all.penktable');
execFileSync('mkdir', ['-p', tables]);
if (existsSync(built)) copyFileSync(built, path.join(tables, path.basename(built)));
else execFileSync(penk, ['tables', 'build', '--out', path.join(tables, path.basename(built))], { stdio: 'ignore' });

const native = nativeEngine(tables);
const wasm = await createEngine({ tableDir: tables, mountCwd: false });

// Sends one request to both and checks the replies are the same text.
async function both(request) {
  const line = typeof request === 'string' ? request : JSON.stringify(request);
  const want = await native.requestLine(line);
  const got = await wasm.requestLine(line);
  assert.equal(got, want, `request ${line}`);
  return JSON.parse(got);
}

test('hello, bad requests and errors are answered alike', async () => {
  await both({ id: 1, cmd: 'hello' });
  await both('{"id":2,"cmd":"hint"');
  await both('[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]');
  await both({ id: 3, cmd: 'hint', sheet: 'ooooo/xxxxx/...../...../.....', roll: '12345J' });
  await both({ id: 4, cmd: 'no_such_command' });
  await both({ id: 5, cmd: 'state', game: 42 });
});

test('values and solitaire hints are the same numbers', async () => {
  const sheets = ['...../...../...../...../.....', 'o..../.o.../..o../...o./....o',
                  'ooooo/o.ooo/oo.oo/ooo.o/oooo.', 'oo.../oo.../o..../o..../.....'];
  let id = 10;
  for (const sheet of sheets) {
    await both({ id: id++, cmd: 'value', sheet });
    for (const [roll, rerolls] of [['12345J', 2], ['1135JJ', 1], ['444555', 0], ['22233J', 0]]) {
      const r = await both({ id: id++, cmd: 'hint', sheet, roll, rerolls, top: 5 });
      assert.ok(r.result, JSON.stringify(r));
    }
  }
});

test('hints with opponents are the same win chances', async () => {
  const r = await both({ id: 30, cmd: 'hint', roll: '44455J', rerolls: 0,
                         opponents: ['...../...../...../...../.....', 'ooo../...../...../...../.....'], top: 5 });
  assert.ok(r.result && r.result.actions.length > 0, JSON.stringify(r));
  await both({ id: 31, cmd: 'hint', roll: '11335J', rerolls: 2, opponents: ['...../...../...../...../.....'] });
});

test('seeded games played by the AI levels are the same games', async () => {
  let id = 100;
  for (const [players, seed] of [[['expert', 'greedy'], 1], [['neural', 'expert', 'greedy'], 2],
                                 [['human', 'neural'], 3]]) {
    const started = await both({ id: id++, cmd: 'new_game', players: players.map((p) => (p === 'human' ? 'human' : p)), seed });
    const game = started.result.game;
    let state = started.result;
    for (let step = 0; state.phase !== 'over' && step < 400; ++step) {
      const seat = state.players[state.current].seat;
      const level = seat === 'human' ? 'greedy' : seat;  // the human's moves: greedy's advice
      const r = await both({ id: id++, cmd: 'best_action', game, level, apply: true });
      assert.ok(r.result, JSON.stringify(r));
      state = r.result.state;
    }
    assert.equal(state.phase, 'over', `game of ${players} seed ${seed} did not end`);
    await both({ id: id++, cmd: 'export', game });
  }
});

test('the package\'s penk-engine reads lines as penk engine does', () => {
  // A line of 3 MB (refused, kept only to 1 MiB), a blank line (ignored),
  // a CRLF line end, then quit: the two processes print the same text.
  const input = '{"id":1,"cmd":"hello"}\n\n' + 'x'.repeat(3 << 20) + '\n{"id":2,"cmd":"nope"}\r\n' +
                '{"id":3,"cmd":"quit"}\n{"id":4,"cmd":"hello"}\n';
  const cli = path.join(scratch, 'node_modules', 'penk-engine', 'engine_cli.mjs');
  const run = (file, args) => execFileSync(file, args, { input, maxBuffer: 1 << 26, stdio: ['pipe', 'pipe', 'ignore'] }).toString();
  const want = run(penk, ['engine', '--table-dir', tables, '--no-build']);
  assert.equal(want.split('\n').length, 5, want);  // four replies, nothing after quit
  assert.equal(run(process.execPath, [cli, '--table-dir', tables, '--no-build']), want);
});

test('after all requests', () => {
  native.close();
  wasm.close();
});
