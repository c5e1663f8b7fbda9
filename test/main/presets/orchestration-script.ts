/**
 * The fake model's side of an orchestration scenario: the
 * orchestrator spawns a child, waits for and reads its answer, messages it, gets
 * its report, sets a timer, writes a scratchpad and kills the child. Each step
 * is chosen from how many tool results the conversation holds and which tagged
 * messages have arrived, so it does not matter how a CLI batches its turns.
 */
import { findToolName, type Protocol, type Reply, type Rule, type TurnView } from '../../fixtures/fake-model/script.js';

export const MARK = {
  start: 'ORCH-START',
  childTask: 'CHILD-TASK',
  childAnswer: 'CHILD-ANSWER-OK',
  followUp: 'FOLLOW-UP',
  report: 'CHILD-REPORT',
  timerLabel: 'tick',
  scratchpad: 'e2e-notes.md',
  done: 'ORCH-DONE',
} as const;

export interface Scenario {
  orchestrator: Protocol;
  child: Protocol;
  childPreset: string;
  childName: string;
}

/** The child id from spawn_agent's result text ("… (child_id 1a2b3c4d) …" or JSON). */
export function childIdFrom(turn: TurnView): string | undefined {
  return /child_id"?[:\s]+"?([0-9a-f]{6,})/.exec(turn.toolResults.join('\n'))?.[1];
}

const call = (turn: TurnView, tool: string, args: Record<string, unknown>): Reply => ({ toolCall: { name: findToolName(turn, tool), arguments: args } });
const saw = (turn: TurnView, text: string) => turn.userTexts.some((user) => user.includes(text));

export function scenarioRules(s: Scenario): Rule[] {
  const orch = (turn: TurnView) => turn.protocol === s.orchestrator && saw(turn, MARK.start);
  const child = (turn: TurnView) => turn.protocol === s.child && saw(turn, MARK.childTask);
  const steps = (turn: TurnView) => turn.toolResults.length;
  const id = (turn: TurnView) => childIdFrom(turn) ?? 'missing-child-id';
  return [
    // orchestrator, last step first so a step is never repeated
    { name: 'orch-done', when: (t) => orch(t) && steps(t) >= 7, reply: { text: MARK.done } },
    { name: 'orch-kill', when: (t) => orch(t) && steps(t) === 6, reply: (t) => call(t, 'kill', { child_id: id(t) }) },
    { name: 'orch-scratchpad', when: (t) => orch(t) && steps(t) === 5 && saw(t, `Your timer [${MARK.timerLabel}]`), reply: (t) => call(t, 'scratchpad_write', { name: MARK.scratchpad, content: `written by the ${s.orchestrator} orchestrator` }) },
    { name: 'orch-await-timer', when: (t) => orch(t) && steps(t) === 5, reply: { text: 'ORCH-TIMER-SET' } },
    { name: 'orch-timer', when: (t) => orch(t) && steps(t) === 4 && saw(t, `[sub-agent:${s.childName}]`), reply: (t) => call(t, 'timer_wait', { seconds: 2, label: MARK.timerLabel }) },
    { name: 'orch-await-report', when: (t) => orch(t) && steps(t) === 4, reply: { text: 'ORCH-WAITING for the report' } },
    { name: 'orch-message', when: (t) => orch(t) && steps(t) === 3, reply: (t) => call(t, 'send_message_to', { target: id(t), message: `${MARK.followUp}: call report_to_parent now` }) },
    { name: 'orch-read', when: (t) => orch(t) && steps(t) === 2, reply: (t) => call(t, 'read_output', { child_id: id(t), mode: 'grid' }) },
    { name: 'orch-wait', when: (t) => orch(t) && steps(t) === 1, reply: (t) => call(t, 'wait_for_pattern', { child_id: id(t), pattern: MARK.childAnswer, timeout_seconds: 120 }) },
    {
      name: 'orch-spawn',
      when: (t) => orch(t) && steps(t) === 0,
      reply: (t) => call(t, 'spawn_agent', { preset: s.childPreset, name: s.childName, initial_prompt: `${MARK.childTask}: reply with the ok marker` }),
    },
    // child
    { name: 'child-reported', when: (t) => child(t) && steps(t) >= 1, reply: { text: 'CHILD-REPORTED' } },
    { name: 'child-report', when: (t) => child(t) && saw(t, `[orchestrator] ${MARK.followUp}`), reply: (t) => call(t, 'report_to_parent', { message: `${MARK.report} from ${s.childName}` }) },
    { name: 'child-answer', when: (t) => child(t), reply: { text: `${MARK.childAnswer} from ${s.childName}` } },
  ];
}
