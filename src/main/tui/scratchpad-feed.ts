/**
 * Keeps the rail's scratchpad list and preview current: it reloads when an
 * agent writes through the store, and when the directory changes under us
 * (another patterm on the same project, or the user's editor).
 */
import { watch, type FSWatcher } from 'node:fs';
import type { Disposable } from '../../shared/events.js';
import type { UiScratchpad } from '../../shared/renderer-protocol.js';
import { ignoreError, log, logIgnored } from '../../node/patterm-log.js';

/** The store surface the feed needs (src/main/scratchpads/scratchpad-store.ts). */
export interface ScratchpadSource {
  readonly directory: string;
  list(): Promise<Array<{ name: string; size: number; modifiedAt: string }>>;
  read(name: string): Promise<{ content: string }>;
  onChanged(listener: (change: { name: string }) => void): Disposable;
}

/**
 * The reader shows the whole file. The store refuses writes past 1 MiB; a file an
 * editor grew beyond that is shown cut rather than posted whole on every change.
 */
const CONTENT_CHARS = 1024 * 1024;
/** Editors write in bursts (temp file, rename, chmod); one reload after the burst is enough. */
const WATCH_DEBOUNCE_MS = 100;

export class ScratchpadFeed implements Disposable {
  private selected: string | null = null;
  private watcher: FSWatcher | null = null;
  private debounce: ReturnType<typeof setTimeout> | null = null;
  private readonly subscription: Disposable;
  private disposed = false;

  constructor(
    private readonly source: ScratchpadSource,
    private readonly onList: (pads: UiScratchpad[]) => void,
    private readonly onPreview: (name: string, text: string) => void,
  ) {
    this.subscription = source.onChanged(() => this.refresh());
    try {
      this.watcher = watch(source.directory, () => this.refreshSoon());
      this.watcher.on('error', ignoreError(`watching ${source.directory}`));
    } catch (error) {
      // No directory watch (e.g. the directory vanished): writes through the store still refresh.
      logIgnored(`watching ${source.directory}`, error);
    }
    this.refresh();
  }

  select(name: string | null): void {
    this.selected = name;
    void this.loadPreview();
  }

  private refreshSoon(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.debounce = setTimeout(() => {
      this.debounce = null;
      this.refresh();
    }, WATCH_DEBOUNCE_MS);
  }

  private refresh(): void {
    if (this.disposed) return;
    this.source.list().then(
      (entries) => {
        if (this.disposed) return;
        this.onList(entries.map((entry) => ({ name: entry.name, size: entry.size, modifiedAt: Date.parse(entry.modifiedAt) || 0 })));
        void this.loadPreview();
      },
      ignoreError('listing scratchpads for the rail'),
    );
  }

  private async loadPreview(): Promise<void> {
    const name = this.selected;
    if (!name || this.disposed) return;
    try {
      const { content } = await this.source.read(name);
      if (!this.disposed && name === this.selected) this.onPreview(name, content.slice(0, CONTENT_CHARS));
    } catch (error) {
      // Deleted or unreadable: the next list refresh drops it from the rail.
      logIgnored(`previewing scratchpad ${name}`, error);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.watcher?.close();
    if (this.debounce) clearTimeout(this.debounce);
  }
}
