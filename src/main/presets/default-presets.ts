/**
 * First-run copy of the bundled presets into the user's config dir. A file the
 * user already has is never overwritten, and a default the user deleted is not
 * brought back: a ledger remembers which defaults were offered once. Nor does
 * a default come in beside a preset of the user's with the same name: the two
 * would clash (preset-loader.ts), and the user's own preset is the one meant.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PresetDirs } from './preset-paths.js';
import { logDegraded, logIgnored } from '../../node/patterm-log.js';

/** Records which bundled files were already offered, so deletions stick. */
export const LEDGER_FILE = '.defaults-offered.json';

export interface InstallReport {
  copied: string[];
  /** Bundled files left alone because the user has a file of that name. */
  kept: string[];
  /** Bundled files not copied because a preset of the user's (`by`) is already found by `name`, their name or file name. */
  shadowed: Array<{ bundled: string; by: string; name: string }>;
  problems: string[];
}

function readLedger(path: string): Set<string> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return new Set(Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []);
  } catch (error) {
    // None yet is the first run; an unreadable one means defaults the user deleted may come back.
    logIgnored(`reading the defaults ledger ${path}; starting a new one`, error, (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'debug' : 'warn');
    return new Set();
  }
}

export function installDefaultPresets(bundled: PresetDirs, user: PresetDirs): InstallReport {
  const report: InstallReport = { copied: [], kept: [], shadowed: [], problems: [] };
  const ledgerPath = join(user.root, LEDGER_FILE);
  const offered = readLedger(ledgerPath);
  const before = offered.size;
  for (const kind of ['agents', 'processes', 'shells'] as const) {
    let files: string[];
    try {
      files = readdirSync(bundled[kind]).filter((file) => file.endsWith('.json'));
    } catch (error) {
      logDegraded(`listing bundled ${kind} presets; none are installed`, error);
      continue; // nothing bundled of this kind
    }
    const taken = presetKeys(user[kind]);
    for (const file of files) {
      const key = `${kind}/${file}`;
      if (offered.has(key)) continue;
      const target = join(user[kind], file);
      // Found by its name and its file name; a preset of the user's found by either takes precedence.
      const clash = [presetName(join(bundled[kind], file)), basename(file, '.json')].find((found) => found !== null && taken.has(found.toLowerCase()));
      try {
        mkdirSync(user[kind], { recursive: true });
        if (existsSync(target)) report.kept.push(target);
        else if (clash) report.shadowed.push({ bundled: join(bundled[kind], file), by: taken.get(clash.toLowerCase())!, name: clash });
        else {
          copyFileSync(join(bundled[kind], file), target);
          report.copied.push(target);
        }
        offered.add(key);
      } catch (error) {
        report.problems.push(`could not install default preset ${key} into ${user[kind]}: ${(error as Error).message}`);
      }
    }
  }
  if (offered.size !== before) {
    try {
      writeFileSync(ledgerPath, JSON.stringify([...offered].sort(), null, 2) + '\n');
    } catch (error) {
      report.problems.push(`could not write ${ledgerPath}: ${(error as Error).message}`);
    }
  }
  return report;
}

/** The `name` of a preset file, or null when it has none (broken files still claim the name they give). */
function presetName(path: string): string | null {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const name = (value as { name?: unknown } | null)?.name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
  } catch (error) {
    logIgnored(`reading the name of preset ${path}`, error);
    return null;
  }
}

/**
 * What the user's presets of one kind are found by, lower-cased (lookups ignore
 * case): file names and names, each with its file.
 */
function presetKeys(dir: string): Map<string, string> {
  const keys = new Map<string, string>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((file) => file.endsWith('.json') && !file.startsWith('.'));
  } catch (error) {
    // no directory yet: nothing of the user's to clash with
    logIgnored(`listing the presets in ${dir}`, error);
  }
  for (const file of files) {
    keys.set(basename(file, '.json').toLowerCase(), join(dir, file));
    const name = presetName(join(dir, file));
    if (name !== null) keys.set(name.toLowerCase(), join(dir, file));
  }
  return keys;
}
