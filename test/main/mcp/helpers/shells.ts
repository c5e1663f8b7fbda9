/**
 * Shell panes through the real MCP proxy: spawn_shell and run_command as an
 * agent calls them, with each shell's HOME a scratch directory of its own so
 * no start-up file of the machine's user is read.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Connection } from './mcp-harness.js';
import { structured, textOf } from './mcp-harness.js';
import type { CommandRecord } from '../../../../src/main/shells/index.js';

export type Record = CommandRecord & { child_id?: string; name: string; summary: string };

/** A fresh home directory holding `files` (path relative to it → content). */
export function scratchHome(root: string, files: { [path: string]: string } = {}): string {
  const home = mkdtempSync(join(root, 'home-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(home, path, '..'), { recursive: true });
    writeFileSync(join(home, path), content);
  }
  return home;
}

export interface Spawned {
  child_id: string;
  name: string;
  integration: 'full' | 'fallback';
  ledger: string;
  cwd: string;
}

export async function spawnShell(mcp: Connection, args: { [key: string]: unknown }, home: string): Promise<Spawned> {
  const env = { HOME: home, ...(args.env as object | undefined) };
  const result = await mcp.call('spawn_shell', { ...args, env });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<Spawned>(result);
}

export async function run(mcp: Connection, childId: string, command: string, timeoutSeconds = 60): Promise<Record> {
  const result = await mcp.call('run_command', { child_id: childId, command, timeout_seconds: timeoutSeconds });
  assert.equal(result.isError, undefined, textOf(result));
  return structured<Record>(result);
}

/** A tool call that must fail: its message. */
export function failure(result: CallToolResult): string {
  assert.equal(result.isError, true, `expected an error, got: ${textOf(result)}`);
  return textOf(result);
}
