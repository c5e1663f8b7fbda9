/**
 * Shells without patterm's marks: another shell (sh), bash with the
 * integration off, and a shell nested in an integrated one. run_command
 * wraps each command with marks of its own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { failure, run, scratchHome, spawnShell, type Record } from '../helpers/shells.js';

const harness = await startHarness();
const { token } = await harness.orchestrator('orch');
const mcp = await harness.connect(token);

test('sh: integration fallback; exit codes, output, cd and export carry over, cwd follows', async () => {
  const spawned = await spawnShell(mcp, { shell: 'sh', name: 'plain-sh' }, scratchHome(harness.root));
  assert.equal(spawned.integration, 'fallback');
  const echo = await run(mcp, spawned.child_id, 'echo hi');
  assert.deepEqual([echo.output, echo.exit_code, echo.integration, echo.writer], ['hi', 0, 'fallback', 'agent:orch']);
  const cd = await run(mcp, spawned.child_id, 'cd /tmp; export FALLBACK_X=kept; (exit 3)');
  assert.deepEqual([cd.exit_code, cd.cwd], [3, '/tmp']);
  const again = await run(mcp, spawned.child_id, 'echo "$FALLBACK_X in $PWD"; false');
  assert.deepEqual([again.output, again.exit_code], ['kept in /tmp', 1]);
});

test("sh: a program in the shell's foreground makes it busy; wait_for_command picks the command up", async () => {
  const { child_id: id } = await spawnShell(mcp, { shell: 'sh' }, scratchHome(harness.root));
  const record = await run(mcp, id, 'sleep 1; echo slept', 0.2);
  assert.equal(record.timed_out, true);
  assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo no' })), /busy: .* is busy: command \d+ \("sleep 1; echo slept"/);
  const waited = structured<Record>(await mcp.call('wait_for_command', { child_id: id, seq: record.seq, timeout_seconds: 60 }));
  assert.deepEqual([waited.output, waited.exit_code], ['slept', 0]);
  const next = await run(mcp, id, 'echo free');
  assert.equal(next.output, 'free');
});

test('bash with shell_integration false: a plain bash, run through the fallback; several lines work', async () => {
  const spawned = await spawnShell(mcp, { shell: 'bash', shell_integration: false }, scratchHome(harness.root));
  assert.equal(spawned.integration, 'fallback');
  assert.deepEqual(harness.coordinator.info(spawned.child_id).argv, ['bash', '-l', '-i']);
  const record = await run(mcp, spawned.child_id, 'echo one\necho two\n(exit 5)');
  assert.deepEqual([record.output, record.exit_code, record.integration], ['one\ntwo', 5, 'fallback']);
});

test('a shell nested in an integrated one takes wrapped commands, recorded in the outer ledger', async () => {
  const { child_id: id } = await spawnShell(mcp, { shell: 'bash', name: 'outer' }, scratchHome(harness.root));
  const nested = await run(mcp, id, 'bash --norc --noprofile', 0.5);
  assert.equal(nested.timed_out, true, 'the nested bash keeps running');
  const inner = await run(mcp, id, 'echo inner; (exit 6)');
  assert.deepEqual([inner.output, inner.exit_code, inner.integration, inner.seq], ['inner', 6, 'fallback', nested.seq! + 1]);
  const sent = await mcp.call('send_input', { child_id: id, kind: 'text', text: 'exit', submit: true });
  assert.equal(sent.isError, undefined, textOf(sent));
  const outer = structured<Record>(await mcp.call('wait_for_command', { child_id: id, seq: nested.seq, timeout_seconds: 60 }));
  assert.deepEqual([outer.status, outer.exit_code], ['done', 0]);
  const after = await run(mcp, id, 'echo back');
  assert.deepEqual([after.output, after.integration], ['back', 'full']);
});

test('a shell preset: its shell and integration are the defaults; an unknown preset names the known ones', async () => {
  const home = scratchHome(harness.root);
  const plain = await spawnShell(mcp, { preset: 'plain bash' }, home);
  assert.equal(plain.integration, 'fallback');
  assert.equal(plain.name, 'plain-bash-1', 'named after the preset, as a ledger directory can be');
  assert.deepEqual(harness.coordinator.info(plain.child_id).argv, ['bash', '-i'], 'no integration, not a login shell');
  assert.equal((await run(mcp, plain.child_id, 'echo plain')).output, 'plain');
  const zsh = await spawnShell(mcp, { preset: 'zsh' }, home);
  assert.equal(zsh.integration, 'full');
  assert.equal(harness.coordinator.info(zsh.child_id).presetName, 'zsh');
  assert.match(failure(await mcp.call('spawn_shell', { preset: 'fish shell' })), /unknown shell preset "fish shell"; known shell presets: plain-bash \("plain bash"\), zsh/);
});

test('list_children shows a shell pane as type shell, with its integration, last exit code and directory', async () => {
  const { child_id: id } = await spawnShell(mcp, { shell: 'bash', name: 'listed' }, scratchHome(harness.root));
  await run(mcp, id, 'cd /tmp; (exit 7)');
  const children = structured<{ children: { child_id: string; type: string; shell?: { integration: string; running: boolean; last_exit_code: number | null; cwd: string } }[] }>(await mcp.call('list_children')).children;
  const listed = children.find((child) => child.child_id === id)!;
  assert.equal(listed.type, 'shell');
  assert.deepEqual({ ...listed.shell, ledger: undefined }, { integration: 'full', running: false, last_exit_code: 7, cwd: '/tmp', ledger: undefined });
});
