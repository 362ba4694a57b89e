// The PENK engine in WebAssembly for JavaScript (issue 23): the engine
// protocol of docs/PROTOCOL.md, one request object in, one reply object out,
// the same replies as the native `penk engine` (protocol 2).
//
//   import { createEngine } from 'penk-engine';
//   const engine = await createEngine({ tableDir: './tables' });  // Node: a folder
//   const engine = await createEngine();                           // browser: IndexedDB
//   const reply = await engine.request({ cmd: 'hint', sheet: '...', roll: '12345J' });
//
// Tables (14.5 MB the solitaire one, 1.1 to 12.7 MB those with rows blocked)
// are built by the module on first use (about 15 s
// for the solitaire table, docs/PERFORMANCE.md) and kept: in Node in
// `tableDir`, in a browser in IndexedDB (table_store.mjs), saved after the
// request that built them. A browser worker reads a kept table only when a
// request needs it, so memory holds the tables in use, not every table kept.
import createPenkCore from './penk-engine-core.mjs';

const isNode = typeof process === 'object' && process.versions != null && process.versions.node != null;
const kMount = '/tables';

// One engine: its own games and tables. Requests run one at a time, in the
// order made (the module has one thread); a request made while another runs
// waits for it. With options.threads (Node): the module with threads, which
// speaks protocol 3 too (penk_engine_threads.mjs).
export async function createEngine(options = {}) {
  // Protocol 3 needs threads: the module built with them (Node).
  if (options.threads) return (await import('./penk_engine_threads.mjs')).createThreadedEngine(options);
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
  // A browser's kept tables (IndexedDB), or null: a host folder (Node) and
  // a memory-only folder keep their files themselves.
  let store = null;
  // Whether kept tables leave the module's folder once a request is over
  // (read again from the store when asked): in a worker, which can read a
  // kept file synchronously. A window reads them all at start instead.
  let lazy = false;
  if (isNode) {
    const { mountHostFolders } = await import('./node_folders.mjs');
    tableDir = await mountHostFolders(core, options);
  } else if (options.keep === false) {
    FS.mkdir(kMount);  // memory only: nothing kept (a helper engine's scratch folder)
  } else {
    FS.mkdir(kMount);
    const { openTableStore } = await import('./table_store.mjs');
    try {
      store = await openTableStore(options.storeName ? { name: options.storeName } : {});
    } catch (err) {
      throw storageError(err);
    }
    lazy = typeof FileReaderSync === 'function';
  }
  // The kept files copied into the folder, by name: the copy's inode. A
  // file of that name with another inode after a request was written anew
  // (the module refused the kept copy and built the table again) and
  // replaces the kept one.
  const served = new Map();
  const serve = (name) => {
    const path = `${kMount}/${name}`;
    FS.writeFile(path, store.read(name));
    served.set(name, FS.stat(path).ino);
  };
  if (store && !lazy) for (const name of store.names()) serve(name);
  // A missing table is first asked of the host (browser workers only: the
  // request is synchronous, as the module's table loader is): a file of that
  // name under options.tableUrl. What it gives is checked as any table file;
  // one refused is removed and built instead.
  const budgetBytes = (options.diskBudgetMb || 0) * 2 ** 20;
  let download = null;
  if (!isNode && options.tableUrl && typeof XMLHttpRequest === 'function') {
    const base = new URL(options.tableUrl, typeof location === 'object' ? location.href : undefined);
    // A file the host does not have is asked for once (a hint without its
    // spread table asks at every hint otherwise).
    const absent = new Set();
    download = (file) => {
      if (absent.has(file)) return false;
      if (store && budgetBytes > 0 && store.bytes() >= budgetBytes) return false;  // no room to keep it
      absent.add(file);
      const request = new XMLHttpRequest();
      request.open('GET', new URL(encodeURIComponent(file.slice(file.lastIndexOf('/') + 1)), base).href, false);
      request.responseType = 'arraybuffer';
      try {
        request.send();
      } catch {
        return false;  // offline, or no such host
      }
      if (request.status !== 200 || !request.response) return false;
      absent.delete(file);
      FS.writeFile(file, new Uint8Array(request.response));
      return true;
    };
  }
  // A table the module asks for: a kept one, read from the store, else the
  // host's (download).
  if (store || download) {
    core.penkFetchTable = (file) => {
      const name = file.slice(file.lastIndexOf('/') + 1);
      if (store && file === `${tableDir}/${name}` && store.has(name)) {
        serve(name);
        return true;
      }
      return download ? download(file) : false;
    };
  }
  // What the folder holds for the budget of builds: the kept tables, and
  // any file not kept yet (the browser refused the space).
  if (store)
    core.penkFolderBytes = () => {
      let total = store.bytes();
      for (const name of held()) if (!store.has(name)) total += FS.stat(`${tableDir}/${name}`).size;
      return total;
    };
  const open = core.cwrap('penk_wasm_open', 'number', ['string', 'number', 'number', 'number']);
  const call = core.cwrap('penk_wasm_request', 'string', ['number', 'string']);
  const quitRequested = core.cwrap('penk_wasm_quit_requested', 'number', ['number']);
  const close = core.cwrap('penk_wasm_close', null, ['number']);
  const buildSpread = core.cwrap('penk_wasm_build_spread', 'string', ['number', 'string']);
  const buildOpen = core.cwrap('penk_wasm_build_open', 'number', ['number', 'string', 'number']);
  const buildError = core.cwrap('penk_wasm_build_error', 'string', ['number']);
  const buildSave = core.cwrap('penk_wasm_build_save', 'string', ['number', 'number']);
  // build: false builds nothing, 'values' value tables only (spread tables
  // are read: another engine builds them, see buildSpread), else any.
  const buildMode = options.build === false ? 0 : options.build === 'values' ? 2 : 1;
  const handle = open(tableDir, buildMode, options.diskBudgetMb || 0, options.tableCacheMb || 0);
  if (!handle) throw new Error('penk-engine: the engine could not be created');
  // The files in the module's folder now.
  const held = () => FS.readdir(tableDir).filter((name) => name !== '.' && name !== '..');
  const pathOf = (name) => {
    if (typeof name !== 'string' || !/^[A-Za-z0-9_.,=+-]+$/.test(name) || name.startsWith('.'))
      throw new Error(`penk-engine: ${JSON.stringify(name)} is not a table file name (letters, digits and _.,=+- only)`);
    return `${tableDir}/${name}`;
  };
  let queue = Promise.resolve();
  let closed = false;
  // Work on the module and its files runs in the order asked, one at a time.
  const queued = (run) => {
    const result = queue.then(run, run);
    queue = result.catch(() => {});
    return result;
  };
  // After a request (or a file handed over): every file of the folder not
  // yet kept is written to the store, and in a worker the kept ones leave
  // the folder (the module holds what it loaded; it asks again if it needs
  // a file once more). A write the browser refuses is told to the host once
  // per file; that file stays in the folder for this visit.
  const refused = new Set();
  const keep = async () => {
    if (!store) return;
    for (const name of held()) {
      if (name.includes('.tmp.')) continue;  // a table file being written (tables/table_file.cc)
      const path = `${tableDir}/${name}`;
      const written = !store.has(name) || served.get(name) !== FS.stat(path).ino;
      if (written && !refused.has(name)) {
        try {
          await store.put(name, FS.readFile(path));
          served.set(name, FS.stat(path).ino);
        } catch (err) {
          refused.add(name);
          (options.onStorageError || ((e) => moduleOptions.printErr(e.message)))(storageError(err));
        }
      }
      if (lazy && served.get(name) === FS.stat(path).ino) {
        FS.unlink(path);
        served.delete(name);
      }
    }
  };

  // One request line in, its reply line out (the protocol's own text). A
  // request with "progress_ms" has its progress messages (their JSON text)
  // passed to `onProgress` while it runs (else to options.onProgress).
  async function requestLine(line, { onProgress } = {}) {
    const run = async () => {
      alive();
      core.penkProgress = onProgress || options.onProgress || null;
      let reply;
      try {
        reply = call(handle, line);
      } finally {
        core.penkProgress = null;
      }
      // A table read, built or downloaded: keep it, and let it leave the
      // folder. The reply stands if the browser refuses the space; the host
      // is told (the table is built again next visit). The folder is in
      // memory (a listing costs no system call, unlike Node's host folder).
      if (store) await keep();
      return reply;
    };
    return queued(run);
  }

  const alive = () => {
    if (closed) throw new Error('penk-engine: the engine is closed');
  };
  // The engine's table files, by name: another engine's work handed over
  // (the static site builds spread tables in a second worker).
  const tables = {
    list: () => {
      const names = new Set(held().filter((name) => !name.startsWith('.')));
      if (store) for (const name of store.names()) names.add(name);
      return [...names];
    },
    has: (name) => FS.analyzePath(pathOf(name)).exists || (store !== null && store.has(name)),
    read: (name) => (FS.analyzePath(pathOf(name)).exists || !store ? FS.readFile(pathOf(name)) : store.read(name)),
    // The files the module's folder holds now (in a browser worker, between
    // requests: those the browser refused to keep; the tables the engine
    // loaded are in its own memory).
    held: () => held().filter((name) => !name.startsWith('.')),
    // Writes the files ({name, bytes} each) after the requests made before,
    // and keeps them (IndexedDB in a browser).
    add: (list) => queued(async () => {
      alive();
      // A view into a larger buffer is copied first: Emscripten 3.1.6 writes
      // a host folder's file from the view's whole buffer, ignoring its
      // offset, and a small Node Buffer is such a view (of Node's pool):
      // a 48-byte table (every row blocked: no position) was written as
      // 8 other bytes and the first 40 of its own.
      for (const { name, bytes } of list) {
        if (!(bytes instanceof Uint8Array))
          throw new Error(`penk-engine: the bytes of ${JSON.stringify(name)} are not a Uint8Array (a Buffer or the bytes tables.read gives)`);
        const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        FS.writeFile(pathOf(name), whole ? bytes : new Uint8Array(bytes));
      }
      await keep();
    }),
    remove: (name) => queued(async () => {
      if (FS.analyzePath(pathOf(name)).exists) FS.unlink(pathOf(name));
      if (store && store.has(name)) await store.remove(name);
    }),
    // Asks the host for a missing file (options.tableUrl) and keeps it: true
    // if it came.
    fetch: (name) => queued(async () => {
      alive();
      if (tables.has(name) || !download || !download(pathOf(name))) return false;
      await keep();
      return true;
    }),
  };

  return {
    requestLine,
    request: objectRequest(requestLine),
    tables,
    // Builds the spread table (and a target's mean table) beside the value
    // table file `name` of this engine's folder and keeps it; resolves to the
    // names of the files written. An engine made with build: 'values' never
    // builds one itself: a second engine does it and hands the files over
    // (tables.read, tables.add).
    buildSpread: (name) => queued(async () => {
      alive();
      const before = new Set(tables.list());
      const error = buildSpread(handle, pathOf(name));
      if (error) throw new Error(`penk-engine: ${error}`);
      await keep();
      return tables.list().filter((file) => !before.has(file));
    }),
    // A value table built in shares (two engines in two workers, which share
    // no memory: the static site's first visit): the default table of
    // `rules` ('' default) with `blockedRows` (a mask), expected score. null
    // when the engine has it already (or its host gave it, tableUrl); else a
    // build that both engines open. For every layer in order, each solves its
    // share (solve) and the two trade the values (values, set); then one
    // saves the table (and keeps it), the other closes its build. The table
    // is the one the engine builds by itself, bit for bit.
    tableBuild(rules = '', blockedRows = 0) {
      alive();
      const build = buildOpen(handle, rules, blockedRows);
      if (!build) {
        const error = buildError(handle);
        if (error) throw new Error(`penk-engine: ${error}`);
        return null;
      }
      let open = true;
      const live = () => {
        alive();
        if (!open) throw new Error('penk-engine: the table build is over');
      };
      // A scratch buffer in the module's memory for one share's values.
      const trade = (count, work) => {
        const at = core._malloc(Math.max(1, count) * 8);
        try {
          return work(at);
        } finally {
          core._free(at);
        }
      };
      return {
        layers: core._penk_wasm_build_layers(build),
        positions: core._penk_wasm_build_positions(build),
        layerSize: (layer) => core._penk_wasm_build_layer_size(build, layer),
        solve(layer, begin, end) {
          live();
          core._penk_wasm_build_solve(build, layer, begin, end);
        },
        values(layer, begin, end) {
          live();
          return trade(end - begin, (at) => {
            core._penk_wasm_build_values(build, layer, begin, end, at);
            return core.HEAPF64.slice(at / 8, at / 8 + (end - begin));
          });
        },
        set(layer, begin, end, values) {
          live();
          if (!(values instanceof Float64Array) || values.length !== end - begin)
            throw new Error(`penk-engine: layer ${layer} [${begin}, ${end}) takes ${end - begin} values`);
          trade(end - begin, (at) => {
            core.HEAPF64.set(values, at / 8);
            core._penk_wasm_build_set(build, layer, begin, end, at);
          });
        },
        save: () => queued(async () => {
          live();
          open = false;
          const error = buildSave(handle, build);
          if (error) throw new Error(`penk-engine: ${error}`);
          await keep();
        }),
        close() {
          if (open) core._penk_wasm_build_close(build);
          open = false;
        },
      };
    },
    // What the engine holds in memory: the module's heap (the tables it
    // loaded are there) and the files in its folder (in a browser worker,
    // between requests, only files the browser refused to keep).
    // Answered after the requests made before.
    memory: () => queued(async () => ({ heapBytes: core.HEAP8.length, held: tables.held() })),
    // Whether {"cmd":"quit"} was answered: a host reading requests stops.
    quitRequested: () => !closed && quitRequested(handle) !== 0,
    close() {
      if (!closed) close(handle);
      closed = true;
    },
  };
}

function storageError(err) {
  const quota = err && (err.name === 'QuotaExceededError' || /quota/i.test(String(err.message || err)));
  return new Error(quota
    ? 'penk-engine: the browser refused storage space for the tables (quota exceeded); free some space or allow this site to store data'
    : `penk-engine: the tables could not be kept in IndexedDB: ${err && (err.message || err)}`);
}

// An engine's `request` from its `requestLine` (both engines, with threads
// or without): a request object (or its JSON text) in, the reply object
// out; progress messages, as objects, to `onProgress`.
export function objectRequest(requestLine) {
  return async (request, { onProgress } = {}) => {
    const line = typeof request === 'string' ? request : JSON.stringify(request);
    const tell = onProgress && ((text) => onProgress(JSON.parse(text)));
    return JSON.parse(await requestLine(line, { onProgress: tell }));
  };
}
