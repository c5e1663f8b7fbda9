/**
 * patterm's own notices (a timer fired, a child exited) have nobody to retry
 * them: while the pane is away from its input (a permission dialog can stay
 * open for minutes), delivery keeps trying instead of dropping the notice,
 * unless it stops being true meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentLauncher, SubmitResult } from '../../../../src/main/contracts.js';
import type { Coordinator } from '../../../../src/main/coordinator.js';
import { MessageDelivery } from '../../../../src/main/mcp/services/message-delivery.js';
import { eventually } from '../../../helpers/coordinator-fixture.js';

function world(awayFor: number) {
  let status = 'running';
  const typed: string[] = [];
  let tries = 0;
  const coordinator = { has: () => true, info: () => ({ process: { status } }) } as unknown as Coordinator;
  const launcher = {
    submit: async (_paneId: string, text: string): Promise<SubmitResult> => {
      tries++;
      // Away from its input: nothing could be typed (what pane-driver reports after its wait runs out).
      if (tries <= awayFor) return { submitted: false, attempts: 0, detail: 'no ready signal' };
      typed.push(text);
      return { submitted: true, attempts: 1, detail: 'submitted' };
    },
  } as unknown as AgentLauncher;
  return { delivery: new MessageDelivery(coordinator, launcher), typed, tries: () => tries, exit: () => (status = 'exited') };
}

test('a notice that finds its pane away from its input is typed once the pane is back', async () => {
  const { delivery, typed } = world(2);
  const result = await delivery.deliverEventually('p', '[system] Your timer [wake-me] has completed.', 'system');
  assert.equal(result?.submitted, true);
  assert.deepEqual(typed, ['[system] Your timer [wake-me] has completed.']);
});

test('plain deliver still gives up at once, and a notice stops trying when its pane exits', async () => {
  const once = world(1);
  assert.equal((await once.delivery.deliver('p', 'x', 'system')).submitted, false);
  const gone = world(Infinity);
  const pending = gone.delivery.deliverEventually('p', 'x', 'system');
  // The pane exits once the notice was tried again: a fixed moment would race the retry pause on a loaded machine.
  await eventually(() => gone.tries() >= 2, { message: 'a second try while the pane lives' });
  gone.exit();
  assert.equal((await pending)?.submitted, false);
});

test('a notice that stops being true while its pane is away is dropped at the next try, never typed', async () => {
  const { delivery, typed, tries } = world(Infinity);
  let true_ = true;
  let asked = 0;
  const pending = delivery.deliverEventually('p', '[system] kid is waiting for permission: old dialog', 'system', async () => {
    asked++;
    return true_;
  });
  await eventually(() => tries() >= 2, { message: 'a second try while the notice holds' });
  true_ = false;
  assert.equal(await pending, null);
  assert.equal(asked, tries() + 1, 'asked before every try, and once more to drop it');
  assert.deepEqual(typed, []);
});
