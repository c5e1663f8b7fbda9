/**
 * The command palette's state: a stack of views (the command list, then
 * sub-palettes such as "Switch to session…" or an agent's initial prompt),
 * each with its query and selection. Drawing lives in palette-view.ts; what
 * the entries do lives in the controller that builds them.
 */
import { fuzzyFilter, type FuzzyMatch } from './fuzzy-match.js';

export interface PaletteItem {
  /** Stable ID: the command ID for commands, or the thing picked (a session, a pane…). */
  id: string;
  label: string;
  /** Shown dimmed after the label: a key binding, a status, or why the entry is disabled. */
  detail?: string;
  /** Set for entries that cannot run (e.g. a broken preset file); Enter shows the reason. */
  disabledReason?: string;
  /** Return 'keep-open' when the item opened a sub-palette. */
  run(): void | 'keep-open';
}

export interface PaletteViewSpec {
  title: string;
  /** 'list' filters items; 'text' collects free text (a prompt, a new name). */
  kind: 'list' | 'text';
  placeholder?: string;
  initialQuery?: string;
  items?: () => PaletteItem[];
  submit?: (text: string) => void;
}

export interface VisibleItem {
  item: PaletteItem;
  match: FuzzyMatch;
}

interface ViewState {
  spec: PaletteViewSpec;
  query: string;
  selected: number;
}

export type AcceptResult = { outcome: 'close' } | { outcome: 'stay' } | { outcome: 'disabled'; reason: string };

export class Palette {
  private readonly stack: ViewState[] = [];

  constructor(root: PaletteViewSpec) {
    this.push(root);
  }

  get view(): PaletteViewSpec {
    return this.top.spec;
  }

  get query(): string {
    return this.top.query;
  }

  get selected(): number {
    return this.top.selected;
  }

  get depth(): number {
    return this.stack.length;
  }

  private get top(): ViewState {
    return this.stack[this.stack.length - 1];
  }

  push(spec: PaletteViewSpec): void {
    this.stack.push({ spec, query: spec.initialQuery ?? '', selected: 0 });
  }

  /** Back to the previous view; false when already at the first one. */
  pop(): boolean {
    if (this.stack.length <= 1) return false;
    this.stack.pop();
    return true;
  }

  visible(): VisibleItem[] {
    const { spec, query } = this.top;
    if (spec.kind !== 'list' || !spec.items) return [];
    return fuzzyFilter(query, spec.items(), (item) => item.label);
  }

  insert(text: string): void {
    // A list query is one line; a prompt keeps its newlines.
    const clean = this.top.spec.kind === 'list' ? text.replace(/[\r\n\t]+/g, ' ') : text.replace(/\r\n?/g, '\n');
    this.top.query += clean;
    this.top.selected = 0;
  }

  backspace(): void {
    const chars = [...this.top.query];
    chars.pop();
    this.top.query = chars.join('');
    this.top.selected = 0;
  }

  move(delta: number): void {
    const count = this.visible().length;
    if (count === 0) return;
    this.top.selected = (((this.top.selected + delta) % count) + count) % count;
  }

  select(index: number): void {
    this.top.selected = index;
  }

  accept(): AcceptResult {
    const { spec, query } = this.top;
    if (spec.kind === 'text') {
      spec.submit?.(query);
      return { outcome: 'close' };
    }
    const chosen = this.visible()[this.top.selected];
    if (!chosen) return { outcome: 'stay' };
    if (chosen.item.disabledReason) return { outcome: 'disabled', reason: chosen.item.disabledReason };
    return chosen.item.run() === 'keep-open' ? { outcome: 'stay' } : { outcome: 'close' };
  }
}
