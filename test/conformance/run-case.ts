/**
 * Runs one conformance case in patterm and in tmux side by side, step by step,
 * and after each step waits for both screens to hold still and compares them:
 * text row by row, cursor, alternate screen, then colours and attributes
 * per character.
 */
import assert from 'node:assert/strict';
import type { Fixture } from './fixture.js';
import { PattermTerminal, TmuxTerminal, type Screen, type Terminal } from './terminals.js';
import { styleDifferences } from './styled-cells.js';

export interface Step {
  /** Bytes to send as keys, the same to both terminals. */
  keys?: string;
  resize?: { cols: number; rows: number };
  /** Text both screens must show (or a test both must pass) before they are compared, so a slow program is not compared too early. */
  until?: Until;
  /** What the step does, for failure messages. */
  label?: string;
}

export type Until = string | RegExp | ((screen: Screen) => boolean);

export interface XtermDifference {
  /** What tmux does that xterm does not, and what xterm does instead. */
  why: string;
  /** tmux's screen after step `step` (0: the first screen), turned into xterm's. */
  fix: (screen: Screen, step: number) => Screen;
}

/** Why the keycap cases are todo: the emulator itself loses the character, so no fix in patterm can show it. */
export const KEYCAP_VS16_TODO = 'ghostty-web 0.4.0 drops the VS16 of a keycap emoji (1️⃣ reads 1⃣) with mode 2027 off; the widths are right';

export interface ConformanceCase {
  name: string;
  cols: number;
  rows: number;
  /** The program and its arguments, run in the fixture directory with the fixture's environment. */
  command: string[] | ((fixture: Fixture) => string[]);
  env?: Record<string, string>;
  /** What must show on the first screen before the steps start. */
  ready?: Until;
  steps: Step[];
  /** Where tmux is known to differ from xterm: the case asserts xterm's behaviour. */
  xterm?: XtermDifference;
  /** A known patterm bug this case shows, until it is fixed: the case runs and reports, but does not fail the suite. */
  todo?: string;
}

/** How long one step may take to settle on a loaded two-core machine. */
const STEP_TIMEOUT_MS = 30_000;
/** Between screen reads while waiting for both sides to settle. */
const POLL_MS = 60;
/** Reads in a row that must show the same screen, on both sides, before it counts as settled. */
const STABLE_READS = 4;
/**
 * How long both screens must stay unchanged, and different, before the step
 * fails without waiting out STEP_TIMEOUT_MS: long enough for a program stalled
 * by a loaded machine to go on, short enough that a known difference (a todo
 * case) does not hold the suite up.
 */
const SETTLED_APART_MS = 5_000;

const sameScreenKey = (screen: Screen) => JSON.stringify(screen);

function matches(screen: Screen, until: Until | undefined): boolean {
  if (until === undefined) return true;
  if (typeof until === 'function') return until(screen);
  return typeof until === 'string' ? screen.lines.some((line) => line.includes(until)) : until.test(screen.lines.join('\n'));
}

/** Why `actual` (patterm) is not `expected` (tmux, or xterm's fix of it); empty when they agree. */
function differences(expected: Screen, actual: Screen): string[] {
  const found: string[] = [];
  for (let row = 0; row < Math.max(expected.lines.length, actual.lines.length); row++) {
    if (expected.lines[row] !== actual.lines[row]) found.push(`row ${row}:\n  - ${JSON.stringify(expected.lines[row])}\n  + ${JSON.stringify(actual.lines[row])}`);
  }
  const { x, y, visible } = expected.cursor;
  if (x !== actual.cursor.x || y !== actual.cursor.y || visible !== actual.cursor.visible) {
    found.push(`cursor: expected ${x},${y}${visible ? '' : ' hidden'}, got ${actual.cursor.x},${actual.cursor.y}${actual.cursor.visible ? '' : ' hidden'}`);
  }
  if (expected.alternate !== actual.alternate) found.push(`alternate screen: expected ${expected.alternate}, got ${actual.alternate}`);
  if (found.length === 0) found.push(...styleDifferences(expected.styled, actual.styled));
  return found;
}

/** With CONFORMANCE_TRACE set, each agreed screen goes to stderr, to see what a case checks. */
function trace(testCase: ConformanceCase, stepIndex: number, screen: Screen): void {
  if (!process.env.CONFORMANCE_TRACE) return;
  const { x, y, visible } = screen.cursor;
  const rows = (process.env.CONFORMANCE_TRACE === 'styled' ? screen.styled.map((row) => JSON.stringify(row)) : screen.lines).map((row) => `  |${row}`);
  process.stderr.write(`${testCase.name}, after step ${stepIndex}: cursor ${x},${y}${visible ? '' : ' hidden'}${screen.alternate ? ', alternate screen' : ''}\n${rows.join('\n')}\n`);
}

/** Waits until both terminals hold still and show what `until` asks for, then until they agree; fails with the differences. */
async function settleAndCompare(reference: Terminal, patterm: Terminal, testCase: ConformanceCase, stepIndex: number, until?: Until): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let previous = ['', ''];
  let stableReads = 0;
  let stableSince = Date.now();
  let found: string[] = ['no screen was read'];
  while (Date.now() < deadline) {
    const [tmuxScreen, ourScreen] = await Promise.all([reference.screen(), patterm.screen()]);
    const keys = [sameScreenKey(tmuxScreen), sameScreenKey(ourScreen)];
    const unchanged = keys[0] === previous[0] && keys[1] === previous[1];
    stableReads = unchanged ? stableReads + 1 : 1;
    if (!unchanged) stableSince = Date.now();
    previous = keys;
    if (stableReads >= STABLE_READS && matches(tmuxScreen, until) && matches(ourScreen, until)) {
      const expected = testCase.xterm ? testCase.xterm.fix(tmuxScreen, stepIndex) : tmuxScreen;
      found = differences(expected, ourScreen);
      if (found.length === 0) return trace(testCase, stepIndex, ourScreen);
      if (Date.now() - stableSince >= SETTLED_APART_MS) break;
    } else if (stableReads >= STABLE_READS) {
      found = [`waiting for ${String(until)} on both screens`, `tmux:\n${tmuxScreen.lines.join('\n')}`, `patterm:\n${ourScreen.lines.join('\n')}`];
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const step = stepIndex === 0 ? 'the first screen' : `step ${stepIndex} (${testCase.steps[stepIndex - 1].label ?? JSON.stringify(testCase.steps[stepIndex - 1])})`;
  const against = testCase.xterm ? `xterm (tmux differs: ${testCase.xterm.why})` : 'tmux';
  assert.fail(`${testCase.name}, ${step}: patterm differs from ${against} (- expected, + patterm)\n${found.join('\n')}`);
}

/**
 * The command line both terminals run: the fixture's environment and nothing
 * else, then the program, then a sleep, so a program that quits leaves the
 * screen it quit to (tmux would close a pane whose program ended).
 */
export function launchArgv(testCase: ConformanceCase, fixture: Fixture): string[] {
  const command = typeof testCase.command === 'function' ? testCase.command(fixture) : testCase.command;
  const env = { ...fixture.env, ...testCase.env };
  return ['env', '-i', ...Object.entries(env).map(([key, value]) => `${key}=${value}`), 'sh', '-c', '"$@"; exec sleep 100000', 'sh', ...command];
}

export async function runCase(testCase: ConformanceCase, fixture: Fixture): Promise<void> {
  const launch = { argv: launchArgv(testCase, fixture), cwd: fixture.dir, cols: testCase.cols, rows: testCase.rows };
  const started = await Promise.allSettled([TmuxTerminal.start(launch), PattermTerminal.start(launch)]);
  const [reference, patterm] = started.map((result) => (result.status === 'fulfilled' ? result.value : null));
  try {
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    await settleAndCompare(reference!, patterm!, testCase, 0, testCase.ready);
    for (const [index, step] of testCase.steps.entries()) {
      if (step.resize) await Promise.all([reference!.resize(step.resize.cols, step.resize.rows), patterm!.resize(step.resize.cols, step.resize.rows)]);
      if (step.keys !== undefined) await Promise.all([reference!.send(step.keys), patterm!.send(step.keys)]);
      await settleAndCompare(reference!, patterm!, testCase, index + 1, step.until);
    }
  } finally {
    await Promise.all([reference?.stop(), patterm?.stop()]);
  }
}
