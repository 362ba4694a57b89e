#!/usr/bin/env node
// `penk engine` on the WebAssembly module, for tests and Node users: request
// lines on stdin, reply lines on stdout, as the native engine (protocol 2).
// Usage: node engine_cli.mjs [--table-dir DIR] [--no-build]
import { createEngine } from './penk_engine.mjs';

const args = process.argv.slice(2);
let tableDir = 'tables';
let build = true;
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--table-dir' && i + 1 < args.length) tableDir = args[++i];
  else if (args[i] === '--no-build') build = false;
  else {
    process.stderr.write(`engine_cli: unknown argument '${args[i]}', expected --table-dir DIR or --no-build\n`);
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

const engine = await createEngine({ tableDir, build, printErr: (t) => process.stderr.write(t + '\n') });
for await (let line of boundedLines(process.stdin)) {
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.trim() === '') continue;
  process.stdout.write((await engine.requestLine(line)) + '\n');
  if (engine.quitRequested()) break;
}
engine.close();
