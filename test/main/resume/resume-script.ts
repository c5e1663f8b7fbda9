/**
 * The fake model's side of the resume scenarios: a claude orchestrator spawns
 * one child per entry of `kids`, each child answers its first turn; after the
 * resume the orchestrator, told which children are back, messages each of them
 * (by the child_id the notice gives), and each answers again. Which step comes
 * next is read from the conversation itself (tool results, notices), so the
 * rules hold however a CLI batches its turns, and a request shows what the CLI
 * sent the model: the earlier turns included or not.
 */
import { findToolName, type Reply, type Rule, type TurnView } from '../../fixtures/fake-model/script.js';

export const MARK = {
  orchestrator: 'RESUME-ORCH',
  firstTurn: (kid: string) => `RESUME-KID ${kid} first turn`,
  cleared: (kid: string) => `CLEARED-TURN for ${kid}`,
  afterResume: (kid: string) => `AFTER-RESUME for ${kid}`,
  notice: '[system] patterm was restarted and resumed this session.',
  setupDone: 'ORCH-SETUP-DONE',
  resumedDone: 'ORCH-RESUMED-DONE',
} as const;

export interface Kid {
  name: string;
  preset: 'claude' | 'codex' | 'opencode';
}

const saw = (turn: TurnView, text: string) => turn.userTexts.some((user) => user.includes(text));
const call = (turn: TurnView, tool: string, args: Record<string, unknown>): Reply => ({ toolCall: { name: findToolName(turn, tool), arguments: args } });

/** The child_id the resume notice gives `kid`. */
function idFromNotice(turn: TurnView, kid: string): string {
  const notice = turn.userTexts.find((user) => user.includes(MARK.notice)) ?? '';
  return new RegExp(`${kid} \\(child_id (\\w+)`).exec(notice)?.[1] ?? `no-child-id-for-${kid}`;
}

export function resumeRules(kids: readonly Kid[]): Rule[] {
  const orchestrator = (turn: TurnView) => saw(turn, MARK.orchestrator);
  const resumed = (turn: TurnView) => saw(turn, MARK.notice);
  // The setup's spawn results come first; each message after the resume adds one more.
  const afterResume = (turn: TurnView) => turn.toolResults.length - kids.length;
  const rules: Rule[] = [
    { name: 'orch-resumed-done', when: (t) => orchestrator(t) && resumed(t) && afterResume(t) >= kids.length, reply: { text: MARK.resumedDone } },
    {
      name: 'orch-message',
      when: (t) => orchestrator(t) && resumed(t),
      reply: (t) => {
        const kid = kids[afterResume(t)];
        return call(t, 'send_message_to', { target: idFromNotice(t, kid.name), message: MARK.afterResume(kid.name) });
      },
    },
    { name: 'orch-setup-done', when: (t) => orchestrator(t) && t.toolResults.length >= kids.length, reply: { text: MARK.setupDone } },
    {
      name: 'orch-spawn',
      when: orchestrator,
      reply: (t) => {
        const kid = kids[t.toolResults.length];
        return call(t, 'spawn_agent', { preset: kid.preset, name: kid.name, initial_prompt: MARK.firstTurn(kid.name) });
      },
    },
  ];
  for (const kid of kids) {
    const mine = (turn: TurnView) => !orchestrator(turn) && turn.userTexts.some((user) => user.includes(kid.name));
    rules.push(
      { name: `${kid.name}-after-resume`, when: (t) => mine(t) && t.latestUserText.includes(MARK.afterResume(kid.name)), reply: { text: `${kid.name} ANSWER-AFTER-RESUME` } },
      { name: `${kid.name}-cleared`, when: (t) => mine(t) && t.latestUserText.includes(MARK.cleared(kid.name)), reply: { text: `${kid.name} ANSWER-CLEARED` } },
      { name: `${kid.name}-first`, when: (t) => mine(t) && t.latestUserText.includes(MARK.firstTurn(kid.name)), reply: { text: `${kid.name} ANSWER-FIRST` } },
    );
  }
  return rules;
}
