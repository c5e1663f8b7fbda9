/**
 * The metadata every read_output result carries (closing note 8): screen,
 * cursor, idle state and process state, in the field names the tools use.
 */
import type { GridSnapshot, PaneInfo } from '../../shared/pane-types.js';
import { exitCodeOf } from './exit-description.js';

export function paneMetadata(pane: PaneInfo, grid: GridSnapshot) {
  return {
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
  const state = meta.status === 'running' ? `running, ${meta.idle ? 'idle' : 'busy'} for ${meta.idle_ms} ms` : `${meta.status} with code ${meta.exit_code}`;
  return `[${meta.name} ${meta.cols}x${meta.rows}, ${meta.active_screen} screen, cursor row ${meta.cursor.y} col ${meta.cursor.x}, screen_version ${meta.screen_version}, ${state}]`;
}
