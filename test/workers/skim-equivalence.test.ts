/**
 * A skimmed flood ends exactly as a parsed one: the same screen cell for cell
 * (text, colours, attributes), the same cursor and pen, and the same
 * scrollback rows, checked on real ghostty-web emulators, one fed every
 * byte and one fed the skim plan (skim-plan.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { GhosttyEmulator } from '../../src/workers/ghostty-emulator.js';
import { linesThatFillScrollback, planSkim } from '../../src/shared/skim-plan.js';

const encode = (text: string) => new TextEncoder().encode(text);
const SCROLLBACK_BYTES = 1 << 20;

/** Deterministic flood: styled words, CJK and emoji, tabs, backspaces, lines that wrap, blank lines. */
function flood(lines: number, seed: number): string {
  let state = seed;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const pieces = ['build', 'ok', '界面', '🙂', 'e\u0301', 'warn:', 'x'.repeat(150), '\t', 'ab\bc'];
  const styles = ['\x1b[0;31m', '\x1b[1m', '\x1b[38;5;208m', '\x1b[48;2;10;20;30m', '\x1b[4:3m', '\x1b[0m', '\x1b[7;3m', '\x1b[m'];
  let text = '';
  for (let line = 0; line < lines; line++) {
    const words = next(9);
    for (let word = 0; word < words; word++) {
      if (next(3) === 0) text += styles[next(styles.length)];
      text += pieces[next(pieces.length)] + ' ';
    }
    text += '\r\n';
  }
  return text;
}

interface Run {
  cols: number;
  rows: number;
  /** Parsed before the flood, in both emulators: a screen the skim must fully replace. */
  prefix: string;
  backlog: string;
  keepLines?: number;
}

async function compare(run: Run) {
  const module = await loadGhosttyModule();
  const options = { cols: run.cols, rows: run.rows, scrollbackBytes: SCROLLBACK_BYTES };
  const parsed = new GhosttyEmulator(module, options);
  const skimmed = new GhosttyEmulator(module, options);
  const backlog = encode(run.backlog);
  parsed.write(encode(run.prefix));
  skimmed.write(encode(run.prefix));
  parsed.write(backlog);
  const keepLines = run.keepLines ?? linesThatFillScrollback(run.cols, run.rows, SCROLLBACK_BYTES);
  const plan = planSkim(backlog, keepLines, 1);
  assert.ok(plan, 'the flood is skimmed');
  skimmed.write(plan.digest);
  skimmed.write(backlog.subarray(plan.cut));
  // The pen: a character printed next takes the same style in both.
  parsed.write(encode('P'));
  skimmed.write(encode('P'));
  const result = { parsed, skimmed, plan, backlog };
  return result;
}

function assertSameEnd(parsed: GhosttyEmulator, skimmed: GhosttyEmulator): void {
  assert.deepEqual(skimmed.plainLines(), parsed.plainLines(), 'screen text');
  assert.deepEqual(skimmed.cursor(), parsed.cursor(), 'cursor');
  const screenCells = (emulator: GhosttyEmulator) => Array.from(emulator.cellFrame(0).cells);
  assert.deepEqual(screenCells(skimmed), screenCells(parsed), 'screen cells: text, colours, attributes');
  // ghostty drops scrollback by whole pages, so the two may hold a few hundred rows more or less; those both hold are the same.
  const total = (emulator: GhosttyEmulator) => emulator.history(0, 1).total;
  const common = Math.min(total(parsed), total(skimmed));
  assert.ok(common > 300, `both keep a deep history (${total(parsed)} and ${total(skimmed)} rows)`);
  const last = (emulator: GhosttyEmulator) => emulator.history(-common, common).frame;
  assert.deepEqual(Array.from(last(skimmed).cells), Array.from(last(parsed).cells), 'scrollback cells');
  assert.deepEqual(last(skimmed).graphemes, last(parsed).graphemes, 'scrollback graphemes');
}

test('a skimmed flood leaves the screen, cursor, pen and scrollback of a parsed one', async () => {
  for (const [cols, rows] of [[80, 24], [120, 40], [33, 7]]) {
    const prefix = '\x1b[2J\x1b[5;3H\x1b[1;35;48;5;17mold screen text that must be gone\x1b[12;1Hmore old text';
    const { parsed, skimmed, plan, backlog } = await compare({ cols, rows, prefix, backlog: flood(30_000, cols) });
    assert.ok(plan.cut > backlog.length / 2, `most of the flood is skimmed (${plan.cut} of ${backlog.length} bytes at ${cols}x${rows})`);
    assertSameEnd(parsed, skimmed);
  }
});

test('the pen at the cut comes from the skimmed SGR sequences, even with no reset among them', async () => {
  // Attributes pile up without a reset: the digest must carry all of them.
  const styled = '\x1b[0m' + Array.from({ length: 20_000 }, (_, i) => `${i % 7 === 0 ? '\x1b[3m' : ''}${i % 11 === 0 ? '\x1b[38;2;1;2;3m' : ''}line ${i}\r\n`).join('');
  const { parsed, skimmed, plan } = await compare({ cols: 80, rows: 24, prefix: '', backlog: `${styled}\x1b[4mx\r\n` + 'tail\r\n'.repeat(7000) });
  assert.ok(plan.digest.length > 20, 'the digest holds the attributes set since the reset');
  assertSameEnd(parsed, skimmed);
});

test('too few kept lines would leave rows of the old screen: the comparison sees it', async () => {
  // The control for the tests above: with only a screenful kept, the two ends differ.
  const { parsed, skimmed } = await compare({ cols: 80, rows: 24, prefix: '\x1b[2J\x1b[Hold text', backlog: flood(3000, 1), keepLines: 30 });
  assert.throws(() => assertSameEnd(parsed, skimmed));
});
