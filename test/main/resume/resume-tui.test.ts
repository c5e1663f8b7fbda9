/**
 * `patterm --resume` in a real terminal (tmux), with the fake agent keeping its
 * conversations as Claude Code does: an orchestrator and its children, each
 * with a turn, come back after a Quit or a SIGKILL on their own conversations,
 * under their parent with their names; the orchestrator is told which
 * children are back; a `/clear` before the quit resumes the new conversation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectStateDir } from '../../../src/main/project/project-key.js';
import { recordPanes, type LayoutRecord } from '../../../src/main/resume/layout-record.js';
import { eventually, type TmuxPatterm } from '../tui/tmux-harness.js';
import { call, paneNamed, pick, startOrchestrator, worldsForThisFile, type ResumeWorld } from './resume-world.js';

const newWorld = worldsForThisFile();

/** An orchestrator with two fake agents (one CLI, one directory) and a process, each agent with a turn. */
async function buildSession(patterm: TmuxPatterm, world: ResumeWorld): Promise<LayoutRecord> {
  await startOrchestrator(patterm, 'orchestrator first turn');
  await call(patterm, 'spawn_agent', { preset: 'fake', name: 'kid-a', initial_prompt: 'kid-a first turn' });
  await call(patterm, 'spawn_agent', { preset: 'fake', name: 'kid-b', initial_prompt: 'kid-b first turn' });
  await call(patterm, 'spawn_process', { argv: ['sh', '-c', 'echo sleeper-up; exec sleep 600'], name: 'sleeper' });
  return world.settledRecord('a record with every conversation known', (record) => recordPanes(record).length === 4);
}

/** After a resume: the same conversations, under the same names, the orchestrator told, each child's conversation going on. */
async function assertResumed(patterm: TmuxPatterm, world: ResumeWorld, before: LayoutRecord, expect: { kidA: { has: string[]; lacks: string[] } }): Promise<void> {
  await patterm.waitFor((lines) => lines.some((line) => line.includes('4 of 4 back, 0 not.')), 'the summary pane');
  const after = await world.settledRecord('the resumed run\'s record', (record) => recordPanes(record).length === 4);
  assert.notEqual(after.instance.id, before.instance.id, 'the new run keeps its own record');
  const [session] = after.sessions;
  assert.equal(session.root.name, 'fake');
  assert.deepEqual(session.children.map((child) => child.name).sort(), ['kid-a', 'kid-b', 'sleeper']);
  for (const name of ['fake', 'kid-a', 'kid-b']) {
    assert.equal(paneNamed(after, name).conversation?.id, paneNamed(before, name).conversation?.id, `${name} is on the conversation it had`);
  }
  // The two fake agents share one directory and each holds its own conversation.
  assert.notEqual(paneNamed(after, 'kid-a').conversation?.id, paneNamed(after, 'kid-b').conversation?.id);

  const orchestratorId = paneNamed(after, 'fake').conversation!.id!;
  const notice = (await eventually(() => world.transcript(orchestratorId).find((line) => line.startsWith('[system] patterm was restarted and resumed this session.')), 'the resume notice typed into the orchestrator'))!;
  assert.match(notice, /Back: .*kid-a \(child_id \w+, conversation [\w-]+ resumed\)/);
  assert.match(notice, /sleeper \(child_id \w+, started again\)/);
  assert.ok(world.transcript(orchestratorId).includes('orchestrator first turn'), 'the orchestrator kept its earlier turns');

  // The orchestrator still reaches its children by name, and each child's conversation goes on.
  await pick(patterm, 'Switch to session…', 'fake');
  await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.includes('got| [system] patterm was restarted')), 'the orchestrator shown, with its notice');
  // Its notes name the children; the notice gives each one's new child_id.
  const newKidA = /kid-a \(child_id (\w+)/.exec(notice)![1];
  await call(patterm, 'send_message_to', { target: newKidA, message: 'kid-a after resume' });
  const kidA = paneNamed(after, 'kid-a').conversation!.id!;
  const lines = (await eventually(() => {
    const kept = world.transcript(kidA);
    return kept.includes('[orchestrator] kid-a after resume') ? kept : null;
  }, 'the message in kid-a\'s resumed conversation'))!;
  for (const line of expect.kidA.has) assert.ok(lines.includes(line), `kid-a's conversation has ${JSON.stringify(line)}: ${JSON.stringify(lines)}`);
  for (const line of expect.kidA.lacks) assert.ok(!lines.includes(line), `kid-a's conversation lacks ${JSON.stringify(line)}: ${JSON.stringify(lines)}`);
}

test('after Quit, --resume brings the orchestrator and its children back on their conversations', { timeout: 300_000 }, async () => {
  const world = newWorld();
  const first = world.start();
  const before = await buildSession(first, world);
  await first.runPalette('quit', 'Quit');
  await first.waitFor(/\[patterm exited 0\]/, 'patterm to quit');
  assert.equal(world.recordFiles().length, 1, 'the record outlives the run');

  const second = world.start(['--resume']);
  await assertResumed(second, world, before, { kidA: { has: ['kid-a first turn'], lacks: [] } });
  assert.equal(world.recordFiles().length, 1, 'the resumed record was set aside; only the new run\'s is offered');
});

test('after a SIGKILL, --resume brings the same layout back', { timeout: 300_000 }, async () => {
  const world = newWorld();
  const first = world.start();
  const before = await buildSession(first, world);
  const pid = first.pattermPid();
  assert.ok(pid, 'patterm is running');
  process.kill(pid, 'SIGKILL');
  await first.waitFor(/\[patterm exited 137\]/, 'patterm to die');
  await eventually(() => first.markedProcesses().length === 0, 'the watchdog to end its panes');

  const second = world.start(['--resume']);
  await assertResumed(second, world, before, { kidA: { has: ['kid-a first turn'], lacks: [] } });
});

test('a /clear before the quit: the new conversation is the one resumed', { timeout: 300_000 }, async () => {
  const world = newWorld();
  const first = world.start();
  const built = await buildSession(first, world);
  const oldId = paneNamed(built, 'kid-a').conversation!.id!;
  const listing = await call(first, 'list_children', {});
  const kidA = /\b([0-9a-f]{8}) kid-a /.exec(listing)?.[1];
  assert.ok(kidA, `kid-a's child_id in ${listing}`);
  await call(first, 'send_input', { child_id: kidA, kind: 'text', text: '/clear', submit: true });
  await call(first, 'send_message_to', { target: kidA, message: 'kid-a after clear' });
  const before = await world.settledRecord('kid-a on its new conversation', (record) => {
    const conversation = paneNamed(record, 'kid-a').conversation;
    return conversation?.id !== oldId && /source clear/.test(conversation?.provenance ?? '');
  });
  await first.runPalette('quit', 'Quit');
  await first.waitFor(/\[patterm exited 0\]/, 'patterm to quit');

  const second = world.start(['--resume']);
  await assertResumed(second, world, before, { kidA: { has: ['[orchestrator] kid-a after clear'], lacks: ['kid-a first turn'] } });
});

test('a shell pane comes back as a fresh shell in its last directory, over the same ledger', { timeout: 300_000 }, async () => {
  const world = newWorld();
  const first = world.start();
  await startOrchestrator(first, 'orchestrator first turn');
  await call(first, 'spawn_shell', { shell: 'bash', name: 'build' });
  const spawned = await world.settledRecord('the shell in the record', (record) => recordPanes(record).some((pane) => pane.name === 'build'));
  const firstShell = paneNamed(spawned, 'build');
  assert.equal(firstShell.kind, 'shell');
  assert.equal(firstShell.ledger, 'build');
  await call(first, 'run_command', { child_id: firstShell.id, command: 'mkdir -p sub && cd sub' });
  await world.settledRecord('the shell\'s last directory', (record) => paneNamed(record, 'build').cwd.endsWith('/sub'));
  await first.runPalette('quit', 'Quit');
  await first.waitFor(/\[patterm exited 0\]/, 'patterm to quit');

  const second = world.start(['--resume']);
  await second.waitFor((lines) => lines.some((line) => line.includes('2 of 2 back, 0 not.')), 'the summary pane');
  const after = await world.settledRecord('the reopened shell', (record) => recordPanes(record).some((pane) => pane.name === 'build' && pane.id !== firstShell.id));
  const shell = paneNamed(after, 'build');
  assert.equal(shell.kind, 'shell');
  assert.match(shell.cwd, /\/sub$/, 'it starts in the directory it was last in');
  await pick(second, 'Switch to session…', 'fake');
  await second.waitFor((lines) => second.mainArea(lines).some((line) => line.includes('got| [system] patterm was restarted')), 'the orchestrator shown, with its notice');
  await call(second, 'run_command', { child_id: shell.id, command: 'pwd' });
  const ledger = join(projectStateDir(world.project, world.state), 'shells', 'build', 'ledger.jsonl');
  const entries = readFileSync(ledger, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; seq?: number; command?: string; cwd?: string });
  const starts = entries.filter((entry) => entry.type === 'start');
  assert.deepEqual(starts.map((entry) => [entry.seq, entry.command]), [[1, 'mkdir -p sub && cd sub'], [2, 'pwd']], 'the reopened shell goes on with the same ledger and numbering');
  assert.match(entries.filter((entry) => entry.type === 'end').pop()?.cwd ?? '', /\/sub$/);
  assert.equal(entries.filter((entry) => entry.type === 'open').length, 2, 'two shells, one after the other, over one ledger');
});
