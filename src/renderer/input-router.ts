/**
 * Decides where each piece of input goes: the palette, a command (Ctrl-K, a
 * configured key binding), a click on the chrome, or the focused pane's
 * program, byte for byte as the host terminal sent it.
 */
import { bracketedPaste } from '../shared/key-bytes.js';
import type { CellFrame } from '../shared/pane-types.js';
import { RESERVED_KEY } from './commands.js';
import type { Compositor } from './compositor.js';
import type { InputToken, MouseReport } from './input-tokenizer.js';
import { contains } from './layout.js';
import { encodeMouseForPane, paneWantsMouse } from './mouse-encoding.js';
import { VIEWER_HEADER_ROWS } from './scratchpad-viewer-view.js';
import type { BridgeCommand } from '../shared/renderer-protocol.js';
import type { UiController } from './ui-controller.js';
import type { UiState } from './ui-state.js';

const CTRL_K = '\x0b';
const WHEEL = 64;
const MOTION = 32;
/** Page Up/Down in the palette moves this many entries. */
const PAGE_STEP = 10;
/** A page in the scratchpad and history readers keeps this many lines of the last one in view, to keep the reader's place. */
const PAGE_OVERLAP = 1;
/** One wheel notch scrolls the reader this many lines, as most terminals and pagers do. */
const WHEEL_LINES = 3;

export class InputRouter {
  private pending: { paneId: string; text: string } | null = null;
  /** A mouse press went to the pane: its drag and release follow it there, wherever they happen. */
  private paneHasMouseCapture = false;

  constructor(
    private readonly state: UiState,
    private readonly controller: UiController,
    private readonly compositor: Compositor,
    private readonly send: (command: BridgeCommand) => void,
  ) {}

  handle(tokens: InputToken[]): void {
    for (const token of tokens) {
      switch (token.type) {
        case 'key':
          if (this.controller.palette) this.paletteKey(token.name, token.sequence);
          else if (this.state.viewer) {
            if (!this.viewerKey(token.name)) this.key(token.name, token.sequence);
          } else if (!this.state.history || !this.historyKey(token.name, token.sequence)) this.key(token.name, token.sequence);
          break;
        case 'paste':
          if (this.controller.palette) this.controller.palette.insert(token.text);
          else if (!this.state.viewer) {
            this.controller.closeHistory(); // pasting is typing: back to the live screen
            this.toPane(this.pasteBytes(token.text)); // the scratchpad reader is read-only
          }
          break;
        case 'mouse':
          this.mouse(token.mouse);
          break;
        case 'focus':
          if (this.state.focusedFrame()?.modes.focusEvents) this.toPane(token.focused ? '\x1b[I' : '\x1b[O');
          break;
      }
    }
    this.flush();
  }

  private key(name: string | null, sequence: string): void {
    if (name === RESERVED_KEY) {
      this.flush();
      this.controller.openPalette();
      return;
    }
    const bound = name ? this.state.config.keybindings[name] : undefined;
    if (bound) {
      this.flush();
      if (!this.controller.runCommand(bound)) this.controller.notify(`${bound} does not apply here`, 'warning');
      return;
    }
    const pane = this.state.focusedPane();
    if (!pane) {
      // Ctrl-D on the empty canvas quits, as it ends a shell.
      if (name === 'CTRL_D' && this.state.isEmpty) this.controller.quit();
      return;
    }
    if (pane.status !== 'running') {
      if (name === 'CTRL_D') this.controller.closeFocusedPane();
      return;
    }
    this.toPane(sequence);
  }

  /**
   * Keys for the scratchpad reader: scrolling, Esc (or q) to close. True when the
   * key was the reader's; Ctrl-K and bound keys are not, and every other key is
   * swallowed, since the pane underneath is not what the user is looking at.
   */
  private viewerKey(name: string | null): boolean {
    const viewer = this.state.viewer!;
    if (name === RESERVED_KEY || (name && this.state.config.keybindings[name])) return false;
    const page = Math.max(1, this.compositor.layout.main.rows - VIEWER_HEADER_ROWS - PAGE_OVERLAP);
    switch (name) {
      case 'ESCAPE':
      case 'q':
        this.controller.closeScratchpad();
        break;
      case 'UP':
      case 'k':
        viewer.scrollBy(-1);
        break;
      case 'DOWN':
      case 'j':
      case 'ENTER':
        viewer.scrollBy(1);
        break;
      case 'PAGE_UP':
        viewer.scrollBy(-page);
        break;
      case 'PAGE_DOWN':
      case ' ':
        viewer.scrollBy(page);
        break;
      case 'HOME':
        viewer.scrollToStart();
        break;
      case 'END':
        viewer.scrollToEnd();
        break;
    }
    return true;
  }

  /**
   * The wheel over a pane whose program does not take the mouse, as a terminal
   * does it: on the main screen it scrolls back through the pane's output (the
   * history reader); on the alternate screen, where there is no scrollback, it
   * sends arrow keys, so pagers and editors scroll ("alternate scroll").
   */
  private wheel(direction: -1 | 1, frame: CellFrame): void {
    if (this.state.history || frame.activeScreen === 'primary') {
      this.controller.scrollHistory(direction * WHEEL_LINES);
      return;
    }
    const arrow = (frame.modes.applicationCursor ? '\x1bO' : '\x1b[') + (direction < 0 ? 'A' : 'B');
    this.toPane(arrow.repeat(WHEEL_LINES));
  }

  /**
   * Keys for the history reader: arrows, PgUp/PgDn and Home scroll, `/` starts
   * a search and `n`/`N` repeat it, `[` and `]` go to the previous and next
   * command's start (a shell's prompt), End and Esc go back to the live screen. Any
   * other key also goes back, and is then the program's, as typing in a
   * scrolled-back terminal does.
   */
  private historyKey(name: string | null, sequence: string): boolean {
    const reader = this.state.history!;
    if (reader.searchInput !== null) return this.historySearchKey(name, sequence);
    if (name === RESERVED_KEY || (name && this.state.config.keybindings[name])) return false;
    if (name === '/') {
      reader.searchInput = '';
      return true;
    }
    if ((name === 'n' || name === 'N') && reader.lastSearch) {
      this.controller.findInHistory(reader.lastSearch, name === 'n' ? -1 : 1, true);
      return true;
    }
    if (name === '[' || name === ']') {
      this.controller.jumpToCommand(name === '[' ? -1 : 1);
      return true;
    }
    const page = Math.max(1, this.compositor.layout.main.rows - PAGE_OVERLAP);
    const scroll: Record<string, number> = { UP: -1, DOWN: 1, PAGE_UP: -page, PAGE_DOWN: page };
    if (name !== null && name in scroll) this.controller.scrollHistory(scroll[name]);
    else if (name === 'HOME') this.controller.scrollHistoryToStart();
    else if (name === 'END' || name === 'ESCAPE') this.controller.closeHistory();
    else {
      this.controller.closeHistory();
      return false;
    }
    return true;
  }

  /** Typing the text after `/`: Enter searches back from the view's top, Esc drops the search. */
  private historySearchKey(name: string | null, sequence: string): boolean {
    const reader = this.state.history!;
    const typed = reader.searchInput ?? '';
    if (name === 'ENTER') {
      reader.searchInput = null;
      this.controller.findInHistory(typed, -1);
    } else if (name === 'ESCAPE' || name === RESERVED_KEY) {
      reader.searchInput = null;
    } else if (name === 'BACKSPACE') {
      reader.searchInput = typed.slice(0, -1);
    } else if (name !== null && name === sequence && sequence >= ' ') {
      reader.searchInput = typed + sequence;
    }
    return true;
  }

  private paletteKey(name: string | null, sequence: string): void {
    const palette = this.controller.palette!;
    switch (name) {
      case RESERVED_KEY:
        // Ctrl-K Ctrl-K: the program in the pane gets a literal Ctrl-K.
        this.controller.closePalette();
        this.toPane(CTRL_K);
        return;
      case 'ESCAPE':
        if (!palette.pop()) this.controller.closePalette();
        return;
      case 'ENTER': {
        const result = palette.accept();
        if (result.outcome === 'disabled') this.controller.notify(result.reason, 'error');
        // The entry may have replaced the palette (e.g. with a sub-palette); only close the one we ran.
        else if (result.outcome === 'close' && this.controller.palette === palette) this.controller.closePalette();
        return;
      }
      case 'ALT_ENTER':
        if (palette.view.kind === 'text') palette.insert('\n');
        return;
      case 'BACKSPACE':
        if (palette.query === '' && palette.depth > 1) palette.pop();
        else palette.backspace();
        return;
      case 'UP':
      case 'CTRL_P':
      case 'SHIFT_TAB':
        palette.move(-1);
        return;
      case 'DOWN':
      case 'CTRL_N':
      case 'TAB':
        palette.move(1);
        return;
      case 'PAGE_UP':
        palette.move(-PAGE_STEP);
        return;
      case 'PAGE_DOWN':
        palette.move(PAGE_STEP);
        return;
      case 'CTRL_U':
        while (palette.query !== '') palette.backspace();
        return;
    }
    if (name !== null && name === sequence) palette.insert(sequence); // a printable character
  }

  private mouse(report: MouseReport): void {
    const isWheel = (report.code & WHEEL) !== 0;
    // Buttons 6 and 7 (a sideways swipe) are wheel reports too, but scroll nothing of ours.
    const isVerticalWheel = isWheel && (report.code & 2) === 0;
    const isPress = !report.release && (report.code & MOTION) === 0 && !isWheel;
    const isLeft = (report.code & 3) === 0;
    const palette = this.controller.palette;
    if (palette) {
      if (isVerticalWheel) palette.move((report.code & 1) === 0 ? -1 : 1);
      else if (isPress && isLeft) {
        const target = this.compositor.hits.at(report.x, report.y);
        if (target?.kind === 'palette-item') {
          palette.select(target.index);
          this.paletteKey('ENTER', '\r');
        } else if (!target) this.controller.closePalette();
      }
      return;
    }
    const main = this.compositor.layout.main;
    const inMain = contains(main, report.x, report.y);
    if (inMain && this.state.viewer) {
      if (isVerticalWheel) this.state.viewer.scrollBy((report.code & 1) === 0 ? -WHEEL_LINES : WHEEL_LINES);
      return;
    }
    const frame = this.state.focusedFrame();
    if (inMain && isVerticalWheel && !this.paneHasMouseCapture && frame && !paneWantsMouse(frame.modes)) {
      this.wheel((report.code & 1) === 0 ? -1 : 1, frame);
      return;
    }
    if (inMain || this.paneHasMouseCapture) {
      if (isPress) this.paneHasMouseCapture = true;
      if (report.release) this.paneHasMouseCapture = false;
      this.mouseToPane(report, main);
      return;
    }
    if (!isPress || !isLeft) return;
    const target = this.compositor.hits.at(report.x, report.y);
    if (!target) return;
    this.flush();
    switch (target.kind) {
      case 'tab':
        this.controller.switchSession(target.sessionId);
        break;
      case 'spawn':
        this.controller.showSpawnList();
        break;
      case 'tree':
        this.controller.focusPane(target.paneId);
        break;
      case 'scratchpad':
        // The reader shows what the rail previews: with it open, a click switches what it reads.
        if (this.state.viewer) this.controller.openScratchpad(target.name);
        else this.state.chosenScratchpad = target.name;
        break;
    }
  }

  private mouseToPane(report: MouseReport, main: { x: number; y: number; cols: number; rows: number }): void {
    const frame = this.state.focusedFrame();
    if (!frame || this.state.focusedPane()?.status !== 'running') return;
    const x = Math.min(Math.max(0, report.x - main.x), main.cols - 1);
    const y = Math.min(Math.max(0, report.y - main.y), main.rows - 1);
    const bytes = encodeMouseForPane(report, x, y, frame.modes);
    if (bytes) this.toPane(bytes);
  }

  private pasteBytes(text: string): string {
    // A program that asked for bracketed paste gets the markers; any inside the text are removed.
    return this.state.focusedFrame()?.bracketedPaste ? bracketedPaste(text) : text;
  }

  /** Queues bytes for the focused pane; consecutive keys go out as one write. */
  private toPane(text: string): void {
    const pane = this.state.focusedPane();
    if (!pane || pane.status !== 'running') return;
    if (this.pending && this.pending.paneId !== pane.id) this.flush();
    if (this.pending) this.pending.text += text;
    else this.pending = { paneId: pane.id, text };
  }

  private flush(): void {
    if (!this.pending) return;
    const { paneId, text } = this.pending;
    this.pending = null;
    this.send({ kind: 'write', paneId, bytes: new TextEncoder().encode(text) });
  }
}
