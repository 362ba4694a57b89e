// The engine protocol over the server's WebSocket (/engine), or to the
// WebAssembly engine in a Web Worker (WorkerEngine, the static site): one JSON
// request per message, one reply per request (docs/PROTOCOL.md). Replies come in
// order, so each request waits for the reply with its id. When the socket
// closes, every waiting request is refused and `onclose` is told; `reopen`
// connects again (the page then restores its game from the saved record).

export class EngineError extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

// A reply line to the request waiting for its id: resolved with the result
// or rejected with EngineError. False if it answers no waiting request.
function settle(waiting, text) {
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    return false;
  }
  const pending = waiting.get(reply.id);
  if (!pending) return false;
  waiting.delete(reply.id);
  if (reply.error) pending.reject(new EngineError(reply.error.code, reply.error.message));
  else pending.resolve(reply.result);
  return true;
}

export class Engine {
  constructor(url = engineUrl()) {
    this.url = url;
    this.nextId = 1;
    this.waiting = new Map();
    this.onclose = null;
    this.ready = this.connect();
  }

  // A new socket after a close: a new engine session, with no games.
  reopen() {
    this.ready = this.connect();
    return this.ready;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new EngineError('connection', `cannot reach the engine at ${this.url}`));
      ws.onmessage = (event) => settle(this.waiting, event.data);
      ws.onclose = (event) => {
        if (ws !== this.ws) return;  // an old socket, already replaced
        const why = event.code === 1009 ? 'a request was too large for the server'
                  : `the connection to the engine closed (${event.code})`;
        for (const pending of this.waiting.values()) pending.reject(new EngineError('connection', why));
        this.waiting.clear();
        if (this.onclose) this.onclose(why);
      };
    });
  }

  // Sends {cmd, ...fields}; resolves with the result, rejects with EngineError.
  async request(cmd, fields = {}) {
    await this.ready;
    if (this.ws.readyState !== WebSocket.OPEN)
      throw new EngineError('connection', 'not connected to the engine (reconnecting)');
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ id, cmd, ...fields }));
    });
  }
}

// The same engine in a Web Worker (the static site of tools/build_wasm.sh:
// the WebAssembly module, no server). Requests ask for progress, so that a
// table built on first use shows in `onprogress` ({done, total, what}; null
// when the request is answered). A worker that fails is a closed connection:
// `reopen` starts a new one (a new session; the page restores its game).
export class WorkerEngine {
  constructor(url = 'engine_worker.js') {
    this.url = url;
    this.nextId = 1;
    this.waiting = new Map();
    this.onclose = null;
    this.onprogress = null;
    this.onwarning = null;
    this.ready = this.connect();
  }

  reopen() {
    if (this.worker) this.worker.terminate();
    this.ready = this.connect();
    return this.ready;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const worker = new Worker(this.url, { type: 'module' });
      this.worker = worker;
      const lost = (why) => {
        if (worker !== this.worker) return;
        for (const pending of this.waiting.values()) pending.reject(new EngineError('connection', why));
        this.waiting.clear();
        reject(new EngineError('connection', why));
        if (this.onclose) this.onclose(why);
      };
      worker.onerror = (event) => lost(`the engine stopped (${event.message || 'worker error'})`);
      worker.onmessage = (event) => {
        const m = event.data;
        if (m.ready) resolve();
        else if (m.failed) lost(`the engine could not start: ${m.failed}`);
        else if (m.warning) { if (this.onwarning) this.onwarning(m.warning); }
        else if (m.progress) {
          let p;
          try { p = JSON.parse(m.progress).progress; } catch { return; }
          if (this.onprogress) this.onprogress(p);
        } else if (m.memory) {
          const waiting = this.memoryWaiting || [];
          this.memoryWaiting = [];
          for (const resolve of waiting) resolve(m.memory);
        } else if (m.reply && settle(this.waiting, m.reply) && this.onprogress) {
          this.onprogress(null);
        }
      };
    });
  }

  async request(cmd, fields = {}) {
    await this.ready;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ line: JSON.stringify({ id, cmd, ...fields, progress_ms: 250 }) });
    });
  }

  // What the worker's engine holds in memory, once the requests before are
  // answered: {heapBytes, held} (penk-engine's memory()).
  async memory() {
    await this.ready;
    return new Promise((resolve) => {
      (this.memoryWaiting = this.memoryWaiting || []).push(resolve);
      this.worker.postMessage({ memory: true });
    });
  }
}

// The page's engine: in a worker on the static site (its index.html says so
// with <meta name="penk-engine" content="worker">), else `penk serve`'s
// WebSocket. The static site also installs its service worker (offline use).
export function connectEngine() {
  const meta = document.querySelector('meta[name="penk-engine"]');
  if (!meta || meta.content !== 'worker') return new Engine();
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('sw.js').catch(() => {});
  return new WorkerEngine();
}

function engineUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/engine`;
}

// "illegal_action: marking ... (R3.1 ...)" in words a player reads.
export function describeError(err) {
  const words = {
    bad_json: 'The request was not understood',
    unknown_command: 'Unknown command',
    bad_field: 'A field is wrong',
    bad_position: 'That position is not possible',
    unknown_game: 'That game no longer exists',
    illegal_action: 'Not allowed now',
    unknown_level: 'Unknown AI level',
    table_error: 'A value table is missing',
    limit: 'A limit was reached',
    internal: 'The engine failed',
    connection: 'Connection problem',
  };
  if (err instanceof EngineError) return `${words[err.code] || err.code}: ${err.message}`;
  return String(err && err.message ? err.message : err);
}
