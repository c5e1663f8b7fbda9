import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ABSENT_REVISION, MAX_SCRATCHPAD_BYTES, ScratchpadError, ScratchpadStore, revisionOf, type ScratchpadChange } from '../../../src/main/scratchpads/index.js';
import { scratchpadNameProblem } from '../../../src/main/scratchpads/scratchpad-name.js';

function tempStore() {
  const root = mkdtempSync(join(tmpdir(), 'patterm-scratch-'));
  const projectDir = join(root, 'project');
  mkdirSync(projectDir);
  return { root, projectDir, dataHome: join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

test('lives under XDG data, keyed by sha256 of the real project path, with meta.json beside it', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  // A symlinked spelling of the project must land in the same place.
  const link = join(dirs.root, 'link');
  symlinkSync(dirs.projectDir, link);
  const store = await ScratchpadStore.open({ projectDir: link, dataHome: dirs.dataHome });
  const key = createHash('sha256').update(realpathSync(dirs.projectDir)).digest('hex').slice(0, 16);
  assert.equal(store.directory, join(dirs.dataHome, 'patterm', 'projects', key, 'scratchpads'));
  const meta = JSON.parse(readFileSync(join(dirs.dataHome, 'patterm', 'projects', key, 'meta.json'), 'utf8'));
  assert.equal(meta.project_path, link);
  assert.match(meta.last_opened, /^\d{4}-\d\d-\d\dT/);
  assert.equal(typeof meta.version, 'string');
});

test('write, read, append and list; revisions follow the content', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  const changes: ScratchpadChange[] = [];
  store.onChanged((change) => changes.push(change));
  const first = await store.write('notes.md', '# Notes\n');
  assert.equal(first.revision, revisionOf('# Notes\n'));
  const appended = await store.append('notes.md', '- one\n', first.revision);
  const read = await store.read('notes.md');
  assert.equal(read.content, '# Notes\n- one\n');
  assert.equal(read.revision, appended.revision);
  assert.notEqual(read.revision, first.revision);
  assert.deepEqual((await store.list()).map((entry) => [entry.name, entry.size]), [['notes.md', 14]]);
  assert.deepEqual(changes.map((change) => [change.name, change.kind]), [['notes.md', 'write'], ['notes.md', 'append']]);
  // Only the final file is left: no temp files from the atomic writes.
  assert.deepEqual(readdirSync(store.directory), ['notes.md']);
});

test('a stale expected_revision is a conflict and changes nothing', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  const base = await store.write('plan.md', 'v1');
  await store.write('plan.md', 'v2 by someone else', base.revision);
  await assert.rejects(store.write('plan.md', 'v2 by me', base.revision), (error: ScratchpadError) => {
    assert.equal(error.code, 'conflict');
    assert.match(error.message, new RegExp(`changed since revision "${base.revision}"`));
    return true;
  });
  await assert.rejects(store.append('plan.md', 'more', base.revision), /changed since revision/);
  assert.equal((await store.read('plan.md')).content, 'v2 by someone else');
  // "none" means: create only if it does not exist yet.
  await assert.rejects(store.write('plan.md', 'x', ABSENT_REVISION), /changed since revision "none"/);
  await store.write('fresh.md', 'new', ABSENT_REVISION);
});

test('concurrent check-and-write calls cannot both win', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  const base = await store.write('race.md', 'start');
  const outcomes = await Promise.allSettled([store.write('race.md', 'A', base.revision), store.write('race.md', 'B', base.revision)]);
  assert.deepEqual(outcomes.map((outcome) => outcome.status).sort(), ['fulfilled', 'rejected']);
  const winner = outcomes.findIndex((outcome) => outcome.status === 'fulfilled');
  assert.equal((await store.read('race.md')).content, winner === 0 ? 'A' : 'B');
});

test('appends from two patterm processes sharing the project never lose each other', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const storeUrl = new URL('../../../src/main/scratchpads/index.js', import.meta.url).href;
  const script = join(dirs.root, 'appender.mjs');
  writeFileSync(script, `
    import { ScratchpadStore } from ${JSON.stringify(storeUrl)};
    const [projectDir, dataHome, tag] = process.argv.slice(2);
    const store = await ScratchpadStore.open({ projectDir, dataHome });
    for (let i = 0; i < 150; i++) await store.append('log.md', tag + '-' + i + '\\n');`);
  const appenders = ['A', 'B'].map((tag) => new Promise<number | null>((resolve) => {
    spawn(process.execPath, [script, dirs.projectDir, dirs.dataHome, tag], { stdio: 'inherit' }).on('exit', resolve);
  }));
  assert.deepEqual(await Promise.all(appenders), [0, 0]);
  const store = await ScratchpadStore.open(dirs);
  const lines = (await store.read('log.md')).content.trim().split('\n');
  assert.equal(lines.length, 300);
  assert.deepEqual((await store.list()).map((entry) => entry.name), ['log.md'], 'no lock file is listed or left');
  assert.deepEqual(readdirSync(store.directory).filter((name) => name.endsWith('.lock')), []);
});

test('a lock file left by a process that died is taken over once stale', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  const lock = join(store.directory, '.plan.md.lock');
  writeFileSync(lock, '');
  const old = new Date(Date.now() - 60_000);
  utimesSync(lock, old, old);
  await store.append('plan.md', 'after a crash');
  assert.equal((await store.read('plan.md')).content, 'after a crash');
});

test('names that could escape the directory or are not plain markdown are refused, naming the problem', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  const cases: [string, RegExp][] = [
    ['../escape.md', /path separator/],
    ['..md', /contains "\.\."/],
    ['/etc/passwd', /path separator/],
    ['sub/dir.md', /path separator/],
    ['notes.txt', /does not end in "\.md"/],
    ['.hidden.md', /does not start with a letter or digit/],
    ['we ird.md', /characters other than/],
    ['', /empty/],
    ['a'.repeat(200) + '.md', /the limit is 100/],
  ];
  for (const [name, why] of cases) {
    assert.match(scratchpadNameProblem(name) ?? 'accepted', why, `name ${JSON.stringify(name)}`);
    await assert.rejects(store.write(name, 'x'), (error: ScratchpadError) => error.code === 'invalid-name');
  }
  assert.deepEqual(readdirSync(store.directory), []);
  assert.equal(scratchpadNameProblem('api-plan_v2.md'), null);
});

test('the size cap applies to the resulting file, for writes and appends', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  await assert.rejects(store.write('big.md', 'x'.repeat(MAX_SCRATCHPAD_BYTES + 1)), /would be 1048577 bytes; the limit is 1048576/);
  await store.write('big.md', 'x'.repeat(MAX_SCRATCHPAD_BYTES - 1));
  await assert.rejects(store.append('big.md', 'yy'), (error: ScratchpadError) => error.code === 'too-large');
  assert.equal((await store.read('big.md')).size, MAX_SCRATCHPAD_BYTES - 1);
});

test('reading a missing scratchpad says so', async (t) => {
  const dirs = tempStore();
  t.after(dirs.cleanup);
  const store = await ScratchpadStore.open(dirs);
  await assert.rejects(store.read('nope.md'), /no scratchpad named "nope.md"/);
});
