/**
 * With more scratchpads than the rail lists, the one being previewed or read
 * is still among the names shown, in a real terminal (tmux).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScratchpadStore } from '../../../src/main/scratchpads/index.js';
import { withBashSession } from './tmux-harness.js';

const railNames = (lines: string[]) => lines.map((line) => line.split('│')[1]?.trim() ?? '').filter((text) => /^(pad-\d+\.md|… \d+ (above|more))$/.test(text));

test('the rail scrolls its scratchpad list to the one it previews', () =>
  withBashSession(async (patterm) => {
    const store = await ScratchpadStore.open({ projectDir: patterm.dirs.project, dataHome: patterm.dirs.data });
    for (let i = 0; i < 30; i++) await store.write(`pad-${String(i).padStart(2, '0')}.md`, `pad ${i}\n`);
    // The most recently written is previewed: the last of 30, so the list ends with it.
    let lines = await patterm.waitFor((l) => l.some((line) => line.includes('┌ pad-29.md')), 'pad-29.md previewed');
    assert.deepEqual(railNames(lines), ['… 22 above', 'pad-22.md', 'pad-23.md', 'pad-24.md', 'pad-25.md', 'pad-26.md', 'pad-27.md', 'pad-28.md', 'pad-29.md']);
    // Reading one from the middle brings it into the list, where a click can reach it.
    await patterm.runPalette('open scratch', 'Open scratchpad…');
    patterm.type('pad-15');
    patterm.keys('Enter');
    lines = await patterm.waitFor((l) => l.some((line) => line.includes('┌ pad-15.md')), 'pad-15.md previewed');
    assert.deepEqual(railNames(lines), ['… 9 above', 'pad-09.md', 'pad-10.md', 'pad-11.md', 'pad-12.md', 'pad-13.md', 'pad-14.md', 'pad-15.md', '… 14 more']);
  }));
