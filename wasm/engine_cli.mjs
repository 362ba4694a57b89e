#!/usr/bin/env node
// `penk engine` on the WebAssembly module, for tests and Node users: request
// lines on stdin, reply lines on stdout, as the native engine. The
// one-thread module speaks protocol 2; with --threads, the module with
// threads speaks protocol 3 too (lines are read while earlier requests run;
// replies and progress messages in completion order).
// Usage: node engine_cli.mjs [--table-dir DIR] [--no-build] [--threads]
import { createEngine } from './penk_engine.mjs';

const args = process.argv.slice(2);
let tableDir = 'tables';
let build = true;
let threads = false;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--table-dir' && i + 1 < args.length) tableDir = args[++i];
  else if (args[i] === '--no-build') build = false;
  else if (args[i] === '--threads') threads = true;
  else {
    process.stderr.write(`engine_cli: unknown argument '${args[i]}', expected --table-dir DIR, --no-build or --threads\n`);
    process.exit(2);
  }
}

// As the native engine reads (tools/cmd_engine.cc): the engine refuses lines
// over 1 MiB, so a line is kept up to one byte past that and the rest of it
// is skipped unkept (a 1 GiB line costs 1 MiB); blank lines are ignored.
const kKeptLineBytes = 2 ** 20 + 1;

async function* boundedLines(stream) {
  let kept = [];
  let size = 0;
  for await (const chunk of stream) {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(10, start);
      const piece = chunk.subarray(start, end < 0 ? chunk.length : end);
      if (size < kKeptLineBytes) {
        const take = piece.subarray(0, kKeptLineBytes - size);
        kept.push(take);
        size += take.length;
      }
      if (end < 0) break;
      yield Buffer.concat(kept).toString('utf8');
      kept = [];
      size = 0;
      start = end + 1;
    }
  }
  if (size > 0) yield Buffer.concat(kept).toString('utf8');
}

const printErr = (t) => process.stderr.write(t + '\n');
if (threads) {
  // Lines go in as they are read; every line the engine writes comes out.
  // After a quit is answered nothing more is read, as `penk engine` does.
  let quitting = false;
  const engine = await createEngine({
    tableDir, build, threads, printErr,
    onLine: (line, reply) => {
      process.stdout.write(line + '\n');
      if (reply && !quitting && engine.quitRequested()) {
        quitting = true;
        process.stdin.destroy();
      }
    },
  });
  try {
    for await (let line of boundedLines(process.stdin)) {
      if (quitting) break;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line.trim() === '') continue;
      engine.send(line);
    }
  } catch (err) {
    if (!quitting) throw err;  // stdin closed by the quit
  }
  await engine.close();  // the end of input: every request answered first
} else {
  const engine = await createEngine({ tableDir, build, printErr });
  for await (let line of boundedLines(process.stdin)) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() === '') continue;
    process.stdout.write((await engine.requestLine(line)) + '\n');
    if (engine.quitRequested()) break;
  }
  engine.close();
}
