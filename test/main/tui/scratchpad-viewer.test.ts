/**
 * "Open scratchpad…" opens the whole scratchpad in the main area, in a real
 * terminal (tmux): wrapped to the pane's width, scrolled by the usual keys and
 * the wheel, following an agent's rewrite without losing the reader's place,
 * switched by a click in the rail, read-only, and closed by Esc back to the pane.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScratchpadStore } from '../../../src/main/scratchpads/index.js';
import { withBashSession } from './tmux-harness.js';

const LONG = 'w'.repeat(150);
/** A heading, a line longer than the main area (89 columns at 120×40), and 120 numbered lines: 123 rows once wrapped. */
function notes(edit = (line: string) => line): string {
  const numbered = Array.from({ length: 120 }, (_, i) => edit(`line ${String(i + 1).padStart(3, '0')}`));
  return ['# Notes', LONG, ...numbered].join('\n') + '\n';
}

test('Open scratchpad… shows the whole file in the main area: it scrolls, follows rewrites, ignores typing, and Esc returns to the pane', () =>
  withBashSession(async (patterm) => {
    // Written the way an agent's scratchpad_write is: through the project's store, atomically.
    const store = await ScratchpadStore.open({ projectDir: patterm.dirs.project, dataHome: patterm.dirs.data });
    await store.write('notes.md', notes());
    await patterm.waitFor((l) => l.some((line) => line.trimEnd().endsWith('│ notes.md')), 'notes.md in the rail');

    await patterm.runPalette('open scratch', 'Open scratchpad…');
    await patterm.waitFor(/Open scratchpad…/, 'the scratchpad list');
    patterm.type('notes');
    patterm.keys('Enter');
    const header = (text: string) => (l: string[]) => new RegExp(`^ notes\\.md  ${text}`).test(patterm.mainArea(l)[0]);
    let lines = await patterm.waitFor(header('lines 1–37 of 123'), 'the reader at the top');
    let main = patterm.mainArea(lines);
    assert.match(main[0], /Esc closes\s*$/, 'the header says how to close it');
    assert.deepEqual(main.slice(1, 5), ['# Notes', LONG.slice(0, 89), LONG.slice(89), 'line 001'], 'the long line wraps at the main area\'s width');
    assert.equal(main[37], 'line 034');

    patterm.keys('Down');
    await patterm.waitFor(header('lines 2–38 of 123'), 'one line down');
    patterm.keys('PageDown');
    lines = await patterm.waitFor(header('lines 38–74 of 123'), 'a page down, keeping one line of the last');
    assert.equal(patterm.mainArea(lines)[1], 'line 035');
    patterm.keys('End');
    lines = await patterm.waitFor(header('lines 87–123 of 123'), 'the end');
    assert.equal(patterm.mainArea(lines)[37], 'line 120');
    patterm.keys('PageUp');
    await patterm.waitFor(header('lines 51–87 of 123'), 'a page up');
    patterm.tmux('send-keys', '-H', ...[...Buffer.from('\x1b[<65;10;10M')].map((b) => b.toString(16))); // wheel down
    await patterm.waitFor(header('lines 54–90 of 123'), 'the wheel scrolls three lines');
    patterm.keys('Home');
    await patterm.waitFor(header('lines 1–37 of 123'), 'back to the top');

    // An agent rewrites the file: the reader shows the new text at the same place.
    patterm.keys('Down', 'Down', 'Down');
    await patterm.waitFor(header('lines 4–40 of 123'), 'three lines down');
    await store.write('notes.md', notes((line) => (line === 'line 010' ? 'line 010 EDITED' : line)));
    lines = await patterm.waitFor((l) => patterm.mainArea(l).includes('line 010 EDITED'), 'the rewrite on screen');
    assert.match(patterm.mainArea(lines)[0], /lines 4–40 of 123/, 'the reader kept its place');

    // A click on another scratchpad in the rail switches what the reader shows.
    await store.write('other.md', 'other content\n');
    lines = await patterm.waitFor((l) => l.some((line) => line.trimEnd().endsWith('│ other.md')), 'other.md in the rail');
    const row = lines.findIndex((line) => line.trimEnd().endsWith('│ other.md'));
    patterm.click(lines[row].lastIndexOf('other.md'), row);
    lines = await patterm.waitFor((l) => /^ other\.md  lines 1–1 of 1/.test(patterm.mainArea(l)[0]), 'the reader on other.md');
    assert.equal(patterm.mainArea(lines)[1], 'other content');

    patterm.type('typed-while-reading');
    patterm.keys('Escape');
    lines = await patterm.waitFor((l) => patterm.mainArea(l)[0] === '$', 'Esc back to the pane');
    assert.ok(!lines.join('\n').includes('typed-while-reading'), 'the reader is read-only: nothing reached the pane');
    patterm.type('echo pane-again');
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l).includes('pane-again'), 'keys go to the pane again');
  }));
