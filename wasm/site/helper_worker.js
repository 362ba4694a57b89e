// The static site's second engine (docs/WEB.md "Without a server"), on the
// other core: wasm threads would need the host's cross-origin isolation, so
// the two cores are used by two workers, which share no memory and trade
// messages. It keeps nothing itself: the first worker (engine_worker.js) is
// the one writer of IndexedDB and takes the files it hands back.
//
// {ready: true} once its engine is up, then two jobs, done in the order asked:
// - a value table built together (a first visit): {build: {rules, blocked}}
//   opens the same build as the first worker's, {solve: {layer, begin, end}}
//   solves those positions of a layer and answers {solved: {layer, values}},
//   {set: {layer, begin, end, values}} takes the first worker's share,
//   {buildEnd: true} closes it;
// - the spread tables the first engine (build: 'values') only reads:
//   {name, bytes}, a value table file, answered {files: [{name, bytes}]},
//   the spread table (and a target's mean table) built beside it, or
//   {name, error}.
import { createEngine } from './penk_engine.mjs';

const started = createEngine({ keep: false });
// The first worker waits for this before it hands over work (and stops a
// helper that does not start).
started.then(() => postMessage({ ready: true }), () => {});
let build = null;

async function spreadOf(engine, { name, bytes }) {
  try {
    await engine.tables.add([{ name, bytes }]);
    const made = await engine.buildSpread(name);
    const files = made.map((file) => ({ name: file, bytes: engine.tables.read(file) }));
    postMessage({ files }, files.map((file) => file.bytes.buffer));
    for (const file of made) engine.tables.remove(file);
  } catch (err) {
    postMessage({ name, error: String((err && err.message) || err) });
  } finally {
    if (engine.tables.has(name)) engine.tables.remove(name);
  }
}

async function handle(data) {
  const engine = await started;
  if (data.build) {
    build = engine.tableBuild(data.build.rules, data.build.blocked);
  } else if (data.solve) {
    const { layer, begin, end } = data.solve;
    build.solve(layer, begin, end);
    const values = build.values(layer, begin, end);
    postMessage({ solved: { layer, values } }, [values.buffer]);
  } else if (data.set) {
    const { layer, begin, end, values } = data.set;
    build.set(layer, begin, end, values);
  } else if (data.buildEnd) {
    if (build) build.close();
    build = null;
  } else if (data.name) {
    await spreadOf(engine, data);
  }
}

let chain = Promise.resolve();
onmessage = ({ data }) => {
  chain = chain.then(() => handle(data)).catch((err) =>
    postMessage({ failed: String((err && err.message) || err) }));
};
