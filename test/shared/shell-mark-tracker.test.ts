import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SequenceScanner } from '../../src/shared/sequence-scanner.js';
import { ShellMarkTracker, type ShellEvent } from '../../src/shared/shell-mark-tracker.js';

const NONCE = 'c0ffee';
const mark = (body: string, end = '\x07') => `\x1b]133;${body}${end}`;

/** Feeds `reads` through a real scanner and a tracker, as the PTY host does; returns events and output. */
function track(reads: string[], options: { nonce?: string | null; expect?: string[] } = {}) {
  const scanner = new SequenceScanner();
  const events: ShellEvent[] = [];
  const output: number[] = [];
  const tracker = new ShellMarkTracker(options.nonce === undefined ? NONCE : options.nonce, { event: (event) => events.push(event), output: (bytes) => output.push(...bytes) });
  for (const nonce of options.expect ?? []) tracker.expect(nonce);
  for (const read of reads) {
    const bytes = new TextEncoder().encode(read);
    const scanned = scanner.scan(bytes);
    tracker.feed(bytes, scanned, scanner.atGround);
  }
  return { events, output: new TextDecoder().decode(new Uint8Array(output)), tracker };
}

const COMMAND = `${mark(`A;patterm=${NONCE}`)}$ ${mark(`B;patterm=${NONCE}`)}echo hi\r\n${mark(`C;patterm=${NONCE}`)}hi\r\n${mark(`D;0;patterm=${NONCE};cwd=/home/u`)}`;

test('a command: prompt, start with what was typed, output without the marks, end with its status and cwd', () => {
  const { events, output } = track([COMMAND]);
  assert.deepEqual(events, [
    { kind: 'prompt' },
    { kind: 'line', empty: false },
    { kind: 'start', nonce: NONCE, echo: 'echo hi' },
    { kind: 'end', nonce: NONCE, ran: true, exitCode: 0, cwd: '/home/u' },
  ]);
  assert.equal(output, 'hi\r\n');
});

test('marks split anywhere across reads, ended by BEL or by ST, are found once and never reach the output', () => {
  const withSt = COMMAND.replace(/\x07/g, '\x1b\\');
  for (const text of [COMMAND, withSt]) {
    const whole = track([text]);
    const bytewise = track([...text]);
    assert.deepEqual(bytewise.events, whole.events);
    assert.equal(bytewise.output, 'hi\r\n');
    for (let cut = 1; cut < text.length; cut++) {
      const split = track([text.slice(0, cut), text.slice(cut)]);
      assert.deepEqual(split.events, whole.events, `cut at ${cut}`);
      assert.equal(split.output, 'hi\r\n', `cut at ${cut}`);
    }
  }
});

test('a D without the nonce, or with a wrong one, is output like any other: only the real end ends the command', () => {
  const forged = `${mark('D;0')}${mark('D;0;patterm=deadbeef')}after\r\n`;
  const { events, output } = track([`${mark(`C;patterm=${NONCE}`)}${forged}`, mark(`D;4;patterm=${NONCE}`)]);
  assert.deepEqual(events.map((event) => event.kind), ['start', 'end']);
  assert.equal((events[1] as { exitCode: number }).exitCode, 4);
  assert.equal(output, forged);
});

test("bash's C before each command of one line starts the command once; E names it at its end", () => {
  const { events } = track([`${mark(`C;patterm=${NONCE}`)}a\r\n${mark(`C;patterm=${NONCE}`)}b\r\n${mark(`E;patterm=${NONCE};raw=\t echo a\n\t echo b\n`)}${mark(`D;0;patterm=${NONCE}`)}`]);
  assert.deepEqual(events, [
    { kind: 'start', nonce: NONCE, echo: '' },
    { kind: 'end', nonce: NONCE, ran: true, exitCode: 0, command: 'echo a\necho b' },
  ]);
});

test('a D with no C: the prompt came back and nothing ran, with what the shell printed', () => {
  const { events } = track([`${mark(`B;patterm=${NONCE}`)})\r\nbash: syntax error\r\n${mark(`D;2;patterm=${NONCE}`)}`]);
  assert.deepEqual(events.at(-1), { kind: 'end', nonce: NONCE, ran: false, exitCode: 2, echo: ')\nbash: syntax error' });
});

test("zsh's I marks say whether the line is empty, and the echo is not looked at once they come", () => {
  const { events } = track([`${mark(`B;patterm=${NONCE}`)}${mark(`I;patterm=${NONCE};empty=0`)}e`, `\b \b${mark(`I;patterm=${NONCE};empty=1`)}`, 'RIGHT-PROMPT-REDRAW']);
  assert.deepEqual(events, [{ kind: 'prompt' }, { kind: 'line', empty: false }, { kind: 'line', empty: true }]);
});

test('a fallback command counts only with the nonce it was given, and runs inside the shell\'s own command', () => {
  const inner = 'f4llb4ck';
  const reads = [`${mark(`C;patterm=${NONCE}`)}nested$ `, `${mark(`C;patterm=${inner}`)}inner\r\n${mark(`D;5;patterm=${inner};raw=/a;b`)}`, `nested$ ${mark(`D;0;patterm=${NONCE}`)}`];
  const unexpected = track(reads);
  assert.deepEqual(unexpected.events.map((event) => event.kind), ['start', 'end']);
  const { events, output } = track(reads, { expect: [inner] });
  assert.deepEqual(events, [
    { kind: 'start', nonce: NONCE, echo: '' },
    { kind: 'start', nonce: inner, echo: '' },
    { kind: 'end', nonce: inner, ran: true, exitCode: 5, cwd: '/a;b' },
    { kind: 'end', nonce: NONCE, ran: true, exitCode: 0 },
  ]);
  assert.equal(output, 'nested$ inner\r\nnested$ ');
});

test('a shell without integration: only expected nonces count, and a later D ends what runs inside it', () => {
  const inner = 'abc';
  const { events } = track([`${mark(`B;patterm=${NONCE}`)}${mark(`C;patterm=${inner}`)}x`], { nonce: null, expect: [inner] });
  assert.deepEqual(events, [{ kind: 'start', nonce: inner, echo: '' }]);
});

test('a long foreign sequence open at the end of a read is not held back for ever', () => {
  const long = `\x1b]52;c;${'A'.repeat(10_000)}`;
  const { output } = track([`${mark(`C;patterm=${NONCE}`)}${long}`]);
  assert.equal(output, long);
});

test("the line editor's bracketed paste, switched on and off at the prompt, is followed in order with the marks; a program's switches are not", () => {
  const { events } = track([
    `\x1b[?2004h${mark(`A;patterm=${NONCE}`)}$ ${mark(`B;patterm=${NONCE}`)}`,
    `x\r\n\x1b[?20`,
    `04l${mark(`C;patterm=${NONCE}`)}\x1b[?2004h vim toggles it \x1b[?2004l`,
    mark(`D;0;patterm=${NONCE}`),
  ]);
  assert.deepEqual(events.filter((event) => event.kind === 'paste' || event.kind === 'prompt' || event.kind === 'start'), [
    { kind: 'paste', on: true },
    { kind: 'prompt' },
    { kind: 'paste', on: false },
    { kind: 'start', nonce: NONCE, echo: 'x' },
  ]);
});
