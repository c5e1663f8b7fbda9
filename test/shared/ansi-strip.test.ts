import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderText } from '../../src/shared/ansi-strip.js';

test('renderText: styles and OSC dropped, CRLF ends a line, a lone CR overwrites from the line start', () => {
  assert.equal(renderText('\x1b[31mred\x1b[0m\r\n\x1b]0;title\x07ok\r\n'), 'red\nok');
  assert.equal(renderText('progress 10%\rprogress 90%\rdone        \r\n'), 'done');
  assert.equal(renderText('abc\rX\n'), 'Xbc');
});

test("renderText follows a line editor's echo: backspace, cursor left and right, erase, insert and delete", () => {
  assert.equal(renderText('ech\b\bxch\b\b'), 'exch');
  assert.equal(renderText('hello\x1b[3Dy\x1b[K'), 'hey');
  assert.equal(renderText('abcdef\x1b[4D\x1b[2P'), 'abef');
  assert.equal(renderText('abef\x1b[2D\x1b[2@cd'), 'abcdef');
  assert.equal(renderText('one\x1b[2Ktwo'), '   two');
  assert.equal(renderText('tab\there'), 'tab\there');
});
