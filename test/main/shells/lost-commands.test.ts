/**
 * patterm killed with SIGKILL while a command runs: a new patterm in the same
 * project reads the ledger back with that command lost and every earlier
 * record intact, and a shell of the same name continues the ledger.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectProxy, structured, textOf } from '../mcp/helpers/mcp-harness.js';
import { run, scratchHome, spawnShell, type Record } from '../mcp/helpers/shells.js';

const HOST = new URL('../../fixtures/mcp-host.js', import.meta.url).pathname;

async function startHost(root: string, label: string): Promise<{ host: ChildProcessByStdio<Writable, Readable, null>; token: string; socketPath: string }> {
  const socketPath = join(root, `${label}.sock`);
  // Its temp files (the shell integration's private directory) under `root`: a SIGKILLed host removes none itself.
  const host = spawn(process.execPath, [HOST, socketPath, join(root, 'data'), join(root, 'project'), join(root, 'state')], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: root } });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    host.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    host.once('exit', (code) => reject(new Error(`host exited with ${code} before serving`)));
  });
  return { host, socketPath, token: (JSON.parse(line) as { token: string }).token };
}

test('a command running when patterm is SIGKILLed reads back as lost; the earlier records are intact; the name continues', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-lost-'));
  mkdirSync(join(root, 'project'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const home = scratchHome(root);

  const first = await startHost(root, 'first');
  t.after(() => first.host.kill('SIGKILL'));
  const before = await connectProxy(first.socketPath, first.token);
  const { child_id: id, ledger } = await spawnShell(before, { shell: 'bash', name: 'build' }, home);
  const done = [await run(before, id, 'echo one'), await run(before, id, 'false')];
  const running = await run(before, id, 'echo started; sleep 600', 0.5);
  assert.equal(running.timed_out, true);
  assert.match(running.output, /started/);
  const exited = new Promise((resolve) => first.host.once('exit', resolve));
  first.host.kill('SIGKILL');
  await exited;
  await before.close().catch(() => undefined);

  const second = await startHost(root, 'second');
  t.after(() => second.host.stdin.end());
  const after = await connectProxy(second.socketPath, second.token);
  t.after(() => after.close());
  const history = structured<{ live: boolean; commands: Record[] }>(await after.call('command_history', { name: 'build' }));
  assert.equal(history.live, false);
  assert.deepEqual(
    history.commands.map((record) => [record.seq, record.command, record.status, record.exit_code]),
    [[done[0].seq, 'echo one', 'done', 0], [done[1].seq, 'false', 'done', 1], [running.seq, 'echo started; sleep 600', 'lost', null]],
  );
  assert.equal(history.commands[0].output, 'one');
  assert.match(history.commands[2].output, /started/, "what the lost command printed is kept");
  assert.match(textOf(await after.call('command_history', { name: 'build' })), /was lost: patterm ended while it ran/);

  const again = await spawnShell(after, { shell: 'bash', name: 'build' }, home);
  assert.equal(again.ledger, ledger, 'the same ledger');
  const next = await run(after, again.child_id, 'echo continued');
  assert.equal(next.seq, running.seq! + 1);
  const lines = readFileSync(ledger, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string });
  assert.deepEqual(lines.map((line) => line.type), ['open', 'start', 'end', 'start', 'end', 'start', 'open', 'start', 'end']);
});
