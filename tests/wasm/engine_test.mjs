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
import { mkdtempSync, mkdirSync, rmSync, copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
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

// The static site's two workers: the first engine (build: 'values') builds
// value tables and only reads spread tables, so its hint comes without sd
// and says why; a second engine builds the spread table beside a value table
// handed to it (the native build's very bytes), and once the first has it,
// its hint is the native engine's again.
test('an engine that only reads spread tables gets them from another', async () => {
  const name = path.basename(built);
  const first = path.join(scratch, 'values_only');
  const second = path.join(scratch, 'spread_builder');
  mkdirSync(first);
  mkdirSync(second);
  copyFileSync(path.join(tables, name), path.join(first, name));
  const reader = await createEngine({ tableDir: first, mountCwd: false, build: 'values' });
  const builder = await createEngine({ tableDir: second, mountCwd: false });
  const ask = { id: 200, cmd: 'hint', sheet: '...../...../...../...../.....', roll: '3335JJ', rerolls: 2, top: 3 };
  const without = await reader.request(ask);
  assert.match(without.result.sd_error, /no spread table at .* and this engine reads spread tables but does not build them/);
  assert.ok(!('sd' in without.result.actions[0]), JSON.stringify(without));
  assert.deepEqual(reader.tables.list(), [name]);
  // A table of rows 1-5 blocked (no position: a header alone, 48 bytes, a
  // slice of Node's buffer pool when read, which tables.add once wrote
  // shifted): its spread table, built by the second engine, is byte for
  // byte the native build's.
  const blocked = name.replace('.penktable', '_blocked=12345.penktable');
  const nativeBlocked = path.join(scratch, 'native_blocked');
  mkdirSync(nativeBlocked);
  execFileSync(penk, ['tables', 'build', '--blocked-rows', '12345', '--out', path.join(nativeBlocked, blocked)], { stdio: 'ignore' });
  await builder.tables.add([{ name: blocked, bytes: readFileSync(path.join(nativeBlocked, blocked)) }]);
  const made = await builder.buildSpread(blocked);
  const spread = blocked.replace('.penktable', '.penkspread');
  assert.deepEqual(made, [spread]);
  assert.deepEqual(Buffer.from(builder.tables.read(spread)), readFileSync(path.join(nativeBlocked, spread)));
  // The solitaire spread table, as the native engine made it for the same hint.
  const want = await native.requestLine(JSON.stringify(ask));
  const spreadName = name.replace('.penktable', '.penkspread');
  await reader.tables.add([{ name: spreadName, bytes: readFileSync(path.join(tables, spreadName)) }]);
  assert.equal(await reader.requestLine(JSON.stringify(ask)), want);
  // Names are file names of the folder, nothing else; a missing value table is said.
  assert.throws(() => reader.tables.read('../x.penktable'), /not a table file name/);
  // Bytes that are not bytes are refused, not written as an empty or text file.
  await assert.rejects(reader.tables.add([{ name: 'x.penktable', bytes: 'a table' }]), /not a Uint8Array/);
  assert.ok(!reader.tables.has('x.penktable'));
  await assert.rejects(builder.buildSpread('none.penktable'), /none\.penktable not found/);
  reader.close();
  builder.close();
});

// The static site's first visit: two engines (two workers) build a table in
// shares, each half of every layer, trading the values; the saved file is
// the native build's, byte for byte. Rows 1-4 blocked: a table of moments.
test('two engines building one table in shares write the native table', async () => {
  const dirs = ['share_a', 'share_b'].map((d) => path.join(scratch, d));
  for (const d of dirs) mkdirSync(d);
  const [a, b] = await Promise.all(dirs.map((d) => createEngine({ tableDir: d, mountCwd: false })));
  const mask = 0b01111;
  const one = a.tableBuild('', mask);
  const two = b.tableBuild('', mask);
  assert.ok(one && two);
  assert.equal(one.layers, two.layers);
  let positions = 0;
  for (let layer = 0; layer < one.layers; ++layer) {
    const n = one.layerSize(layer);
    const half = n >> 1;
    positions += n;
    one.solve(layer, 0, half);
    two.solve(layer, half, n);
    one.set(layer, half, n, two.values(layer, half, n));
    two.set(layer, 0, half, one.values(layer, 0, half));
  }
  assert.equal(positions, one.positions);
  assert.throws(() => one.set(0, 0, 2, new Float64Array(1)), /takes 2 values/);
  await one.save();
  two.close();
  assert.throws(() => one.solve(0, 0, 1), /the table build is over/);
  const name = path.basename(built).replace('.penktable', '_blocked=1234.penktable');
  const want = path.join(scratch, 'native_1234.penktable');
  execFileSync(penk, ['tables', 'build', '--no-spread', '--blocked-rows', '1234', '--out', want], { stdio: 'ignore' });
  assert.deepEqual(readFileSync(path.join(dirs[0], name)), readFileSync(want));
  // Once the folder has it, there is nothing to build; bad rules are said.
  assert.equal(a.tableBuild('', mask), null);
  assert.throws(() => a.tableBuild('line-min=9', 0), /line-min/);
  assert.throws(() => a.tableBuild('', 32), /blocked rows are a mask of rows 1-5/);
  a.close();
  b.close();
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

test('the engine with threads speaks protocol 3 as penk engine does', { timeout: 300000 }, async () => {
  const threaded = await createEngine({ tableDir: tables, mountCwd: false, threads: true });
  // One request at a time, the same text as the native engine's, in
  // protocol 2 and then in protocol 3.
  const native3 = nativeEngine(tables);
  const alike = async (request) => {
    const line = JSON.stringify(request);
    const want = await native3.requestLine(line);
    assert.equal(await threaded.requestLine(line), want, `request ${line}`);
    return JSON.parse(want);
  };
  await alike({ id: 1, cmd: 'hint', sheet: 'o..../.o.../..o../...o./....o', roll: '11345J', rerolls: 1, top: 3 });
  assert.equal((await alike({ id: 2, cmd: 'hello', protocol: 3 })).result.protocol, 3);
  await alike({ id: 3, cmd: 'value', sheet: 'oo.../oo.../o..../o..../.....' });
  await alike({ id: 4, cmd: 'hint', sheet: 'oo.../oo.../o..../o..../.....', roll: '1111J5', rerolls: 0,
                opponents: ['ooo../ox.../oo.../xo.../ox...'], last_round: true, seat: 2 });
  assert.equal((await alike({ cmd: 'value', sheet: '.....' })).error.code, 'bad_field');  // no id in protocol 3
  native3.close();

  // Side by side: rollouts that would take minutes, with progress; a value
  // asked after them is answered first; a cancel stops them with the trials
  // played so far. (Their first trials meet blocked-row tables: the native
  // engine builds those first, on common dice the same games.)
  const rollouts = { cmd: 'hint', sheet: '...../...../...../...../.....', roll: '44455J', rerolls: 0,
                     opponents: ['...../...../...../...../.....'], seat: 1 };
  await native.requestLine(JSON.stringify({ id: 'warm', ...rollouts, rollouts: 40 }));
  const progress = [];
  const slow = threaded.request({ id: 'slow', ...rollouts, rollouts: 1000000, time_ms: 600000, progress_ms: 50 },
                                { onProgress: (m) => progress.push(m) });
  const order = [];
  slow.then(() => order.push('slow'));
  const fast = await threaded.request({ id: 'fast', cmd: 'value', sheet: '...../...../...../...../.....' });
  order.push('fast');
  assert.ok(fast.result.value > 100, JSON.stringify(fast));
  const deadline = Date.now() + 120000;  // a first trial takes well under a second
  while (!progress.some((m) => m.progress.done > 0)) {
    assert.ok(Date.now() < deadline, `no trial played in 120 s: ${JSON.stringify(progress.slice(-3))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const played = progress.find((m) => m.progress.done > 0);
  assert.equal(played.id, 'slow');
  assert.match(played.progress.what, /rollouts/, JSON.stringify(played));
  await assert.rejects(threaded.request({ id: 'slow', cmd: 'hello' }), /in flight/);
  // A line sent without waiting is answered before the rollouts; its reply
  // must not be taken for theirs (it was, when send() kept no record).
  threaded.send(JSON.stringify({ id: 'sent', cmd: 'value', sheet: 'o..../...../...../...../.....' }));
  await threaded.request({ id: 'after', cmd: 'value', sheet: '...../...../...../...../.....' });
  const cancel = await threaded.request({ id: 'stop', cmd: 'cancel', target: 'slow' });
  assert.deepEqual(cancel.result, { target: 'slow', running: true });
  const stopped = await slow;
  assert.deepEqual(order, ['fast', 'slow']);
  assert.equal(stopped.error.code, 'cancelled', JSON.stringify(stopped));
  const trials = stopped.error.partial.actions.reduce((sum, a) => sum + a.rollout.trials, 0);
  assert.ok(trials > 0, JSON.stringify(stopped.error.partial));

  // close() ends it once every request is answered; nothing is taken after.
  const last = threaded.request({ id: 'last', cmd: 'value', sheet: 'o..../...../...../...../.....' });
  await threaded.close();
  assert.ok((await last).result.value > 100);
  await assert.rejects(threaded.request({ id: 'late', cmd: 'hello' }), /closed/);
});

test('after all requests', () => {
  native.close();
  wasm.close();
});
