/** Shell panes: shells whose commands patterm follows through OSC 133 marks, with a ledger per shell. */
export { ShellPanes, ShellNameError, type ShellSpawnRequest, type CommandEndedEvent } from './shell-panes.js';
export { ShellSession, ShellBusyError, INTEGRATION_WAIT_MS } from './shell-session.js';
export { describeOutcome, formatDuration, oneLine, type CommandRecord, type Writer } from './command-record.js';
export { HISTORY_OUTPUT_CAP, NOTICE_OUTPUT_LINES, RECORD_OUTPUT_CAP, lastLines } from './command-output.js';
