// The WebAssembly engine's costs under Node (tools/bench_wasm.sh): the time
// to build the solitaire table from nothing (a prepare request in an empty
// table folder, without its spread table), and the median time of a hint
// with the table loaded, over many positions.
// Usage: node tools/bench_wasm.js MODULE_DIR TABLE_DIR build|hint
import path from 'node:path';

const [moduleDir, tableDir, what] = process.argv.slice(2);
const { createEngine } = await import(path.resolve(moduleDir, 'penk_engine.mjs'));
const engine = await createEngine({ tableDir, mountCwd: false });
const now = () => Number(process.hrtime.bigint()) / 1e6;

if (what === 'build') {
  // prepare without spreads: the value table alone (a hint would build its spread table too).
  const t0 = now();
  const r = await engine.request({ id: 1, cmd: 'prepare', blocked: '' });
  if (!r.result) throw new Error(JSON.stringify(r));
  console.log(JSON.stringify({ build_ms: now() - t0 }));
} else {
  const rolls = ['12345J', '1135JJ', '444555', '22233J', '11111J', '5555JJ', '123345', '2244JJ'];
  const sheets = ['...../...../...../...../.....', 'o..../.o.../..o../...o./....o', 'oo.../oo.../o..../o..../.....',
                  'ooooo/o.ooo/oo.oo/ooo.o/oooo.'];
  await engine.request({ id: 0, cmd: 'hint', sheet: sheets[0], roll: rolls[0], rerolls: 2 });  // loads the table
  const times = [];
  let id = 1;
  for (let round = 0; round < 20; ++round)
    for (const sheet of sheets)
      for (const roll of rolls)
        for (const rerolls of [0, 1, 2]) {
          const t0 = now();
          const r = await engine.request({ id: id++, cmd: 'hint', sheet, roll, rerolls, top: 3 });
          times.push(now() - t0);
          if (!r.result) throw new Error(JSON.stringify(r));
        }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ hints: times.length, median_us: 1000 * times[times.length >> 1],
                               p90_us: 1000 * times[Math.floor(times.length * 0.9)] }));
}
engine.close();
