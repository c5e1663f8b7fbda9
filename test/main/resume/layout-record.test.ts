/**
 * The layout record on disk: what the recorder writes from a live tree reads
 * back the same; a writer killed mid-write leaves the previous record whole;
 * and --resume's choice among several records.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseLayoutRecord, recordPanes, serializeLayoutRecord, type LayoutRecord } from '../../../src/main/resume/layout-record.js';
import { LayoutRecorder } from '../../../src/main/resume/layout-recorder.js';
import { recordPath, resumeDir, scanRecords, writeRecord } from '../../../src/main/resume/record-store.js';
import { chooseRecord, describeResumable } from '../../../src/main/resume/resume-choice.js';
import { PresetAgentLauncher } from '../../../src/main/presets/agent-launcher.js';
import { PresetCatalog } from '../../../src/main/presets/preset-catalog.js';
import { Emitter } from '../../../src/shared/events.js';
import { writeFixturePresets } from '../../fixtures/fake-agent-presets.js';
import { eventually, useCoordinator } from '../../helpers/coordinator-fixture.js';
import { startWithFirstLine } from '../../helpers/node-script.js';
import { scratchDir } from '../../helpers/scratch-dir.js';
import { sleep } from '../../helpers/wait.js';

const WRITER = fileURLToPath(new URL('../../fixtures/resume/record-writer.js', import.meta.url));

test('the record of a live tree round-trips: written, read back, the same', async () => {
  const root = scratchDir('patterm-record-');
  const catalog = PresetCatalog.load({ dirs: writeFixturePresets(join(root, 'presets')), bundled: null });
  const coordinator = useCoordinator(root);
  const launcher = new PresetAgentLauncher({ coordinator, endpoint: null, catalog });
  const conversations = { snapshot: () => ({ status: 'known' as const, id: 'c-1', provenance: 'a test', file: '/x/c-1.jsonl', at: 5 }), onChange: new Emitter<string>().event };
  const path = recordPath(resumeDir(root, join(root, 'state')), coordinator.instanceId);
  const recorder = new LayoutRecorder({ coordinator, path, conversations });

  const { pane: orchestrator } = await launcher.spawnAgent({ preset: 'fake', name: 'boss' });
  await launcher.spawnProcess({ preset: 'greeter', parentId: orchestrator.id, name: 'hello', owner: 'orchestrator', notifyOnExit: false });
  await launcher.spawnProcess({ argv: ['sleep', '60'], shell: false, env: { A: 'b' }, workingDir: '.', parentId: orchestrator.id, ownSize: { cols: 80, rows: 24 } });
  await eventually(() => recorder.writes > 0 && recordPanes(recorder.snapshot()).length === 3, { message: 'the record written' });
  await recorder.flushed();

  const written = readFileSync(path, 'utf8');
  const parsed = parseLayoutRecord(written);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.problem);
  assert.deepEqual(parsed.record, JSON.parse(written), 'what is read is what was written');
  assert.deepEqual(parseLayoutRecord(serializeLayoutRecord(parsed.record)), parsed, 'and it writes back the same');
  const [session] = parsed.record.sessions;
  assert.equal(session.name, 'boss');
  assert.deepEqual({ kind: session.root.kind, preset: session.root.preset, parent: session.root.parent, conversation: session.root.conversation?.id }, { kind: 'agent', preset: 'fake', parent: null, conversation: 'c-1' });
  const [hello, sleeper] = session.children;
  assert.deepEqual({ name: hello.name, preset: hello.preset, owner: hello.owner, notifyOnExit: hello.notifyOnExit, parent: hello.parent }, { name: 'hello', preset: 'greeter', owner: 'orchestrator', notifyOnExit: false, parent: orchestrator.id });
  assert.deepEqual({ argv: sleeper.argv, env: sleeper.env, workingDir: sleeper.workingDir, ownSize: sleeper.ownSize, preset: sleeper.preset }, { argv: ['sleep', '60'], env: { A: 'b' }, workingDir: '.', ownSize: { cols: 80, rows: 24 }, preset: null });
  assert.equal(hello.conversation, undefined, 'processes have no conversation');

  // Closing everything removes the record: nothing is left to resume.
  await coordinator.close(orchestrator.id);
  await eventually(() => scanRecords(join(path, '..')).good.length === 0, { message: 'the record removed once the tree is empty' });
  await recorder.freeze();
});

test('a writer killed in the middle of a write leaves the previous record whole', async () => {
  const dir = scratchDir('patterm-torn-');
  const path = join(dir, 'layout-writer.json');
  for (let kill = 0; kill < 12; kill++) {
    const { child } = await startWithFirstLine([WRITER, path], process.env);
    // At a different point of a write each time.
    await sleep(kill * 7);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const parsed = parseLayoutRecord(readFileSync(path, 'utf8'));
    assert.ok(parsed.ok, `after kill ${kill}: ${parsed.ok ? '' : parsed.problem}`);
    assert.ok(parsed.record.savedAt >= 1);
    assert.equal(recordPanes(parsed.record).length, 401);
  }
  // Half-written temp files may be left; they are never taken for records.
  const scan = scanRecords(dir);
  assert.deepEqual(scan.bad, []);
  assert.equal(scan.good.length, 1);
  assert.ok(readdirSync(dir).every((file) => file === 'layout-writer.json' || file.startsWith('.')));
});

test('--resume takes the newest record of a stopped instance and names the others; empty and running ones are not offered', async () => {
  const project = scratchDir('patterm-choice-');
  const state = join(project, 'state');
  const dir = resumeDir(project, state);
  const record = (id: string, pid: number, savedAt: number, panes: number): LayoutRecord => ({
    format: 'patterm-layout',
    version: 1,
    instance: { id, pid, pidStart: null, startedAt: 0 },
    projectDir: project,
    savedAt,
    sessions:
      panes === 0
        ? []
        : [{ name: 'bash', root: { id: `${id}-root`, name: 'bash', kind: 'process', preset: 'bash', argv: ['bash'], cwd: project, parent: null, owner: 'user', tags: [] }, children: [] }],
  });
  // pid 2**22 + 1 is above any pid Linux hands out: that instance is surely stopped.
  const stopped = 2 ** 22 + 1;
  await writeRecord(recordPath(dir, 'older'), record('older', stopped, 1000, 1));
  await writeRecord(recordPath(dir, 'newer'), record('newer', stopped, 2000, 1));
  await writeRecord(recordPath(dir, 'empty'), record('empty', stopped, 3000, 0));
  await writeRecord(recordPath(dir, 'running'), record('running', process.pid, 4000, 1));

  const choice = chooseRecord(project, state);
  assert.ok(choice.ok, choice.ok ? '' : choice.message);
  assert.equal(choice.chosen.record.instance.id, 'newer');
  assert.deepEqual(choice.others.map((other) => [other.record.instance.id, other.running]), [['older', false], ['running', true]]);
  assert.match(describeResumable(project, state) ?? '', /^patterm --resume brings back the last run's 1 session, 1 pane, saved .* by pid \d+; 1 older record too$/);
});
