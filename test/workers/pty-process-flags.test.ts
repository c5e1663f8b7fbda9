/**
 * PtyProcess keeps four booleans beside its explicit states (its parse turn,
 * its lifecycle's phase): a flush scheduled, focus, acks wanted, a consumer
 * gone. Each is about something else, so any combination may hold at any
 * time. This drives each both ways on a real PTY flooding through a real
 * parse scheduler, with a consumer that parses or goes away midway, and
 * checks what must hold whatever the combination: every byte the child
 * wrote is delivered once, in order, and the exit comes after the last one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InputActivity } from '../../src/shared/input-activity.js';
import { SharedAcks } from '../../src/shared/shared-acks.js';
import { ParseScheduler } from '../../src/workers/flood/parse-scheduler.js';
import type { OutputSink } from '../../src/workers/output-sink.js';
import { PtyProcess } from '../../src/workers/pty-process.js';
import { eventually } from '../helpers/coordinator-fixture.js';
import { testSpawnOptions } from '../helpers/pty-spawn-options.js';

const TIMEOUT = 30_000;
const LINES = 20_000;
const EXPECTED = Array.from({ length: LINES }, (_, i) => `${i + 1}\r\n`).join('');

type Flags = { flushScheduled: boolean; focused: boolean; ackWanted: boolean; consumerGone: boolean };
const FLAG_NAMES = ['flushScheduled', 'focused', 'ackWanted', 'consumerGone'] as const;
const seen = new Set<string>();

async function flood(consumer: 'parses' | 'leaves midway', focus: 'off' | 'on' | 'toggled'): Promise<void> {
  const scheduler = new ParseScheduler(1, new InputActivity());
  const options = testSpawnOptions(['seq', String(LINES)], `pty-process-flags-${consumer}-${focus}`);
  const acks = new SharedAcks(options.acks);
  const chunks: Buffer[] = [];
  let deliveries = 0;
  let proc: PtyProcess | null = null;
  const sample = () => {
    if (!proc) return;
    const flags = proc as unknown as Flags;
    seen.add(FLAG_NAMES.map((name) => `${name}=${flags[name]}`).join(' '));
  };
  const sink: OutputSink = {
    deliver: (bytes) => {
      sample();
      chunks.push(Buffer.from(bytes));
      deliveries++;
      if (focus === 'toggled') proc!.focused = !proc!.focused;
      if (consumer === 'leaves midway' && deliveries === 3) {
        proc!.dropConsumer();
        return;
      }
      // The worker parses later, as a real one does: acks lag the deliveries, and output piles up meanwhile.
      setTimeout(() => {
        if ((proc as unknown as Flags).consumerGone) return;
        if (acks.add(bytes.length)) proc!.onAcked();
      }, 1);
    },
    deferredBytes: () => 0,
    announceDeferred: () => undefined,
    batchBuffer: (size) => new Uint8Array(size),
    skim: () => assert.fail('no skim: atPlainBoundary says no'),
    atPlainBoundary: () => false,
  };
  let exitedAfter = -1;
  // Sampled once per event-loop turn, before that turn's own immediates: a flush a read scheduled is still pending then.
  const sampler = () => {
    sample();
    if (exitedAfter < 0) setImmediate(sampler);
  };
  proc = PtyProcess.spawn(options, sink, scheduler);
  setImmediate(sampler);
  proc.focused = focus === 'on';
  proc.onExit(() => (exitedAfter = Buffer.concat(chunks).length));
  try {
    await eventually(() => exitedAfter >= 0, { timeoutMs: TIMEOUT, message: `the exit (${consumer}, focus ${focus})` });
    const text = Buffer.concat(chunks).toString('latin1');
    assert.equal(text.length, EXPECTED.length, `every byte delivered once (${consumer}, focus ${focus})`);
    assert.ok(text === EXPECTED, 'in order');
    assert.equal(exitedAfter, EXPECTED.length, 'the exit came after the last byte');
  } finally {
    await proc.kill('SIGKILL', 0);
  }
}

for (const consumer of ['parses', 'leaves midway'] as const) {
  for (const focus of ['off', 'on', 'toggled'] as const) {
    test(`a flood whose consumer ${consumer}, focus ${focus}: every byte once, in order, then the exit`, () => flood(consumer, focus));
  }
}

test('each of the four flags was seen both ways while output flowed', (t) => {
  t.diagnostic(`combinations seen: ${seen.size} of 16`);
  for (const name of FLAG_NAMES) {
    for (const value of [true, false]) {
      assert.ok([...seen].some((combination) => combination.split(' ').includes(`${name}=${value}`)), `${name}=${value} (seen: ${[...seen].join('; ')})`);
    }
  }
});
