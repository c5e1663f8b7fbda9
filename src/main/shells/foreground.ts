/**
 * What runs in the foreground of a shell pane's terminal, read from /proc:
 * the shell itself (at its prompt, or running a builtin), or a program it
 * started. A shell without integration sends no marks, so this is how its
 * pane tells "busy" from "at the prompt", and how any shell pane finds a
 * nested shell (bash in bash, ssh) that a fallback-wrapped command can be
 * typed into.
 */
import { readStat } from '../../node/process-reaper.js';

export interface Foreground {
  /** The foreground process group's leader. */
  pid: number;
  /** Its executable's name. */
  name: string;
  /** The shell itself is in the foreground. */
  isShell: boolean;
}

/** null when the shell is gone or its terminal cannot be read. */
export function foregroundOf(shellPid: number): Foreground | null {
  const shell = readStat(shellPid);
  if (!shell || shell.tpgid <= 0) return null;
  if (shell.tpgid === shell.pgrp) return { pid: shellPid, name: shell.comm, isShell: true };
  const leader = readStat(shell.tpgid);
  return { pid: shell.tpgid, name: leader?.comm ?? '?', isShell: false };
}
