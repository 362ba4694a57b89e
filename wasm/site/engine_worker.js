// The static site's engine (docs/WEB.md "Without a server"): the WebAssembly
// engine in this Web Worker, so that the page stays responsive while a table
// is built. Messages from the page: {line} (a request line); to the page:
// {ready} once the engine is up (its tables read from IndexedDB), {reply},
// {progress} (a progress message's text), {warning} (storage refused),
// {failed} (the engine could not start).
import { createEngine } from './penk_engine.mjs';

// Tables take 14.5 MB each: builds stop at 80% of what the browser grants
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
const handed = new Set();  // value tables whose spread table was asked for

function startHelper(engine) {
  const worker = new Worker(new URL('./helper_worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data }) => {
    if (data.solved) solved.resolve(data.solved.values);
    else if (data.files) engine.tables.add(data.files);
    else if (data.failed && solved) solved.reject(new Error(data.failed));
    else postMessage({ warning: `the second worker failed: ${data.error || data.failed}` });
  };
  worker.onerror = (event) => {
    if (solved) solved.reject(new Error(`the second worker stopped (${event.message || 'worker error'})`));
  };
  return worker;
}

function progress(done, total, what) {
  postMessage({ progress: JSON.stringify({ progress: { done, total, what } }) });
}

// The solitaire table of the default rules, if the folder lacks it and the
// host has none: each worker solves half of every layer, and they trade the
// values before the next (about twice one worker's speed, with no special
// headers). The same table as the engine builds alone, bit for bit. A
// helper that fails rejects the layer's promise: the engine then builds the
// table alone when a request needs it.
async function buildTogether(engine) {
  const build = engine.tableBuild('', 0);
  if (!build) return;
  helper = helper || startHelper(engine);
  try {
    helper.postMessage({ build: { rules: '', blocked: 0 } });
    let done = 0;
    for (let layer = 0; layer < build.layers; ++layer) {
      const n = build.layerSize(layer);
      if (n === 0) continue;
      const half = n >> 1;  // this worker [0, half), the helper [half, n)
      const theirs = new Promise((resolve, reject) => { solved = { resolve, reject }; });
      helper.postMessage({ solve: { layer, begin: half, end: n } });
      build.solve(layer, 0, half);
      const mine = build.values(layer, 0, half);
      helper.postMessage({ set: { layer, begin: 0, end: half, values: mine } }, [mine.buffer]);
      build.set(layer, half, n, await theirs);
      done += n;
      progress(done, build.positions, 'building the solitaire table (two workers)');
    }
    helper.postMessage({ buildEnd: true });
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
  const reply = await engine.requestLine(event.data.line, {
    onProgress: (message) => postMessage({ progress: message }),
  });
  postMessage({ reply });
  askForSpreads(engine);
};
