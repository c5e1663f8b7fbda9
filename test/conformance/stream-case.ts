/**
 * A conformance case made of escape-sequence streams: the fixture's player
 * writes chunk 0, and each step sends Enter for the next chunk; both screens
 * are compared after every chunk.
 */
import type { ConformanceCase } from './run-case.js';

export const ESC = '\x1b';
export const CSI = '\x1b[';

/** The title the player sets once chunk `index` is out (see fixture.ts). */
const played = (index: number) => (screen: { title: string }) => screen.title === `played ${index}`;

export function streamCase(name: string, size: { cols: number; rows: number }, chunks: string[], extra: Partial<ConformanceCase> = {}): ConformanceCase {
  const slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
  return {
    name,
    ...size,
    command: (fixture) => ['sh', 'play.sh', ...chunks.map((chunk, index) => fixture.write(`stream-${slug}-${index}`, chunk))],
    ready: played(0),
    steps: chunks.slice(1).map((_, index) => ({ keys: '\r', until: played(index + 1), label: `chunk ${index + 1}` })),
    ...extra,
  };
}
