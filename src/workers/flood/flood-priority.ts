/**
 * Lowers a pane worker thread's CPU priority while it parses a flood that
 * nobody is watching, so that the panes people do watch (the TUI's focused
 * pane, a pane an orchestrator waits on) get the cores first.
 *
 * Only floods are lowered: a quiet pane's worker keeps the normal priority, so
 * the keystroke echo in the pane you type into is parsed at once even while
 * other panes flood (the tui-echo-latency bench watches it). Linux applies
 * setpriority() on a thread id to that thread alone. Raising the priority
 * back needs privilege (root or RLIMIT_NICE); without it a pane that once
 * flooded stays lowered, which is where every worker used to start.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { logIgnored } from '../../node/patterm-log.js';

export class FloodPriority {
  private readonly tid: number | null;
  private readonly base: number;
  private lowered = false;

  /** `nice`: how much to lower a flooding, unwatched worker (0 turns this off). */
  constructor(private readonly nice: number) {
    this.tid = nice > 0 ? currentThreadId() : null;
    this.base = this.tid === null ? 0 : safeGetPriority(this.tid);
  }

  /**
   * A flood batch arrived while nobody watches the pane. The coordinator tells
   * floods from bursts (a redraw, a listing): it flags only batches deep into a
   * parse turn, which a screenful of output never reaches.
   */
  onFlood(): void {
    if (this.tid === null || this.lowered) return;
    this.lowered = trySetPriority(this.tid, Math.min(19, this.base + this.nice));
  }

  /** Someone is watching again: give the worker its priority back, where the system allows it. */
  onWatched(): void {
    if (this.tid === null || !this.lowered) return;
    if (trySetPriority(this.tid, this.base)) this.lowered = false;
  }
}

function currentThreadId(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch (error) {
    logIgnored('finding this thread id; priorities stay as they are', error);
    return null; // not Linux: priorities stay as they are
  }
}

function safeGetPriority(tid: number): number {
  try {
    return getPriority(tid);
  } catch (error) {
    logIgnored(`reading thread ${tid}'s priority`, error);
    return 0;
  }
}

function trySetPriority(tid: number, priority: number): boolean {
  try {
    setPriority(tid, priority);
    return true;
  } catch (error) {
    logIgnored(`setting thread ${tid}'s priority to ${priority}`, error);
    return false;
  }
}
