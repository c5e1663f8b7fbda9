/**
 * The idle full-screen TUI that many-agents runs 20 of: vim on the alternate
 * screen, no user config, no swap file, showing a file whose first line says
 * which pane it is. vim is what is installed everywhere; it sends the usual
 * start-up queries and then sits idle like an agent CLI waiting for input.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const TUI_COUNT = 20;

export function readyMarker(index: number): string {
  return `bench-agent-${index}-ready`;
}

export function idleTuiArgv(dir: string, index: number): string[] {
  const file = join(dir, `agent-${index}.txt`);
  writeFileSync(file, `${readyMarker(index)}\n${'idle agent pane, waiting for input\n'.repeat(10)}`);
  return ['vim', '-u', 'NONE', '-i', 'NONE', '-n', '-N', file];
}
