/**
 * A heavy session with the real CLIs (as heavy users run them: 10 to 20 agent CLIs at
 * once): five each of claude, codex and opencode, spawned together in one
 * Coordinator with patterm's MCP server wired in, offline against the fake
 * model. Every agent must get its own prompt typed and submitted, and show its
 * own answer and no other's; killing them all must leave no CLI or MCP proxy
 * process behind. Prints the start-up time and the memory of the whole tree.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { cpuMs, descendants, treeMemory } from '../../../bench/harness/process-tree.js';
import { busySince, systemBusyMs } from '../../../bench/harness/system-cpu.js';
import { eventually } from '../../helpers/coordinator-fixture.js';
import { cliVersion, startWorld, VENDORS, type World } from './agent-world.js';

const AGENTS_PER_VENDOR = 5;
/** Fifteen CLIs starting on two cores: opencode alone took 4-10 s to start when it had the machine to itself. */
const SESSION_TIMEOUT_MS = 400_000;
/** The CLIs' own shutdown (and their MCP proxies') after the kill cascade. */
const REAP_TIMEOUT_MS = 30_000;

let world: World;
before(async () => {
  world = await startWorld({ withMcp: true });
  // opencode's first start in a fresh data dir is not safe to run several times at once: with five
  // started together in plain tmux (no patterm), one stayed on a blank screen in 3 of 5 runs, and
  // none did in 4 runs once the data dir had been used. A user's opencode has started before; so
  // does this world's, once, on its own.
  if (cliVersion('opencode') !== null) {
    const { pane } = await world.launcher.spawnAgent({ preset: 'opencode' });
    const ready = await eventually(() => world.launcher.readyTimes.get(pane.id), { timeoutMs: 120_000, message: 'the first opencode ready' });
    assert.ok(ready.ready, `the first opencode: ${ready.detail}`);
    await world.coordinator.kill(pane.id);
    await world.coordinator.exitPromise(pane.id);
  }
});
after(() => world?.stop());

const installed = VENDORS.filter((vendor) => cliVersion(vendor) !== null);

test(`${AGENTS_PER_VENDOR} each of ${installed.join(', ')} at once: every agent answers its own prompt, and all of them are reaped`, { skip: installed.length === 0 ? 'no vendor CLI is installed' : false, timeout: SESSION_TIMEOUT_MS + 60_000 }, async () => {
  const agents = installed.flatMap((vendor) => Array.from({ length: AGENTS_PER_VENDOR }, (_, i) => ({ vendor, tag: `${vendor.toUpperCase()}-${i}` })));
  world.server.setRules(agents.map(({ tag }) => ({ name: tag, when: (turn) => turn.latestUserText.includes(`HEAVY-${tag}:`), reply: { text: `ANSWER-${tag}-DONE` } })));
  const started = performance.now();
  const busyBefore = systemBusyMs();
  const pattermCpuBefore = cpuMs(process.pid);

  // Each agent's own timeline, from the moment all of them were asked for at once.
  const timelines = await Promise.all(agents.map(async ({ vendor, tag }) => {
    const { pane, submit } = await world.launcher.spawnAgent({ preset: vendor, name: tag.toLowerCase(), initialPrompt: `HEAVY-${tag}: reply with one line` });
    const submittedMs = performance.now() - started;
    assert.ok(submit?.submitted, `${tag}: ${JSON.stringify(submit)}`);
    await world.server.waitForRequest((r) => r.rule === tag, SESSION_TIMEOUT_MS, `${tag}'s prompt`);
    await eventually(async () => (await world.coordinator.grid(pane.id)).lines.some((line) => line.includes(`ANSWER-${tag}-DONE`)), { timeoutMs: SESSION_TIMEOUT_MS, intervalMs: 100, message: `ANSWER-${tag}-DONE on ${tag}'s screen` });
    return { tag, pane, readyMs: world.launcher.readyTimes.get(pane.id)?.elapsedMs, submittedMs, answeredMs: performance.now() - started };
  }));
  const machineBusyMs = busySince(busyBefore);
  const pattermCpu = cpuMs(process.pid) - pattermCpuBefore;
  const memory = treeMemory();

  for (const { tag } of agents) assert.ok(world.server.requests.some((r) => r.rule === tag), `${tag}'s prompt reached the model`);
  for (const [i, { tag, pane }] of timelines.entries()) {
    const screen = (await world.coordinator.grid(pane.id)).lines.join('\n');
    const foreign = timelines.filter((other, j) => j !== i && screen.includes(`ANSWER-${other.tag}-DONE`));
    assert.deepEqual(foreign.map((other) => other.tag), [], `${tag}'s screen shows only its own answer`);
  }
  process.stderr.write(
    `# ${agents.length} agents: last answer on screen ${Math.round(Math.max(...timelines.map((t) => t.answeredMs)))} ms after the spawns; ` +
      `meanwhile patterm's process used ${Math.round(pattermCpu)} ms of CPU, the whole machine ${machineBusyMs ?? '?'} ms; ` +
      `then ${memory.processes} processes, tree RSS ${Math.round(memory.treeRssMiB)} MiB (PSS ${Math.round(memory.treePssMiB)} MiB), patterm's own process ${Math.round(memory.rootRssMiB)} MiB\n`,
  );
  for (const t of timelines) process.stderr.write(`#   ${t.tag}: ready after ${t.readyMs} ms, prompt submitted at ${Math.round(t.submittedMs)} ms, answer on screen at ${Math.round(t.answeredMs)} ms\n`);

  const killStarted = performance.now();
  // kill() returns once the process tree is gone; the exit itself is reported after the last output drains.
  await Promise.all(timelines.map(async ({ pane }) => {
    await world.coordinator.kill(pane.id);
    await world.coordinator.exitPromise(pane.id);
  }));
  for (const { pane } of timelines) assert.notEqual(world.coordinator.info(pane.id).process.status, 'running', `${pane.name} ended`);
  process.stderr.write(`# all ${agents.length} exits reported ${Math.round(performance.now() - killStarted)} ms after the kills\n`);
  // The CLIs' own children (MCP proxies, opencode's server) must go with them: nothing of this test's may be left.
  let left: string[] = [];
  await eventually(() => {
    left = descendants(process.pid).map((pid) => `${pid} ${commandLine(pid)}`);
    return left.length === 0 ? true : null;
  }, { timeoutMs: REAP_TIMEOUT_MS, intervalMs: 250, message: 'every CLI and proxy reaped' }).catch(() => assert.fail(`still alive after the kill:\n${left.join('\n')}`));
});

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '(gone)';
  }
}
