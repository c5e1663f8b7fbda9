import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PANE_NAME_PATTERN, paneNameBase } from '../../src/shared/pane-name.js';

test('default pane names are plain forms of free-text preset names, valid as names a caller could give', () => {
  const cases: [string[], string][] = [
    [['claude'], 'claude'],
    [['codex haiku'], 'codex-haiku'],
    [['git status (watch)'], 'git-status-watch'],
    [['npm run dev'], 'npm-run-dev'],
    [['[sub-agent:x] hi'], 'sub-agent-x-hi'],
    [['Café olé'], 'Cafe-ole'],
    [['--verbose..'], 'verbose'],
    [['v1.2_beta'], 'v1.2_beta'],
    [['x'.repeat(80)], 'x'.repeat(48)],
    // No plain letters at all: the next candidate (the program, then the kind).
    [['クロード', 'claude'], 'claude'],
    [['🚀', '', 'agent'], 'agent'],
    [['', '...'], 'pane'],
  ];
  for (const [candidates, expected] of cases) {
    const base = paneNameBase(...candidates);
    assert.equal(base, expected, JSON.stringify(candidates));
    assert.match(`${base}-999999`, PANE_NAME_PATTERN, JSON.stringify(candidates));
  }
});
