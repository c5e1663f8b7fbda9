/** import() of a package outside the bundles: a plain import(), or the loader a bundle installed, shared by every copy of the module. */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { importExternal, installExternalImporter } from '../../src/node/external-import.js';

const IMPORTER = Symbol.for('patterm.externalImporter');
after(() => delete (globalThis as Record<symbol, unknown>)[IMPORTER]);

test('without an installed loader, a package is imported as usual', async () => {
  const valibot = await importExternal<typeof import('valibot')>('valibot');
  assert.equal(typeof valibot.parse, 'function');
});

test('an installed loader takes every import, from any copy of this module (the slot is global)', async () => {
  const asked: string[] = [];
  installExternalImporter(async (specifier) => {
    asked.push(specifier);
    return { stand: 'in' };
  });
  assert.deepEqual(await importExternal('some-package'), { stand: 'in' });
  assert.deepEqual(asked, ['some-package']);
  assert.equal(typeof (globalThis as Record<symbol, unknown>)[IMPORTER], 'function');
});
