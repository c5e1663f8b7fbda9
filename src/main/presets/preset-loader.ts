/**
 * Reads every preset file of one kind. Each file stands alone: a broken one
 * becomes an error that names the file, the field and the problem, and the
 * others still load: one typo must not take every preset away.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parsePreset, type PresetKind, type PresetOf } from '../../shared/preset-schema.js';

export interface LoadedPreset<T> {
  /** File name without `.json`; the stable key for spawn_agent / spawn_process. */
  id: string;
  file: string;
  preset: T;
}

export interface PresetError {
  kind: PresetKind;
  file: string;
  problems: string[];
}

export interface LoadResult<T> {
  presets: LoadedPreset<T>[];
  errors: PresetError[];
}

export function formatPresetError(error: PresetError): string {
  return error.problems.map((problem) => `${error.file}: ${problem}`).join('\n');
}

export function loadPresetDir<K extends PresetKind>(kind: K, dir: string): LoadResult<PresetOf<K>> {
  const result: LoadResult<PresetOf<K>> = { presets: [], errors: [] };
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith('.json') && !file.startsWith('.'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') result.errors.push({ kind, file: dir, problems: [`cannot list the directory: ${(error as Error).message}`] });
    return result;
  }
  const parsed = files.map((file) => ({ id: basename(file, '.json'), path: join(dir, file), read: readPresetFile(kind, join(dir, file)) }));
  // A lookup tries file names, then names ignoring case (preset-catalog.ts). Each must lead to one
  // preset, or the palette and spawn_agent would pick one silently: the file whose file name it is
  // keeps a name, then the first in file-name order; a later file that repeats it is skipped.
  const byId = new Map(parsed.filter((entry) => entry.read.ok).map((entry) => [entry.id.toLowerCase(), entry.path]));
  const byName = new Map<string, { path: string; name: string }>();
  for (const { id, path, read } of parsed) {
    if (!read.ok) {
      result.errors.push({ kind, file: path, problems: read.problems });
      continue;
    }
    const name = read.preset.name;
    const key = name.toLowerCase();
    const named = byId.get(key);
    const earlier = byName.get(key);
    if (earlier !== undefined) {
      const spelled = earlier.name === name ? '' : ` (as ${JSON.stringify(earlier.name)}: names are compared ignoring case)`;
      result.errors.push({ kind, file: path, problems: [`name: ${JSON.stringify(name)} is already used by ${earlier.path}${spelled}; names must be unique, so this file was skipped`] });
    } else if (named !== undefined && named !== path) {
      result.errors.push({ kind, file: path, problems: [`name: ${JSON.stringify(name)} is how ${named} is found (by its file name, which lookups try first), so this preset could not be reached by it; rename one of them. This file was skipped`] });
    } else {
      byName.set(key, { path, name });
      result.presets.push({ id, file: path, preset: read.preset });
    }
  }
  return result;
}

function readPresetFile<K extends PresetKind>(kind: K, path: string): { ok: true; preset: PresetOf<K> } | { ok: false; problems: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, problems: [`cannot read the file: ${(error as Error).message}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [`not valid JSON: ${(error as Error).message}`] };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { ok: false, problems: [`(top level): expected a JSON object, received ${Array.isArray(json) ? 'an array' : JSON.stringify(json)}`] };
  }
  return parsePreset(kind, json);
}
