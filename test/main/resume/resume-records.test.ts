/**
 * Which record `patterm --resume` takes, and when it refuses: with nothing to
 * resume, or a record that does not parse, it says so and starts nothing (the
 * bad record is kept aside); plain `patterm` starts empty and mentions a
 * resumable run; two patterms in one project keep a record each, and
 * `--resume` takes the newest of a stopped one, naming the others.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PATTERM_BIN } from '../tui/tmux-harness.js';
import { worldsForThisFile, type ResumeWorld } from './resume-world.js';

const newWorld = worldsForThisFile();

/** `patterm --resume` without a terminal: a refusal comes before the TUI would need one. */
function resumeWithoutTui(world: ResumeWorld): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [PATTERM_BIN, '--resume'], { cwd: world.project, env: { ...process.env, XDG_STATE_HOME: world.state, XDG_CONFIG_HOME: join(world.root, 'config') } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

test('--resume with nothing to resume says so, exits 1 and starts nothing', async () => {
  const world = newWorld();
  const result = await resumeWithoutTui(world);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^patterm: --resume: nothing to resume in .*: no earlier patterm left sessions in this project\n$/);
});

test('--resume with a record that does not parse says which and why, keeps it aside and starts nothing', async () => {
  const world = newWorld();
  mkdirSync(world.resumeDir, { recursive: true });
  const bad = join(world.resumeDir, 'layout-0123456789abcdef.json');
  writeFileSync(bad, '{"format": "patterm-layout", "version": 1, "sessions": [');
  const result = await resumeWithoutTui(world);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /the newest layout record does not parse, so nothing was resumed: .*layout-0123456789abcdef\.json: not JSON: /);
  assert.ok(!existsSync(bad), 'moved out of the way of the next --resume');
  const kept = readdirSync(join(world.resumeDir, 'bad'));
  assert.equal(kept.length, 1);
  assert.match(result.stderr, new RegExp(`kept aside as .*bad/${kept[0]}`));

  // A record with the wrong shape is named by field.
  writeFileSync(bad, JSON.stringify({ format: 'patterm-layout', version: 1, instance: { id: 'x', pid: 1, pidStart: null, startedAt: 0 }, projectDir: '/', savedAt: 0, sessions: [{ name: 's', root: { id: 'a' }, children: [] }] }));
  const again = await resumeWithoutTui(world);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /sessions\.0\.root\.name: required field is missing/);
  assert.equal(readdirSync(join(world.resumeDir, 'bad')).length, 2, 'neither bad record was written over');
});

test('plain patterm starts empty and mentions the run --resume would bring back', { timeout: 120_000 }, async () => {
  const world = newWorld();
  const first = world.start();
  await first.waitFor(/Press Ctrl-K/, 'the empty state');
  await first.spawnBash();
  await world.settledRecord('the bash session recorded', (record) => record.sessions.length === 1);
  await first.runPalette('quit', 'Quit');
  await first.waitFor(/\[patterm exited 0\]/, 'patterm to quit');

  const second = world.start();
  const lines = await second.waitFor(/patterm --resume brings back the last run's 1 session, 1 pane, saved/, 'the mention in the status line');
  assert.ok(lines.some((line) => line.includes('Press Ctrl-K')), 'it started empty');
});

test('two patterms in one project keep a record each; --resume takes a stopped one and names the one still running', { timeout: 180_000 }, async () => {
  const world = newWorld();
  const one = world.start();
  const two = world.start();
  for (const patterm of [one, two]) {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.spawnBash();
  }
  await waitForFiles(world, 2);
  await one.runPalette('quit', 'Quit');
  await one.waitFor(/\[patterm exited 0\]/, 'the first patterm to quit');
  assert.equal(world.recordFiles().length, 2, 'the first one\'s record stays; the second one\'s is its own');

  const three = world.start(['--resume']);
  const lines = await three.waitFor((l) => l.some((line) => line.includes('1 of 1 back, 0 not.')), 'the summary');
  const summary = three.mainArea(lines).join('\n');
  assert.match(summary, /Other layout records in this project/);
  assert.match(summary, /1 session, 1 pane, still running as pid \d+/);
});

async function waitForFiles(world: ResumeWorld, count: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (world.recordFiles().length < count) {
    if (Date.now() > deadline) throw new Error(`expected ${count} layout records, found ${world.recordFiles().join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
