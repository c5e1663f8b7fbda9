/**
 * Clickable places on the last drawn frame. Views record them as they draw,
 * so a click is resolved against exactly what the user saw.
 */
import { contains, type Rect } from './layout.js';

export type HitTarget =
  | { kind: 'tab'; sessionId: string }
  | { kind: 'spawn' }
  | { kind: 'tree'; paneId: string }
  | { kind: 'scratchpad'; name: string }
  | { kind: 'palette-item'; index: number }
  | { kind: 'palette' };

export class HitRegions {
  private regions: Array<{ rect: Rect; target: HitTarget }> = [];

  clear(): void {
    this.regions = [];
  }

  add(rect: Rect, target: HitTarget): void {
    this.regions.push({ rect, target });
  }

  /** The topmost target under the cell (later regions are drawn over earlier ones). */
  at(x: number, y: number): HitTarget | null {
    for (let i = this.regions.length - 1; i >= 0; i--) if (contains(this.regions[i].rect, x, y)) return this.regions[i].target;
    return null;
  }
}
