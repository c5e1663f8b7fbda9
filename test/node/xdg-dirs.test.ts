/** patterm's XDG base directories: a set, absolute variable wins; unset, empty or relative ones fall back under HOME. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cacheHome, configHome, dataHome, stateHome } from '../../src/node/xdg-dirs.js';

const DIRS = [
  { get: configHome, variable: 'XDG_CONFIG_HOME', fallback: ['.config'] },
  { get: dataHome, variable: 'XDG_DATA_HOME', fallback: ['.local', 'share'] },
  { get: cacheHome, variable: 'XDG_CACHE_HOME', fallback: ['.cache'] },
  { get: stateHome, variable: 'XDG_STATE_HOME', fallback: ['.local', 'state'] },
];

for (const { get, variable, fallback } of DIRS) {
  test(`${variable}: used when absolute, else HOME/${fallback.join('/')}`, () => {
    assert.equal(get({ [variable]: '/x/y', HOME: '/home/u' }), '/x/y');
    assert.equal(get({ HOME: '/home/u' }), join('/home/u', ...fallback));
    assert.equal(get({ [variable]: '', HOME: '/home/u' }), join('/home/u', ...fallback), 'empty is unset');
    assert.equal(get({ [variable]: 'relative/dir', HOME: '/home/u' }), join('/home/u', ...fallback), 'a relative path is ignored, as the XDG spec requires');
    assert.equal(get({}), join(homedir(), ...fallback), "without HOME, the account's home directory");
    assert.equal(get({ HOME: 'not/absolute' }), join(homedir(), ...fallback));
  });
}

test('each reads the process environment by default', () => {
  const saved = process.env.XDG_STATE_HOME;
  try {
    process.env.XDG_STATE_HOME = '/from/the/environment';
    assert.equal(stateHome(), '/from/the/environment');
  } finally {
    if (saved === undefined) delete process.env.XDG_STATE_HOME;
    else process.env.XDG_STATE_HOME = saved;
  }
});
