/**
 * Text widths for the chrome: the same answers with and without terminal-kit's
 * width tables, which load only when some text needs them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { graphemes, textWidth, truncate } from '../../src/renderer/text-width.js';

const requireHere = createRequire(import.meta.url);
const { stringWidth } = requireHere('terminal-kit/lib/misc.js') as { stringWidth(text: string): number };
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** What every answer must equal: Unicode's graphemes, terminal-kit's widths, controls drawn as a space. */
function reference(text: string): Array<{ text: string; width: number }> {
  return [...segmenter.segment(text)].map(({ segment }) => {
    const code = segment.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) return { text: ' ', width: 1 };
    return { text: segment, width: Math.min(2, stringWidth(segment)) };
  });
}

test('every BMP character, between two letters, splits and measures as terminal-kit and Intl.Segmenter say', () => {
  const wrong: string[] = [];
  for (let code = 0; code <= 0xffff; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue; // a lone surrogate half is not text
    const text = `a${String.fromCharCode(code)}b`;
    if (JSON.stringify(graphemes(text)) !== JSON.stringify(reference(text))) wrong.push(`U+${code.toString(16).padStart(4, '0')}`);
  }
  assert.deepEqual(wrong, []);
});

test('wide characters, emoji and combining marks get their widths, beside text the fast path measures', () => {
  for (const text of ['Press Ctrl-K │ ─ › …', '你好 build', 'fix 🐛 now', '👍🏽 ok', 'e\u0301t\u00e9', '👨‍👩‍👧 family', 'tab\tname', '한국어 ─┤']) {
    assert.deepEqual(graphemes(text), reference(text), text);
  }
  assert.equal(textWidth('你好 build'), 10);
  assert.equal(textWidth('👨‍👩‍👧│'), 3);
  assert.equal(truncate('日本語のタブ', 7), '日本語…');
});

/** Imports text-width in a fresh process, measures `texts` and prints whether string-kit (terminal-kit's width tables) was loaded. */
function tablesLoadedAfter(texts: string[]): boolean {
  const module = new URL('../../src/renderer/text-width.js', import.meta.url).href;
  const script = `
    import { createRequire } from 'node:module';
    const { textWidth } = await import(${JSON.stringify(module)});
    for (const text of ${JSON.stringify(texts)}) textWidth(text);
    const cache = createRequire(import.meta.url).cache;
    process.stdout.write(String(Object.keys(cache).some((file) => file.includes('string-kit'))));
  `;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }) === 'true';
}

test('the chrome\'s ASCII, punctuation and box drawing are measured without loading the width tables', () => {
  assert.equal(tablesLoadedAfter(['Press Ctrl-K to spawn an agent or process', '│ ─ ┌┐└┘ ├ › ‹ … — · § ▶ ◉ ↑↓→']), false);
});

test('the width tables load for the first text that needs them', () => {
  assert.equal(tablesLoadedAfter(['plain', '你好']), true);
});
