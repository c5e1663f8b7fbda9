import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SequenceScanner, type ScannedEvent } from '../../src/shared/sequence-scanner.js';

const encode = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` in pieces of `size` bytes and returns the events without their chunk-relative `end`. */
function scanInPieces(text: string, size: number): unknown[] {
  const scanner = new SequenceScanner();
  const bytes = encode(text);
  const events: ScannedEvent[] = [];
  for (let i = 0; i < bytes.length; i += size) events.push(...scanner.scan(bytes.subarray(i, i + size)));
  return events.map(({ end: _end, ...rest }) => rest);
}

const SAMPLE =
  'hi\x1b]0;my title\x07 \x1b]2;second\x1b\\\x07' +
  '\x1b]133;A\x07$ \x1b]133;D;7\x07' +
  '\x1b]52;c;aGVsbG8=\x07' +
  '\x1b[c\x1b[>c\x1b[?2004$p\x1b[?u\x1b]11;?\x07\x1bP$qm\x1b\\\x1b[18t' +
  '\x1b[31mred\x1b[0m';

const EXPECTED = [
  { type: 'osc', code: 0, data: 'my title' },
  { type: 'osc', code: 2, data: 'second' },
  { type: 'bell' },
  { type: 'osc', code: 133, data: 'A' },
  { type: 'osc', code: 133, data: 'D;7' },
  { type: 'osc', code: 52, data: 'c;aGVsbG8=' },
  { type: 'query', query: { kind: 'da1' } },
  { type: 'query', query: { kind: 'da2' } },
  { type: 'query', query: { kind: 'decrqm', mode: 2004, dec: true } },
  { type: 'query', query: { kind: 'kitty-keyboard' } },
  { type: 'query', query: { kind: 'color', target: 'background', osc: 11 } },
  { type: 'query', query: { kind: 'decrqss', setting: 'm' } },
  { type: 'query', query: { kind: 'window-report', op: 18 } },
];

test('finds titles, bells, prompt marks, clipboard writes and queries in one chunk', () => {
  assert.deepEqual(scanInPieces(SAMPLE, SAMPLE.length), EXPECTED);
});

test('finds exactly the same events when the stream arrives one byte at a time', () => {
  assert.deepEqual(scanInPieces(SAMPLE, 1), EXPECTED);
});

test('finds the same events for every split size', () => {
  for (const size of [2, 3, 5, 7, 13]) assert.deepEqual(scanInPieces(SAMPLE, size), EXPECTED, `split size ${size}`);
});

test('a BEL that terminates an OSC is not also reported as a bell', () => {
  assert.deepEqual(scanInPieces('\x1b]0;t\x07', 1), [{ type: 'osc', code: 0, data: 't' }]);
});

test('reports `end` just past each sequence within the chunk', () => {
  const events = new SequenceScanner().scan(encode('ab\x1b[cde'));
  assert.equal(events[0].end, 5);
});

test('an aborted OSC (CAN) yields nothing and scanning resumes', () => {
  assert.deepEqual(scanInPieces('\x1b]0;never\x18\x07', 1), [{ type: 'bell' }]);
});

test('scroll margins are followed through DECSTBM, DECLRMM, DECSTR and RIS, split anywhere', () => {
  const marginsAfter = (text: string, rows = 40, piece = 1) => {
    const scanner = new SequenceScanner();
    const bytes = encode(text);
    for (let i = 0; i < bytes.length; i += piece) scanner.scan(bytes.subarray(i, i + piece));
    return scanner.marginsAreFullScreen(rows);
  };
  for (const piece of [1, 3, 1000]) {
    assert.equal(marginsAfter('plain text\r\n\x1b[31mred', 40, piece), true);
    assert.equal(marginsAfter('\x1b[2;39r', 40, piece), false, 'a region');
    assert.equal(marginsAfter('\x1b[1;39r', 40, piece), false, 'a bottom margin');
    assert.equal(marginsAfter('\x1b[1;40r', 40, piece), true, 'the whole screen');
    assert.equal(marginsAfter('\x1b[1;40r', 50, piece), false, 'the whole screen of a smaller terminal');
    assert.equal(marginsAfter('\x1b[2;39r\x1b[r', 40, piece), true, 'reset by an empty DECSTBM');
    assert.equal(marginsAfter('\x1b[2;39r\x1b[!p', 40, piece), true, 'reset by DECSTR');
    assert.equal(marginsAfter('\x1b[2;39r\x1bc', 40, piece), true, 'reset by RIS');
    assert.equal(marginsAfter('\x1b[?69h', 40, piece), false, 'left and right margins possible');
    assert.equal(marginsAfter('\x1b[?25;69h\x1b[?69l', 40, piece), true);
    assert.equal(marginsAfter('\x1b[?2004h\x1b[?1049h', 40, piece), true, 'other modes leave margins alone');
  }
});

test('scanPlain finds in plain output exactly what scan finds: its bells', () => {
  const plain = encode('\x1b[0;31mred\x07 text\x1b[1m 界\r\nmore\x07\x07\n\x1b[m');
  const full = new SequenceScanner();
  const fast = new SequenceScanner();
  const expected = full.scan(plain);
  assert.equal(expected.filter((event) => event.type === 'bell').length, 3);
  assert.deepEqual(fast.scanPlain(plain), expected);
  assert.equal(fast.atGround, full.atGround);
});

test('scanPlain falls back to a full scan when a sequence is open', () => {
  const scanner = new SequenceScanner();
  scanner.scan(encode('\x1b]0;ti'));
  assert.equal(scanner.atGround, false);
  const events = scanner.scanPlain(encode('tle\x07rest'));
  assert.deepEqual(events, [{ type: 'osc', code: 0, data: 'title', end: 4 }]);
  assert.equal(scanner.atGround, true);
});
