/**
 * What starting a child costs as the parent grows: node-pty as patterm builds
 * it (posix_spawn, patches/node-pty@1.1.0.patch) against a fork()-based spawn
 * (Node's child_process), first at this process's own size, then with
 * BALLAST_MIB more resident, about what 20 panes add to patterm.
 */
import { spawn as forkSpawn } from 'node:child_process';
import * as pty from 'node-pty';
import { median } from '../harness/stats.js';

const SAMPLES = 15;
const BALLAST_MIB = 512;
const MIB = 1024 * 1024;

export interface SpawnCostResult {
  rssMiB: { small: number; large: number };
  ptyMs: { small: number; large: number };
  forkMs: { small: number; large: number };
}

function ptySpawn(): Promise<void> {
  const child = pty.spawn('true', [], { cols: 80, rows: 24, encoding: null } as pty.IPtyForkOptions);
  return new Promise((resolve) => child.onExit(() => resolve()));
}

function forkedSpawn(): Promise<void> {
  const child = forkSpawn('true', { stdio: 'ignore' });
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Median time of the spawn call itself, which is synchronous (the parent's cost); each child's exit is awaited untimed. */
async function spawnCallMs(spawnChild: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    const exited = spawnChild();
    times.push(performance.now() - started);
    await exited;
  }
  return median(times);
}

export default async function spawnCost(): Promise<SpawnCostResult> {
  const rssMiB = () => process.memoryUsage().rss / MIB;
  const small = { rss: rssMiB(), pty: await spawnCallMs(ptySpawn), fork: await spawnCallMs(forkedSpawn) };
  const ballast = Array.from({ length: BALLAST_MIB / 64 }, () => Buffer.alloc(64 * MIB, 1)); // touched, so resident
  const large = { rss: rssMiB(), pty: await spawnCallMs(ptySpawn), fork: await spawnCallMs(forkedSpawn) };
  ballast.length = 0;
  return { rssMiB: { small: small.rss, large: large.rss }, ptyMs: { small: small.pty, large: large.pty }, forkMs: { small: small.fork, large: large.fork } };
}
