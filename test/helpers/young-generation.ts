/**
 * The main thread's young generation, grown and then given back: what the
 * memory-return tests measure (native-addon.ts, allocator.ts).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface YoungGeneration {
  grownMiB: number;
  afterMiB: number;
  msAfterClose: number;
}

/**
 * In a process of its own, without V8's memory reducer (so nothing but the
 * step under test shrinks the young generation): grows the main thread's young
 * generation as a burst of spawns does, runs `trigger`, and reports how far
 * and how soon the young generation came back. `trigger` is module code that
 * may use `coordinator` (a real Coordinator) and `nativeAddon`.
 */
export async function youngGenerationAfter(trigger: string): Promise<YoungGeneration> {
  const coordinatorModule = new URL('../../src/main/coordinator.js', import.meta.url).href;
  const addonModule = new URL('../../src/node/native-addon.js', import.meta.url).href;
  const script = `
    import v8 from 'node:v8';
    const { Coordinator } = await import(${JSON.stringify(coordinatorModule)});
    const { nativeAddon } = await import(${JSON.stringify(addonModule)});
    const youngMiB = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').physical_space_size / 2 ** 20;
    // Objects that survive a few scavenges each: V8 grows the young generation to its maximum.
    let survivors = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 20000; i++) survivors.push({ i, text: 'x' + i });
      if (survivors.length > 200000) survivors = survivors.slice(100000);
    }
    survivors = null;
    const coordinator = new Coordinator();
    const grownMiB = youngMiB();
    const start = performance.now();
    ${trigger}
    while (youngMiB() > grownMiB / 4 && performance.now() - start < 20000) await new Promise((resolve) => setTimeout(resolve, 50));
    process.stdout.write(JSON.stringify({ grownMiB, afterMiB: youngMiB(), msAfterClose: performance.now() - start }));
    await coordinator.shutdown(500);
  `;
  // A file, not --eval: the coordinator's workers inherit the process's flags, and --input-type is refused there.
  const dir = mkdtempSync(join(tmpdir(), 'patterm-young-'));
  try {
    writeFileSync(join(dir, 'probe.mjs'), script);
    const { stdout } = await promisify(execFile)(process.execPath, ['--no-memory-reducer', join(dir, 'probe.mjs')], { encoding: 'utf8' });
    return JSON.parse(stdout) as YoungGeneration;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
