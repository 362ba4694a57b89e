// Where a browser keeps the engine's tables (issue 23): one IndexedDB record
// per table file, its bytes as a Blob. The engine's folder in the module
// holds only what a request reads: a Blob read back from IndexedDB stays on
// disk until it is read (FileReaderSync, in a worker), so memory holds the
// tables in use, however many are kept. Emscripten's IDBFS, used before,
// read every kept file into memory when the engine started.
//
// The database is named `penk-tables` (store `files`, records {name, size,
// blob}). Tables kept by IDBFS (a database named after its mount point,
// /tables) are moved here once, one file at a time, and that database is
// deleted.

const kStore = 'files';

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function finished(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error('the write was aborted'));
  });
}

async function openDatabase(name) {
  const request = indexedDB.open(name, 1);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(kStore))
      request.result.createObjectStore(kStore, { keyPath: 'name' });
  };
  return done(request);
}

// The tables IDBFS kept under `mount` (its database FILE_DATA, keyed by
// path, {contents: Uint8Array}), moved into `store` one at a time; then its
// database is deleted. Nothing happens where the browser cannot list its
// databases (the old files are then simply built again).
async function moveFromIdbfs(store, mount) {
  if (typeof indexedDB.databases !== 'function') return;
  const names = (await indexedDB.databases()).map((d) => d.name);
  if (!names.includes(mount)) return;
  const old = await done(indexedDB.open(mount));
  try {
    if (old.objectStoreNames.contains('FILE_DATA')) {
      const keys = await done(old.transaction('FILE_DATA', 'readonly').objectStore('FILE_DATA').getAllKeys());
      for (const key of keys.map(String)) {
        const name = key.slice(key.lastIndexOf('/') + 1);
        if (!key.startsWith(`${mount}/`) || !name || store.has(name)) continue;
        const record = await done(old.transaction('FILE_DATA', 'readonly').objectStore('FILE_DATA').get(key));
        if (record && record.contents instanceof Uint8Array) await store.put(name, record.contents);
      }
    }
  } finally {
    old.close();
  }
  await done(indexedDB.deleteDatabase(mount));
}

// The store: the names and sizes of the kept files at once, their bytes
// when asked. Writes and removals resolve once IndexedDB has them.
export async function openTableStore({ name = 'penk-tables', idbfsMount = '/tables' } = {}) {
  const db = await openDatabase(name);
  const files = new Map();  // name -> {size, blob}
  for (const record of await done(db.transaction(kStore, 'readonly').objectStore(kStore).getAll()))
    files.set(record.name, { size: record.size, blob: record.blob });
  const store = {
    names: () => [...files.keys()],
    has: (file) => files.has(file),
    bytes: () => {
      let total = 0;
      for (const { size } of files.values()) total += size;
      return total;
    },
    // The bytes of a kept file, synchronously (a worker: the module asks
    // while a request runs); null if it is not kept.
    read(file) {
      const entry = files.get(file);
      if (!entry) return null;
      return new Uint8Array(new FileReaderSync().readAsArrayBuffer(entry.blob));
    },
    async put(file, bytes) {
      const record = { name: file, size: bytes.length, blob: new Blob([bytes]) };
      const transaction = db.transaction(kStore, 'readwrite');
      transaction.objectStore(kStore).put(record);
      await finished(transaction);
      // The Blob made here holds the bytes in memory; the one read back is
      // IndexedDB's, on disk.
      const kept = await done(db.transaction(kStore, 'readonly').objectStore(kStore).get(file));
      files.set(file, { size: record.size, blob: kept ? kept.blob : record.blob });
    },
    async remove(file) {
      const transaction = db.transaction(kStore, 'readwrite');
      transaction.objectStore(kStore).delete(file);
      await finished(transaction);
      files.delete(file);
    },
  };
  await moveFromIdbfs(store, idbfsMount);
  return store;
}
