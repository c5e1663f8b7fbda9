/**
 * Output nobody watches is left in the output lane (pty-host-service.ts) and
 * reaches the pane's worker at the sweep (deferred-output.ts) or its next
 * read; what needs the worker at once still comes at once. A real PTY in the
 * real PTY host thread; its output handled by a PaneService and an
 * OutputReceiver in this thread, as pane-worker.ts does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { loadGhosttyModule } from '../../src/main/threads/wasm-module.js';
import { PtyHost } from '../../src/main/threads/pty-host.js';
import { InputActivity } from '../../src/shared/input-activity.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import { allocateOutputLane, laneHasUnread, OutputLaneReader } from '../../src/shared/output-lane.js';
import { PaneService } from '../../src/workers/pane-service.js';
import { isOutputMessage, OutputReceiver } from '../../src/workers/output-receiver.js';
import type { FromWorkerMessage, ToWorkerMessage } from '../../src/shared/pane-protocol.js';
import { eventually } from '../helpers/coordinator-fixture.js';
import { testSpawnOptions } from '../helpers/pty-spawn-options.js';
import { INTERACTIVE_BYTES } from '../../src/workers/flood/parse-scheduler.js';

interface Pane {
  service: PaneService;
  output: OutputReceiver;
  lane: SharedArrayBuffer;
  /** Messages from the PTY host, by kind. */
  messages: Record<string, number>;
  /** The most output taken in from the lane unannounced at once (before an announced batch, or at a drain notice). */
  largestUnannouncedRun(): number;
  /** All output taken in unannounced, and all output taken in. */
  unannouncedBytes(): number;
  parsedBytes(): number;
  text(): string;
  write(data: string): void;
  dispose(): Promise<void>;
}

/** `argv` on a PTY in a PTY host thread; its worker's side runs here, and nothing reads it but the test. */
async function startPane(argv: string[]): Promise<Pane> {
  const acks = SharedAcks.allocate();
  const lane = allocateOutputLane();
  const channel = new MessageChannel();
  const service = new PaneService(
    { paneId: 'p', cols: 80, rows: 24, ringCapacity: 1 << 20, scrollbackBytes: 1 << 20, idleThresholdMs: 1000, version: 'test', acks, lane },
    await loadGhosttyModule(),
    (message: FromWorkerMessage) => {
      if (message.t === 'ack' || message.t === 'reply') channel.port2.postMessage(message);
    },
  );
  const output = new OutputReceiver(service, new OutputLaneReader(lane), () => undefined);
  const messages: Record<string, number> = {};
  const parsed = new SharedAcks(acks);
  let largestUnannouncedRun = 0;
  let unannouncedBytes = 0;
  channel.port2.on('message', (message: ToWorkerMessage) => {
    if (!isOutputMessage(message)) return;
    messages[message.t] = (messages[message.t] ?? 0) + 1;
    const before = parsed.parsed();
    output.receive(message);
    const announced = message.t === 'lane-batch' ? message.span.length : message.t === 'lane-drain' ? 0 : message.bytes.length + (message.t === 'skim' ? message.skipped : 0);
    const unannounced = parsed.parsed() - before - announced;
    unannouncedBytes += unannounced;
    largestUnannouncedRun = Math.max(largestUnannouncedRun, unannounced);
  });
  const host = new PtyHost(new InputActivity());
  const pty = await host.spawn('p', { ...testSpawnOptions(argv, 'deferred-output-test'), acks, lane }, channel.port1);
  return {
    write: (data) => pty.write(data),
    service,
    output,
    lane,
    messages,
    largestUnannouncedRun: () => largestUnannouncedRun,
    unannouncedBytes: () => unannouncedBytes,
    parsedBytes: () => parsed.parsed(),
    text: () => Buffer.from(service.stream(0).bytes).toString('utf8'),
    dispose: async () => {
      channel.port2.close();
      await host.dispose();
    },
  };
}

/** Every frame written into the lane so far, read with a reader of its own: the pane's reader and the lane's consumed position stay as they were. */
function laneText(lane: SharedArrayBuffer): string {
  const reader = new OutputLaneReader(lane);
  let text = '';
  for (let frame = reader.peek(); frame; frame = reader.peek()) {
    reader.take(frame);
    text += Buffer.from(reader.view(frame.span)).toString('latin1');
  }
  return text;
}

test('an unwatched spinner\'s redraws wait in the lane, and reach the pane at the sweep with no reader', { timeout: 60_000 }, async () => {
  const pane = await startPane(['bash', '--norc', '--noprofile', '-c', 'for i in $(seq 1 15); do printf "\\rstep %d " $i; sleep 0.05; done; exec sleep 60']);
  try {
    // Nothing here drains the lane: only the PTY host's messages bring output to the service.
    await eventually(() => pane.text().includes('step 15 '), { message: 'the last redraw in the pane\'s output log' });
    assert.ok((pane.messages['lane-drain'] ?? 0) > 0, `the host told the worker to drain (${JSON.stringify(pane.messages)})`);
    // A redraw that comes before the worker has taken in what it was told of is announced (pty-process.ts, urgent()):
    // on a loaded machine a few are, but most wait in the lane.
    const unannounced = pane.unannouncedBytes();
    assert.ok(unannounced > pane.parsedBytes() / 2, `most redraws waited in the lane (${unannounced} of ${pane.parsedBytes()} bytes; ${JSON.stringify(pane.messages)})`);
    assert.match(pane.service.lines().join('\n'), /step 15/, 'and it was parsed onto the screen');
  } finally {
    await pane.dispose();
  }
});

test('a drain takes in output written just before it: what a read sees first', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deferred-output-'));
  const flag = join(dir, 'written');
  // The program says when its line is written, so the test can drain right after, before the sweep comes.
  const pane = await startPane(['bash', '--norc', '--noprofile', '-c', `printf "early\\n"; read -r; printf "late\\n"; : > ${flag}; exec sleep 60`]);
  try {
    await eventually(() => pane.text().includes('early'), { message: 'the first line' });
    pane.write('go\n');
    await eventually(() => existsSync(flag), { message: 'the program to write "late"' });
    // Written to the PTY is not yet read from it: wait until the PTY host has put it in the lane.
    await eventually(() => laneText(pane.lane).includes('late'), { intervalMs: 1, message: '"late" in the lane' });
    pane.output.drain();
    assert.ok(pane.text().includes('late'), `the drain took "late" in (output log: ${JSON.stringify(pane.text())})`);
    assert.match(pane.service.lines().join('\n'), /late/);
    assert.equal(laneHasUnread(pane.lane), false, 'nothing is left in the lane');
  } finally {
    await pane.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a terminal query from an unwatched pane is announced at once and answered', { timeout: 60_000 }, async () => {
  // A cursor position report (DSR 6): the program reads the reply without echoing it, then prints it.
  const pane = await startPane(['bash', '--norc', '--noprofile', '-c', 'printf "\\033[3;5H\\033[6n"; IFS= read -rs -d R reply; printf "\\r\\nreply %sR\\n" "${reply#?}"; exec sleep 60']);
  try {
    await eventually(() => pane.text().includes('reply [3;5R'), { message: 'the program to print the reply it read' });
    assert.ok((pane.messages['lane-batch'] ?? 0) >= 1, `the query came announced (${JSON.stringify(pane.messages)})`);
  } finally {
    await pane.dispose();
  }
});

test('a flood is not left in the lane: beyond an echo\'s size it takes parse turns, announced', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deferred-output-'));
  const path = join(dir, 'flood.txt');
  const lines = 10_000;
  writeFileSync(path, `${'x'.repeat(79)}\n`.repeat(lines));
  const cooked = lines * 81; // the PTY turns each LF into CR LF
  const pane = await startPane(['bash', '--norc', '--noprofile', '-c', `cat ${path}; exec sleep 60`]);
  try {
    await eventually(() => pane.service.stream(0).headOffset >= cooked, { message: 'the whole flood in the output log' });
    // Output passes as interactive (pty-process.ts) while what is unparsed, and what is read, are each
    // within INTERACTIVE_BYTES: a flood's reads beyond that wait for a parse turn, and go announced.
    const run = pane.largestUnannouncedRun();
    assert.ok(run <= 2 * INTERACTIVE_BYTES, `at most ${2 * INTERACTIVE_BYTES} bytes were left in the lane at once (${run}; ${JSON.stringify(pane.messages)})`);
    assert.ok((pane.messages['lane-batch'] ?? 0) > 0, 'the flood went announced');
  } finally {
    await pane.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
});
