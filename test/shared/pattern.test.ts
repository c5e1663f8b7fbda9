import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mayBacktrackExponentially } from '../../src/shared/pattern.js';

test('patterns that can backtrack exponentially are told apart from plain ones', () => {
  const risky = ['^(a+)+$', '(.|\\s)*z', '(\\w+\\s?)+$', '(foo|bar)+', '(x+x+)+y', '(?<n>a+)+', '((a+)b){2,}', '(a)\\1', '(?<w>a)\\k<w>', 'error(?!s)', '(?<=x)y'];
  const plain = ['Ready in \\d+ms', '\\$ $', 'error|fail', '(?:foo|bar) done', '(a|b)?c', '[(+)]+', 'a{2,5}', '(ab){3}', '(a+){1}', '(a*)?', '\\(x+\\)+', '^\\s*(\\d+)\\s+(\\w+)\\s+(.*)$', '[]a+]+', '[^]*x'];
  for (const pattern of risky) assert.equal(mayBacktrackExponentially(pattern), true, pattern);
  for (const pattern of plain) assert.equal(mayBacktrackExponentially(pattern), false, pattern);
});
