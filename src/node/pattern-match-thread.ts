/**
 * A pattern matcher thread (pattern-matcher.ts): runs one caller's match at a
 * time and answers its owner. It holds nothing worth keeping, so its owner
 * terminates it the moment a match runs past its budget.
 */
import { parentPort } from 'node:worker_threads';
import { runMatchTask, type MatchTask } from './pattern-tasks.js';

export interface MatchRequest {
  id: number;
  task: MatchTask;
}

export type MatchReply = { ready: true } | { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string };

const port = parentPort!;
port.on('message', ({ id, task }: MatchRequest) => {
  let reply: MatchReply;
  try {
    reply = { id, ok: true, value: runMatchTask(task) };
  } catch (error) {
    reply = { id, ok: false, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true } satisfies MatchReply);
