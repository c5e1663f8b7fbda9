import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '../../../helpers/coordinator-fixture.js';
import { startHarness, textOf } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const log = join(harness.root, 'patterm.log');
process.env.PATTERM_LOG = log;
const logged = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');

test('a socket file deleted while patterm runs is noticed and listened on again, and agents connect through it', async () => {
  const { token } = await harness.orchestrator();
  const before = await harness.connect(token);
  const path = harness.mcp.socketPath;

  unlinkSync(path); // what a /tmp cleaner does
  const relistened = new RegExp(`MCP socket ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} was deleted while patterm ran; listening there again`);
  // Logged once the new socket is bound and made private: the file exists a moment before its mode is set.
  await eventually(() => relistened.test(logged()), { timeoutMs: 10_000, message: 'patterm to listen at the socket path again' });
  assert.ok(statSync(path).isSocket());
  assert.equal(statSync(path).mode & 0o777, 0o600, 'the new socket is as private as the first');

  const after = await harness.connect(token);
  const listed = await after.call('list_children');
  assert.equal(listed.isError, undefined, textOf(listed));
  assert.equal((await before.call('list_children')).isError, undefined, 'a connection made before the deletion carries on');
});

test('a file put in the socket\'s place is not patterm\'s to remove; once it goes, patterm listens again', async () => {
  const path = harness.mcp.socketPath;
  unlinkSync(path);
  writeFileSync(path, 'someone else\'s');
  await eventually(() => logged().includes(`MCP socket ${path} was replaced by a file patterm did not make; leaving it alone`), { timeoutMs: 10_000, message: 'patterm to notice the stranger' });
  assert.equal(readFileSync(path, 'utf8'), 'someone else\'s');

  unlinkSync(path);
  await eventually(() => existsSync(path) && statSync(path).isSocket(), { timeoutMs: 10_000, message: 'patterm to listen at the socket path again' });
  const { token } = await harness.orchestrator();
  assert.equal((await (await harness.connect(token)).call('list_children')).isError, undefined);
});
