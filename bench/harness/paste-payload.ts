/** The prompt pasted in the paste scenario: 50 KB of prompt-like text, lines joined with CR as terminals send pastes. */
import { prng } from './flood-data.js';

export const PASTE_BYTES = 50 * 1024;
export const PASTE_START = '\x1b[200~';
export const PASTE_END = '\x1b[201~';

export function pastePayload(): string {
  const random = prng(42);
  const words = 'please refactor the module so that each file has one job and add tests for the parser the renderer and the worker protocol'.split(' ');
  let text = '';
  while (text.length < PASTE_BYTES) {
    let line = '';
    const count = 4 + Math.floor(random() * 14);
    for (let i = 0; i < count; i++) line += `${words[Math.floor(random() * words.length)]} `;
    text += `${line.trimEnd()}\r`;
  }
  return text.slice(0, PASTE_BYTES);
}
