#!/usr/bin/env node
// `penk engine` on the WebAssembly module, for tests and Node users: request
// lines on stdin, reply lines on stdout, as the native engine.
// Usage: node engine_cli.mjs [--table-dir DIR] [--no-build]
import { createInterface } from 'node:readline';
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
const engine = await createEngine({ tableDir, build, printErr: (t) => process.stderr.write(t + '\n') });
const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  const reply = await engine.requestLine(line);
  process.stdout.write(reply + '\n');
  if (engine.quitRequested()) break;
}
engine.close();
