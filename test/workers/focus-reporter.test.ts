/**
 * Focus reporting (DEC 1004): the class on its own, then real panes whose
 * program turned reporting on, shown and hidden the way the TUI does it
 * (a frame port per shown pane, closed when another is shown).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { FOCUS_IN, FOCUS_OUT, FocusReporter } from '../../src/workers/focus-reporter.js';
import { eventually, focusLogger, useCoordinator } from '../helpers/coordinator-fixture.js';

const GRACE_MS = 20;
const afterGrace = () => new Promise((resolve) => setTimeout(resolve, GRACE_MS * 3));

test('a program that never asked is told nothing; one that asks is told the state (hidden: after a grace), then every change', async () => {
  const sent: string[] = [];
  const reporter = new FocusReporter((bytes) => sent.push(bytes), GRACE_MS);
  reporter.setShown(true);
  reporter.setShown(false);
  assert.deepEqual(sent, [], 'reporting off: nothing');
  reporter.onReportingMode(true);
  assert.deepEqual(sent, [], 'turned on while hidden: not told yet');
  await afterGrace();
  assert.deepEqual(sent, [FOCUS_OUT], 'turned on while hidden, and still hidden after the grace');
  reporter.onReportingMode(true);
  reporter.setShown(false);
  assert.deepEqual(sent, [FOCUS_OUT], 'no repeats');
  reporter.setShown(true);
  reporter.setShown(false);
  assert.deepEqual(sent, [FOCUS_OUT, FOCUS_IN, FOCUS_OUT]);
  reporter.onReportingMode(false);
  reporter.setShown(true);
  assert.equal(sent.length, 3, 'turned off: nothing more');
  reporter.onReportingMode(true);
  assert.deepEqual(sent.at(-1), FOCUS_IN, 'turned on while shown: at once');
});

test('a program that turns reporting on just before its pane is shown hears only that it has focus', async () => {
  const sent: string[] = [];
  const reporter = new FocusReporter((bytes) => sent.push(bytes), GRACE_MS);
  reporter.onReportingMode(true);
  reporter.setShown(true);
  await afterGrace();
  assert.deepEqual(sent, [FOCUS_IN]);
  reporter.onReportingMode(false);
  reporter.setShown(false);
  reporter.onReportingMode(true);
  reporter.onReportingMode(false);
  await afterGrace();
  assert.deepEqual(sent, [FOCUS_IN], 'turned off again within the grace: the owed CSI O is not sent');
});

test('real panes: hidden at start, shown, then hidden again when another pane is shown; a program that did not ask gets nothing', async () => {
  const coordinator = useCoordinator();
  const [a, b, plain] = await Promise.all([
    coordinator.spawn({ argv: focusLogger(true), kind: 'process', name: 'a' }),
    coordinator.spawn({ argv: focusLogger(true), kind: 'process', name: 'b' }),
    coordinator.spawn({ argv: focusLogger(false), kind: 'process', name: 'plain' }),
  ]);
  const received = async (id: string) => (await coordinator.grid(id)).lines.filter((line) => line.startsWith('got '));
  const expect = (id: string, lines: string[], what: string) =>
    eventually(async () => JSON.stringify(await received(id)) === JSON.stringify(lines), { timeoutMs: 10_000, message: `${what} (has ${JSON.stringify(lines)})` });

  await expect(a.id, ['got "ESC[O"'], 'a, never shown, told it is not focused');
  await expect(b.id, ['got "ESC[O"'], 'b, never shown, told it is not focused');

  const first = new MessageChannel();
  coordinator.attachFrameSink(a.id, first.port2);
  await expect(a.id, ['got "ESC[O"', 'got "ESC[I"'], 'a shown: focus in');

  // The renderer closes the old port when the next one arrives.
  const second = new MessageChannel();
  coordinator.attachFrameSink(b.id, second.port2);
  first.port1.close();
  await expect(a.id, ['got "ESC[O"', 'got "ESC[I"', 'got "ESC[O"'], 'a hidden: focus out');
  await expect(b.id, ['got "ESC[O"', 'got "ESC[I"'], 'b shown: focus in');

  const third = new MessageChannel();
  coordinator.attachFrameSink(plain.id, third.port2);
  second.port1.close();
  await expect(b.id, ['got "ESC[O"', 'got "ESC[I"', 'got "ESC[O"'], 'b hidden: focus out');
  coordinator.write(plain.id, 'x', 'user');
  await expect(plain.id, ['got "x"'], 'the plain program got only what was typed');
  third.port1.close();
});
