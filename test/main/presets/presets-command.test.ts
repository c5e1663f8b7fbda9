import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../../../bin/patterm', import.meta.url));

function run(env: Record<string, string>, extra: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, 'presets', ...extra], { env: { PATH: process.env.PATH ?? '', ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

test('`patterm presets` installs the defaults on first run and lists them', async () => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-cmd-'));
  const first = await run({ XDG_CONFIG_HOME: root, HOME: root });
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /installed default preset .*agents\/claude\.json/);
  assert.match(first.stdout, /Spawn agent: claude/);
  assert.match(first.stdout, /Spawn agent: codex/);
  assert.match(first.stdout, /Spawn agent: opencode/);
  assert.match(first.stdout, /Run process: bash/);

  writeFileSync(join(root, 'patterm/presets/processes/broken.json'), JSON.stringify({ name: 'broken', argv: 'ls' }));
  const second = await run({ XDG_CONFIG_HOME: root, HOME: root });
  assert.equal(second.code, 1);
  assert.doesNotMatch(second.stdout, /installed default preset/);
  assert.match(second.stdout, /broken\.json: argv: expected Array, received "ls"/);
  assert.match(second.stdout, /Spawn agent: claude/, 'the other presets still load');
  rmSync(root, { recursive: true, force: true });
});

test('a default never displaces a preset of the user\'s that is found by the same name', async () => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-cmd-'));
  // Written before patterm ever ran: the user's own "codex", and a "Bash" under another file name.
  mkdirSync(join(root, 'patterm/presets/agents'), { recursive: true });
  mkdirSync(join(root, 'patterm/presets/processes'), { recursive: true });
  writeFileSync(join(root, 'patterm/presets/agents/my-codex.json'), JSON.stringify({ name: 'codex', argv: ['codex', '--mine'] }));
  writeFileSync(join(root, 'patterm/presets/processes/zsh.json'), JSON.stringify({ name: 'Bash', argv: ['zsh'] }));
  const first = await run({ XDG_CONFIG_HOME: root, HOME: root });
  assert.equal(first.code, 0, first.stdout);
  assert.match(first.stdout, /default preset .*\/agents\/codex\.json not installed: your .*\/agents\/my-codex\.json is already found by "codex"/);
  assert.match(first.stdout, /default preset .*\/processes\/bash\.json not installed: your .*\/processes\/zsh\.json is already found by "bash"/);
  assert.match(first.stdout, /Spawn agent: codex {2}\[my-codex\] {2}codex --mine/);
  assert.match(first.stdout, /Run process: Bash {2}\[zsh\]/);
  assert.match(first.stdout, /Spawn agent: claude/, 'the other defaults are installed');
  assert.equal(existsSync(join(root, 'patterm/presets/agents/codex.json')), false);
  const second = await run({ XDG_CONFIG_HOME: root, HOME: root });
  assert.doesNotMatch(second.stdout, /not installed/, 'said once, like any default offered once');
  rmSync(root, { recursive: true, force: true });
});

test('`patterm presets` with XDG_CONFIG_HOME unset uses ~/.config', async () => {
  const home = mkdtempSync(join(tmpdir(), 'patterm-home-'));
  const result = await run({ HOME: home });
  assert.equal(result.code, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`${home}/\\.config/patterm/presets/agents`));
  rmSync(home, { recursive: true, force: true });
});

test('`patterm presets` with arguments is a usage error that installs nothing', async () => {
  const root = mkdtempSync(join(tmpdir(), 'patterm-cmd-'));
  const result = await run({ XDG_CONFIG_HOME: root, HOME: root }, ['--bogus']);
  assert.equal(result.code, 2);
  assert.match(result.stderr, /presets takes no arguments \(received "--bogus"\)/);
  assert.equal(existsSync(join(root, 'patterm')), false, 'no preset was installed');
  rmSync(root, { recursive: true, force: true });
});
