/**
 * Whole-machine CPU time, from /proc/stat: what every process and the kernel
 * spent, including the kernel's tty work and the flooding programs
 * themselves, which no per-process counter sees. Linux only.
 */
import { readFileSync } from 'node:fs';

/** /proc/stat counts in USER_HZ ticks, which Linux fixes at 100 per second for userspace. */
const MS_PER_TICK = 10;

/** Busy milliseconds of all cores since boot (user, nice, system, irq, softirq, steal), or null off Linux. */
export function systemBusyMs(): number | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + (steal ?? 0)) * MS_PER_TICK;
  } catch {
    return null;
  }
}

/** Busy milliseconds since an earlier systemBusyMs() reading (null off Linux). */
export function busySince(before: number | null): number | null {
  const now = systemBusyMs();
  return before === null || now === null ? null : now - before;
}

/** Busy milliseconds the machine spent while `work` ran (null off Linux). */
export async function measureSystemCpu<T>(work: () => Promise<T>): Promise<{ result: T; busyMs: number | null }> {
  const before = systemBusyMs();
  const result = await work();
  return { result, busyMs: busySince(before) };
}
