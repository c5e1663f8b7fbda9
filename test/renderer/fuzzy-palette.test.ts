/** Fuzzy matching ranks sensibly, and the palette's views, filtering, selection and disabled entries behave. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuzzyFilter, fuzzyMatch } from '../../src/renderer/fuzzy-match.js';
import { Palette, type PaletteItem } from '../../src/renderer/palette.js';

const labels = ['Switch to session…', 'Spawn agent: swe-bot', 'Run process: bash', 'Run process in codex-1: bash', 'Kill child…', 'Quit'];

test('fuzzy: subsequences match, word starts and runs rank first, order breaks ties', () => {
  assert.equal(fuzzyMatch('xyz', 'Quit'), null);
  assert.deepEqual(fuzzyMatch('rpb', 'Run process: bash')?.positions, [0, 4, 13]);
  assert.equal(fuzzyFilter('sw', labels, (l) => l)[0].item, 'Switch to session…');
  assert.equal(fuzzyFilter('bash', labels, (l) => l)[0].item, 'Run process: bash');
  assert.equal(fuzzyFilter('', labels, (l) => l).length, labels.length, 'an empty query lists everything, in order');
  // Preferring word starts must not lose a match that needs a plain occurrence.
  assert.ok(fuzzyMatch('bb', 'ab-b'));
});

test('palette: typing filters, arrows move, Enter runs; disabled entries explain themselves; sub-palettes stack', () => {
  const ran: string[] = [];
  const item = (id: string, extra: Partial<PaletteItem> = {}): PaletteItem => ({ id, label: id, run: () => void ran.push(id), ...extra });
  let sub = false;
  const palette: Palette = new Palette({
    title: 'Command palette',
    kind: 'list',
    items: (): PaletteItem[] => [
      item('Run process: bash'),
      item('Spawn agent: broken', { disabledReason: 'argv: required field is missing' }),
      item('Open sub…', {
        run: (): 'keep-open' => {
          palette.push({ title: 'Prompt', kind: 'text', submit: (text: string) => void ran.push(`prompt:${text}`) });
          sub = true;
          return 'keep-open';
        },
      }),
    ],
  });
  palette.insert('broken');
  assert.deepEqual(palette.visible().map((v) => v.item.id), ['Spawn agent: broken']);
  assert.deepEqual(palette.accept(), { outcome: 'disabled', reason: 'argv: required field is missing' });
  for (let i = 0; i < 6; i++) palette.backspace();
  palette.move(-1);
  assert.equal(palette.visible()[palette.selected].item.id, 'Open sub…', 'moving up from the top wraps to the end');
  assert.deepEqual(palette.accept(), { outcome: 'stay' });
  assert.ok(sub);
  assert.equal(palette.depth, 2);
  palette.insert('first line\r\nsecond');
  assert.equal(palette.query, 'first line\nsecond', 'a prompt keeps its newlines');
  assert.deepEqual(palette.accept(), { outcome: 'close' });
  assert.deepEqual(ran, ['prompt:first line\nsecond']);
  assert.ok(palette.pop());
  assert.ok(!palette.pop(), 'the first view cannot be popped');
});
