import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectDataDir } from '../../../../src/main/project/project-key.js';
import type { ScratchpadChange } from '../../../../src/main/scratchpads/index.js';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const alice = await harness.connect(token);
const { token: otherToken } = await harness.orchestrator();
const bob = await harness.connect(otherToken);
const padDir = join(projectDataDir(harness.projectDir, harness.dataHome), 'scratchpads');

interface Read {
  name: string;
  content: string;
  revision: string;
  size: number;
}

test('write, read, append and list, on disk under XDG data; the store announces each change', async () => {
  const changes: ScratchpadChange[] = [];
  const subscription = harness.mcp.scratchpads.onChanged((change) => changes.push(change));
  const written = structured<{ revision: string; size: number }>(await alice.call('scratchpad_write', { name: 'todos.md', content: '# Todos\n' }));
  assert.equal(written.size, 8);
  await bob.call('scratchpad_append', { name: 'todos.md', content: '- [ ] fix login\n' });
  const read = structured<Read>(await alice.call('scratchpad_read', { name: 'todos.md' }));
  assert.equal(read.content, '# Todos\n- [ ] fix login\n');
  assert.notEqual(read.revision, written.revision);
  assert.equal(readFileSync(join(padDir, 'todos.md'), 'utf8'), read.content);
  assert.ok(existsSync(join(padDir, '..', 'meta.json')));
  const listed = structured<{ scratchpads: { name: string; size: number; modified_at: string }[] }>(await bob.call('scratchpad_list'));
  const entry = listed.scratchpads.find((pad) => pad.name === 'todos.md')!;
  assert.equal(entry.size, Buffer.byteLength(read.content));
  assert.ok(!Number.isNaN(Date.parse(entry.modified_at)));
  assert.deepEqual(changes.map((change) => [change.name, change.kind]), [['todos.md', 'write'], ['todos.md', 'append']]);
  subscription.dispose();
});

test('two writers from the same revision: the second gets a conflict error, not a lost update', async () => {
  await alice.call('scratchpad_write', { name: 'plan.md', content: 'v1' });
  const aliceView = structured<Read>(await alice.call('scratchpad_read', { name: 'plan.md' }));
  const bobView = structured<Read>(await bob.call('scratchpad_read', { name: 'plan.md' }));
  assert.equal(aliceView.revision, bobView.revision);
  const first = await alice.call('scratchpad_write', { name: 'plan.md', content: 'v2 (alice)', expected_revision: aliceView.revision });
  assert.equal(first.isError, undefined, textOf(first));
  const second = await bob.call('scratchpad_write', { name: 'plan.md', content: 'v2 (bob)', expected_revision: bobView.revision });
  assert.equal(second.isError, true);
  assert.match(textOf(second), new RegExp(`scratchpad "plan.md" changed since revision "${bobView.revision}" \\(its revision is now "${structured<{ revision: string }>(first).revision}"\\); read it again, merge, and retry`));
  assert.equal(structured<{ code: string }>(second).code, 'conflict');
  assert.equal(structured<Read>(await bob.call('scratchpad_read', { name: 'plan.md' })).content, 'v2 (alice)');
  // After re-reading, bob's merge goes through.
  const fresh = structured<Read>(await bob.call('scratchpad_read', { name: 'plan.md' }));
  const merged = await bob.call('scratchpad_write', { name: 'plan.md', content: 'v3 (alice+bob)', expected_revision: fresh.revision });
  assert.equal(merged.isError, undefined);
});

test('path traversal and odd names are refused, and nothing is written outside the scratchpad directory', async () => {
  const attempts = ['../../../escape.md', '/tmp/abs.md', 'dir/file.md', '..\\win.md', 'notes', 'notes.md\u0000.sh', '.env.md', 'ok?.md'];
  for (const name of attempts) {
    const result = await alice.call('scratchpad_write', { name, content: 'pwned' });
    assert.equal(result.isError, true, name);
    assert.match(textOf(result), /^invalid scratchpad name: /, name);
    const read = await alice.call('scratchpad_read', { name });
    assert.match(textOf(read), /^invalid scratchpad name: /, name);
  }
  assert.equal(existsSync(join(padDir, '..', '..', '..', 'escape.md')), false);
  assert.equal(existsSync('/tmp/abs.md'), false);
  assert.deepEqual(readdirSync(padDir).filter((name) => !name.endsWith('.md')), []);
});

test('oversized content is refused with the limit', async () => {
  const result = await alice.call('scratchpad_write', { name: 'huge.md', content: 'x'.repeat(1024 * 1024 + 10) });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /content: content is 1048586 characters; a scratchpad holds at most 1048576 bytes/);
  // Multi-byte text can pass the character check and still exceed the byte cap.
  const wide = await alice.call('scratchpad_write', { name: 'wide.md', content: 'é'.repeat(600_000) });
  assert.match(textOf(wide), /would be 1200000 bytes; the limit is 1048576 bytes/);
});

test('reading a scratchpad that does not exist says how to find the ones that do', async () => {
  const result = await alice.call('scratchpad_read', { name: 'missing.md' });
  assert.match(textOf(result), /no scratchpad named "missing.md"; scratchpad_list shows the ones that exist/);
});

test('a scratchpad too big for one reply is refused with its size, and the reader stays connected', async () => {
  // Grown outside patterm (an editor, a `>>` from a shell): the reply would carry it twice, past the 10 MiB an MCP client buffers.
  writeFileSync(join(padDir, 'grown.md'), 'x'.repeat(6 * 1024 * 1024));
  const grown = await bob.call('scratchpad_read', { name: 'grown.md' });
  assert.equal(grown.isError, true);
  assert.match(textOf(grown), /^scratchpad "grown\.md" is 6291456 bytes, more than the limit of 1048576 bytes \(it was made larger outside patterm\), too much to return in one reply/);
  assert.equal(structured<{ code: string }>(grown).code, 'too-large');
  // Under the byte cap, but each control character is six bytes as JSON.
  writeFileSync(join(padDir, 'control.md'), '\x01'.repeat(1024 * 1024));
  const control = await bob.call('scratchpad_read', { name: 'control.md' });
  assert.match(textOf(control), /^scratchpad "control\.md" takes 6291458 bytes as JSON \(control characters are escaped as \\u00XX\), more than the 4194304 bytes/);
  const written = await bob.call('scratchpad_write', { name: 'control2.md', content: '\x01'.repeat(1024 * 1024) });
  assert.match(textOf(written), /^scratchpad "control2\.md" would take 6291458 bytes as JSON .*; the limit is 4194304 bytes$/);
  assert.equal(existsSync(join(padDir, 'control2.md')), false);
  assert.equal((await bob.call('scratchpad_list')).isError, undefined, 'the connection survived');
});

test('an append to a file saved in another encoding is refused rather than rewriting its bytes', async () => {
  // "café" in Latin-1, as an editor set to it saves it; a lossy UTF-8 decode would write é back as U+FFFD.
  const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
  writeFileSync(join(padDir, 'latin1.md'), latin1);
  const result = await alice.call('scratchpad_append', { name: 'latin1.md', content: 'more\n' });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /^scratchpad "latin1\.md" is not UTF-8 text \(it was saved outside patterm in another encoding\); appending would rewrite its other bytes as U\+FFFD, so nothing was written/);
  assert.equal(structured<{ code: string }>(result).code, 'not-text');
  assert.deepEqual(readFileSync(join(padDir, 'latin1.md')), latin1);
  // A byte-order mark is valid UTF-8 and survives an append.
  writeFileSync(join(padDir, 'bom.md'), '\ufeffhello\n');
  assert.equal((await alice.call('scratchpad_append', { name: 'bom.md', content: 'more\n' })).isError, undefined);
  assert.equal(readFileSync(join(padDir, 'bom.md'), 'utf8'), '\ufeffhello\nmore\n');
});

test('a scratchpad that is a symbolic link is not replaced by a copy', async () => {
  const target = join(harness.projectDir, 'NOTES.md');
  writeFileSync(target, 'project notes\n');
  symlinkSync(target, join(padDir, 'linked.md'));
  assert.equal(structured<Read>(await alice.call('scratchpad_read', { name: 'linked.md' })).content, 'project notes\n');
  for (const tool of ['scratchpad_append', 'scratchpad_write']) {
    const result = await alice.call(tool, { name: 'linked.md', content: 'agent line\n' });
    assert.equal(result.isError, true, tool);
    assert.equal(textOf(result), `scratchpad "linked.md" is a symbolic link to ${JSON.stringify(target)}; patterm writes only files inside the scratchpad directory and will not replace the link with a copy, so nothing was written`);
    assert.equal(structured<{ code: string }>(result).code, 'symlink');
  }
  assert.ok(lstatSync(join(padDir, 'linked.md')).isSymbolicLink(), 'the link is still there');
  assert.equal(readFileSync(target, 'utf8'), 'project notes\n');
});
