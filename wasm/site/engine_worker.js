// The static site's engine (docs/WEB.md "Without a server"): the WebAssembly
// engine in this Web Worker, so that the page stays responsive while a table
// is built. Messages from the page: {line} (a request line), {memory: true}
// (what the engine holds, answered {memory: {heapBytes, held}} after the
// requests before); to the page: {ready} once the engine is up (the names of
// its kept tables read from IndexedDB; a table itself is read when a request
// needs it), {reply}, {progress} (a progress message's text), {warning}
// (storage refused), {failed} (the engine could not start).
import { createEngine } from './penk_engine.mjs';

// Tables take 1.1 to 14.5 MB each (fewer positions with more rows blocked,
// docs/PERFORMANCE.md): builds stop at 80% of what the browser grants
// this site (at most 1 GB), so that the game's own storage is never refused.
async function budgetMb() {
  try {
    const { quota = 0 } = await navigator.storage.estimate();
    return Math.max(1, Math.min(1024, Math.floor((0.8 * quota) / 2 ** 20)));
  } catch {
    return 0;  // unknown: no limit of ours, the browser's quota still applies
  }
}

// A host may put table files in a tables/ folder beside the page (the
// output of `penk tables build`): a missing table is fetched from there
// before it is built.
const kTableUrl = new URL('./tables/', self.location.href).href;

// The second worker (helper_worker.js), on the other core: it builds half
// of the solitaire table with this one on a first visit, and then the
// spread tables (each keep's standard deviation in a hint), which this
// engine only reads: a first hint waits for the value table alone. Until a
// spread table arrives a hint says why its sd is missing ("sd_error").
let helper = null;
let solved = null;  // the helper's share of the layer being built
let helperUp = null;  // resolved once the helper's engine is up
const handed = new Set();  // value tables whose spread table was asked for

function startHelper(engine) {
  const worker = new Worker(new URL('./helper_worker.js', import.meta.url), { type: 'module' });
  let up;
  helperUp = new Promise((resolve) => { up = resolve; });
  worker.onmessage = ({ data }) => {
    if (data.ready) up();
    else if (data.solved) { if (solved) solved.resolve(data.solved.values); }
    else if (data.files) engine.tables.add(data.files);
    else if (data.failed && solved) solved.reject(new Error(data.failed));
    else postMessage({ warning: `the second worker failed: ${data.error || data.failed}` });
  };
  worker.onerror = (event) => {
    if (solved) solved.reject(new Error(`the second worker stopped (${event.message || 'worker error'})`));
  };
  return worker;
}

// A promise that rejects with `what` if `promise` has not settled in `ms`.
function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// How long the helper may take over its share of a layer: 8 times what
// this worker took over its own (the two shares are the same size), at
// least 3 s; its start (its own copy of the module) may take 30 s.
const kHelperStartMs = 30000;
const kHelperShareMinMs = 3000;
const kHelperShareRatio = 8;

function progress(done, total, what) {
  postMessage({ progress: JSON.stringify({ progress: { done, total, what } }) });
}

// The solitaire table of the default rules, if the folder lacks it and the
// host has none: each worker solves half of every layer, and they trade the
// values before the next (about twice one worker's speed, with no special
// headers). The same table as the engine builds alone, bit for bit. A
// helper that fails, or does not answer in time (kHelperShare*), is stopped:
// this worker solves its share too and the layers left alone, and the page
// is told why (a warning); spread tables go to a new helper later.
async function buildTogether(engine) {
  const build = engine.tableBuild('', 0);
  if (!build) return;
  helper = helper || startHelper(engine);
  let alone = false;
  const stopHelper = (err) => {
    helper.terminate();
    helper = null;
    alone = true;
    postMessage({ warning: `the second worker was stopped (${err.message}): this one builds the table alone` });
  };
  try {
    try {
      await within(helperUp, kHelperStartMs, `it did not start in ${kHelperStartMs / 1000} s`);
      helper.postMessage({ build: { rules: '', blocked: 0 } });
    } catch (err) {
      stopHelper(err);
    }
    let done = 0;
    for (let layer = 0; layer < build.layers; ++layer) {
      const n = build.layerSize(layer);
      if (n === 0) continue;
      if (alone) {
        build.solve(layer, 0, n);
      } else {
        const half = n >> 1;  // this worker [0, half), the helper [half, n)
        const theirs = new Promise((resolve, reject) => { solved = { resolve, reject }; });
        helper.postMessage({ solve: { layer, begin: half, end: n } });
        const start = performance.now();
        build.solve(layer, 0, half);
        const limit = Math.max(kHelperShareMinMs, kHelperShareRatio * (performance.now() - start));
        const mine = build.values(layer, 0, half);
        helper.postMessage({ set: { layer, begin: 0, end: half, values: mine } }, [mine.buffer]);
        try {
          const values = await within(theirs, limit,
                                      `no answer in ${(limit / 1000).toFixed(1)} s for its half of layer ${layer}`);
          build.set(layer, half, n, values);
        } catch (err) {
          stopHelper(err);
          build.solve(layer, half, n);
        }
      }
      done += n;
      progress(done, build.positions, alone ? 'building the solitaire table'
                                            : 'building the solitaire table (two workers)');
    }
    if (!alone) helper.postMessage({ buildEnd: true });
    await build.save();
  } finally {
    solved = null;
    build.close();
  }
}

// Every value table of the folder without its spread table: fetched from the
// host if it has one, else handed to the helper.
async function askForSpreads(engine) {
  for (const name of engine.tables.list()) {
    if (!name.endsWith('.penktable') || handed.has(name)) continue;
    const spread = name.replace(/\.penktable$/, '.penkspread');
    const mean = name.includes('_target=') ? [name.replace(/\.penktable$/, '.penkmean')] : [];
    handed.add(name);
    let have = true;
    for (const file of [spread, ...mean])
      if (!engine.tables.has(file) && !(await engine.tables.fetch(file))) have = false;
    if (have) continue;
    helper = helper || startHelper(engine);
    const bytes = engine.tables.read(name);
    helper.postMessage({ name, bytes }, [bytes.buffer]);
  }
}

const opened = (async () => createEngine({
  build: 'values',
  tableUrl: kTableUrl,
  diskBudgetMb: await budgetMb(),
  onStorageError: (err) => postMessage({ warning: err.message }),
}))();
// Requests wait for the shared build: alone, the engine would build the
// table again by itself.
const started = (async () => {
  const engine = await opened;
  postMessage({ ready: true });
  try {
    await buildTogether(engine);
  } catch (err) {
    // The engine builds it alone when a request needs it.
    postMessage({ warning: `the solitaire table was not built by two workers: ${err.message}` });
  }
  askForSpreads(engine);  // a visit that ended before they were built
  return engine;
})();
opened.catch((err) => postMessage({ failed: String((err && err.message) || err) }));

onmessage = async (event) => {
  const engine = await started;
  if (event.data.memory) {  // what the engine holds (tests, a curious player)
    postMessage({ memory: await engine.memory() });
    return;
  }
  const reply = await engine.requestLine(event.data.line, {
    onProgress: (message) => postMessage({ progress: message }),
  });
  postMessage({ reply });
  askForSpreads(engine);
};
