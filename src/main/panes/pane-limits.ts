/**
 * Caps on live panes, so no agent (or user) can spawn patterm out of memory:
 * each live pane costs patterm a worker thread and its memory before its program
 * runs at all (bench/README.md, "What a pane costs"). Set in config.json's "limits"; a spawn beyond a cap fails with an error
 * that names the cap, its config key and the file that sets it.
 */
import * as v from 'valibot';

export interface PaneLimits {
  /** Live panes in one session (its root and children). */
  panesPerSession: number;
  /** Live panes across all sessions. */
  panesTotal: number;
  /** Where the limits are set, named in the error a refused spawn gets. */
  source: string;
}

/**
 * What a 2-core, 8 GiB laptop survives: 64 idle panes are ~0.7 GiB and 128 threads in
 * patterm, leaving room for the programs in them; one session is held to half of that.
 */
export const DEFAULT_PANE_LIMITS: PaneLimits = { panesPerSession: 32, panesTotal: 64, source: 'patterm\'s defaults; config.json "limits" can change it' };

/** Beyond this, patterm's threads alone would swamp any machine; the schema refuses it. */
const MAX_CONFIGURABLE_PANES = 1024;

const PaneCount = v.pipe(
  v.number('expected a number of panes'),
  v.integer('expected a whole number of panes'),
  v.minValue(1, 'must allow at least 1 pane'),
  v.maxValue(MAX_CONFIGURABLE_PANES, `must be at most ${MAX_CONFIGURABLE_PANES}`),
);

/** config.json's "limits" section. */
export const PaneLimitsSchema = v.optional(
  v.strictObject({
    panesPerSession: v.optional(PaneCount, DEFAULT_PANE_LIMITS.panesPerSession),
    panesTotal: v.optional(PaneCount, DEFAULT_PANE_LIMITS.panesTotal),
  }),
  {},
);

/** What the caps count: a pane that is running, in its session. */
interface CountedPane {
  readonly running: boolean;
  readonly info: { sessionId: string };
}

/**
 * Lets a spawn in, or refuses it with the cap it would pass. A spawn let in
 * counts as live while it starts (workers boot one at a time, so many can be
 * starting at once), until its release(); by then it is in the tree, or failed.
 */
export class PaneAdmission {
  limits: PaneLimits = DEFAULT_PANE_LIMITS;
  private readonly starting = new Map<string, number>();

  /** `place`: the new pane's session, and its parent (null: it starts a new session). */
  admit(place: { sessionId: string; parentId: string | null }, panes: CountedPane[], sessionName: string): { release(): void } {
    const running = panes.filter((pane) => pane.running);
    let total = running.length;
    for (const count of this.starting.values()) total += count;
    const inSession = running.filter((pane) => pane.info.sessionId === place.sessionId).length + (this.starting.get(place.sessionId) ?? 0);
    const where = `set in ${this.limits.source}`;
    if (total >= this.limits.panesTotal) {
      throw new Error(`pane limit reached: ${total} live panes in all sessions, the most limits.panesTotal allows (${this.limits.panesTotal}, ${where}); close or kill panes first`);
    }
    if (place.parentId !== null && inSession >= this.limits.panesPerSession) {
      throw new Error(`pane limit reached: session ${JSON.stringify(sessionName)} has ${inSession} live panes, the most limits.panesPerSession allows (${this.limits.panesPerSession}, ${where}); close or kill panes first`);
    }
    this.starting.set(place.sessionId, (this.starting.get(place.sessionId) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.starting.get(place.sessionId) ?? 1) - 1;
        if (left > 0) this.starting.set(place.sessionId, left);
        else this.starting.delete(place.sessionId);
      },
    };
  }
}
