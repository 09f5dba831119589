// V8's compiled code of the bundle's files, kept between runs (Node 20 has no module.enableCompileCache):
// a short command (`search`, `sessions`, `status`) spent a third of its time over `node -e 0` compiling
// the ~450 KB of dist/ it loads, and about a tenth of that reading them back from this cache.
//
// Only files under dist/ are taken, each entry named by its file's name and a hash of which file it is
// (its path, size, modification time, inode and device): V8 checks cached code only against the source's
// length, so two installs, or an upgrade, with a file of the same name and length would otherwise run the
// other's code. (Not a hash of the content: node:crypto loads Node's stream modules, ~5 ms of a search.)
// The cache folder is the user's own (XDG_CACHE_HOME or ~/.cache, recapwrap/v8),
// made 0700 and used only while it is a real folder of this user that nobody else may write: code read
// back from it runs as ours. V8 checks each entry against the source and its own version and flags, and
// rejects one that does not match (then it is written again). New entries are written when the process
// ends, so they hold the functions the run compiled too. RECAPWRAP_COMPILE_CACHE=0 turns it off; any
// failure to read or write it is silent (the code is then compiled as usual).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

const DIST = path.join(__dirname, '..', 'dist') + path.sep;
// Entries left from older versions are removed when the folder holds more than this many.
const KEEP_MAX = 400;
// A smaller file compiles faster than its entry is opened and read (`status`'s 5 KB).
const MIN_CHARS = 8 * 1024;

function cacheFolder(env) {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : env.HOME && path.isAbsolute(env.HOME) ? path.join(env.HOME, '.cache') : undefined;
  if (!base) return undefined;
  const dir = path.join(base, 'recapwrap', 'v8');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

// 64 bits of hash of a short text (two FNV-1a passes, different offsets), in hex.
function hash64(text) {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

// An entry's name: the file's, which file it is (a file rewritten, or another install's, is another
// entry) and what V8 keys its code on. Undefined when the file cannot be looked at.
function entryName(filename) {
  try {
    const st = fs.statSync(filename);
    const which = hash64(`${filename}\0${st.size}\0${st.mtimeMs}\0${st.ino}\0${st.dev}`);
    return `${path.basename(filename)}-${which}-${process.version}-${process.arch}.v8`;
  } catch {
    return undefined;
  }
}

function readEntry(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const st = fs.fstatSync(fd);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o022) !== 0) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeEntries(dir, pending) {
  for (const { script, file } of pending) {
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: 'wx' });
      fs.renameSync(tmp, file);
    } catch {
      try {
        fs.unlinkSync(tmp);
      } catch {}
    }
  }
  try {
    const names = fs.readdirSync(dir);
    if (names.length <= KEEP_MAX) return;
    const current = new Set();
    for (const sub of ['chunks', 'cli']) for (const n of fs.readdirSync(path.join(DIST, sub))) current.add(entryName(path.join(DIST, sub, n)));
    for (const n of names) if (!current.has(n)) fs.unlinkSync(path.join(dir, n));
  } catch {}
}

function install(env = process.env) {
  if (env.RECAPWRAP_COMPILE_CACHE === '0' || typeof vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER === 'undefined') return;
  const dir = cacheFolder(env);
  if (!dir) return;
  const compile = Module.prototype._compile;
  const pending = [];
  Module.prototype._compile = function compileCached(content, filename) {
    return compileWith(this, content, filename);
  };
  const compileWith = (mod, content, filename) => {
    if (typeof filename !== 'string' || !filename.startsWith(DIST) || content.length < MIN_CHARS) return compile.call(mod, content, filename);
    const name = entryName(filename);
    if (!name) return compile.call(mod, content, filename);
    const file = path.join(dir, name);
    const cachedData = readEntry(file);
    let script;
    try {
      script = new vm.Script(Module.wrap(content), { filename, cachedData, importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
    } catch {
      return compile.call(mod, content, filename);
    }
    if (!cachedData || script.cachedDataRejected) pending.push({ script, file });
    const req = function require(id) {
      return mod.require(id);
    };
    req.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
    req.main = require.main;
    req.cache = Module._cache;
    return script.runInThisContext({ displayErrors: true }).call(mod.exports, mod.exports, req, mod, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    if (pending.length > 0) writeEntries(dir, pending);
  });
}

// entryName: for the test run's check that no test wrote into the user's cache (test/helpers/test-home.ts).
module.exports = { install, entryName };
