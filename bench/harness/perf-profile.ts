/**
 * `pnpm bench --profile`: records a probe process with Linux `perf` (CPU-clock
 * samples with their call chains, kernel included; JavaScript and WebAssembly
 * frames named through V8's --perf-basic-prof map) and turns the samples
 * inside the probe's timed window into CPU ms per pipeline stage, for each
 * thread: the PTY host, the pane workers, the main thread, V8's helpers, and
 * the programs the panes run.
 *
 * Why perf and not V8's own --cpu-prof (`--cpu-prof` still writes those): V8
 * samples on wall-clock ticks, so a thread that waits for a core is sampled
 * as if it ran, and it sees nothing outside JavaScript: the PTY host's read()
 * calls and the kernel's work on its behalf show as idle.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { PANE_WORKER_THREAD_NAME, PTY_HOST_THREAD_NAME } from '../../src/node/thread-name.js';

/** Samples per second and thread; each stands for 1/SAMPLE_HZ s of CPU. */
export const SAMPLE_HZ = 1999;

/** What a probe that supports profiling returns besides its own figures. */
export interface ProfiledResult {
  bytes: number;
  /** The timed window, in process.hrtime microseconds (CLOCK_MONOTONIC, which perf is told to stamp with). */
  windowUs?: [number, number];
}

export type ProfileThread = 'main' | 'pty host' | 'pane workers' | 'V8 and libuv helpers' | 'pane programs and kernel workers';
const THREAD_ORDER: ProfileThread[] = ['pty host', 'pane workers', 'main', 'V8 and libuv helpers', 'pane programs and kernel workers'];

let available: boolean | null = null;

/** Whether `perf record -e cpu-clock` works here (installed, and allowed by perf_event_paranoid). */
export function perfAvailable(): boolean {
  if (available === null) {
    try {
      execFileSync('perf', ['record', '-q', '-e', 'cpu-clock', '-o', '/dev/null', '--', 'true'], { stdio: 'ignore' });
      available = true;
    } catch {
      available = false;
    }
  }
  return available;
}

/** The command prefix that records everything after it into `dataPath` (children included: the panes' programs). */
export function perfRecordArgv(dataPath: string): string[] {
  return ['perf', 'record', '-q', '-e', 'cpu-clock', '-F', String(SAMPLE_HZ), '-g', '-k', 'CLOCK_MONOTONIC', '--no-buildid', '--no-buildid-cache', '-o', dataPath, '--'];
}

/**
 * Stages, matched from a sample's leaf frame up: the first frame that matches
 * a rule decides. Interrupts come first, as they land in whatever they
 * interrupt; kernel work done for a JavaScript call (a message's eventfd
 * write) falls through to that call.
 */
const STAGES: { stage: string; frame: RegExp }[] = [
  { stage: 'interrupts (IPIs, timers)', frame: /^(asm_sysvec_|asm_common_interrupt|sysvec_|irqentry_exit)/ },
  { stage: 'GC', frame: /^v8::internal::(Heap|Scavenger|ScavengerCollector|MarkCompactCollector|MinorMarkSweepCollector|ConcurrentMarking|Sweeper|GCTracer|MemoryAllocator|IncrementalMarking)/ },
  { stage: 'PTY read (kernel)', frame: /^(ksys_read|vfs_read|tty_read|n_tty_read)$/ },
  { stage: 'waits and wake-ups (epoll, futex)', frame: /^(do_epoll_wait|do_epoll_pwait|ep_poll|__x64_sys_epoll|futex_wait|futex_wake|do_futex|__x64_sys_futex|schedule)/ },
  { stage: 'PTY write (kernel, the program)', frame: /^(ksys_write|vfs_write|tty_write|pty_write)$/ },
  { stage: 'V8 compile (JS, WASM tiers)', frame: /^v8::internal::(compiler::|baseline::|maglev::|Compiler::|Parser|ParserBase|PreParser|Scanner::|interpreter::|BytecodeGenerator|wasm::.*(Compil|Liftoff|Turbofan|Decoder))/ },
  { stage: 'thread and isolate start (Node bootstrap, module loading)', frame: /^(node::LoadEnvironment|node::CreateEnvironment|node::Realm::RunBootstrapping|node::builtins::BuiltinLoader::|v8::internal::Snapshot::|v8::internal::Deserializer|v8::Isolate::Initialize|node::NewIsolate|node::loader::|.*node:internal\/modules\/.*)/ },
  { stage: 'screen reads (sync, hash, grid, mirror)', frame: /^(screenTick|version|screenHash|syncDirty|frameStateKey|grid|lines|plainLines|cells|cellFrame|publishWhenSettled|publish|offer|gridCursor|everyRow)$/ },
  { stage: 'emulator parse (ghostty)', frame: /^(wasm-function\[\d+\]|feed|write|takeResponses|compactIfBloated|wasmMemoryBytes|v8::internal::wasm::.*)$/ },
  { stage: 'scan (titles, bells, queries)', frame: /^(scan|scanPlain|onCsi|onEscape|trackMargins|finishOsc|finishDcs)$/ },
  { stage: 'output ring', frame: /^(append|skip)$/ },
  { stage: 'backlog queue', frame: /^(push|roomFor|linesSize|takeInto|takeView|peekAll|consume|takeLines)$/ },
  { stage: 'skim and hold', frame: /^(plan|planSkim|skimBacklog|forwardSkim|holds|handedOn|skimmed|atPlainBoundary|linesThatFillScrollback)$/ },
  { stage: 'lane (frames in and out, the pump)', frame: /^(slot|commit|peek|take|takeAll|done|hasUnread|view|setEager|updateEager|drain|takeAnnounced|pump|schedulePump|stopPump|wake|announceDeferred)$/ },
  { stage: 'messages', frame: /^(postMessage|post|emitMessage|receive|onWorkerMessage|isOutputMessage|node::worker::Message.*|v8::internal::Value(Serializer|Deserializer).*|.*messageport.*|.*event_target.*)$/ },
  { stage: 'pump and scheduler', frame: /^(onData|flush|deliverPending|hand|forward|onAcked|updateAckInterest|inFlight|urgent|unacked|announcedInFlight|onTurn|acquire|release|grant|eligibility|countDelivered|countTurnBytes|maybeResume|maybeFinish|add|parsed|onOutput|burst|scheduleScreenTick|processImmediate)$/ },
  { stage: 'PTY read callback (node)', frame: /^(onStreamRead|onRead|filter|.*stream_base_commons.*|node::(StreamBase|LibuvStreamWrap|CustomBufferJSListener|EmitToJSStreamListener)::.*|uv__read|uv__stream_io)$/ },
  { stage: 'event loop (libuv, timers, immediates)', frame: /^(uv_run|uv__io_poll|uv__run_check|uv__run_timers|node::Environment::CheckImmediate|node::SpinEventLoopInternal|processImmediate|processTimers|listOnTimeout)$/ },
];
const OTHER_JS = 'other JS';
const OTHER_NATIVE = 'other native (V8, Node, libuv, libc)';
const OTHER_KERNEL = 'other kernel';

/** "JS:*scan file:///…/pty-host-worker.bundle.js:809:7" -> "scan"; "JS:wasm-function[313]-313-turbofan" -> "wasm-function[313]"; native symbols as they are. */
function frameName(symbol: string): string {
  if (!symbol.startsWith('JS:')) return symbol;
  const body = symbol.slice(3).replace(/^[*^~+]/, '');
  const wasm = /^(wasm-function\[\d+\])/.exec(body);
  if (wasm) return wasm[1];
  const space = body.indexOf(' ');
  const name = space === -1 ? body : body.slice(0, space);
  // Anonymous functions are named by their location, which says which module they are in.
  return name === '' || name.startsWith('file:') || name.startsWith('node:') ? body : name;
}

interface Frame {
  name: string;
  kernel: boolean;
  js: boolean;
}

function stageOf(frames: Frame[]): string {
  for (const { name } of frames) for (const { stage, frame } of STAGES) if (frame.test(name)) return stage;
  if (frames[0]?.kernel) return OTHER_KERNEL;
  return frames.some((frame) => frame.js) ? OTHER_JS : OTHER_NATIVE;
}

export type ThreadStages = { thread: ProfileThread; stages: Map<string, number> }[];

/**
 * CPU ms per stage and thread in `dataPath`, counting samples within
 * `windowUs` (CLOCK_MONOTONIC microseconds). `probePid`: the probe's Node
 * process; every other process recorded is a pane's program or the kernel's.
 */
export async function perfStages(dataPath: string, probePid: number, windowUs: [number, number]): Promise<ThreadStages> {
  const script = spawn('perf', ['script', '-i', dataPath, '-F', 'comm,pid,tid,time,ip,sym,dso'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return stagesOfScript(createInterface({ input: script.stdout }), probePid, windowUs);
}

/** perfStages from `perf script -F comm,pid,tid,time,ip,sym,dso` output, line by line. */
export async function stagesOfScript(lines: AsyncIterable<string> | Iterable<string>, probePid: number, windowUs: [number, number]): Promise<ThreadStages> {
  const lastComm = new Map<number, string>();
  const samples: { pid: number; tid: number; stage: string }[] = [];
  let current: { pid: number; tid: number; time: number; frames: Frame[] } | null = null;
  const finish = () => {
    if (current && current.time >= windowUs[0] && current.time <= windowUs[1]) samples.push({ pid: current.pid, tid: current.tid, stage: stageOf(current.frames) });
    current = null;
  };
  for await (const line of lines) {
    if (line.startsWith('\t')) {
      const frame = /^\s*[0-9a-f]+ (.*) \((.*)\)$/.exec(line);
      if (frame && current) current.frames.push({ name: frameName(frame[1]), kernel: frame[2] === '[kernel.kallsyms]', js: frame[1].startsWith('JS:') });
      continue;
    }
    finish();
    const header = /^\s*(.*?)\s+(\d+)\/(\d+)\s+(\d+)\.(\d+):/.exec(line);
    if (!header) continue;
    const tid = Number(header[3]);
    // A thread's samples before it named itself carry its old name: its last one is what it is.
    lastComm.set(tid, header[1]);
    current = { pid: Number(header[2]), tid, time: Number(header[4]) * 1e6 + Number(header[5].padEnd(6, '0').slice(0, 6)), frames: [] };
  }
  finish();
  const threadOf = (pid: number, tid: number): ProfileThread => {
    if (pid !== probePid) return 'pane programs and kernel workers';
    if (tid === probePid) return 'main';
    const comm = lastComm.get(tid);
    if (comm === PTY_HOST_THREAD_NAME) return 'pty host';
    if (comm === PANE_WORKER_THREAD_NAME) return 'pane workers';
    return 'V8 and libuv helpers';
  };
  const byThread = new Map<ProfileThread, Map<string, number>>();
  for (const { pid, tid, stage } of samples) {
    const thread = threadOf(pid, tid);
    const stages = byThread.get(thread) ?? new Map<string, number>();
    stages.set(stage, (stages.get(stage) ?? 0) + 1000 / SAMPLE_HZ);
    byThread.set(thread, stages);
  }
  return THREAD_ORDER.filter((thread) => byThread.has(thread)).map((thread) => ({ thread, stages: byThread.get(thread)! }));
}

/** Per thread, each stage's CPU ms per MiB and its share of that thread. */
export function renderStages(threads: ThreadStages, bytes: number): string {
  const mib = bytes / (1024 * 1024);
  const lines: string[] = [];
  for (const { thread, stages } of threads) {
    const total = [...stages.values()].reduce((sum, ms) => sum + ms, 0);
    lines.push(`${thread}: ${(total / mib).toFixed(2)} ms/MiB`);
    for (const [stage, ms] of [...stages].sort((a, b) => b[1] - a[1])) {
      if (ms / mib < 0.01) continue;
      lines.push(`  ${(ms / mib).toFixed(2).padStart(7)} ms/MiB  ${((100 * ms) / total).toFixed(1).padStart(5)} %  ${stage}`);
    }
  }
  return lines.join('\n');
}

/**
 * V8 writes its symbol map for perf to /tmp, where perf looks for it; it is
 * moved beside the data (`perf report` wants it back in /tmp under its name).
 */
export function keepPerfMap(pid: number, besideData: string): void {
  const map = `/tmp/perf-${pid}.map`;
  if (!existsSync(map)) return;
  copyFileSync(map, `${besideData}.perf-${pid}.map`);
  rmSync(map, { force: true });
}
