/**
 * First-run copy of the bundled presets into the user's config dir. A file the
 * user already has is never overwritten, and a default the user deleted is not
 * brought back: a ledger remembers which defaults were offered once.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PresetDirs } from './preset-paths.js';

/** Records which bundled files were already offered, so deletions stick. */
export const LEDGER_FILE = '.defaults-offered.json';

export interface InstallReport {
  copied: string[];
  /** Bundled files left alone because the user has a file of that name. */
  kept: string[];
  problems: string[];
}

function readLedger(path: string): Set<string> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return new Set(Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : []);
  } catch {
    return new Set();
  }
}

export function installDefaultPresets(bundled: PresetDirs, user: PresetDirs): InstallReport {
  const report: InstallReport = { copied: [], kept: [], problems: [] };
  const ledgerPath = join(user.root, LEDGER_FILE);
  const offered = readLedger(ledgerPath);
  const before = offered.size;
  for (const kind of ['agents', 'processes'] as const) {
    let files: string[];
    try {
      files = readdirSync(bundled[kind]).filter((file) => file.endsWith('.json'));
    } catch {
      continue; // nothing bundled of this kind
    }
    for (const file of files) {
      const key = `${kind}/${file}`;
      if (offered.has(key)) continue;
      const target = join(user[kind], file);
      try {
        mkdirSync(user[kind], { recursive: true });
        if (existsSync(target)) report.kept.push(target);
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
