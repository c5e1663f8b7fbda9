/**
 * OSC 52 from panes: a program's clipboard write (vim's "+y, a nested tmux's
 * copy) reaches the host terminal only when config.json allows it with
 * "clipboard": { "write": true }. Off by default: panes run agents over
 * untrusted text (web pages, files, diffs), and an OSC 52 in it would silently
 * replace what the user pastes next; tmux's default (set-clipboard external)
 * refuses programs the same way. Reads are never answered, whatever the
 * setting (event-signals.ts drops them): they would hand the clipboard to any pane.
 * A dropped write is told in the status line once per run, with the setting.
 */
import * as v from 'valibot';
import { pattermLog } from '../../node/patterm-log.js';

/** config.json's "clipboard" section. */
export const ClipboardSchema = v.optional(v.strictObject({ write: v.optional(v.boolean('expected true or false'), false) }), {});

export interface ClipboardSettings {
  /** Forward panes' OSC 52 clipboard writes to the host terminal. */
  write: boolean;
}

export const DEFAULT_CLIPBOARD: ClipboardSettings = { write: false };

/** OSC 52's selection letters (clipboard, primary, secondary, select, cut buffers 0-7): nothing else may reach the host. */
const SELECTION = /^[cpqs0-7]{0,16}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class ClipboardForwarding {
  private toldDropped = false;

  constructor(
    private readonly settings: ClipboardSettings,
    /** Writes OSC 52 to the host terminal. */
    private readonly forward: (selection: string, base64: string) => void,
    private readonly notify: (text: string) => void,
  ) {}

  /** A pane's clipboard write (a PaneSignal of type 'clipboard'). */
  handle(paneName: string, write: { selection: string; base64: string }): void {
    if (!SELECTION.test(write.selection) || !BASE64.test(write.base64)) {
      pattermLog(`clipboard write from ${paneName} ignored: not OSC 52's form (selection ${JSON.stringify(write.selection.slice(0, 20))}, data not base64)`);
      return;
    }
    if (this.settings.write) {
      this.forward(write.selection, write.base64);
      return;
    }
    if (this.toldDropped) return;
    this.toldDropped = true;
    this.notify(`Clipboard write from ${paneName} dropped: set clipboard.write in config.json`);
  }
}
