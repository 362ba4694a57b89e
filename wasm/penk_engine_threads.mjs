// The PENK engine in WebAssembly with threads, under Node (issue 23 item 3):
// the whole engine protocol of docs/PROTOCOL.md, protocol 3 included, with
// the replies of the native `penk engine` (the same Dispatcher runs it:
// wasm/module_threads.cc).
//
//   import { createEngine } from 'penk-engine';
//   const engine = await createEngine({ tableDir: './tables', threads: true });
//   await engine.request({ cmd: 'hello', protocol: 3 });
//   const [a, b] = await Promise.all([
//     engine.request({ id: 1, cmd: 'hint', sheet: '...', roll: '12345J', rollouts: 2000 }),
//     engine.request({ id: 2, cmd: 'value', sheet: '...' }),
//   ]);
//   await engine.close();
//
// Requests are handed to the engine at once, in the order made. Before a
// hello with "protocol":3 the engine answers them one at a time, in that
// order (protocol 2); after it they run side by side and their replies come
// in completion order, each with its request's id.
import createPenkThreads from './penk-engine-threads.mjs';
import { objectRequest } from './penk_engine.mjs';

export async function createThreadedEngine(options = {}) {
  const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;
  if (!isNode)
    throw new Error('penk-engine: threads: true needs Node (a page would need cross-origin isolation); ' +
                    'in a browser use the one-thread engine (threads: false)');
  const { readFile } = await import('node:fs/promises');
  const core = await createPenkThreads({
    print: options.print || (() => {}),
    printErr: options.printErr || (() => {}),
    wasmBinary: await readFile(new URL('./penk-engine-threads.wasm', import.meta.url)),
    // The workers' script is CommonJS, named .cjs so that a package of ES
    // modules keeps it so (tools/build_wasm.sh).
    locateFile: (file, dir) => dir + (file.endsWith('.worker.js') ? file.replace(/\.js$/, '.cjs') : file),
  });
  const { mountHostFolders } = await import('./node_folders.mjs');
  const tableDir = await mountHostFolders(core, options);
  const open = core.cwrap('penk_wasm_threads_open', 'number', ['string', 'number', 'number', 'number']);
  const submit = core.cwrap('penk_wasm_threads_submit', null, ['number', 'string']);
  const quitRequested = core.cwrap('penk_wasm_threads_quit_requested', 'number', ['number']);
  const closeEngine = core.cwrap('penk_wasm_threads_close', null, ['number']);
  const buildMode = options.build === false ? 0 : 1;
  const handle = open(tableDir, buildMode, options.diskBudgetMb || 0, options.tableCacheMb || 0);
  if (!handle) throw new Error('penk-engine: the engine could not be created');

  // Requests sent and not yet answered, oldest first: {id, resolve, onProgress}.
  // A reply (or progress message) goes to the oldest with its id, else to the
  // oldest of all: in protocol 2 replies come in request order, and in
  // protocol 3 only a request refused before it ran (no id, a malformed
  // line) is answered without one, at once, in order.
  const pending = [];
  const claim = (id, take) => {
    let at = id === undefined || id === null ? -1 : pending.findIndex((p) => p.id === id);
    if (at < 0) at = 0;
    if (at >= pending.length) return null;
    return take ? pending.splice(at, 1)[0] : pending[at];
  };
  let state = 'open';  // then 'closing' (close()), then 'ended'
  let quitSeen = false;
  let ended;
  const endedPromise = new Promise((resolve) => { ended = resolve; });
  core.penkEnded = (from) => {
    if (from !== handle) return;
    state = 'ended';
    const gone = new Error('penk-engine: the engine has ended (quit or close()) before answering');
    for (const p of pending.splice(0)) p.reject(gone);
    // Outside the module's call: its threads are joined; the idle workers
    // behind them would keep Node running.
    setTimeout(() => {
      core.PThread.terminateAllThreads();
      ended();
    }, 0);
  };
  core.penkLine = (from, line, reply) => {
    if (from !== handle) return;
    if (options.onLine) options.onLine(line, reply === 1);
    let id;
    try {
      id = JSON.parse(line).id;
    } catch {
      id = undefined;
    }
    if (reply === 1) {
      const p = claim(id, true);
      if (p) p.resolve(line);
    } else {
      const p = claim(id, false);
      if (p && p.onProgress) p.onProgress(line);
    }
  };

  const alive = () => {
    if (state !== 'open') throw new Error('penk-engine: the engine is closed');
  };
  // One request line in, its reply line out; its progress messages (JSON
  // text) to `onProgress`. In protocol 3 a request's id must differ from
  // those of the requests in flight (as the protocol asks), so that its
  // reply can be told apart.
  function requestLine(line, { onProgress } = {}) {
    try {
      alive();
    } catch (err) {
      return Promise.reject(err);
    }
    let id;
    try {
      id = JSON.parse(line).id;
    } catch {
      id = undefined;
    }
    if (id !== undefined && id !== null && pending.some((p) => p.id === id))
      return Promise.reject(new Error(`penk-engine: a request with id ${JSON.stringify(id)} is in flight; ids in flight must differ`));
    return new Promise((resolve, reject) => {
      pending.push({ id, resolve, reject, onProgress: onProgress || options.onProgress || null });
      submit(handle, line);
    });
  }

  return {
    requestLine,
    request: objectRequest(requestLine),
    // A line handed over as is, without waiting: its reply and progress
    // messages go to options.onLine, as `penk engine` writes them. It is
    // kept among the requests in flight all the same, so that its reply
    // is claimed by it and never resolves a request made with requestLine
    // (those claim the oldest in flight when a reply names no known id).
    send(line) {
      alive();
      let id;
      try {
        id = JSON.parse(line).id;
      } catch {
        id = undefined;
      }
      pending.push({ id, resolve: () => {}, reject: () => {}, onProgress: null });
      submit(handle, line);
    },
    // Whether {"cmd":"quit"} was answered: a host reading requests stops.
    quitRequested: () => {
      if (state !== 'ended') quitSeen = quitRequested(handle) !== 0;  // the handle is freed at the end
      return quitSeen;
    },
    // No more requests: resolves once every request sent is answered and
    // the engine's threads are gone.
    close() {
      if (state === 'open') {
        state = 'closing';
        closeEngine(handle);
      }
      return endedPromise;
    },
  };
}
