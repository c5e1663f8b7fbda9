import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { answersMeanwhile, LONG_A_LINE, startBystanders } from '../helpers/meanwhile.js';
import { PATTERN_BUDGET_MS } from '../../../../src/node/pattern-matcher.js';

const harness = await startHarness();
const { pane: root, token } = await harness.orchestrator();
const mcp = await harness.connect(token);

interface Spawned {
  child_id: string;
  name: string;
  cwd: string;
  first_match?: 'ready' | 'error' | null;
  ready?: { line: string } | null;
  error?: { line: string } | null;
}

async function output(childId: string, pattern: string): Promise<string> {
  const wait = structured<{ matched: boolean; snippet: string }>(await mcp.call('wait_for_pattern', { child_id: childId, pattern, timeout_seconds: 60 }));
  assert.ok(wait.matched, wait.snippet);
  return wait.snippet;
}

test('argv runs in a new pane under the caller\'s session, in the project directory by default', async () => {
  const result = await mcp.call('spawn_process', { argv: ['sh', '-c', 'pwd; exec sleep 60'], name: 'where' });
  const spawned = structured<Spawned>(result);
  assert.match(textOf(result), /^started where \(child_id \w+, pid \d+\)\.$/);
  const info = harness.coordinator.info(spawned.child_id);
  assert.equal(info.parentId, root.id);
  assert.equal(info.kind, 'process');
  assert.equal(info.name, 'where');
  assert.equal(await output(spawned.child_id, '^/'), harness.projectDir);
});

test('a process preset runs by name', async () => {
  const spawned = structured<Spawned>(await mcp.call('spawn_process', { preset: 'greeter' }));
  assert.equal(await output(spawned.child_id, 'greeter preset'), 'hello from the greeter preset');
  assert.equal(harness.coordinator.info(spawned.child_id).presetName, 'greeter');
});

test('a preset whose name is free text gives panes "<preset>-<n>" names that a caller could have chosen', async () => {
  const first = structured<Spawned>(await mcp.call('spawn_process', { preset: 'npm run dev (web)' }));
  const second = structured<Spawned>(await mcp.call('spawn_process', { preset: 'web-dev' }));
  assert.deepEqual([first.name, second.name], ['npm-run-dev-web-1', 'npm-run-dev-web-2']);
  assert.equal(harness.coordinator.info(first.child_id).presetName, 'npm run dev (web)');
  // The same rule as for a name given by hand: the tool accepts it, and refuses it only while it is taken.
  const again = await mcp.call('spawn_process', { argv: ['sleep', '60'], name: first.name });
  assert.match(textOf(again), /name "npm-run-dev-web-1" is already used by a running pane of this session/);
});

test('shell: true runs argv[0] as a command line; working_dir and env apply', async () => {
  mkdirSync(join(harness.projectDir, 'sub'), { recursive: true });
  const spawned = structured<Spawned>(await mcp.call('spawn_process', { argv: ['echo "$GREETING from $(basename "$PWD")" | tr a-z A-Z; sleep 60'], shell: true, working_dir: 'sub', env: { GREETING: 'hi' } }));
  assert.equal(await output(spawned.child_id, 'FROM'), 'HI FROM SUB');
});

test('ready_pattern: waits for the ready line and reports which pattern matched first', async () => {
  const script = 'echo "compiling..."; sleep 0.2; echo "  ➜  Local:   http://localhost:5173/"; echo "Error: later noise"; exec sleep 60';
  const result = await mcp.call('spawn_process', { argv: ['bash', '-c', script], ready_pattern: 'Local:\\s+http', error_pattern: '^Error:', ready_timeout_seconds: 60 });
  const spawned = structured<Spawned>(result);
  assert.equal(spawned.first_match, 'ready');
  assert.equal(spawned.ready?.line, '➜  Local:   http://localhost:5173/');
  assert.match(textOf(result), /; ready: ➜  Local:/);
  // list_children reports the same, and the error line that came after.
  await output(spawned.child_id, 'later noise');
  const children = structured<{ children: { child_id: string; first_match: string; error_matched: { line: string } | null }[] }>(await mcp.call('list_children')).children;
  const listed = children.find((child) => child.child_id === spawned.child_id)!;
  assert.equal(listed.first_match, 'ready');
  assert.equal(listed.error_matched?.line, 'Error: later noise');
});

test('error_pattern: a failing start is reported as such, even when the line scrolls away at once', async () => {
  const script = 'echo "Error: listen EADDRINUSE :::3000"; seq 1 200; exec sleep 60';
  const spawned = structured<Spawned>(await mcp.call('spawn_process', { argv: ['bash', '-c', script], ready_pattern: 'listening', error_pattern: 'EADDRINUSE', ready_timeout_seconds: 60 }));
  assert.equal(spawned.first_match, 'error');
  assert.equal(spawned.error?.line, 'Error: listen EADDRINUSE :::3000');
});

test('a process that exits before either pattern matches says so', async () => {
  const result = await mcp.call('spawn_process', { argv: ['sh', '-c', 'echo bye; exit 1'], ready_pattern: 'ready', ready_timeout_seconds: 60 });
  assert.equal(structured<Spawned>(result).first_match, null);
  assert.match(textOf(result), /it exited before either pattern matched/);
});

test('list_children includes type, status, exit code and idle state', async () => {
  const done = structured<Spawned>(await mcp.call('spawn_process', { argv: ['sh', '-c', 'exit 2'], name: 'done-2' }));
  await mcp.call('wait_for_pattern', { child_id: done.child_id, pattern: 'x', timeout_seconds: 60 });
  const quiet = structured<Spawned>(await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'quiet-sleeper' }));
  // Idle is "no output for the threshold"; wait for it rather than sleeping.
  const idleWait = await mcp.call('wait_for_pattern', { child_id: quiet.child_id, stable_ms: 1100, timeout_seconds: 60 });
  assert.equal(structured<{ matched: boolean }>(idleWait).matched, true);
  const children = structured<{ children: Record<string, unknown>[] }>(await mcp.call('list_children')).children;
  const byName = Object.fromEntries(children.map((child) => [child.name, child]));
  assert.deepEqual({ type: byName['done-2'].type, status: byName['done-2'].status, exit_code: byName['done-2'].exit_code, idle: byName['done-2'].idle }, { type: 'process', status: 'exited', exit_code: 2, idle: null });
  assert.equal(byName['quiet-sleeper'].status, 'running');
  assert.equal(byName['quiet-sleeper'].idle, true);
  assert.ok((byName['quiet-sleeper'].idle_ms as number) >= 1000);
});

test('kill stops the child and reports how it ended', async () => {
  const spawned = structured<Spawned>(await mcp.call('spawn_process', { argv: ['sleep', '60'] }));
  const result = await mcp.call('kill', { child_id: spawned.child_id });
  assert.deepEqual(structured(result), { summary: textOf(result), child_id: spawned.child_id, name: spawned.name, status: 'killed', exit_code: 143, signal: 'SIGTERM', already_exited: false, closed: false });
  const again = await mcp.call('kill', { child_id: spawned.child_id, signal: 'SIGKILL' });
  assert.equal(structured<{ already_exited: boolean }>(again).already_exited, true);
  // A program that ignores SIGTERM but not SIGHUP (as an interactive shell does) is hung up, as a closing terminal would.
  const shellLike = structured<Spawned>(await mcp.call('spawn_process', { argv: ['bash', '-c', 'trap "" TERM; echo armed; while :; do sleep 1; done'] }));
  await output(shellLike.child_id, 'armed');
  const hungUp = structured<{ status: string; signal: string }>(await mcp.call('kill', { child_id: shellLike.child_id }));
  assert.deepEqual([hungUp.status, hungUp.signal], ['killed', 'SIGHUP']);
  // One that ignores both is SIGKILLed after the grace window.
  const stubborn = structured<Spawned>(await mcp.call('spawn_process', { argv: ['bash', '-c', 'trap "" HUP TERM; echo armed; while :; do sleep 1; done'] }));
  await output(stubborn.child_id, 'armed');
  const forced = structured<{ status: string; signal: string }>(await mcp.call('kill', { child_id: stubborn.child_id }));
  assert.deepEqual([forced.status, forced.signal], ['killed', 'SIGKILL']);
});

test('spawn errors name the problem', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ preset: 'greeter', argv: ['ls'] }, /give exactly one of preset .* or argv/],
    [{}, /give exactly one of preset .* or argv/],
    [{ preset: 'nope' }, /could not start process preset "nope": unknown process preset "nope"; known process presets: .*greeter/],
    [{ argv: [] }, /argv: argv is empty/],
    [{ argv: ['ls'], working_dir: 'does/not/exist' }, /working_dir "does\/not\/exist" does not exist/],
    [{ argv: ['ls'], ready_pattern: '(' }, /ready_pattern: pattern "\(" is not a valid regular expression/],
    [{ argv: ['ls'], ready_timeout_seconds: 5 }, /ready_timeout_seconds needs ready_pattern or error_pattern/],
    [{ argv: ['ls'], env: { 'BAD NAME': 'x' } }, /environment variable name "BAD NAME" is not valid/],
    [{ argv: ['ls'], name: 'has space' }, /name "has space" must be 1-64 letters/],
  ];
  for (const [args, expected] of cases) {
    const result = await mcp.call('spawn_process', args);
    assert.equal(result.isError, true, JSON.stringify(args));
    assert.match(textOf(result), expected, JSON.stringify(args));
  }
});

test('two running children of a session cannot share a name (it identifies them in message tags)', async () => {
  await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'twin' });
  const result = await mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'twin' });
  assert.match(textOf(result), /name "twin" is already used by a running pane of this session/);
});

test('two concurrent spawns asking for the same name cannot both get it', async () => {
  const results = await Promise.all([
    mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'web' }),
    mcp.call('spawn_process', { argv: ['sleep', '60'], name: 'web' }),
  ]);
  assert.deepEqual(results.map((result) => result.isError === true).sort(), [false, true]);
  assert.match(textOf(results.find((result) => result.isError)!), /name "web" is (being given to a pane that another call is starting|already used)/);
  const named = harness.coordinator.allPanes().filter((pane) => pane.name === 'web' && pane.process.status === 'running');
  assert.equal(named.length, 1);
});

test('a default name skips one that a running child was given by hand', async () => {
  const manual = structured<Spawned>(await mcp.call('spawn_process', { argv: ['tail', '-f', '/dev/null'], name: 'tail-1' }));
  const automatic = structured<Spawned>(await mcp.call('spawn_process', { argv: ['tail', '-f', '/dev/null'] }));
  assert.equal(manual.name, 'tail-1');
  assert.notEqual(automatic.name, 'tail-1');
  assert.match(automatic.name, /^tail-\d+$/);
});

test('a polynomial ready_pattern stops the watch with the pattern and budget named; meanwhile a quiet pane and another agent answer', async () => {
  const bystanders = await startBystanders(harness);
  // ".*.*.*.*X" on a 4000-character line (ready lines are matched up to 4096 characters): minutes to give up.
  const pending = mcp.call('spawn_process', { argv: ['sh', '-c', `echo ${LONG_A_LINE}; exec cat`], ready_pattern: '.*.*.*.*X', ready_timeout_seconds: 600 });
  const result = await answersMeanwhile(harness, bystanders, pending);
  assert.equal(result.isError, undefined, textOf(result));
  const spawned = structured<Spawned & { pattern_problem?: string }>(result);
  assert.equal(spawned.pattern_problem, `ready_pattern/error_pattern: ".*.*.*.*X" took longer than ${PATTERN_BUDGET_MS} ms to match and was stopped: it backtracks too much (repeated or nested quantifiers such as ".*.*.*X" or "(a+)+"); simplify it`);
  assert.match(textOf(result), /the output is no longer watched/);
  // list_children reports it too, and does not wait on the watch again.
  const listed = structured<{ children: { child_id: string; pattern_problem?: string }[] }>(await mcp.call('list_children', {}));
  assert.equal(listed.children.find((child) => child.child_id === spawned.child_id)?.pattern_problem, spawned.pattern_problem);
});

test('a child spawned with cols and rows has that size, reports it, and keeps it when patterm is resized', async () => {
  // Each prints its terminal size whenever a line is typed into it.
  const sizeOnEnter = ['bash', '--norc', '--noprofile', '-c', 'stty size; while read; do stty size; done'];
  const sizedResult = await mcp.call('spawn_process', { argv: sizeOnEnter, cols: 50, rows: 10 });
  const sized = structured<Spawned & { cols: number; rows: number; own_size: boolean }>(sizedResult);
  assert.deepEqual([sized.cols, sized.rows, sized.own_size], [50, 10, true]);
  const follower = structured<Spawned & { own_size: boolean }>(await mcp.call('spawn_process', { argv: sizeOnEnter }));
  assert.equal(follower.own_size, false);
  await output(sized.child_id, '^10 50$');
  const shared = harness.coordinator.paneSize;
  try {
    harness.coordinator.setPaneSize(90, 25);
    for (const id of [sized.child_id, follower.child_id]) await mcp.call('send_input', { child_id: id, text: '', submit: true });
    await output(follower.child_id, '^25 90$');
    // The terminal echoes the Enter as a line of its own.
    const second = await output(sized.child_id, '^10 50\\n\\n10 50$');
    assert.equal(second, '10 50\n\n10 50', 'the program still sees its own size');
    const grid = structured<{ rows: number; cols: number }>(await mcp.call('read_output', { child_id: sized.child_id }));
    assert.deepEqual([grid.cols, grid.rows], [50, 10], 'read_output reports the child its own size');
  } finally {
    harness.coordinator.setPaneSize(shared.cols, shared.rows);
  }
});

test('cols and rows are bounded (10x3 to 500x200) and come together', async () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ cols: 9, rows: 10 }, /cols must be a whole number from 10 to 500, received 9/],
    [{ cols: 501, rows: 10 }, /cols must be a whole number from 10 to 500, received 501/],
    [{ cols: 40, rows: 2 }, /rows must be a whole number from 3 to 200, received 2/],
    [{ cols: 40, rows: 201 }, /rows must be a whole number from 3 to 200, received 201/],
    [{ cols: 40.5, rows: 10 }, /cols must be a whole number from 10 to 500, received 40.5/],
    [{ cols: '40', rows: 10 }, /cols must be a whole number from 10 to 500, received "40"/],
    [{ cols: 40 }, /give cols and rows together for a child of its own size \(received only cols 40\)/],
  ];
  for (const [size, message] of cases) {
    const result = await mcp.call('spawn_process', { argv: ['sleep', '60'], ...size });
    assert.equal(result.isError, true, JSON.stringify(size));
    assert.match(textOf(result), message);
  }
  const smallest = structured<Spawned & { cols: number; rows: number }>(await mcp.call('spawn_process', { argv: ['sleep', '60'], cols: 10, rows: 3 }));
  const largest = structured<Spawned & { cols: number; rows: number }>(await mcp.call('spawn_process', { argv: ['sleep', '60'], cols: 500, rows: 200 }));
  assert.deepEqual([smallest.cols, smallest.rows, largest.cols, largest.rows], [10, 3, 500, 200]);
});
