/** The one place that knows where the installed package's root is, from any thread's compiled code. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/node/package-root.js';

test('the package root is the folder with patterm\'s package.json, presets and bin', () => {
  assert.equal(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).name, 'patterm');
  assert.ok(existsSync(join(PACKAGE_ROOT, 'presets')));
  assert.ok(existsSync(join(PACKAGE_ROOT, 'bin', 'patterm')));
});
