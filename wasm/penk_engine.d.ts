// TypeScript declarations of penk-engine (wasm/penk_engine.mjs).

/** Options of createEngine. */
export interface EngineOptions {
  /** Node: the folder of the tables (default "tables", made if missing). Ignored in a browser (IndexedDB). */
  tableDir?: string;
  /**
   * false: a missing table is not built; requests needing it answer table_error (as `penk engine --no-build`).
   * 'values': value tables are built, spread tables only read (a hint without one says why in "sd_error");
   * another engine builds them with buildSpread and hands them over (tables.read, tables.add).
   */
  build?: boolean | 'values';
  /** Browser, false: tables are kept in memory only, not in IndexedDB (a helper engine's scratch folder). */
  keep?: boolean;
  /**
   * Browser: the IndexedDB database of the kept tables (default "penk-tables"). In a worker a kept table is read
   * only when a request needs it; in a window every kept table is read at start.
   */
  storeName?: string;
  /**
   * Browser worker: a folder URL where the host may have table files (`penk tables build` output); a missing
   * table is fetched from there (a synchronous request) before it is built. A file refused is built instead.
   */
  tableUrl?: string;
  /** No table build starts once the tables take this many MB (a browser's storage budget); 0: no limit. */
  diskBudgetMb?: number;
  /** Memory for tables in use, MB (least recently used dropped first); 0: the engine's default. */
  tableCacheMb?: number;
  /**
   * Node: the module with threads (penk-engine-threads.wasm), which speaks protocol 3 as well: after a hello with
   * "protocol": 3, requests run side by side and their replies come in completion order, with cancel and
   * progress (docs/PROTOCOL.md). createEngine then gives a ThreadedEngine. Not in a browser (it would need a
   * cross-origin isolated page).
   */
  threads?: boolean;
  /** threads: every reply and progress line as the engine writes it (`reply` false: a progress message). */
  onLine?: (line: string, reply: boolean) => void;
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
  /** The engine's table files, by name (letters, digits and _.,=+- only). */
  tables: {
    /** Every table file the engine has: kept (IndexedDB in a browser) or in its folder. */
    list(): string[];
    has(name: string): boolean;
    read(name: string): Uint8Array;
    /** The files the engine's folder holds now; in a browser worker, between requests, only those not kept. */
    held(): string[];
    /** Writes the files after the requests made before, and keeps them (IndexedDB in a browser). */
    add(files: { name: string; bytes: Uint8Array }[]): Promise<void>;
    /** Removes the file, from IndexedDB too in a browser. */
    remove(name: string): Promise<void>;
    /** Asks tableUrl for a missing file and keeps it: true if it came. */
    fetch(name: string): Promise<boolean>;
  };
  /**
   * What the engine holds in memory, after the requests made before: the module's heap (the tables it loaded)
   * and the files in its folder.
   */
  memory(): Promise<{ heapBytes: number; held: string[] }>;
  /** Builds the spread table (a target's mean table too) beside value table file `name` and keeps it; the names written. */
  buildSpread(name: string): Promise<string[]>;
  /**
   * A value table built in shares by two engines (two workers share no memory): the default table of `rules`
   * ('' the default rules) with `blockedRows` (bit k-1: row k), expected score. null when this engine has it (or
   * its host gave it, tableUrl); throws when it cannot be built. Both engines open it; for every layer in order
   * each solves its share and they trade the values; one saves it, the other closes its own.
   */
  tableBuild(rules?: string, blockedRows?: number): TableBuild | null;
  /** Whether {"cmd":"quit"} was answered. */
  quitRequested(): boolean;
  /** Frees the engine; later requests are refused. */
  close(): void;
}

/** A value table being built in shares (Engine.tableBuild): the same table as the engine builds alone, bit for bit. */
export interface TableBuild {
  readonly layers: number;
  /** Positions of the whole build. */
  readonly positions: number;
  /** Positions of layer `layer` (layers are solved in order; any split of one among engines). */
  layerSize(layer: number): number;
  /** Solves positions [begin, end) of a layer; every layer before must be solved or set. */
  solve(layer: number, begin: number, end: number): void;
  /** Their values, to hand to the other engine. */
  values(layer: number, begin: number, end: number): Float64Array;
  /** The other engine's values of positions [begin, end). */
  set(layer: number, begin: number, end: number, values: Float64Array): void;
  /** Writes the table into the engine's folder and keeps it; the build is over. */
  save(): Promise<void>;
  close(): void;
}

/**
 * An engine with threads (createEngine with threads: true, Node): requests are handed over at once; the replies of
 * protocol 3 come in completion order. In protocol 3 the ids of requests in flight must differ.
 */
export interface ThreadedEngine {
  request(request: object | string, options?: { onProgress?: (message: Progress) => void }): Promise<Reply>;
  requestLine(line: string, options?: { onProgress?: (message: string) => void }): Promise<string>;
  /**
   * A line handed over without waiting: its reply and progress lines go to options.onLine. It may be mixed with
   * request() on one engine: its reply is never taken for another request's.
   */
  send(line: string): void;
  /** Whether {"cmd":"quit"} was answered. */
  quitRequested(): boolean;
  /** No more requests: resolves once every request sent is answered and the engine's threads are gone. */
  close(): Promise<void>;
}

/** Loads the module and opens an engine. */
export function createEngine(options?: EngineOptions & { threads?: false }): Promise<Engine>;
export function createEngine(options: EngineOptions & { threads: true }): Promise<ThreadedEngine>;
