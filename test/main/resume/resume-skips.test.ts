/**
 * What `patterm --resume` skips, and says so: a child whose CLI is gone, one
 * whose conversation file was deleted, one whose worktree was removed. The
 * rest come back, and the summary pane, the status line and the orchestrator's
 * notice say what did not and why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FAKE_AGENT_SCRIPT, claudeConversationSection, fakeAgentPreset } from '../../fixtures/fake-agent-presets.js';
import { eventually } from '../tui/tmux-harness.js';
import { scratchDir } from '../../helpers/scratch-dir.js';
import { call, paneNamed, startOrchestrator, worldsForThisFile } from './resume-world.js';

const newWorld = worldsForThisFile();

test('a child whose CLI, conversation file or worktree is gone is skipped with the reason; the rest resume', { timeout: 300_000 }, async () => {
  // A CLI installed as a program of its own, so that it can be uninstalled between the runs.
  const bin = scratchDir('patterm-cli-');
  const cli = join(bin, 'vanishing-cli');
  writeFileSync(cli, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(FAKE_AGENT_SCRIPT)} "$@"\n`);
  chmodSync(cli, 0o755);
  const world = newWorld({ vanishing: { ...fakeAgentPreset('vanishing'), argv: [cli], conversation: claudeConversationSection() } });

  const first = world.start();
  await startOrchestrator(first, 'orchestrator first turn');
  await call(first, 'spawn_agent', { preset: 'fake', name: 'kid-a', initial_prompt: 'kid-a first turn' });
  await call(first, 'spawn_agent', { preset: 'fake', name: 'kid-b', initial_prompt: 'kid-b first turn' });
  await call(first, 'spawn_agent', { preset: 'vanishing', name: 'kid-c', initial_prompt: 'kid-c first turn' });
  await call(first, 'spawn_process', { argv: ['sh', '-c', 'echo sleeper-up; exec sleep 600'], name: 'sleeper' });
  const before = await world.settledRecord('every conversation known', (record) => record.sessions[0]?.children.length === 4);
  await first.runPalette('quit', 'Quit');
  await first.waitFor(/\[patterm exited 0\]/, 'patterm to quit');

  // Between the runs: kid-c's CLI is uninstalled, kid-b's conversation file deleted, and the
  // sleeper's worktree (as the worktree feature records it) removed.
  rmSync(cli);
  rmSync(paneNamed(before, 'kid-b').conversation!.file!);
  const [file] = world.recordFiles();
  const record = JSON.parse(readFileSync(file, 'utf8')) as { sessions: { children: { name: string; worktree?: unknown }[] }[] };
  record.sessions[0].children.find((child) => child.name === 'sleeper')!.worktree = { name: 'feature-x', path: join(world.root, 'worktrees', 'feature-x') };
  writeFileSync(file, JSON.stringify(record));

  const second = world.start(['--resume']);
  const lines = await second.waitFor((l) => l.some((line) => line.includes('2 of 5 back, 3 not.')), 'the summary pane');
  // Long lines wrap at the pane's width: joined, each entry reads whole again.
  const main = second.mainArea(lines);
  const width = Math.max(...main.map((line) => line.length));
  const summary = main.map((line) => line.padEnd(width)).join('');
  assert.match(summary, /✓ fake \(agent fake\): conversation [\w-]+ resumed/);
  assert.match(summary, /✓ kid-a \(agent fake\): conversation [\w-]+ resumed/);
  assert.match(summary, /✗ kid-b \(agent fake\): skipped: conversation file gone: /);
  assert.match(summary, /✗ kid-c \(agent vanishing\): skipped: CLI missing: program ".*vanishing-cli" does not exist/);
  assert.match(summary, /✗ sleeper \(process sh -c echo sleeper-up; exec sleep 600\): skipped: worktree gone: feature-x/);

  const after = await world.settledRecord('the resumed run\'s record', (r) => r.instance.id !== before.instance.id);
  assert.deepEqual(after.sessions[0].children.map((child) => child.name), ['kid-a']);
  const notice = (await eventually(
    () => world.transcript(paneNamed(after, 'fake').conversation!.id!).find((line) => line.startsWith('[system] patterm was restarted')),
    'the notice to the orchestrator',
  ))!;
  assert.match(notice, /Back: kid-a \(child_id \w+, conversation [\w-]+ resumed\)\./);
  assert.match(notice, /Not back: .*kid-b \(conversation file gone: .*kid-c \(CLI missing: .*sleeper \(worktree gone: feature-x/);
});
