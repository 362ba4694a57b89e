// Host folders in an engine module's file system under Node (both modules:
// penk_engine.mjs and penk_engine_threads.mjs). They appear at their own
// paths, so that file names in requests and replies read as they do for the
// native engine: the working folder (relative names in requests, "table",
// are the process's own) unless options.mountCwd is false, and the table
// folder options.tableDir ('tables' by default, made if missing). Returns the
// table folder as the engine names it.
export async function mountHostFolders(core, options) {
  const path = await import('node:path');
  const fs = await import('node:fs');
  const FS = core.FS;
  const mirror = (dir) => {
    FS.mkdirTree(dir);
    FS.mount(core.NODEFS, { root: dir }, dir);
  };
  const given = options.tableDir || 'tables';
  const absolute = path.resolve(given);
  fs.mkdirSync(absolute, { recursive: true });
  const cwd = process.cwd();
  const mountCwd = options.mountCwd !== false;
  if (mountCwd) {
    mirror(cwd);
    FS.chdir(cwd);
  }
  // A table folder inside the working folder is already visible.
  const below = path.relative(cwd, absolute);
  if (!mountCwd || below.startsWith('..') || path.isAbsolute(below)) mirror(absolute);
  return mountCwd ? given : absolute;
}
