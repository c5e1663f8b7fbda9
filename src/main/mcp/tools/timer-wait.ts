import * as v from 'valibot';
import { defineTool, ok } from './tool-kit.js';

/** One day: setTimeout tops out at ~24.8 days, and an agent session rarely outlives a day. */
const MAX_TIMER_SECONDS = 86_400;

export const timerWait = defineTool({
  name: 'timer_wait',
  title: 'Set a timer',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: false },
  description: [
    'Set a timer and return at once with its timer_id.',
    'When it fires, patterm types "[system] Your timer [<label>] has completed." into your own input, so you can end your turn and be woken later (e.g. to check on a long build).',
  ].join(' '),
  schema: v.strictObject({
    seconds: v.pipe(
      v.number(),
      v.minValue(0, (issue) => `seconds must be 0 or more, received ${issue.input}`),
      v.maxValue(MAX_TIMER_SECONDS, (issue) => `seconds must be at most ${MAX_TIMER_SECONDS} (one day), received ${issue.input}`),
      v.description('Delay before the timer fires.'),
    ),
    label: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[^\[\]\x00-\x1f\x7f]{1,100}$/, (issue) => `label ${JSON.stringify(issue.input)} must be 1-100 characters with no brackets or control characters`),
        v.description('Shown in the completion message, e.g. "check build". Default "timer-<n>".'),
      ),
    ),
  }),
  async run(args, { caller, services }) {
    const timer = services.timers.start(caller.paneId, args.seconds, args.label);
    return ok(
      { timer_id: timer.timerId, label: timer.label, fires_at: timer.firesAt, seconds: args.seconds },
      `timer ${timer.timerId} [${timer.label}] set for ${args.seconds} s (fires at ${timer.firesAt}).`,
    );
  },
});
