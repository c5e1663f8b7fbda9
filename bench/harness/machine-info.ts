/** What the figures were measured on: a ratio means little without the machine and the load it shared. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

export interface MachineInfo {
  hostname: string;
  platform: string;
  kernel: string;
  cpuModel: string;
  cpus: number;
  totalMemoryMiB: number;
  node: string;
  loadAverageAtStart: number[];
  versions: Record<string, string>;
  gitCommit: string;
}

/** Walks up from the package's entry point: some packages do not export their package.json. */
function packageVersion(name: string): string {
  try {
    let dir = dirname(fileURLToPath(import.meta.resolve(name)));
    while (dir !== dirname(dir)) {
      const manifest = join(dir, 'package.json');
      if (existsSync(manifest)) {
        const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version: string };
        if (parsed.name === name) return parsed.version;
      }
      dir = dirname(dir);
    }
  } catch {
    // Not installed.
  }
  return 'unknown';
}

function command(file: string, args: string[]): string {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unavailable';
  }
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpus: cpus.length,
    totalMemoryMiB: Math.round(os.totalmem() / 1024 / 1024),
    node: process.version,
    loadAverageAtStart: os.loadavg().map((load) => Math.round(load * 100) / 100),
    versions: {
      'ghostty-web': packageVersion('ghostty-web'),
      'node-pty': packageVersion('node-pty'),
      '@xterm/headless': packageVersion('@xterm/headless'),
      piscina: packageVersion('piscina'),
      tmux: command('tmux', ['-V']),
    },
    gitCommit: command('git', ['rev-parse', '--short', 'HEAD']),
  };
}
