import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { failure, run, scratchHome, spawnShell, type Record } from '../helpers/shells.js';
import { eventually } from '../../../helpers/coordinator-fixture.js';

const harness = await startHarness();
const { token } = await harness.orchestrator('orch');
const mcp = await harness.connect(token);

for (const shell of ['bash', 'zsh']) {
  const home = scratchHome(harness.root);
  const spawned = await spawnShell(mcp, { shell, name: `${shell}-main` }, home);
  const id = spawned.child_id;

  test(`${shell}: the shell's own marks are seen (integration full), and the ledger is under the project's state directory`, () => {
    assert.equal(spawned.integration, 'full');
    assert.ok(spawned.ledger.startsWith(join(harness.stateHome, 'patterm', 'projects')), spawned.ledger);
    assert.ok(spawned.ledger.endsWith(join('shells', `${shell}-main`, 'ledger.jsonl')), spawned.ledger);
  });

  test(`${shell}: exit codes 0, 1 and 2, a list, pipelines, and an empty command`, async () => {
    const cases: [string, number][] = [['true', 0], ['false', 1], ['(exit 2)', 2], ['false; true', 0], ['true | false', 1], ['false | true', 0]];
    for (const [command, code] of cases) {
      const record = await run(mcp, id, command);
      assert.equal(record.exit_code, code, `${command}: ${record.summary}`);
      assert.equal(record.status, 'done');
      assert.equal(record.command, command);
      assert.equal(record.writer, 'agent:orch');
      assert.equal(record.integration, 'full');
      assert.equal(record.timed_out, false);
      assert.equal(typeof record.seq, 'number');
      assert.ok(Date.parse(record.finished_at!) >= Date.parse(record.started_at));
    }
    const empty = await run(mcp, id, '');
    assert.deepEqual([empty.status, empty.seq, empty.exit_code, empty.output], ['not_run', null, null, '']);
    const after = await run(mcp, id, 'echo still-here');
    assert.equal(after.output, 'still-here', 'the shell takes commands after an empty one');
  });

  test(`${shell}: output is the text between the command's start and end, without colours; seq counts up`, async () => {
    const first = await run(mcp, id, "printf '\\033[31mred\\033[0m\\nplain\\n'");
    assert.equal(first.output, 'red\nplain');
    assert.equal(first.truncated_bytes, 0);
    const second = await run(mcp, id, 'echo a; echo b >&2');
    assert.equal(second.output, 'a\nb', 'stderr too: both go to the terminal');
    assert.equal(second.seq, first.seq! + 1);
  });

  test(`${shell}: a mark printed by the command, without the nonce or with a wrong one, does not end it`, async () => {
    const record = await run(mcp, id, "printf '\\033]133;D;0\\007'; printf '\\033]133;D;0;patterm=0123456789abcdef0123456789abcdef\\007'; sleep 0.3; echo real-end; (exit 4)");
    assert.equal(record.exit_code, 4, record.summary);
    assert.equal(record.output, 'real-end', 'the record ran to the real end, past the forged ones');
  });

  test(`${shell}: cd and export carry over between commands, and cwd follows`, async () => {
    mkdirSync(join(harness.projectDir, 'sub dir;x'), { recursive: true });
    const cd = await run(mcp, id, `cd '${harness.projectDir}/sub dir;x' && export SHELL_TEST_VALUE=kept`);
    assert.equal(cd.cwd, join(harness.projectDir, 'sub dir;x'));
    const echo = await run(mcp, id, 'echo "$SHELL_TEST_VALUE in $(basename "$PWD")"');
    assert.equal(echo.output, 'kept in sub dir;x');
    const back = await run(mcp, id, 'cd /tmp');
    assert.equal(back.cwd, '/tmp');
  });

  test(`${shell}: a command of several lines goes as one paste, and its record covers every line`, async () => {
    const record = await run(mcp, id, 'echo one\nfalse\necho three');
    assert.equal(record.output, 'one\nthree');
    assert.equal(record.exit_code, 0);
    assert.equal(record.command, 'echo one\nfalse\necho three');
  });

  test(`${shell}: 5 MB of output: the record keeps the head and the tail, the output file all of it`, async () => {
    const lines = 750_000;
    const record = await run(mcp, id, `seq 1 ${lines}`, 300);
    assert.equal(record.exit_code, 0);
    const expected = Array.from({ length: lines }, (_, i) => `${i + 1}\n`).join('');
    assert.ok(expected.length > 5_000_000);
    assert.ok(record.output.startsWith('1\n2\n3\n4\n'), record.output.slice(0, 40));
    assert.ok(record.output.endsWith(`\n${lines - 1}\n${lines}`), record.output.slice(-40));
    assert.match(record.output, /\[… \d+ bytes not shown …\]/);
    assert.ok(record.truncated_bytes > 5_000_000, `truncated_bytes ${record.truncated_bytes}`);
    assert.ok(record.output.length < 32 * 1024);
    const kept = readFileSync(record.output_file!, 'latin1');
    assert.equal(kept.length, record.output_bytes);
    assert.equal(kept.replace(/\r\n/g, '\n'), expected, 'the output file holds every byte the command printed');
  });

  test(`${shell}: a command that outlives its time-out keeps running, and wait_for_command picks it up`, async () => {
    const record = await run(mcp, id, 'sleep 1.5; echo woke', 0.2);
    assert.equal(record.timed_out, true);
    assert.equal(record.status, 'running');
    assert.match(record.summary, /still running after 0.2 s/);
    const busy = failure(await mcp.call('run_command', { child_id: id, command: 'echo too-soon' }));
    assert.match(busy, new RegExp(`busy: ${shell}-main is busy: command ${record.seq} \\("sleep 1.5; echo woke", run by agent:orch\\)`));
    const waited = structured<Record>(await mcp.call('wait_for_command', { child_id: id, seq: record.seq, timeout_seconds: 60 }));
    assert.deepEqual([waited.status, waited.exit_code, waited.output, waited.timed_out], ['done', 0, 'woke', false]);
    const again = structured<Record>(await mcp.call('wait_for_command', { child_id: id, seq: record.seq, timeout_seconds: 1 }));
    assert.equal(again.output, 'woke', 'an ended command is read back from the ledger');
  });

  test(`${shell}: ctrl-c through send_input interrupts the command, which ends with 130`, async () => {
    const record = await run(mcp, id, 'sleep 30', 0.2);
    assert.equal(record.timed_out, true);
    const sent = await mcp.call('send_input', { child_id: id, kind: 'key', key: 'ctrl-c' });
    assert.equal(sent.isError, undefined, textOf(sent));
    const waited = structured<Record>(await mcp.call('wait_for_command', { child_id: id, seq: record.seq, timeout_seconds: 60 }));
    assert.equal(waited.exit_code, 130, waited.summary);
  });

  test(`${shell}: vim started with run_command and quit with keys: the record ends when the prompt returns`, async () => {
    const pending = mcp.call('run_command', { child_id: id, command: 'vim -u NONE -i NONE -N', timeout_seconds: 120 });
    const shown = structured<{ matched: boolean; snippet: string }>(await mcp.call('wait_for_pattern', { child_id: id, pattern: '^~', timeout_seconds: 60 }));
    assert.ok(shown.matched, shown.snippet);
    assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo not-now' })), /is busy: command \d+ \("vim -u NONE -i NONE -N"/);
    await mcp.call('send_input', { child_id: id, kind: 'text', text: ':q!', submit: true });
    const record = structured<Record>(await pending);
    assert.deepEqual([record.status, record.exit_code, record.command], ['done', 0, 'vim -u NONE -i NONE -N']);
  });

  test(`${shell}: while the human types at the prompt run_command is busy and sends nothing; the human's command is recorded as theirs`, async () => {
    const session = harness.mcp.shells.session(id)!;
    await eventually(() => session.atEmptyPrompt, { message: 'the shell at an empty prompt' });
    harness.coordinator.write(id, 'echo typed-by-human', 'user');
    await eventually(() => session.typing, { message: 'the typing seen' });
    assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo from-agent' })), /someone is typing at .* prompt/);
    harness.coordinator.write(id, '\r', 'user');
    await eventually(() => session.atEmptyPrompt, { message: 'the human command done' });
    const history = structured<{ commands: Record[] }>(await mcp.call('command_history', { child_id: id, last_n: 1 }));
    const human = history.commands[0];
    assert.deepEqual([human.writer, human.command, human.output, human.exit_code], ['human', 'echo typed-by-human', 'typed-by-human', 0]);
    assert.equal(human.writer_id, undefined);
    const output = new TextDecoder().decode((await harness.coordinator.stream(id, 0)).bytes);
    assert.doesNotMatch(output, /from-agent/, 'nothing was typed for the refused call');
  });
}

test('bad input: each a clear error naming the field, and nothing typed into the pane', async () => {
  const home = scratchHome(harness.root);
  const { child_id: id } = await spawnShell(mcp, { name: 'bad-input' }, home);
  await run(mcp, id, 'true');
  const other = structured<{ child_id: string }>(await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'not-a-shell' })).child_id;
  assert.match(failure(await mcp.call('run_command', { child_id: 'nosuch', command: 'echo refused' })), /no child with child_id "nosuch"/);
  assert.match(failure(await mcp.call('run_command', { child_id: other, command: 'echo refused' })), /child_id "\w+" \(not-a-shell\) is not a shell pane/);
  assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo refused\0b' })), /command: command must not contain a NUL character/);
  assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo refused', timeout_seconds: 0 })), /timeout_seconds: timeout_seconds must be more than 0, received 0/);
  assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo refused', timeout_seconds: 1e9 })), /timeout_seconds: timeout_seconds must be at most 1800, received 1000000000/);
  assert.match(failure(await mcp.call('run_command', { child_id: id })), /command: required argument is missing/);
  assert.match(failure(await mcp.call('wait_for_command', { child_id: id, seq: 99, timeout_seconds: 1 })), /seq 99: no such command in bad-input's ledger; its commands are 1 to 1/);
  assert.match(failure(await mcp.call('wait_for_command', { child_id: id, seq: 0, timeout_seconds: 1 })), /seq: seq must be 1 or more, received 0/);
  assert.match(failure(await mcp.call('command_history', {})), /give exactly one of child_id .* or name/);
  assert.match(failure(await mcp.call('command_history', { name: 'never-used' })), /name "never-used": no shell of that name has a ledger in this project; the shells with ledgers are .*bad-input/);
  await run(mcp, id, 'echo after-the-bad-calls');
  const output = new TextDecoder().decode((await harness.coordinator.stream(id, 0)).bytes);
  assert.doesNotMatch(output, /refused/, 'nothing of the refused calls reached the shell');
  const history = structured<{ commands: Record[] }>(await mcp.call('command_history', { child_id: id }));
  assert.deepEqual(history.commands.map((record) => record.command), ['true', 'echo after-the-bad-calls']);
});

for (const shell of ['bash', 'zsh']) test(`${shell}: an unclosed quote leaves the command at the continuation prompt, which the call says; ctrl-c abandons it (recorded as not run, 130) and the shell takes commands again`, async () => {
  const { child_id: id } = await spawnShell(mcp, { shell, name: `unclosed-${shell}` }, scratchHome(harness.root));
  const typed = await run(mcp, id, 'echo "never closed', 1);
  assert.deepEqual([typed.timed_out, typed.seq, typed.status, typed.continuation], [true, null, 'running', true]);
  assert.match(typed.summary, /has not started after 1 s: the shell shows a continuation prompt/);
  assert.match(failure(await mcp.call('run_command', { child_id: id, command: 'echo next' })), /has not started yet/);
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'ctrl-c' });
  await eventually(() => harness.mcp.shells.session(id)!.atEmptyPrompt, { message: 'the prompt back after ctrl-c' });
  const next = await run(mcp, id, 'echo next');
  assert.deepEqual([next.output, next.exit_code], ['next', 0]);
  const history = structured<{ commands: Record[] }>(await mcp.call('command_history', { child_id: id })).commands;
  assert.deepEqual(
    history.map((record) => [record.seq, record.command, record.status, record.exit_code, record.writer]),
    [[1, 'echo "never closed', 'not_run', 130, 'agent:orch'], [2, 'echo next', 'done', 0, 'agent:orch']],
    'the abandoned command is in the ledger as not run, interrupted',
  );
});
