import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostTerminal } from '../../../bench/harness/tui-host-terminal.js';

test('timeUntilText counts from the spawn to the chunk that drew the text, and exited gives the exit code', async () => {
  const host = new HostTerminal('sh', ['-c', 'printf "wait "; sleep 0.3; printf "drawn\\n"; exit 3'], { cols: 40, rows: 5 });
  const ms = await host.timeUntilText('drawn');
  // The program sleeps 0.3 s before drawing it: a clock started late, or text seen early, would read less.
  assert.ok(ms >= 300, `timeUntilText measured ${ms} ms for a program that sleeps 300 ms first`);
  assert.equal(await host.exited, 3);
});

test('timeUntilText resolves at once for text already on the screen', async () => {
  const host = new HostTerminal('sh', ['-c', 'printf "here\\n"; sleep 5'], { cols: 40, rows: 5 });
  const first = await host.timeUntilText('here');
  const again = await host.timeUntilText('here');
  assert.ok(again >= first);
  host.kill();
  await host.exited;
});
