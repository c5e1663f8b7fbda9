/**
 * The history reader, in a real terminal (tmux): the wheel over a shell
 * scrolls back through its output, keys move and leave the reader, typing
 * goes back to the live screen and to the program; on the alternate screen
 * (less) the wheel scrolls the program instead. Output arriving while the
 * scrollback is full does not move the lines being read.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeLayout } from '../../../src/renderer/layout.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeCells, eventually, styledLines, TmuxPatterm, withBashSession } from './tmux-harness.js';

const { main } = computeLayout(120, 40);
const marker = (lines: string[]) => /↑ (\d+) lines? back/.exec(lines[main.y] ?? '')?.[1];
/** Types `command` into the shell and waits until the main area shows the line `last`. */
async function run(patterm: TmuxPatterm, command: string, last: string): Promise<string[]> {
  patterm.type(command);
  patterm.keys('Enter');
  return patterm.waitFor((lines) => patterm.mainArea(lines).includes(last), `${last} on screen`);
}

/** The numbers `seq` printed that the main area shows, top to bottom. */
const numbersShown = (patterm: TmuxPatterm, lines: string[]) => patterm.mainArea(lines).map((line) => /^(\d+)\b/.exec(line)?.[1]).filter((n) => n !== undefined).map(Number);

test('the wheel over a shell scrolls back through its output; PgUp and Home go further, Esc and typing return to the live screen', () =>
  withBashSession(async (patterm) => {
    const live = await run(patterm, 'seq 1 400', '400');
    const lastLive = 400;
    const liveRow = patterm.mainArea(live).indexOf('390');

    // A sideways swipe scrolls nothing: only the two notches up count.
    patterm.wheel(main.x + 10, main.y + 5, 'left');
    patterm.wheel(main.x + 10, main.y + 5, 'right');
    patterm.wheel(main.x + 10, main.y + 5, 'left');
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    const back = await patterm.waitFor((lines) => marker(lines) === '6', 'six lines back after two notches');
    await sleep(300);
    assert.equal(marker(patterm.screen()), '6', 'still six lines back: the swipes did not scroll');
    assert.equal(patterm.mainArea(back).indexOf('390'), liveRow + 6, 'the view moved up by six rows');

    patterm.keys('PPage');
    const paged = await patterm.waitFor((lines) => Number(marker(lines)) > 30, 'a page further back');
    assert.ok(Math.max(...numbersShown(patterm, paged)) < lastLive - 30);

    patterm.keys('Home');
    const start = await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.startsWith('$ seq 1 400')), 'the start of the history');
    assert.deepEqual(numbersShown(patterm, start).slice(0, 3), [1, 2, 3]);

    patterm.keys('Escape');
    await patterm.waitFor((lines) => marker(lines) === undefined && patterm.mainArea(lines).includes('400'), 'the live screen after Esc');

    // Typing while scrolled back goes back to the live screen, and the key is the program's.
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    await patterm.waitFor((lines) => marker(lines) === '3', 'three lines back');
    patterm.type('echo typed-$((6*7))');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => marker(lines) === undefined && patterm.mainArea(lines).includes('typed-42'), 'live again, and the typed command ran');

    // Wheeling back down to the bottom is live again too.
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    await patterm.waitFor((lines) => marker(lines) === '3', 'three lines back');
    patterm.wheel(main.x + 10, main.y + 5, 'down');
    await patterm.waitFor((lines) => marker(lines) === undefined, 'live after wheeling down to the bottom');
  }));

test('a host resize keeps the reader open, as far back as it was, at the new size', () =>
  withBashSession(async (patterm) => {
    await run(patterm, 'seq 1 300', '300');
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    const before = await patterm.waitFor((lines) => marker(lines) === '6', 'six lines back');
    const lastBefore = Math.max(...numbersShown(patterm, before));
    patterm.resize(100, 30);
    const small = computeLayout(100, 30).main;
    const resized = await patterm.waitFor((lines) => lines.length === 30 && /↑ 6 lines back/.test(lines[small.y] ?? ''), 'the reader, six lines back, in the smaller window');
    const shown = numbersShown(patterm, resized);
    assert.ok(shown.length >= small.rows - 3, `the reader fills the smaller main area: ${shown.join(' ')}`);
    assert.equal(Math.max(...shown), lastBefore, 'the same rows end the view as before the resize');
    patterm.keys('Escape');
    await patterm.waitFor((lines) => !/lines? back/.test(lines[small.y] ?? '') && patterm.mainArea(lines).includes('300'), 'the live screen after Esc');
  }));

test('on the alternate screen the wheel scrolls the program (less), as arrow keys', () =>
  withBashSession(async (patterm) => {
    patterm.type('seq 1 300 | less');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '1', 'less at the top');
    patterm.wheel(main.x + 10, main.y + 5, 'down');
    patterm.wheel(main.x + 10, main.y + 5, 'down');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '7', 'less scrolled down six lines');
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    const up = await patterm.waitFor((lines) => patterm.mainArea(lines)[0] === '4', 'less scrolled back up three');
    assert.equal(marker(up), undefined, 'no history reader on the alternate screen');
    patterm.type('q');
  }));

test('/ finds text in the history, n and N the next match back and forward, and a miss says so', () =>
  withBashSession(async (patterm) => {
    // The word is put together at run time, so the command line itself (in the history too) does not match.
    await run(patterm, 'w=nee; for i in $(seq 1 300); do case $i in 40|90) echo "ERROR: ${w}dle $i";; *) echo "log $i";; esac; done', 'log 300');
    patterm.wheel(main.x + 10, main.y + 5, 'up');
    await patterm.waitFor((lines) => marker(lines) === '3', 'the history reader');
    patterm.type('/');
    await patterm.waitFor((lines) => /search back: ▏/.test(lines[main.y]), 'the search prompt');
    patterm.type('NEEDLE');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[1].startsWith('ERROR: needle 90'), 'the nearest match above, on the second row, below the marker (case ignored)');
    const matchRow = styledLines(patterm.styledScreen())[main.y + 1].slice(main.x);
    const highlighted = matchRow.filter((cell) => cell.style === matchRow[7].style).map((cell) => cell.text).join('');
    assert.equal(highlighted, 'needle', `only the match is highlighted: ${describeCells(matchRow.slice(0, 20))}`);
    assert.match(matchRow[7].style, /\/c43\//, 'on the yellow of a search match');
    patterm.type('n');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[1].startsWith('ERROR: needle 40'), 'the next match further back');
    patterm.type('N');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[1].startsWith('ERROR: needle 90'), 'N: the next match forward');
    patterm.type('n');
    await patterm.waitFor((lines) => patterm.mainArea(lines)[1].startsWith('ERROR: needle 40'), 'n again');
    patterm.type('n');
    await patterm.waitFor((lines) => lines.at(-1)!.includes('"NEEDLE" not found in this direction'), 'a miss, said in the status line');
    assert.ok(patterm.mainArea()[1].startsWith('ERROR: needle 40'), 'a miss leaves the view where it was');
  }));

test('while output fills the scrollback and drops its oldest rows, the reader stays on its lines; once they are dropped it shows the oldest kept and says so', () =>
  withBashSession(async (patterm) => {
    // The shell prints a burst of numbers each time the test leaves a count in `go`, with no key typed:
    // typing would close the reader. 120 columns keep ~2650 scrollback rows and drop 393 at a time.
    const dir = mkdtempSync(join(tmpdir(), 'patterm-pruning-'));
    try {
      const burst = (count: number) => writeFileSync(join(dir, 'go'), String(count));
      const printed = () => (existsSync(join(dir, 'printed')) ? Number(readFileSync(join(dir, 'printed'), 'utf8')) : 0);
      await run(patterm, `cd ${dir}; clear; n=0; while :; do if [ -e go ]; then k=$(cat go); rm go; seq $((n+1)) $((n+k)); n=$((n+k)); echo $n > printed; fi; sleep 0.02; done`, '');
      burst(6000);
      await patterm.waitFor((lines) => patterm.mainArea(lines).includes('6000'), 'the first burst');

      patterm.wheel(main.x + 10, main.y + 5, 'up');
      await patterm.waitFor((lines) => marker(lines) === '3', 'the history reader');
      patterm.keys('PPage');
      patterm.keys('PPage');
      const before = numbersShown(patterm, await patterm.waitFor((lines) => Number(marker(lines)) > 60, 'two pages back'));
      const back = Number(marker(patterm.screen()));

      // A thousand more lines: two or three pages dropped under the reader. Each wheel notch up and down
      // asks for the rows again; once the answer holds all of the burst, it shows as a thousand more lines back.
      burst(1000);
      await eventually(() => printed() === 7000, 'the second burst printed');
      const after = await eventually(() => {
        patterm.wheel(main.x + 10, main.y + 5, 'up');
        patterm.wheel(main.x + 10, main.y + 5, 'down');
        const lines = patterm.screen();
        return Number(marker(lines)) === back + 1000 ? lines : null;
      }, 'the reader a thousand lines further back');
      assert.deepEqual(numbersShown(patterm, after!), before, 'the same lines as before the drop');
      assert.doesNotMatch(after!.at(-1)!, /dropped/);

      // Six thousand more: the whole scrollback turns over, the lines read with it.
      burst(6000);
      await eventually(() => printed() === 13000, 'the third burst printed');
      // One notch down at a time, until an answer comes from after the whole burst was parsed.
      const notice = /Lines you were reading left the full scrollback: showing the oldest kept/;
      let moved: string[] | null = null;
      for (let notch = 0; notch < 20 && !moved; notch++) {
        patterm.wheel(main.x + 10, main.y + 5, 'down');
        moved = await patterm.waitFor((lines) => notice.test(lines.at(-1)!), 'the notice in the status line', 1000).catch(() => null);
      }
      assert.ok(moved, 'the status line said the lines were dropped');
      const oldest = numbersShown(patterm, moved)[0];
      assert.ok(oldest > 7000, `lines from the last burst, none of those read before: ${numbersShown(patterm, moved).join(' ')}`);
      patterm.keys('Home');
      await sleep(300);
      assert.equal(numbersShown(patterm, patterm.screen())[0], oldest, 'the view was at the oldest line kept');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }));
