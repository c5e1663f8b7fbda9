/**
 * A flooding pane's resize, in this thread: two emulators configured as a
 * pane is are fed the same flood in the PTY host's batch size and resized
 * every few batches, one by patterm's resize (which carries the cursor
 * through the reflow, cursor-reflow.ts) and one by ghostty-web's own. Each
 * resize is timed, by the clock and by this process's CPU time (which a busy
 * machine moves far less); they take turns at going first.
 */
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { DEFAULT_SCROLLBACK_BYTES } from '../../src/shared/pane-protocol.js';
import { PANE } from '../harness/fence.js';
import { fencedPtyBytes } from './flood-bare-ghostty.js';

/** The PTY host's batch size (pty-process.ts). */
const BATCH_BYTES = 64 * 1024;
/** Batches between two resizes: the scrollback is full long before the first. */
const BATCHES_PER_RESIZE = 4;
/** The widths the pane goes through, as when a window is dragged. */
export const RESIZE_WIDTHS = [PANE.cols, PANE.cols - 17, PANE.cols - 40, PANE.cols - 9];

/** Each resize's wall and CPU time (this process), in ms. */
export interface ResizeTimes {
  wall: number[];
  cpu: number[];
}

export interface ResizeCarry {
  /** patterm's resize. */
  carried: ResizeTimes;
  /** ghostty-web's own. */
  plain: ResizeTimes;
  /** Resizes after which the two emulators' cursors differ: the carrying did move the cursor. */
  moved: number;
}

export default async function resizeCarry(args: { path: string; bytes: number }): Promise<ResizeCarry> {
  const module = await loadGhosttyModule();
  const data = fencedPtyBytes(args.path, args.bytes);
  const create = () => new GhosttyEmulator(module, { ...PANE, scrollbackBytes: DEFAULT_SCROLLBACK_BYTES });
  const ours = create();
  const its = create();
  const result: ResizeCarry = { carried: { wall: [], cpu: [] }, plain: { wall: [], cpu: [] }, moved: 0 };
  const timed = (emulator: GhosttyEmulator, cols: number, carry: boolean) => {
    const times = carry ? result.carried : result.plain;
    const cpu = process.cpuUsage();
    const started = performance.now();
    emulator.resize(cols, PANE.rows, carry);
    times.wall.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    times.cpu.push((used.user + used.system) / 1000);
  };
  let resizes = 0;
  for (let offset = 0, batch = 1; offset < data.length; offset += BATCH_BYTES, batch++) {
    const bytes = data.subarray(offset, offset + BATCH_BYTES);
    ours.write(bytes);
    its.write(bytes);
    if (batch % BATCHES_PER_RESIZE !== 0) continue;
    const cols = RESIZE_WIDTHS[++resizes % RESIZE_WIDTHS.length];
    if (resizes % 2) {
      timed(ours, cols, true);
      timed(its, cols, false);
    } else {
      timed(its, cols, false);
      timed(ours, cols, true);
    }
    const [a, b] = [ours.cursor(), its.cursor()];
    if (a.x !== b.x || a.y !== b.y) result.moved++;
  }
  ours.dispose();
  its.dispose();
  return result;
}
