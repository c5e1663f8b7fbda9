/**
 * When a dialog's text read twice is the same dialog: redraws (spinners,
 * timers, countdowns, a moving selection marker, a re-wrap) and text typed
 * into its field are; other words are another dialog.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dialogIdentity, sameDialog } from '../../src/shared/dialog-identity.js';

/** opencode 1.18.33's two dialogs for `touch x && cat /etc/hostname`, as the bottom rows of its screen read. */
const OPENCODE_DIRECTORY = [
  '  ┃  △ Permission required',
  '  ┃    ← Access external directory /etc',
  '  ┃',
  '  ┃  Patterns',
  '  ┃',
  '  ┃  - /etc/*',
  '  ┃',
  '  ┃   Allow once   Allow always   Reject                                 ctrl+f fullscreen  ⇆ select  enter confirm',
].join('\n');
const OPENCODE_COMMAND = [
  '  ┃  △ Permission required',
  '  ┃    # Shell command',
  '  ┃',
  '  ┃  $ touch x && cat /etc/hostname',
  '  ┃',
  '  ┃   Allow once   Allow always   Reject                                 ctrl+f fullscreen  ⇆ select  enter confirm',
].join('\n');

const claudeDialog = (selected: number, timer: string) =>
  [' Bash command', '   npm test', '', ' Do you want to proceed?', ...['Yes', "Yes, and don't ask again", 'No'].map((option, i) => `${i === selected ? ' ❯' : '  '} ${i + 1}. ${option}`), '', timer].join('\n');

test('spinner glyphs, counting digits and time units do not change a dialog', () => {
  const frames = ['⠋ asked 9s ago · 10m 0s left', '⠙ asked 10s ago · 9m 59s left', '⠹ asked 59s ago · 9m 1s left', '⠸ asked 1m 0s ago · 59s left', '✻ asked 1h 2m 3s ago · 0s left', '◐ asked 2.5s ago · 00:59 left', '| asked 3s ago · 12% left', '/ asked 3s ago · 3 s left'];
  const identities = new Set(frames.map((frame) => dialogIdentity(`Allow rm -rf build?\n${frame}`)));
  assert.deepEqual([...identities], ['Allow rm -rf build? asked # ago # left']);
  for (const frame of frames) assert.ok(sameDialog(`Allow rm -rf build?\n${frames[0]}`, `Allow rm -rf build?\n${frame}`), frame);
});

test('the selection marker moving, a check box ticked, borders and a re-wrap do not change a dialog', () => {
  assert.ok(sameDialog(claudeDialog(0, ''), claudeDialog(2, '')));
  assert.ok(sameDialog('Pick:\n> [ ] lint\n  [x] test', 'Pick:\n  [x] lint\n> [ ] test'));
  assert.ok(sameDialog('┃ Run the command\n┃ npm test?', '│ Run the command npm test?'));
  assert.ok(sameDialog('Allow access to a directory\noutside the project?', 'Allow access to a directory outside\nthe project?'));
});

test('text typed into, or erased from, the dialog is the same dialog', () => {
  const question = (answer: string) => ` Question: which colour?\n> ${answer}\n  enter to answer`;
  assert.ok(sameDialog(question(''), question('b')));
  assert.ok(sameDialog(question('b'), question('blue and green')));
  assert.ok(sameDialog(question('blue and green'), question('blue')));
});

test('other words are another dialog: opencode asks for the directory, then for the command', () => {
  assert.equal(sameDialog(OPENCODE_DIRECTORY, OPENCODE_COMMAND), false);
  assert.equal(sameDialog(claudeDialog(0, ''), claudeDialog(0, '').replace('npm test', 'npm run build')), false);
  assert.equal(sameDialog('Allow cat /etc/host?', 'Allow cat /etc/hostname?'), true, 'words inserted in one place read as typing: a known limit');
  assert.equal(sameDialog('Allow cat /etc/passwd?', 'Allow cat /etc/hostname?'), false);
  assert.equal(sameDialog('⠋', 'Allow?'), false, 'a dialog of decoration only is not a prefix of every other');
  assert.equal(dialogIdentity(OPENCODE_DIRECTORY), 'Permission required Access external directory /etc Patterns /etc/* Allow once Allow always Reject ctrl+f fullscreen select enter confirm');
});
