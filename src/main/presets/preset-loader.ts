/**
 * Reads every preset file of one kind. Each file stands alone: a broken one
 * becomes an error that names the file, the field and the problem, and the
 * others still load (issue 5).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parsePreset, type AgentPreset, type PresetKind, type ProcessPreset } from '../../shared/preset-schema.js';

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

export function loadPresetDir(kind: 'agent', dir: string): LoadResult<AgentPreset>;
export function loadPresetDir(kind: 'process', dir: string): LoadResult<ProcessPreset>;
export function loadPresetDir(kind: PresetKind, dir: string): LoadResult<AgentPreset | ProcessPreset> {
  const result: LoadResult<AgentPreset | ProcessPreset> = { presets: [], errors: [] };
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((file) => file.endsWith('.json') && !file.startsWith('.'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') result.errors.push({ kind, file: dir, problems: [`cannot list the directory: ${(error as Error).message}`] });
    return result;
  }
  const byName = new Map<string, string>();
  for (const file of files) {
    const path = join(dir, file);
    const parsed = readPresetFile(kind, path);
    if (!parsed.ok) {
      result.errors.push({ kind, file: path, problems: parsed.problems });
      continue;
    }
    const earlier = byName.get(parsed.preset.name);
    if (earlier !== undefined) {
      result.errors.push({ kind, file: path, problems: [`name: ${JSON.stringify(parsed.preset.name)} is already used by ${earlier}; names must be unique, so this file was skipped`] });
      continue;
    }
    byName.set(parsed.preset.name, path);
    result.presets.push({ id: basename(file, '.json'), file: path, preset: parsed.preset });
  }
  return result;
}

function readPresetFile(kind: PresetKind, path: string): { ok: true; preset: AgentPreset | ProcessPreset } | { ok: false; problems: string[] } {
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
