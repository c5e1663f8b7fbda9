import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SAMPLE_HZ, stagesOfScript } from '../../../bench/harness/perf-profile.js';

const MS = 1000 / SAMPLE_HZ;

/** One sample as `perf script -F comm,pid,tid,time,ip,sym,dso` prints it, leaf frame first. */
const sample = (comm: string, pid: number, tid: number, seconds: string, frames: [string, string][]) => [
  `${comm.padStart(16)} ${pid}/${tid}  ${seconds}: `,
  ...frames.map(([symbol, dso]) => `\t    7f0000000000 ${symbol} (${dso})`),
  '',
];

test('perf samples in the window become CPU ms per thread and stage', async () => {
  const lines = [
    // Before the PTY host named itself: its later name decides.
    ...sample('node', 100, 101, '10.000100', [['JS:*scan file:///x/pty-host-worker.bundle.js:9:7', '[JIT] tid 101'], ['JS:*forward file:///x/pty-host-worker.bundle.js:2:1', '[JIT] tid 101']]),
    ...sample('pty-host', 100, 101, '10.000200', [['n_tty_read', '[kernel.kallsyms]'], ['ksys_read', '[kernel.kallsyms]'], ['uv__read', '/usr/bin/node']]),
    ...sample('pane-worker', 100, 102, '10.000300', [['JS:wasm-function[313]-313-turbofan', '[JIT] tid 100'], ['JS:*feed file:///x/pane-worker.bundle.js:1:1', '[JIT] tid 100']]),
    // An interrupt belongs to none of what it interrupted.
    ...sample('pane-worker', 100, 102, '10.000400', [['irqentry_exit_to_user_mode', '[kernel.kallsyms]'], ['asm_sysvec_reschedule_ipi', '[kernel.kallsyms]'], ['JS:wasm-function[313]-313-turbofan', '[JIT] tid 100']]),
    // The flooding program: another process.
    ...sample('cat', 200, 200, '10.000500', [['pty_write', '[kernel.kallsyms]'], ['ksys_write', '[kernel.kallsyms]']]),
    // Outside the window.
    ...sample('pane-worker', 100, 102, '11.500000', [['JS:wasm-function[313]-313-turbofan', '[JIT] tid 100']]),
  ];
  const threads = await stagesOfScript(lines, 100, [10_000_000, 11_000_000]);
  const table = Object.fromEntries(threads.map(({ thread, stages }) => [thread, Object.fromEntries(stages)]));
  assert.deepEqual(table, {
    'pty host': { 'scan (titles, bells, queries)': MS, 'PTY read (kernel)': MS },
    'pane workers': { 'emulator parse (ghostty)': MS, 'interrupts (IPIs, timers)': MS },
    'pane programs and kernel workers': { 'PTY write (kernel, the program)': MS },
  });
});
