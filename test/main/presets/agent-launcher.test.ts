import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentPreset } from '../../../src/shared/preset-schema.js';
import type { McpEndpoint } from '../../../src/main/contracts.js';
import { PresetAgentLauncher } from '../../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { presetDirs } from '../../../src/main/presets/preset-paths.js';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { PATTERN_BUDGET_MS } from '../../../src/node/pattern-matcher.js';
import { scratchDir } from '../../helpers/scratch-dir.js';

const FAKE_AGENT = fileURLToPath(new URL('../../fixtures/fake-agent/fake-agent.js', import.meta.url));

function fakePreset(name: string, env: Record<string, string> = {}, extra: Partial<AgentPreset> = {}): AgentPreset {
  return {
    name,
    argv: [process.execPath, FAKE_AGENT],
    env,
    ready_signal: { kind: 'pattern', pattern: '\\? for shortcuts', busy_pattern: 'esc to interrupt', stable_ms: 50, timeout_ms: 20_000 },
    // Generous: success must not depend on a loaded 2-core machine answering quickly.
    submit: { enter_delay_ms: 50, confirm_timeout_ms: 10_000 },
    chrome_trim_hints: [{ kind: 'from_last', pattern: '^>( |$)', followed_by: '^─+$', above: 1 }, { kind: 'match', pattern: '^fake-agent argv' }],
    ...extra,
  };
}

function setup(presets: AgentPreset[], processes: object[] = []) {
  const root = scratchDir('patterm-launcher-');
  const dirs = presetDirs({ XDG_CONFIG_HOME: root });
  mkdirSync(dirs.agents, { recursive: true });
  mkdirSync(dirs.processes, { recursive: true });
  for (const preset of presets) writeFileSync(join(dirs.agents, `${preset.name}.json`), JSON.stringify(preset));
  processes.forEach((preset, i) => writeFileSync(join(dirs.processes, `p${i}.json`), JSON.stringify(preset)));
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  assert.deepEqual(catalog.errors, []);
  const coordinator = useCoordinator(root);
  const calls: string[] = [];
  const endpoint: McpEndpoint = {
    socketPath: '/nonexistent.sock',
    identities: {
      issue: () => 'token-1',
      bind: (token, paneId) => calls.push(`bind ${token} ${paneId}`),
      revokePane: (paneId) => calls.push(`revoke ${paneId}`),
      resolve: () => null,
    },
    proxyCommand: (token) => ['proxy-bin', '--identity', token],
  };
  const launcher = new PresetAgentLauncher({ coordinator, endpoint, catalog });
  return { coordinator, launcher, calls, root };
}

const screen = async (coordinator: ReturnType<typeof useCoordinator>, id: string) => (await coordinator.grid(id)).lines.join('\n');

test('spawnAgent waits for ready, types the prompt and confirms it was submitted', async () => {
  const { coordinator, launcher } = setup([fakePreset('fake', { FAKE_AGENT_START_MS: '300' })]);
  const { pane, submit } = await launcher.spawnAgent({ preset: 'fake', initialPrompt: 'hello there' });
  assert.equal(pane.kind, 'agent');
  assert.equal(pane.name, 'fake-1');
  assert.deepEqual(submit && { submitted: submit.submitted, attempts: submit.attempts }, { submitted: true, attempts: 1 }, submit?.detail);
  await eventually(async () => (await screen(coordinator, pane.id)).includes('answer: got 11 chars'), { timeoutMs: 10_000, message: 'the answer' });
  assert.equal(launcher.readyTimes.get(pane.id)?.ready, true);
});

test('an agent preset named in free text gives its panes plain "<preset>-<n>" names', async () => {
  const { launcher } = setup([fakePreset('fake haiku (fast)')]);
  const { pane } = await launcher.spawnAgent({ preset: 'fake haiku (fast)' });
  assert.equal(pane.name, 'fake-haiku-fast-1');
  assert.equal(pane.presetName, 'fake haiku (fast)');
});

test('without the confirmation Enter is retried once, and a lost message is reported, not claimed', async () => {
  const { coordinator, launcher } = setup([fakePreset('drops-one', { FAKE_AGENT_DROP_ENTERS: '1' }, { submit: { enter_delay_ms: 50, confirm_timeout_ms: 4000 } }), fakePreset('drops-all', { FAKE_AGENT_DROP_ENTERS: '99' }, { submit: { enter_delay_ms: 50, confirm_timeout_ms: 500 } })]);
  const one = await launcher.spawnAgent({ preset: 'drops-one', initialPrompt: 'retry me' });
  assert.deepEqual(one.submit && [one.submit.submitted, one.submit.attempts], [true, 2], one.submit?.detail);
  await eventually(async () => (await screen(coordinator, one.pane.id)).includes('answer: got 8 chars'), { timeoutMs: 10_000, message: 'the answer after the retry' });

  const all = await launcher.spawnAgent({ preset: 'drops-all', initialPrompt: 'never lands' });
  assert.equal(all.submit?.submitted, false);
  assert.equal(all.submit?.attempts, 2);
  assert.match(all.submit?.detail ?? '', /no sign of submission.*never lands/);
});

test('multi-line text goes as one bracketed paste and is submitted whole', async () => {
  const { coordinator, launcher } = setup([fakePreset('fake')]);
  const { pane } = await launcher.spawnAgent({ preset: 'fake' });
  const result = await launcher.submit(pane.id, 'line one\nline two\nline three', 'orchestrator');
  assert.equal(result.submitted, true, result.detail);
  assert.match(result.detail, /bracketed paste/);
  await eventually(async () => (await screen(coordinator, pane.id)).includes('you: line one / line two / line three'), { timeoutMs: 10_000, message: 'the whole message in one turn' });
});

test('nothing is typed while the agent shows a dialog, so a message cannot answer it', async () => {
  const { coordinator, launcher } = setup([fakePreset('dialog', { FAKE_AGENT_DIALOG: '1' })]);
  const { pane, submit } = await launcher.spawnAgent({ preset: 'dialog' });
  assert.equal(submit, null, 'no initial prompt, nothing submitted');
  await eventually(async () => (await screen(coordinator, pane.id)).includes('Do you want to proceed?'), { message: 'the dialog' });
  const result = await launcher.submit(pane.id, '1', 'orchestrator', { inputWaitMs: 300 });
  assert.equal(result.submitted, false);
  assert.equal(result.attempts, 0);
  assert.match(result.detail, /not at its input prompt.*Do you want to proceed/);
  assert.match(await screen(coordinator, pane.id), /Do you want to proceed\?/, 'the dialog is still open');
});

test('MCP wiring: the proxy command reaches the agent, the token is bound and revoked, temp files go', async () => {
  const preset = fakePreset('wired', {}, { mcp_injection: { kind: 'config_file_flag', args: ['--mcp-config', '{config_file}'] } });
  const { coordinator, launcher, calls } = setup([preset]);
  const { pane } = await launcher.spawnAgent({ preset: 'wired' });
  const text = await eventually(async () => {
    const now = await screen(coordinator, pane.id);
    return now.includes('--mcp-config') ? now : null;
  }, { message: 'the agent printing its argv' });
  const file = /"--mcp-config","([^"]+)"/.exec(text)?.[1];
  assert.ok(file && existsSync(file), `config file in argv: ${text}`);
  assert.deepEqual(calls, [`bind token-1 ${pane.id}`]);
  await coordinator.kill(pane.id);
  await eventually(() => calls.includes(`revoke ${pane.id}`) && !existsSync(file), { message: 'revoke and cleanup after exit' });
});

test('chromeTrim uses the preset of the pane', async () => {
  const { coordinator, launcher } = setup([fakePreset('fake')]);
  const { pane } = await launcher.spawnAgent({ preset: 'fake', initialPrompt: 'trim me' });
  await eventually(async () => (await screen(coordinator, pane.id)).includes('answer:'), { timeoutMs: 10_000, message: 'the answer' });
  const grid = await coordinator.grid(pane.id);
  const trimmed = await launcher.chromeTrim(pane.id, grid.lines);
  assert.deepEqual(trimmed.lines.filter((l) => l !== ''), ['you: trim me', 'answer: got 7 chars']);
  assert.ok(trimmed.trimmedRows.includes(0));
});

test('unknown presets are errors that list the known ones; process presets and freeform argv launch', async () => {
  const { coordinator, launcher } = setup([fakePreset('fake')], [{ name: 'say hi', argv: ['echo hi from $0 | tr a-z A-Z'], shell: true }]);
  await assert.rejects(launcher.spawnAgent({ preset: 'nope' }), /unknown agent preset "nope"; known agent presets: fake/);
  await assert.rejects(launcher.spawnProcess({ preset: 'nope' }), /unknown process preset "nope"; known process presets: p0 \("say hi"\)/);
  const shell = await launcher.spawnProcess({ preset: 'say hi' });
  assert.equal(shell.kind, 'process');
  assert.deepEqual(shell.argv.slice(0, 2), ['sh', '-lc']);
  await eventually(async () => (await screen(coordinator, shell.id)).includes('HI FROM SH'), { message: 'shell output' });
  const free = await launcher.spawnProcess({ argv: ['sh', '-c', 'echo "$GREETING"'], env: { GREETING: 'freeform ok' } });
  await eventually(async () => (await screen(coordinator, free.id)).includes('freeform ok'), { message: 'freeform output' });
});

test('a program that is not installed is named in the error instead of a blank, exited pane', async () => {
  const { launcher, coordinator } = setup([{ ...fakePreset('ghost'), argv: ['no-such-agent-cli-xyz', '--flag'] }]);
  await assert.rejects(launcher.spawnAgent({ preset: 'ghost', initialPrompt: 'hi' }), /program "no-such-agent-cli-xyz" was not found on PATH/);
  await assert.rejects(launcher.spawnProcess({ argv: ['./missing-script.sh'] }), /"\.\/missing-script\.sh" does not exist or is not executable/);
  assert.deepEqual(coordinator.allPanes(), [], 'no pane was started');
});

test('a preset working_dir that does not exist is named in the error instead of an exited pane', async () => {
  const { coordinator, launcher } = setup([fakePreset('nowhere', {}, { working_dir: 'no/such/dir' })], [{ name: 'p-nowhere', argv: ['true'], working_dir: '/etc/passwd' }]);
  await assert.rejects(launcher.spawnAgent({ preset: 'nowhere' }), /working_dir "no\/such\/dir" is not an existing directory/);
  await assert.rejects(launcher.spawnProcess({ preset: 'p-nowhere' }), /working_dir "\/etc\/passwd" is not an existing directory/);
  assert.deepEqual(coordinator.allPanes(), []);
});

test('the default ready signal (quiet after the first output) also leads to a confirmed submit', async () => {
  const { coordinator, launcher } = setup([fakePreset('quiet', { FAKE_AGENT_START_MS: '300' }, { ready_signal: { kind: 'idle', idle_ms: 300 } })]);
  const { pane, submit } = await launcher.spawnAgent({ preset: 'quiet', initialPrompt: 'idle ready' });
  assert.equal(submit?.submitted, true, submit?.detail);
  assert.equal(launcher.readyTimes.get(pane.id)?.ready, true);
  await eventually(async () => (await screen(coordinator, pane.id)).includes('answer: got 10 chars'), { timeoutMs: 10_000, message: 'the answer' });
});

test('an agent that hides its cursor before it echoes, and answers at once, is still seen to have taken the prompt', async () => {
  // The echo comes 400 ms after the keys, the busy marker never shows: proof can only be the input line emptying again.
  const { coordinator, launcher } = setup([fakePreset('slow-echo', { FAKE_AGENT_ECHO_MS: '400', FAKE_AGENT_BUSY_MS: '0' })]);
  const { pane, submit } = await launcher.spawnAgent({ preset: 'slow-echo', initialPrompt: 'hello there' });
  assert.deepEqual(submit && { submitted: submit.submitted, attempts: submit.attempts }, { submitted: true, attempts: 1 }, submit?.detail);
  await eventually(async () => (await screen(coordinator, pane.id)).includes('answer: got 11 chars'), { timeoutMs: 10_000, message: 'the answer' });
});

/** A first row of 2000 "a" (the fake agent shows FAKE_AGENT_SHOW_ENV's variable there): ".*.*.*.*.*X" takes minutes to fail on it. */
const LONG_HEADER = { FAKE_AGENT_SHOW_ENV: 'PAD', PAD: 'a'.repeat(2000) };
const POLYNOMIAL = '.*.*.*.*.*X';
const OVERRUN = new RegExp(`"\\.\\*\\.\\*\\.\\*\\.\\*\\.\\*X" took longer than ${PATTERN_BUDGET_MS} ms to match and was stopped`);

test('a ready pattern of a preset that overruns its budget fails the prompt with the pattern named; other panes echo meanwhile', async () => {
  const { coordinator, launcher } = setup([fakePreset('slow-ready', LONG_HEADER, { ready_signal: { kind: 'pattern', pattern: POLYNOMIAL, timeout_ms: 120_000 } })]);
  const quiet = await coordinator.spawn({ argv: ['cat'], kind: 'process' });
  let settled = false;
  const spawning = launcher.spawnAgent({ preset: 'slow-ready', initialPrompt: 'hello' }).finally(() => (settled = true));
  await eventually(() => coordinator.allPanes().find((pane) => pane.presetName === 'slow-ready'), { timeoutMs: 30_000, message: 'the agent pane' });
  const agentId = coordinator.allPanes().find((pane) => pane.presetName === 'slow-ready')!.id;
  await eventually(async () => (await screen(coordinator, agentId)).includes('a'.repeat(100)), { timeoutMs: 30_000, message: 'the long header on screen' });
  for (let i = 0; i < 3; i++) {
    coordinator.write(quiet.id, `echo-${i}\r`, 'orchestrator');
    assert.equal((await coordinator.waitFor(quiet.id, { pattern: `echo-${i}`, timeoutMs: 60_000 })).matched, true);
  }
  assert.equal(settled, false, 'the quiet pane echoed while the ready pattern was still being matched');
  const { submit } = await spawning;
  assert.equal(submit?.submitted, false);
  assert.match(submit?.detail ?? '', /^the initial prompt was not typed: ready_signal\.pattern: /);
  assert.match(submit?.detail ?? '', OVERRUN);
});

test('chrome rules of a preset that overrun their budget fail the trim with the pattern named', async () => {
  const { coordinator, launcher } = setup([fakePreset('slow-trim', LONG_HEADER, { chrome_trim_hints: [{ kind: 'match', pattern: POLYNOMIAL }] })]);
  const { pane } = await launcher.spawnAgent({ preset: 'slow-trim' });
  await eventually(async () => (await screen(coordinator, pane.id)).includes('a'.repeat(100)), { timeoutMs: 30_000, message: 'the long header on screen' });
  const grid = await coordinator.grid(pane.id);
  await assert.rejects(launcher.chromeTrim(pane.id, grid.lines), (error: Error) => {
    assert.match(error.message, /^chrome_trim_hints of preset "slow-trim": /);
    assert.match(error.message, OVERRUN);
    assert.match(error.message, /read with trim_chrome: false$/);
    return true;
  });
});
