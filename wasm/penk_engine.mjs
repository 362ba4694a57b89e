// The PENK engine in WebAssembly for JavaScript (issue 23): the engine
// protocol of docs/PROTOCOL.md, one request object in, one reply object out,
// the same replies as the native `penk engine` (protocol 2).
//
//   import { createEngine } from 'penk-engine';
//   const engine = await createEngine({ tableDir: './tables' });  // Node: a folder
//   const engine = await createEngine();                           // browser: IndexedDB
//   const reply = await engine.request({ cmd: 'hint', sheet: '...', roll: '12345J' });
//
// Tables (14.5 MB each) are built by the module on first use (about 15 s
// for the solitaire table, docs/PERFORMANCE.md) and kept: in Node in `tableDir`, in a browser in
// IndexedDB (IDBFS), saved after the request that built them.
import createPenkCore from './penk-engine-core.mjs';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;
const kMount = '/tables';

// One engine: its own games and tables. Requests run one at a time, in the
// order made (the module has one thread); a request made while another runs
// waits for it.
export async function createEngine(options = {}) {
  const moduleOptions = {
    print: options.print || (() => {}),
    printErr: options.printErr || (() => {}),
  };
  if (isNode) {
    // The wasm file beside this one, read directly (no fetch of a file path).
    const { readFile } = await import('node:fs/promises');
    moduleOptions.wasmBinary = await readFile(new URL('./penk-engine-core.wasm', import.meta.url));
  } else if (options.wasmUrl) {
    moduleOptions.locateFile = () => options.wasmUrl;
  }
  const core = await createPenkCore(moduleOptions);
  const FS = core.FS;
  // The engine's table folder in the module's file system.
  let tableDir = kMount;
  let persist = async () => {};
  if (isNode) {
    // Host folders appear at their own paths, so that file names in requests
    // and replies read as they do for the native engine.
    const path = await import('node:path');
    const fs = await import('node:fs');
    const mirror = (dir) => {
      FS.mkdirTree(dir);
      FS.mount(core.NODEFS, { root: dir }, dir);
    };
    const given = options.tableDir || 'tables';
    const absolute = path.resolve(given);
    fs.mkdirSync(absolute, { recursive: true });
    const cwd = process.cwd();
    const mountCwd = options.mountCwd !== false;
    // Relative file names in requests ("table") are the process's own.
    if (mountCwd) {
      mirror(cwd);
      FS.chdir(cwd);
    }
    // A table folder inside the working folder is already visible.
    const below = path.relative(cwd, absolute);
    if (!mountCwd || below.startsWith('..') || path.isAbsolute(below)) mirror(absolute);
    tableDir = mountCwd ? given : absolute;
  } else {
    FS.mkdir(kMount);
    FS.mount(core.IDBFS, {}, kMount);
    await syncfs(FS, true);
    persist = async () => syncfs(FS, false);
  }
  const open = core.cwrap('penk_wasm_open', 'number', ['string', 'number', 'number', 'number']);
  const call = core.cwrap('penk_wasm_request', 'string', ['number', 'string']);
  const quitRequested = core.cwrap('penk_wasm_quit_requested', 'number', ['number']);
  const close = core.cwrap('penk_wasm_close', null, ['number']);
  const handle = open(tableDir, options.build === false ? 0 : 1, options.diskBudgetMb || 0,
                      options.tableCacheMb || 0);
  if (!handle) throw new Error('penk-engine: the engine could not be created');
  const files = () => FS.readdir(tableDir).length;
  let queue = Promise.resolve();
  let closed = false;

  // One request line in, its reply line out (the protocol's own text). A
  // request with "progress_ms" has its progress messages (their JSON text)
  // passed to `onProgress` while it runs (else to options.onProgress).
  async function requestLine(line, { onProgress } = {}) {
    const run = async () => {
      if (closed) throw new Error('penk-engine: the engine is closed');
      const before = files();
      core.penkProgress = onProgress || options.onProgress || null;
      let reply;
      try {
        reply = call(handle, line);
      } finally {
        core.penkProgress = null;
      }
      // A table was built: keep it. The reply stands if the browser refuses
      // the space; the host is told (the table is built again next visit).
      if (files() !== before) {
        try {
          await persist();
        } catch (err) {
          (options.onStorageError || ((e) => moduleOptions.printErr(e.message)))(err);
        }
      }
      return reply;
    };
    const result = queue.then(run, run);
    queue = result.catch(() => {});
    return result;
  }

  return {
    requestLine,
    // A request object (or its JSON text) in, the reply object out.
    // Progress messages, as objects, to `onProgress`.
    async request(request, { onProgress } = {}) {
      const line = typeof request === 'string' ? request : JSON.stringify(request);
      const tell = onProgress && ((text) => onProgress(JSON.parse(text)));
      return JSON.parse(await requestLine(line, { onProgress: tell }));
    },
    // Whether {"cmd":"quit"} was answered: a host reading requests stops.
    quitRequested: () => !closed && quitRequested(handle) !== 0,
    close() {
      if (!closed) close(handle);
      closed = true;
    },
  };
}

function syncfs(FS, populate) {
  return new Promise((resolve, reject) =>
    FS.syncfs(populate, (err) => (err ? reject(storageError(err)) : resolve())));
}

function storageError(err) {
  const quota = err && (err.name === 'QuotaExceededError' || /quota/i.test(String(err.message || err)));
  return new Error(quota
    ? 'penk-engine: the browser refused storage space for the tables (quota exceeded); free some space or allow this site to store data'
    : `penk-engine: the tables could not be kept in IndexedDB: ${err && (err.message || err)}`);
}
