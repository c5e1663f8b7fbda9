/** PtySpawnOptions for a test's child on an 80x24 PTY, in this directory, tagged `marker` for the reaper. */
import type { PtySpawnOptions } from '../../src/shared/pty-host-protocol.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';

export function testSpawnOptions(argv: string[], marker: string): PtySpawnOptions {
  return {
    argv,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    cols: 80,
    rows: 24,
    marker: `${marker}-${process.pid}`,
    acks: SharedAcks.allocate(),
    scrollbackBytes: 1024 * 1024,
    ringBytes: 1024 * 1024,
  };
}
