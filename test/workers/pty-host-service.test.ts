/**
 * The PTY host refuses commands for a PTY it does not have, with an error that
 * names the id, instead of dropping them: a write, resize or kill that lands
 * nowhere is a caller's mistake that must be visible.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MessageChannel } from 'node:worker_threads';
import { InputActivity } from '../../src/shared/input-activity.js';
import { ParseScheduler } from '../../src/workers/flood/parse-scheduler.js';
import { PtyHostService } from '../../src/workers/pty-host-service.js';
import { testSpawnOptions } from '../helpers/pty-spawn-options.js';

const UNKNOWN = 'no-such-pty';

function service(): PtyHostService {
  return new PtyHostService(new ParseScheduler(1, new InputActivity()), () => undefined);
}

test('write, resize and kill for an unknown id throw, naming the id and the command', async () => {
  const host = service();
  assert.throws(() => host.write(UNKNOWN, 'x'), /cannot write to PTY "no-such-pty"/);
  assert.throws(() => host.resize(UNKNOWN, 80, 24), /cannot resize PTY "no-such-pty"/);
  await assert.rejects(host.kill(UNKNOWN, 'SIGTERM', 0), /cannot kill PTY "no-such-pty"/);
});

test('a destroyed PTY is unknown from then on', async () => {
  const host = service();
  const channel = new MessageChannel();
  try {
    host.spawn('pane-1', testSpawnOptions(['sh', '-c', 'exec sleep 30'], 'pty-host-service-test'), channel.port1);
    host.resize('pane-1', 100, 30);
    await host.kill('pane-1', 'SIGKILL', 0);
    host.destroy('pane-1');
    assert.throws(() => host.write('pane-1', 'x'), /cannot write to PTY "pane-1"/);
  } finally {
    channel.port1.close();
    channel.port2.close();
  }
});

test('each PTY destroyed is reported gone once, and an unknown one not at all', async () => {
  let gone = 0;
  const host = new PtyHostService(new ParseScheduler(1, new InputActivity()), () => undefined, () => gone++);
  const channels = [new MessageChannel(), new MessageChannel()];
  try {
    for (const [index, channel] of channels.entries()) host.spawn(`pane-${index}`, testSpawnOptions(['sh', '-c', 'exec sleep 30'], 'pty-host-service-test'), channel.port1);
    for (const index of channels.keys()) await host.kill(`pane-${index}`, 'SIGKILL', 0);
    host.destroy('pane-0');
    host.destroy('pane-0');
    host.destroy(UNKNOWN);
    assert.equal(gone, 1);
    host.destroy('pane-1');
    assert.equal(gone, 2);
  } finally {
    for (const channel of channels) {
      channel.port1.close();
      channel.port2.close();
    }
  }
});
