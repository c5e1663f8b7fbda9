/**
 * How the fake model asks each real CLI to run a shell command, in a way the
 * CLI's default preset makes it ask the user about first.
 */
import type { ToolCall } from '../../fixtures/fake-model/script.js';
import type { Vendor } from './agent-world.js';

/** Each CLI's shell tool call for `command`; `why` is the description the dialog may show. */
export function shellCall(vendor: Vendor, command: string, why: string): ToolCall {
  switch (vendor) {
    case 'claude':
      return { name: 'Bash', arguments: { command, description: why } };
    case 'codex':
      // Inside its sandbox codex runs a command without asking; outside it, it asks.
      return { name: 'exec_command', arguments: { cmd: command, sandbox_permissions: 'require_escalated', justification: `${why}?` } };
    case 'opencode':
      return { name: 'bash', arguments: { command, description: why } };
  }
}
