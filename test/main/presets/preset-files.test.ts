import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePreset } from '../../../src/shared/preset-schema.js';
import { installDefaultPresets } from '../../../src/main/presets/default-presets.js';
import { loadPresetDir } from '../../../src/main/presets/preset-loader.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { bundledPresetDirs, presetDirs } from '../../../src/main/presets/preset-paths.js';
import { configHome, dataHome } from '../../../src/node/xdg-dirs.js';

function tempDirs() {
  const root = mkdtempSync(join(tmpdir(), 'patterm-presets-'));
  const dirs = presetDirs({ XDG_CONFIG_HOME: root });
  return { root, dirs };
}

test('every bundled preset file is valid', () => {
  const bundled = bundledPresetDirs();
  const agents = loadPresetDir('agent', bundled.agents);
  const processes = loadPresetDir('process', bundled.processes);
  const shells = loadPresetDir('shell', bundled.shells);
  assert.deepEqual([...agents.errors, ...processes.errors, ...shells.errors], []);
  assert.deepEqual(agents.presets.map((p) => p.id).sort(), ['claude', 'codex', 'opencode']);
  assert.ok(processes.presets.some((p) => p.id === 'bash'));
  assert.deepEqual(shells.presets.map((p) => [p.id, p.preset.shell]).sort(), [['bash', 'bash'], ['zsh', 'zsh']]);
});

test('a shell preset names its shell, and may turn the integration off; its problems name the field', () => {
  assert.deepEqual(parsePreset('shell', { name: 'plain', shell: 'bash', shell_integration: false, login: false, env: { A: 'b' }, working_dir: 'web' }), {
    ok: true,
    preset: { name: 'plain', shell: 'bash', shell_integration: false, login: false, env: { A: 'b' }, working_dir: 'web' },
  });
  const broken = parsePreset('shell', { name: 'x', shell: '', shell_integration: 'no', argv: ['bash'] });
  const problems = broken.ok ? [] : broken.problems;
  assert.ok(problems.some((p) => /^shell: must name a shell/.test(p)), problems.join(' | '));
  assert.ok(problems.some((p) => /^shell_integration: expected boolean, received "no"/.test(p)), problems.join(' | '));
  assert.ok(problems.some((p) => /^argv: unknown field/.test(p)), problems.join(' | '));
});

test('schema errors name the field, the problem and the value received', () => {
  const result = parsePreset('agent', {
    name: 'x',
    argv: [],
    env: { A: 1 },
    ready_signal: { kind: 'pattern', pattern: '((' },
    mcp_injection: { kind: 'flagz' },
    ready_singal: {},
  });
  assert.equal(result.ok, false);
  const problems = result.ok ? [] : result.problems;
  const find = (field: string) => problems.find((p) => p.startsWith(`${field}:`)) ?? `(no problem reported for ${field}: ${problems.join(' | ')})`;
  assert.match(find('argv'), /empty list/);
  assert.match(find('env.A'), /expected string, received 1/);
  assert.match(find('ready_signal.pattern'), /not a valid regular expression.*"\(\("/);
  assert.match(find('mcp_injection.kind'), /received "flagz"/);
  assert.match(find('ready_singal'), /unknown field/);
  const missing = parsePreset('process', { argv: ['x'] });
  assert.deepEqual(missing.ok ? [] : missing.problems, ['name: required field is missing']);
});

test('ready_signal patterns are checked with the preset\'s own flags, and server_name must be a plain name', () => {
  const problems = (value: object) => {
    const result = parsePreset('agent', { name: 'x', argv: ['x'], ...value });
    return result.ok ? [] : result.problems;
  };
  // Valid without flags, a syntax error under "u": it must fail at load, not as "the process exited" at spawn.
  assert.match(problems({ ready_signal: { kind: 'pattern', pattern: 'ready\\>', flags: 'u' } }).join(), /ready_signal\.pattern: .*flags "u"/);
  assert.match(problems({ ready_signal: { kind: 'pattern', pattern: 'ok', busy_pattern: 'a{', flags: 'u' } }).join(), /ready_signal\.busy_pattern: .*flags "u"/);
  assert.match(problems({ ready_signal: { kind: 'pattern', pattern: 'ok', flags: 'I' } }).join(), /ready_signal\.flags: /);
  assert.deepEqual(problems({ ready_signal: { kind: 'pattern', pattern: 'ok', busy_pattern: 'busy', flags: 'iu' } }), []);
  for (const server_name of ['../../x', 'a/b', 'my"srv', 'a b', '']) {
    assert.match(problems({ mcp_injection: { kind: 'config_file_flag', server_name, args: ['{config_file}'] } }).join(), /mcp_injection\.server_name: /, server_name);
  }
  assert.deepEqual(problems({ mcp_injection: { kind: 'toml_overrides', server_name: 'patterm-2' } }), []);
});

test('a preset name is free text without control characters, and the error shows them escaped', () => {
  const problems = (name: string) => {
    const result = parsePreset('process', { name, argv: ['true'] });
    return result.ok ? [] : result.problems;
  };
  assert.deepEqual(problems('git status (watch)'), []);
  assert.deepEqual(problems('Café: build & test [fast]'), []);
  // Typed into agents inside "[sub-agent:<name>]" tags, a newline would submit half a tag.
  assert.deepEqual(problems('two\nlines'), ['name: must not contain control characters such as newlines, tabs or escapes (received "two\\nlines")']);
  assert.match(problems('red \u001b[31m').join(), /received "red \\u001b\[31m"/);
  assert.match(problems('csi \u009b2J').join(), /received "csi \\u009b2J"/);
  assert.match(problems('tab\there').join(), /^name: must not contain control characters/);
});

test('a name that would send a lookup to two presets is an error naming both files, whatever their order', () => {
  const { root, dirs } = tempDirs();
  mkdirSync(dirs.agents, { recursive: true });
  const write = (file: string, name: string) => writeFileSync(join(dirs.agents, file), JSON.stringify({ name, argv: ['true'] }));
  write('claude.json', 'claude opus');
  write('aaa.json', 'claude'); // sorts first, but "claude" finds claude.json
  write('zzz.json', 'Claude Opus'); // the same name in other case: lookups ignore case
  write('codex.json', 'codex');
  const catalog = PresetCatalog.load({ dirs, bundled: null });
  assert.deepEqual(catalog.agents.map((entry) => entry.id), ['claude', 'codex']);
  const byFile = new Map(catalog.errors.map((error) => [error.file.split('/').pop(), error.problems.join(' | ')]));
  assert.match(byFile.get('aaa.json') ?? '', /^name: "claude" is how .*\/claude\.json is found \(by its file name.*This file was skipped$/);
  assert.match(byFile.get('zzz.json') ?? '', /^name: "Claude Opus" is already used by .*\/claude\.json \(as "claude opus": names are compared ignoring case\); names must be unique/);
  assert.equal(catalog.errors.length, 2);
  assert.equal(catalog.findAgent('claude')?.id, 'claude');
  assert.equal(catalog.findAgent('CLAUDE OPUS')?.id, 'claude');
  rmSync(root, { recursive: true, force: true });
});

test('a broken file is reported by file and field while the others load', () => {
  const { root, dirs } = tempDirs();
  mkdirSync(dirs.agents, { recursive: true });
  writeFileSync(join(dirs.agents, 'good.json'), JSON.stringify({ name: 'good', argv: ['true'] }));
  writeFileSync(join(dirs.agents, 'bad-field.json'), JSON.stringify({ name: 'bad', argv: ['true'], idle_threshold_ms: 'soon' }));
  writeFileSync(join(dirs.agents, 'bad-json.json'), '{"name": "x",');
  writeFileSync(join(dirs.agents, 'array.json'), '[]');
  writeFileSync(join(dirs.agents, 'same-name.json'), JSON.stringify({ name: 'good', argv: ['false'] }));
  writeFileSync(join(dirs.agents, 'notes.txt'), 'ignored');
  const result = loadPresetDir('agent', dirs.agents);
  assert.deepEqual(result.presets.map((p) => p.id), ['good']);
  const byFile = new Map(result.errors.map((e) => [e.file.split('/').pop(), e.problems.join(' | ')]));
  assert.match(byFile.get('bad-field.json') ?? '', /^idle_threshold_ms: expected number, received "soon"/);
  assert.match(byFile.get('bad-json.json') ?? '', /not valid JSON/);
  assert.match(byFile.get('array.json') ?? '', /expected a JSON object, received an array/);
  assert.match(byFile.get('same-name.json') ?? '', /name: "good" is already used by .*good\.json/);
  assert.equal(result.errors.length, 4);
  rmSync(root, { recursive: true, force: true });
});

test('an unreadable file is an error, not a crash', { skip: process.getuid?.() === 0 ? 'root can read any file' : false }, () => {
  const { dirs } = tempDirs();
  mkdirSync(dirs.processes, { recursive: true });
  const file = join(dirs.processes, 'locked.json');
  writeFileSync(file, '{}');
  chmodSync(file, 0);
  const result = loadPresetDir('process', dirs.processes);
  assert.match(result.errors[0]?.problems[0] ?? '', /cannot read/);
});

test('XDG variables that are unset, empty or relative fall back to the XDG defaults', () => {
  assert.equal(configHome({ HOME: '/home/u' }), '/home/u/.config');
  assert.equal(configHome({ HOME: '/home/u', XDG_CONFIG_HOME: '' }), '/home/u/.config');
  assert.equal(configHome({ HOME: '/home/u', XDG_CONFIG_HOME: 'rel/dir' }), '/home/u/.config');
  assert.equal(configHome({ HOME: '/home/u', XDG_CONFIG_HOME: '/cfg' }), '/cfg');
  assert.equal(dataHome({ HOME: '/home/u' }), '/home/u/.local/share');
  assert.equal(presetDirs({ XDG_CONFIG_HOME: '/cfg' }).agents, '/cfg/patterm/presets/agents');
});

test('first run copies the defaults; edits are never overwritten and deletions stick', () => {
  const { root, dirs } = tempDirs();
  const bundled = bundledPresetDirs();
  const first = installDefaultPresets(bundled, dirs);
  assert.ok(first.copied.some((file) => file.endsWith('agents/claude.json')));
  assert.deepEqual(first.problems, []);

  const claude = join(dirs.agents, 'claude.json');
  const edited = JSON.stringify({ name: 'my claude', argv: ['claude', '--model', 'x'] });
  writeFileSync(claude, edited);
  rmSync(join(dirs.agents, 'codex.json'));
  const second = installDefaultPresets(bundled, dirs);
  assert.deepEqual(second.copied, []);
  assert.equal(readFileSync(claude, 'utf8'), edited);

  const catalog = PresetCatalog.load({ dirs, bundled });
  assert.equal(catalog.findAgent('claude')?.preset.name, 'my claude');
  assert.equal(catalog.findAgent('codex'), undefined, 'a deleted default must not come back');
  assert.equal(catalog.findAgent('OPENCODE')?.id, 'opencode', 'names match ignoring case');
  assert.match(catalog.describeAgents(), /claude \("my claude"\)/);
  rmSync(root, { recursive: true, force: true });
});

test('a user file that predates the defaults is kept, not replaced', () => {
  const { root, dirs } = tempDirs();
  mkdirSync(dirs.agents, { recursive: true });
  const mine = JSON.stringify({ name: 'codex', argv: ['codex', '--mine'] });
  writeFileSync(join(dirs.agents, 'codex.json'), mine);
  const report = installDefaultPresets(bundledPresetDirs(), dirs);
  assert.ok(report.kept.some((file) => file.endsWith('codex.json')));
  assert.equal(readFileSync(join(dirs.agents, 'codex.json'), 'utf8'), mine);
  rmSync(root, { recursive: true, force: true });
});
