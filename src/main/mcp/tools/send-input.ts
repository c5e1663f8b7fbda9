import * as v from 'valibot';
import { bracketedPaste, KEY_NAMES, keyToBytes } from '../../../shared/key-bytes.js';
import type { Coordinator } from '../../coordinator.js';
import type { PaneId } from '../../../shared/pane-types.js';
import { defineTool, ok, ToolError } from './tool-kit.js';
import { describeExit } from '../../agents/exit-description.js';
import { answerKeys, answersDialog, checkApproval } from './approval-gate.js';
import { ChildIdSchema, MAX_MESSAGE_CHARS } from './schemas.js';
import { ignoreError } from '../../../node/patterm-log.js';

/**
 * Before pressing Enter after typed text, wait until the screen has been quiet
 * this long: some TUIs (codex) treat text followed at once by Enter as a paste
 * and insert a newline instead of submitting.
 */
const SUBMIT_SETTLE_MS = 60;
/** Never hold the Enter back longer than this, even on a screen that keeps animating. */
const SUBMIT_SETTLE_LIMIT_MS = 1500;
/** Keys whose bytes change when the program has turned on application cursor mode. */
const CURSOR_KEYS = new Set(['up', 'down', 'left', 'right', 'home', 'end']);

export const sendInput = defineTool({
  name: 'send_input',
  title: 'Type into a child',
  access: 'any',
  annotations: { readOnlyHint: false, destructiveHint: true },
  description: [
    "Type into a child's terminal, as a person at the keyboard would.",
    'kind "text" types text (single line; for several lines use "paste"). kind "paste" pastes text as one block: when the program has enabled bracketed paste its newlines do not submit anything.',
    'kind "key" presses one named key: enter, tab, escape, backspace, delete, up, down, left, right, home, end, pageup, pagedown, f1-f12, ctrl-a … ctrl-z (ctrl-c interrupts), alt-<char>.',
    'submit: true presses Enter afterwards (after the text has been echoed). Answer y/N prompts with text "y" and submit true, or whatever the prompt expects.',
    'answer "approve_once", "approve_always" or "deny" (instead of kind/text/key) answers a permission dialog with the keys its preset names; it works only while the child is waiting_permission (see list_children or wait_for_state).',
    'When the user turned on the permission policy, input to a child in a permission dialog is checked against it: an approval it does not allow is not sent, and you get an error telling you to call request_human_attention.',
    'To message a sub-agent, prefer send_message_to, which also confirms the submission.',
  ].join(' '),
  schema: v.strictObject({
    child_id: ChildIdSchema,
    kind: v.optional(v.pipe(v.picklist(['text', 'paste', 'key']), v.description('What to send. Default "text".')), 'text'),
    text: v.optional(v.pipe(v.string(), v.maxLength(MAX_MESSAGE_CHARS), v.description('For kind "text" and "paste": the text to type.'))),
    key: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(32), v.description('For kind "key": the key name, e.g. "enter", "ctrl-c", "down".'))),
    submit: v.optional(v.pipe(v.boolean(), v.description('Press Enter after sending. Default false.')), false),
    answer: v.optional(
      v.pipe(
        v.picklist(['approve_once', 'approve_always', 'deny'], (issue) => `answer must be "approve_once", "approve_always" or "deny", received ${JSON.stringify(issue.input)}`),
        v.description('Answer the permission dialog the child shows, with the keys its preset names. Give it alone, without kind, text, key or submit.'),
      ),
    ),
  }),
  async run(args, { caller, services }) {
    const pane = services.children.resolveTarget(caller, args.child_id);
    if (pane.process.status !== 'running') throw new ToolError(`${pane.name} (child_id ${pane.id}) has exited with ${describeExit(pane.process)}; it cannot take input`);
    const coordinator = services.coordinator;
    if (args.answer !== undefined) {
      if (args.text !== undefined || args.key !== undefined || args.submit) throw new ToolError('answer goes alone: it sends the keys the preset names for the dialog, so leave out text, key and submit');
      const { bytes, state } = await answerKeys(services, pane, args.answer);
      if (args.answer !== 'deny') await checkApproval(services, pane, bytes, state);
      coordinator.write(pane.id, bytes, 'orchestrator');
      services.states.noteAnswered(pane.id);
      const result = { child_id: pane.id, answer: args.answer, bytes_sent: Buffer.byteLength(bytes), dialog: state.dialog?.text };
      return ok(result, `answered ${args.answer} to ${pane.name}'s dialog (${JSON.stringify(bytes)}).`);
    }
    let bytes: string;
    let usedPaste = false;
    if (args.kind === 'key') {
      if (args.key === undefined) throw new ToolError('kind "key" needs key, e.g. "enter" or "ctrl-c"');
      if (args.text !== undefined) throw new ToolError('kind "key" takes key, not text; to type text use kind "text"');
      bytes = await keyBytes(coordinator, pane.id, args.key);
    } else {
      if (args.text === undefined) throw new ToolError(`kind "${args.kind}" needs text`);
      if (args.key !== undefined) throw new ToolError(`kind "${args.kind}" takes text, not key; to press a key use kind "key"`);
      const { bracketedPaste: pasteEnabled } = await coordinator.grid(pane.id);
      const multiLine = /[\r\n]/.test(args.text);
      if (args.kind === 'text' && multiLine) {
        if (!pasteEnabled) {
          throw new ToolError(
            `text has line breaks, and ${pane.name} has not enabled bracketed paste, so each line break would submit a line early. Send one line at a time, or use kind "paste" to send it anyway.`,
          );
        }
        usedPaste = true;
      }
      if (args.kind === 'paste') usedPaste = pasteEnabled;
      // A terminal sends CR for each line break of a paste; programs without bracketed paste see them as Enter.
      bytes = usedPaste ? bracketedPaste(args.text) : args.text.replace(/\r?\n/g, '\r');
    }
    await checkApproval(services, pane, args.submit ? `${bytes}\r` : bytes);
    // Listen before writing, so a fast echo cannot slip past unseen.
    const echoed = args.submit && args.kind !== 'key' ? nextScreenChange(coordinator, pane.id, SUBMIT_SETTLE_LIMIT_MS) : null;
    const answering = answersDialog(services, pane, bytes);
    coordinator.write(pane.id, bytes, 'orchestrator');
    if (answering) services.states.noteAnswered(pane.id);
    if (args.submit) {
      if (echoed) await settle(coordinator, pane.id, echoed);
      coordinator.write(pane.id, '\r', 'orchestrator');
    }
    const result = { child_id: pane.id, kind: args.kind, bytes_sent: Buffer.byteLength(bytes) + (args.submit ? 1 : 0), bracketed_paste: usedPaste, submitted: args.submit };
    const what = args.kind === 'key' ? `pressed ${args.key}` : `sent ${args.text!.length} characters${usedPaste ? ' as a bracketed paste' : ''}`;
    return ok(result, `${what} to ${pane.name}${args.submit ? ', then Enter' : ''}.`);
  },
});

async function keyBytes(coordinator: Coordinator, paneId: PaneId, key: string): Promise<string> {
  const name = key.trim().toLowerCase();
  const applicationCursor = CURSOR_KEYS.has(name) ? (await coordinator.cells(paneId)).modes.applicationCursor : false;
  const bytes = keyToBytes(key, applicationCursor);
  if (bytes === null) throw new ToolError(`unknown key ${JSON.stringify(key)}; known keys: ${KEY_NAMES.join(', ')}`);
  return bytes;
}

/** Resolves at the pane's next screen change, or after `limitMs` if nothing changes. */
function nextScreenChange(coordinator: Coordinator, paneId: PaneId, limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, limitMs);
    const subscription = coordinator.onScreenDirty(paneId, done);
  });
}

/** Waits for the echo, then until the screen stops changing; never longer than SUBMIT_SETTLE_LIMIT_MS in all. */
async function settle(coordinator: Coordinator, paneId: PaneId, echoed: Promise<void>): Promise<void> {
  const started = performance.now();
  await echoed;
  const left = Math.max(0, SUBMIT_SETTLE_LIMIT_MS - (performance.now() - started));
  await coordinator.waitFor(paneId, { pattern: '', timeoutMs: left, stableMs: SUBMIT_SETTLE_MS }).catch(ignoreError(`waiting for ${paneId}'s screen to settle before submitting`));
}
