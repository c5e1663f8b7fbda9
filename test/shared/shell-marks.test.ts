import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeField, encodeField, historyCommand, parseShellMark } from '../../src/shared/shell-marks.js';

test('a mark is its letter, D its exit code, and key=value fields decoded', () => {
  assert.deepEqual(parseShellMark('A;patterm=ab12'), { mark: 'A', fields: { patterm: 'ab12' } });
  assert.deepEqual(parseShellMark('D;130;patterm=ab12;cwd=/tmp/a%3Bb%25c'), { mark: 'D', exitCode: 130, fields: { patterm: 'ab12', cwd: '/tmp/a;b%c' } });
  assert.deepEqual(parseShellMark('D'), { mark: 'D', fields: {} });
  assert.deepEqual(parseShellMark('D;x'), { mark: 'D', fields: {} }, 'an exit code that is not a number is none');
  assert.equal(parseShellMark(''), null);
  assert.equal(parseShellMark('AB;x=1'), null);
});

test('raw= takes the rest of the mark verbatim, semicolons and percent signs included', () => {
  assert.deepEqual(parseShellMark('E;patterm=n;raw=\t echo a;b %3B\n'), { mark: 'E', fields: { patterm: 'n', raw: '\t echo a;b %3B\n' } });
  assert.deepEqual(parseShellMark('D;0;patterm=n;raw=/dir;with;semicolons')?.fields.raw, '/dir;with;semicolons');
});

test('encodeField is undone by decodeField for every character the shells escape', () => {
  const value = 'a;b%c\x07d\x1be\nf\rg é';
  assert.equal(encodeField(value), 'a%3Bb%25c%07d%1Be%0Af%0Dg é');
  assert.equal(decodeField(encodeField(value)), value);
  assert.equal(decodeField('100%'), '100%', 'a lone percent sign stays');
});

test("bash's history lines become the command as typed", () => {
  assert.equal(historyCommand('\t echo hi\n'), 'echo hi');
  assert.equal(historyCommand('\t echo a\n\t echo b\n'), 'echo a\necho b');
});
