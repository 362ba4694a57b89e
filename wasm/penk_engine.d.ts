// TypeScript declarations of penk-engine (wasm/penk_engine.mjs).

/** Options of createEngine. */
export interface EngineOptions {
  /** Node: the folder of the tables (default "tables", made if missing). Ignored in a browser (IndexedDB). */
  tableDir?: string;
  /** false: a missing table is not built; requests needing it answer table_error (as `penk engine --no-build`). */
  build?: boolean;
  /** No table build starts once the tables take this many MB (a browser's storage budget); 0: no limit. */
  diskBudgetMb?: number;
  /** Memory for tables in use, MB (least recently used dropped first); 0: the engine's default. */
  tableCacheMb?: number;
  /** Node: whether the process's working folder is visible, for relative file names in requests (default true). */
  mountCwd?: boolean;
  /** Browser: where penk-engine-core.wasm is, if not beside penk_engine.mjs. */
  wasmUrl?: string;
  /** Progress messages of requests with "progress_ms" (their JSON text), unless the request names its own. */
  onProgress?: (message: string) => void;
  /** Browser: a table built could not be kept in IndexedDB (the reply stands; the error says why, e.g. the quota). */
  onStorageError?: (error: Error) => void;
  /** The module's standard output and error, a line at a time (table builds report progress there). */
  print?: (line: string) => void;
  printErr?: (line: string) => void;
}

/** A reply of the engine protocol (docs/PROTOCOL.md): a result or an error. */
export interface Reply {
  id?: unknown;
  result?: any;
  error?: { code: string; message: string; [field: string]: unknown };
  [field: string]: unknown;
}

/** A progress message: {"id", "progress": {"done", "total", "what"}}. */
export interface Progress {
  id?: unknown;
  progress: { done: number; total: number; what: string };
}

/** One engine: its own games and tables. Requests run one at a time, in the order made. */
export interface Engine {
  /** A request object (or its JSON text) in, its reply out; with "progress_ms", its progress messages to onProgress. */
  request(request: object | string, options?: { onProgress?: (message: Progress) => void }): Promise<Reply>;
  /** One request line in, the reply line out (the protocol's own text). */
  requestLine(line: string, options?: { onProgress?: (message: string) => void }): Promise<string>;
  /** Whether {"cmd":"quit"} was answered. */
  quitRequested(): boolean;
  /** Frees the engine; later requests are refused. */
  close(): void;
}

/** Loads the module and opens an engine. */
export function createEngine(options?: EngineOptions): Promise<Engine>;
