/**
 * The metadata every read_output result carries, so a caller never needs a
 * second call to learn it: screen, cursor, idle state and process state, in
 * the field names the tools use.
 */
import type { GridSnapshot, PaneInfo } from '../../../shared/pane-types.js';
import type { AgentState } from '../../../shared/agent-state.js';
import { exitCodeOf } from '../../agents/exit-description.js';

/** A pane's agent state as the tools report it: the state, the evidence, since when, and a dialog's text. */
export function stateFields(state: AgentState) {
  return {
    state: state.state,
    state_source: `${state.source.kind}: ${state.source.detail}`,
    state_since: new Date(state.since).toISOString(),
    ...(state.dialog ? { dialog: state.dialog.text } : {}),
  };
}

/** "waiting_permission (pattern: dialogs[0] (permission)) for 1200 ms". */
export function describeState(state: AgentState, now = Date.now()): string {
  return `${state.state} (${state.source.kind}: ${state.source.detail}) for ${Math.max(0, now - state.since)} ms`;
}

export function paneMetadata(pane: PaneInfo, grid: GridSnapshot, state: AgentState) {
  return {
    ...stateFields(state),
    child_id: pane.id,
    name: pane.name,
    active_screen: grid.activeScreen,
    rows: grid.rows,
    cols: grid.cols,
    cursor: { x: grid.cursor.x, y: grid.cursor.y, visible: grid.cursor.visible, text_index: grid.cursor.textIndex },
    idle_ms: grid.idleMs,
    idle: grid.idle,
    screen_version: grid.screenVersion,
    status: pane.process.status,
    exit_code: exitCodeOf(pane.process),
    signal: pane.process.signal,
    title: grid.title,
    bracketed_paste: grid.bracketedPaste,
  };
}

/** One line that a model can read at a glance before the content. */
export function metadataHeadline(meta: ReturnType<typeof paneMetadata>): string {
  const state = meta.status === 'running' ? `running, ${meta.state} (${meta.state_source}), output ${meta.idle_ms} ms ago` : `${meta.status} with code ${meta.exit_code}`;
  return `[${meta.name} ${meta.cols}x${meta.rows}, ${meta.active_screen} screen, cursor row ${meta.cursor.y} col ${meta.cursor.x}, screen_version ${meta.screen_version}, ${state}]`;
}
