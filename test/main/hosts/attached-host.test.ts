/**
 * An MCP host outside patterm attached to the running TUI (in tmux): "Connect an
 * external orchestrator…" opens a session that shows the MCP server entry and
 * writes it to a 0600 file; an SDK client started with that entry orchestrates
 * the session, named by its clientInfo, and its children appear in the tree.
 * A wrong token, another session's token and the token of a closed session are
 * refused, and so is another user, by the socket's mode.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TmuxPatterm } from '../tui/tmux-harness.js';
import { textOf } from '../mcp/helpers/mcp-harness.js';
import { runProxy } from '../mcp/helpers/raw-proxy.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { structuredOf } from './helpers/headless-host.js';

interface Entry {
  file: string;
  command: string;
  args: string[];
  token: string;
}

/** Opens a host session from the palette and reads the entry it shows (the file it names). */
async function connectFromPalette(patterm: TmuxPatterm, seen: number): Promise<Entry> {
  await patterm.runPalette('external orch', 'Connect an external orchestrator…');
  const lines = await patterm.waitFor((l) => l.some((line) => line.includes('Not connected yet.')) && entryFiles(l).length > 0 && !entryFiles(l).some((file) => fileSeen.has(file)), 'the new session\'s board');
  const file = entryFiles(lines)[0];
  fileSeen.add(file);
  assert.equal(fileSeen.size, seen + 1);
  assert.equal(statSync(file).mode & 0o777, 0o600, 'the entry file is the user\'s alone');
  const server = (JSON.parse(readFileSync(file, 'utf8')) as { mcpServers: { patterm: { command: string; args: string[] } } }).mcpServers.patterm;
  assert.ok(lines.some((line) => line.includes(`args:    ${server.args.join(' ')}`)), 'the board shows the same entry');
  return { file, ...server, token: server.args[server.args.indexOf('--identity') + 1] };
}

const fileSeen = new Set<string>();

function entryFiles(lines: string[]): string[] {
  return lines.flatMap((line) => /is in (\S+\.mcp\.json) \(mode 0600\)/.exec(line)?.[1] ?? []);
}

async function connectHost(entry: Entry, name: string) {
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stderr: 'pipe' });
  const client = new Client({ name, version: '2.0' });
  await client.connect(transport);
  return {
    client,
    call: (tool: string, args: Record<string, unknown> = {}) => client.callTool({ name: tool, arguments: args }, undefined, { timeout: 120_000 }) as Promise<CallToolResult>,
  };
}

function withToken(entry: Entry, token: string): string[] {
  return entry.args.slice(entry.args.indexOf('--socket')).map((arg) => (arg === entry.token ? token : arg));
}

test('an external host attaches to the TUI with the entry it shows; tokens stay per session and per run', async () => {
  const patterm = TmuxPatterm.start({ cols: 230, rows: 50 });
  const clients: Client[] = [];
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    const first = await connectFromPalette(patterm, 0);
    await patterm.waitFor((l) => l[0].includes('host-1 (offline)'), 'the tab says no host is connected');

    const host = await connectHost(first, 'attached-test-host');
    clients.push(host.client);
    await patterm.waitFor((l) => /^ attached-test-host +\+/.test(l[0]) && l.some((line) => line.includes('connected: attached-test-host 2.0')), 'the tab named by clientInfo.name, the board saying it connected');

    const spawned = await host.call('spawn_process', { argv: ['bash', '--norc', '--noprofile', '-i'], env: { PS1: '$ ', HISTFILE: '/dev/null' }, name: 'worker' });
    assert.equal(spawned.isError, undefined, textOf(spawned));
    const { child_id: workerId, pid: workerPid } = structuredOf<{ child_id: string; pid: number }>(spawned);
    await patterm.waitFor((l) => l.some((line) => line.includes('▶ attached-test-host')) && l.some((line) => line.includes('└─ ◉ worker')), 'the child in the tree, under the host\'s session');
    const listed = structuredOf<{ children: { name: string; spawned_by: string }[] }>(await host.call('list_children'));
    assert.deepEqual(listed.children.map((child) => [child.name, child.spawned_by]), [['worker', 'attached-test-host']]);

    // A token patterm never issued.
    const wrong = runProxy(withToken(first, 'A'.repeat(32)));
    assert.equal(await wrong.exited, 1);
    assert.match(wrong.stderrText(), /patterm refused this connection: unknown identity token/);

    // Another session's token is that session's orchestrator, and nothing more.
    const second = await connectFromPalette(patterm, 1);
    assert.notEqual(second.token, first.token);
    const other = await connectHost(second, 'other-host');
    clients.push(other.client);
    const foreign = await other.call('read_output', { child_id: workerId });
    assert.equal(foreign.isError, true);
    assert.match(textOf(foreign), /belongs to another session/);
    assert.deepEqual(structuredOf<{ children: unknown[] }>(await other.call('list_children')).children, []);

    // Another user cannot reach the socket at all.
    const socket = first.args[first.args.indexOf('--socket') + 1];
    if (process.getuid?.() === 0) {
      const nobody = spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...first.args], { encoding: 'utf8', input: '', timeout: 30_000 });
      assert.equal(nobody.status, 1, nobody.stderr);
      assert.match(nobody.stderr, /permission denied opening .*; the socket belongs to another user/);
    }
    assert.equal(statSync(socket).mode & 0o777, 0o600);

    // The host lets go: the tab says so, and the session stays.
    await host.client.close();
    // A tab shows 24 columns of a name: "attached-test-host (off…".
    await patterm.waitFor((l) => l[0].includes('attached-test-host (off'), 'the tab marks the host offline');

    // Closing the session (its root killed) ends its children and revokes its token.
    await patterm.runPalette('switch', 'Switch to session…');
    await patterm.waitFor(/Switch to session…/, 'the session list');
    patterm.type('attached-test-host');
    patterm.keys('Enter');
    await patterm.waitFor((l) => l.some((line) => line.includes('▶ attached-test-host')), 'the first session shown');
    await patterm.runPalette('kill', 'Kill child…');
    await patterm.waitFor(/Kill child…/, 'the kill list');
    patterm.type('attached');
    await patterm.waitFor((l) => l.some((line) => /◉ attached-test-host \(offline\) +orchestrator/.test(line)), 'the session root in the kill list');
    patterm.keys('Enter');
    await eventually(() => !isAlive(workerPid) || null, { message: `the session's child ${workerPid} to end with its root`, timeoutMs: 30_000 });
    await eventually(() => !existsSync(first.file) || null, { message: 'the entry file to go with the session', timeoutMs: 10_000 });
    const old = runProxy(withToken(first, first.token));
    assert.equal(await old.exited, 1);
    assert.match(old.stderrText(), /patterm refused this connection: identity token revoked/);
    // The other session's host is untouched.
    assert.equal((await other.call('list_children')).isError, undefined);
  } finally {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    patterm.stop();
  }
});

function isAlive(pid: number): boolean {
  try {
    const state = execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    return state !== '' && !state.startsWith('Z');
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}
