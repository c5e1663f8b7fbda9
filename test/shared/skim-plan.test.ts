import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linesThatFillScrollback, planSkim } from '../../src/shared/skim-plan.js';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const lines = (count: number, text = 'line') => Array.from({ length: count }, (_, i) => `${text} ${i}\r\n`).join('');

test('the cut leaves exactly keepLines LFs of plain output after it, and falls just after a LF', () => {
  const backlog = encode(lines(100));
  const plan = planSkim(backlog, 10, 1);
  assert.ok(plan);
  assert.equal(decode(backlog.subarray(plan.cut)), lines(100).split('\r\n').slice(90).join('\r\n'));
  assert.equal(backlog[plan.cut - 1], 0x0a);
  assert.equal(decode(plan.digest), '\r\n');
});

test('a backlog with too few lines, or a skim under the minimum, is not planned', () => {
  assert.equal(planSkim(encode(lines(10)), 10, 1), null);
  assert.equal(planSkim(encode(lines(20)), 10, 1000), null);
  assert.equal(planSkim(encode(lines(20)), Infinity, 1), null);
});

test('any escape but SGR, a charset shift or a C1 control ends the run that can be skimmed; other C0 controls do not', () => {
  for (const control of ['\x07', '\x7f', '\x00', '\x0b', '\x0c', '\t', '\b']) {
    const plan = planSkim(encode(lines(50) + control + lines(50)), 10, 1);
    assert.equal(plan?.cut, encode(lines(50) + control + lines(40)).length, JSON.stringify(control));
  }
  for (const stop of ['\x1b[5;1H', '\x1b]0;title\x07', '\x1b(0', '\x0e', '\x0f', '\x05', '\x1b[?1049h', '\x1b[>4;1m', '\x1b[6n', '\u0085', '\x1b[3\n1m', '\x1b7']) {
    const backlog = encode(lines(50) + stop + lines(50));
    const plan = planSkim(backlog, 10, 1);
    assert.ok(plan, JSON.stringify(stop));
    // The cut keeps 10 plain lines before the stop.
    assert.equal(decode(backlog.subarray(plan.cut)).split('\r\n').length - 1, 10 + 50, JSON.stringify(stop));
  }
});

test('the digest replays the SGR sequences since the last reset before the cut, and nothing after it', () => {
  const head = 'a\x1b[1mb\x1b[0;31mc\x1b[4md\x1b[38:2::1:2:3me\r\n';
  // The last 10 lines are kept, the first of them styled: its SGR is parsed with it, not in the digest.
  const plan = planSkim(encode(head + lines(30) + '\x1b[7mafter\r\n' + lines(9)), 10, 1);
  assert.ok(plan);
  assert.equal(decode(plan.digest), '\x1b[0;31m\x1b[4m\x1b[38:2::1:2:3m\r\n');
  for (const reset of ['\x1b[m', '\x1b[0m', '\x1b[;1m', '\x1b[00;2m']) {
    const digest = planSkim(encode(`\x1b[1m${reset}x\r\n${lines(30)}`), 10, 1)?.digest;
    assert.equal(decode(digest!), `${reset}\r\n`, JSON.stringify(reset));
  }
  // 01 is bold, not a reset: everything before it counts.
  assert.equal(decode(planSkim(encode(`\x1b[3m\x1b[01mx\r\n${lines(30)}`), 10, 1)!.digest), '\x1b[3m\x1b[01m\r\n');
});

test('UTF-8 text is plain, but a C1 control written in UTF-8 is not', () => {
  const plan = planSkim(encode(`界面 🙂 e\u0301\r\n`.repeat(40)), 10, 1);
  assert.ok(plan);
  const withC1 = encode(lines(40) + '\u009b' + lines(40));
  const c1 = planSkim(withC1, 10, 1);
  assert.ok(c1);
  assert.equal(decode(withC1.subarray(c1.cut)), lines(40).split('\r\n').slice(30).join('\r\n') + '\u009b' + lines(40));
});

test('the lines to keep cover the scrollback at any width, and an unlimited scrollback is never skimmed', () => {
  // 4 MiB at 120 columns: ghostty held at most 2734 rows; the bound is well above, plus two screens.
  assert.ok(linesThatFillScrollback(120, 40, 4 << 20) >= 2734 + 80);
  assert.ok(linesThatFillScrollback(1, 5, 4 << 20) > linesThatFillScrollback(200, 5, 4 << 20));
  assert.equal(linesThatFillScrollback(80, 24, 0), Infinity);
});
