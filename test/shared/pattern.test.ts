import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesWithoutBacktracking } from '../../src/shared/pattern.js';

test('patterns that can never backtrack are told apart from the rest', () => {
  const deterministic = ['ready>', '\\$ $', '^PONG from', '[*+?{|]', '\\*\\+\\?\\{\\|', '(?:ab)c', '(?<word>ab)c', '\\bdone\\b', '^\\s\\d:\\d\\d$', '[]a]x', '[^]x'];
  const backtracking = ['.*.*.*.*X', 'a+', 'colou?r', 'a{2}', 'error|fail', '(a)\\1', '(?<w>a)\\k<w>', 'error(?!s)', '(?<=x)y', '(?=a)', '[a]*', '(?<w>a)+'];
  for (const pattern of deterministic) assert.equal(matchesWithoutBacktracking(pattern), true, pattern);
  for (const pattern of backtracking) assert.equal(matchesWithoutBacktracking(pattern), false, pattern);
});
