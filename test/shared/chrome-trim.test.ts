import { test } from 'node:test';
import assert from 'node:assert/strict';
import { trimChrome } from '../../src/shared/chrome-trim.js';
import { bundledPresetDirs } from '../../src/main/presets/preset-paths.js';
import { loadPresetDir } from '../../src/main/presets/preset-loader.js';

const hints = (id: string) => loadPresetDir('agent', bundledPresetDirs().agents).presets.find((p) => p.id === id)!.preset.chrome_trim_hints;

test('rule kinds: rows from the bottom, match, block without an end removes nothing', () => {
  const lines = ['a', 'b', 'c', 'd'];
  assert.deepEqual(trimChrome(lines, [{ kind: 'rows', from: -1, to: -1 }]), { lines: ['a', 'b', 'c'], trimmedRows: [3] });
  assert.deepEqual(trimChrome(lines, [{ kind: 'match', pattern: '^[bd]$' }]).trimmedRows, [1, 3]);
  assert.deepEqual(trimChrome(lines, [{ kind: 'block', start: '^b$', end: '^z$' }]).trimmedRows, []);
  assert.deepEqual(trimChrome(lines, undefined), { lines, trimmedRows: [] });
});

test('claude: a permission dialog is never trimmed, even though its option starts with ❯', () => {
  const screen = ['❯ run ls', '', '● Bash(ls)', 'Do you want to proceed?', '❯ 1. Yes', '  2. No', '', 'Esc to cancel'];
  assert.deepEqual(trimChrome(screen, hints('claude')).trimmedRows, []);
});

test('codex: the input box and footer go, the transcript stays', () => {
  const screen = ['', '  >_ OpenAI Codex (v0.169.0)', '     /tmp/project', '', '', '› hello world', '', '• Hi there.', '', '› Ask Codex to do anything', '', '  mock-model default · /tmp/project', '  ← for agents · ? for shortcuts'];
  const { lines, trimmedRows } = trimChrome(screen, hints('codex'));
  assert.deepEqual(lines.filter((l) => l !== ''), ['› hello world', '• Hi there.']);
  assert.deepEqual(trimmedRows, [1, 2, 8, 9, 10, 11, 12]);
});
