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

const started = (async () => {
  const engine = await createEngine({
    diskBudgetMb: await budgetMb(),
    onStorageError: (err) => postMessage({ warning: err.message }),
  });
  postMessage({ ready: true });
  return engine;
})();
started.catch((err) => postMessage({ failed: String((err && err.message) || err) }));

onmessage = async (event) => {
  const engine = await started;
  const reply = await engine.requestLine(event.data.line, {
    onProgress: (progress) => postMessage({ progress }),
  });
  postMessage({ reply });
};
