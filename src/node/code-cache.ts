/**
 * Loads a CommonJS bundle through vm.Script with V8's code cache, so a launch
 * after the first skips most of compiling it. Node 20 caches nothing itself
 * (module.enableCompileCache came in Node 22.1) and vm.Script's cachedData
 * takes scripts, not ES modules: hence CommonJS bundles.
 *
 * A cache is only ever a shortcut: one that is missing, unreadable, corrupt
 * or from another build is ignored (V8 checks its own version and flags, and
 * the file's name carries the bundle's size, mtime and inode, since V8 checks
 * only the source's length), and the bundle compiles as it would without it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { threadId } from 'node:worker_threads';
import { installExternalImporter } from './external-import.js';
import { logIgnored } from './patterm-log.js';

/** The suffix of a cache file: `<bundle name>.<key>.v8cache`. */
const CACHE_SUFFIX = '.v8cache';

export interface CachedBundle {
  /** The bundle's module.exports. */
  exports: unknown;
  /** 'accepted': compiled from the cache; 'missing' or 'rejected': compiled from source (saveCache() writes one). */
  cache: 'accepted' | 'missing' | 'rejected';
  /**
   * Writes the cache when the bundle did not compile from one. Call it once the
   * code that matters has run: V8 caches the functions compiled by then too.
   * Never throws; a cache that cannot be written is logged and skipped.
   */
  saveCache(): void;
}

/**
 * Runs the CommonJS file `file` as require() would, with its code cache kept
 * in `cacheDir`. `beforeRun` gets the compiled bundle's cache state and saver
 * before its top level runs (a worker's loader hands them to the bundle).
 */
export function requireWithCodeCache(file: string, cacheDir: string, beforeRun?: (compiled: Omit<CachedBundle, 'exports'>) => void): CachedBundle {
  const source = readFileSync(file, 'utf8');
  const cacheFile = join(cacheDir, `${basename(file)}.${cacheKey(file)}${CACHE_SUFFIX}`);
  const cachedData = readCache(cacheFile);
  // The same wrapper as Node's CommonJS loader, so the bundle sees the same names.
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, cachedData });
  const cache = cachedData === undefined ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted';
  let saved = cache === 'accepted';
  const compiled = {
    cache,
    saveCache() {
      if (saved) return;
      saved = true;
      writeCache(cacheDir, file, cacheFile, script);
    },
  } as const;
  beforeRun?.(compiled);
  // import() inside a vm.Script has no loader in Node 20: the bundle's external imports come through this module's.
  installExternalImporter((specifier) => import(specifier));
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { exports: module.exports, ...compiled };
}

/** Names this build of the bundle for this Node: a rebuilt bundle or another Node never meets an old cache. */
function cacheKey(file: string): string {
  const stat = statSync(file);
  return createHash('sha256').update(`${process.version}\0${process.arch}\0${file}\0${stat.size}\0${stat.mtimeMs}\0${stat.ino}`).digest('hex').slice(0, 16);
}

function readCache(cacheFile: string): Buffer | undefined {
  try {
    return readFileSync(cacheFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') logIgnored(`reading the code cache ${cacheFile}`, error);
    return undefined;
  }
}

function writeCache(cacheDir: string, file: string, cacheFile: string, script: Script): void {
  // Written whole and renamed: a launch that reads it meanwhile finds the old file or the new, never half of one.
  const partial = `${cacheFile}.${process.pid}.${threadId}.partial`;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cacheFile);
  } catch (error) {
    logIgnored(`writing the code cache ${cacheFile}`, error);
    removeQuietly(partial); // a write cut short (a full disk) leaves no half file behind
    return;
  }
  // Earlier builds' caches of this bundle are never read again.
  const prefix = `${basename(file)}.`;
  try {
    for (const name of readdirSync(cacheDir)) {
      if (name.startsWith(prefix) && name.endsWith(CACHE_SUFFIX) && join(cacheDir, name) !== cacheFile) removeQuietly(join(cacheDir, name));
    }
  } catch (error) {
    logIgnored(`listing old code caches in ${cacheDir}`, error);
  }
}

/** A cache file is only a shortcut: one that cannot be removed is logged and left. */
function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch (error) {
    logIgnored(`removing ${path}`, error);
  }
}
