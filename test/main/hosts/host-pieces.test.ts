/**
 * The small parts of a host session: the server entry and set-up lines, the
 * host's name in the tree, the desktop notification of a headless patterm,
 * and the inbox that keeps messages for a host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { entryOf, mcpServersJson, setupLines, shellQuote, writeEntryFile } from '../../../src/main/hosts/host-entry.js';
import { hostName } from '../../../src/main/hosts/host-session.js';
import { notification, terminalAttention } from '../../../src/main/hosts/terminal-attention.js';
import { boardText } from '../../../src/main/hosts/host-pane.js';
import { CallerInbox, MAX_KEPT_MESSAGES } from '../../../src/main/mcp/services/caller-inbox.js';
import { ToolError } from '../../../src/main/mcp/services/tool-error.js';
import type { PaneInfo } from '../../../src/shared/pane-types.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const entry = entryOf(['/usr/bin/node', '/opt/patterm/bin/patterm', 'mcp-stdio', '--socket', "/run/user/1000/patterm/42 it's.sock", '--identity', 'TOKEN_abc-123']);

test('the entry file is mcpServers JSON, mode 0600, and its set-up lines run that command', async () => {
  const dir = scratchDir('patterm-entry-');
  const file = join(dir, 'private', 'host.mcp.json');
  await writeEntryFile(file, entry);
  assert.equal(statSync(file).mode & 0o777, 0o600);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { mcpServers: { patterm: { type: 'stdio', command: entry.command, args: entry.args } } });
  assert.equal(readFileSync(file, 'utf8'), mcpServersJson(entry));

  const lines = setupLines(entry, file);
  // The shell reads each line's words back as the exact argv (the socket path has a space and a quote).
  const claudeAdd = lines.find((line) => line.includes('claude mcp add'))!;
  const words = JSON.parse(execFileSync('sh', ['-c', `node -e 'console.log(JSON.stringify(process.argv.slice(1)))' -- ${claudeAdd.replace(/^.*claude mcp add patterm -- /, '')}`], { encoding: 'utf8' }));
  assert.deepEqual(words, [entry.command, ...entry.args]);
  const codex = lines.find((line) => line.includes('codex'))!;
  assert.match(codex, /-c 'mcp_servers\.patterm\.command="\/usr\/bin\/node"'/);
  assert.match(codex, /mcp_servers\.patterm\.tool_timeout_sec=1860/);
  const opencode = lines.find((line) => line.includes('OPENCODE_CONFIG_CONTENT'))!;
  const value = execFileSync('sh', ['-c', `${opencode.trim().replace(/^opencode:\s+/, '').replace(/ opencode$/, '')}; printf %s "$OPENCODE_CONFIG_CONTENT"`], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(value).mcp.patterm.command, [entry.command, ...entry.args]);
  assert.equal(shellQuote('plain/path-1.sock'), 'plain/path-1.sock');
});

test('a host is named by clientInfo.name, printable and short', () => {
  assert.equal(hostName('claude-code'), 'claude-code');
  assert.equal(hostName('  evil\x1b[31mname\n'), 'evil [31mname');
  assert.equal(hostName('\x07'), 'mcp-host');
  assert.equal(hostName('x'.repeat(100)).length, 40);
});

test('the board prints text, never control characters', () => {
  assert.equal(boardText(['one\x1b[2J', 'two\tthree']), 'one [2J\ntwo\tthree\n');
});

const pane = { id: 'abc', name: 'build' } as PaneInfo;

test('request_human_attention in a headless patterm: OSC 9 to its terminal, or no human attached', async () => {
  const dir = scratchDir('patterm-attention-');
  const tty = join(dir, 'tty');
  writeFileSync(tty, '');
  const via = await terminalAttention(tty).request(pane, 'approve?\x07\x1b]0;x');
  assert.match(via, /desktop notification/);
  assert.equal(readFileSync(tty, 'utf8'), '\x1b]9;patterm: build: approve?  ]0;x\x07');
  await assert.rejects(terminalAttention(join(dir, 'no', 'tty')).request(pane, 'look'), (error: Error) => error instanceof ToolError && /no human is attached/.test(error.message));
  assert.equal(notification('x'.repeat(500)).length, 240 + '\x1b]9;\x07'.length);
});

test('the inbox keeps messages for a host, in order, and caps them', () => {
  const inbox = new CallerInbox();
  const kept: string[] = [];
  inbox.onKept(({ text }) => kept.push(text));
  assert.equal(inbox.keep('root', 'not yet open'), false);
  inbox.open('root');
  assert.equal(inbox.keep('root', 'one'), true);
  inbox.keep('root', 'two');
  assert.deepEqual(inbox.take('root'), ['one', 'two']);
  assert.deepEqual(inbox.take('root'), []);
  for (let i = 0; i < MAX_KEPT_MESSAGES + 3; i++) inbox.keep('root', `m${i}`);
  const taken = inbox.take('root');
  assert.equal(taken.length, MAX_KEPT_MESSAGES + 1);
  assert.match(taken[0], /^\[system\] 3 older messages were dropped/);
  assert.equal(taken[1], 'm3');
  inbox.close('root');
  assert.equal(inbox.keep('root', 'closed'), false);
  assert.equal(kept.length, 2 + MAX_KEPT_MESSAGES + 3);
});
