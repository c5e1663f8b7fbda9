/** Every MCP tool patterm serves, in the order they are listed to clients. */
import type { ToolDefinition } from './tool-kit.js';
import { spawnAgent } from './spawn-agent.js';
import { sendMessageTo } from './send-message-to.js';
import { requestHumanAttention } from './request-human-attention.js';
import { spawnProcess } from './spawn-process.js';
import { readOutput } from './read-output.js';
import { sendInput } from './send-input.js';
import { kill } from './kill.js';
import { waitForPattern } from './wait-for-pattern.js';
import { waitForState } from './wait-for-state.js';
import { timerWait } from './timer-wait.js';
import { listChildren } from './list-children.js';
import { reportToParent } from './report-to-parent.js';
import { scratchpadList } from './scratchpad-list.js';
import { scratchpadRead } from './scratchpad-read.js';
import { scratchpadWrite } from './scratchpad-write.js';
import { scratchpadAppend } from './scratchpad-append.js';
import { worktreeList } from './worktree-list.js';
import { worktreeDiff } from './worktree-diff.js';
import { worktreeRemove } from './worktree-remove.js';
import { spawnShell } from './spawn-shell.js';
import { runCommand } from './run-command.js';
import { waitForCommand } from './wait-for-command.js';
import { commandHistory } from './command-history.js';
import { subscribeCommands } from './subscribe-commands.js';

export const ALL_TOOLS: readonly ToolDefinition[] = [
  spawnAgent,
  sendMessageTo,
  requestHumanAttention,
  spawnProcess,
  readOutput,
  sendInput,
  kill,
  waitForPattern,
  waitForState,
  timerWait,
  listChildren,
  reportToParent,
  scratchpadList,
  scratchpadRead,
  scratchpadWrite,
  scratchpadAppend,
  worktreeList,
  worktreeDiff,
  worktreeRemove,
  spawnShell,
  runCommand,
  waitForCommand,
  commandHistory,
  subscribeCommands,
] as unknown as readonly ToolDefinition[];
