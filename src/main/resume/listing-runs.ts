/**
 * When and how often a CLI's conversation listing runs: after a pane's turn
 * or a submitted message, once per directory at a time (a listing starts the
 * whole CLI, seconds of CPU), again afterwards if more turns ended meanwhile.
 * Each run hands its new conversations to the panes the evidence names
 * (session-listing.ts).
 */
import type { PaneId } from '../../shared/pane-types.js';
import type { Conversation } from '../../shared/conversation-schema.js';
import { log } from '../../node/patterm-log.js';
import type { ConversationRecord } from './layout-record.js';
import { attributeConversations, runListing, type ListedPane } from './session-listing.js';

/** Lets the CLI finish writing the conversation it just made before it is listed. */
const LISTING_DELAY_MS = 1000;

/** What the listing needs of a followed pane (conversation-tracker.ts). */
export interface ListingFollower {
  paneId: PaneId;
  cwd: string;
  spawnedAt: number;
  exitedAt: number | null;
  /** [start, end] of each turn seen or message submitted. */
  activity: [number, number][];
  busySince: number | null;
  env: NodeJS.ProcessEnv;
  /** When the conversation it holds was made, as listed. */
  currentCreated: number | null;
  config: Conversation;
  record: ConversationRecord;
}

export interface ListingRunsOptions {
  claimed: Set<string>;
  clock: () => number;
  update(paneId: PaneId, record: ConversationRecord): void;
  /** Every followed pane: a run looks at all of its directory's at once. */
  panes(): Iterable<ListingFollower>;
  run?: typeof runListing;
}

interface Group {
  running: Promise<void> | null;
  again: boolean;
}

export class ListingRuns {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly options: ListingRunsOptions) {}

  request(pane: ListingFollower, why: string): void {
    if (pane.config.id.kind !== 'listing') return;
    const key = groupKey(pane);
    const group = this.groups.get(key) ?? { running: null, again: false };
    this.groups.set(key, group);
    if (group.running) {
      group.again = true;
      return;
    }
    log.debug(`listing conversations in ${pane.cwd} ${why} (pane ${pane.paneId})`);
    group.running = this.loop(key, group, pane);
  }

  async settled(): Promise<void> {
    while ([...this.groups.values()].some((group) => group.running)) await Promise.all([...this.groups.values()].map((group) => group.running));
  }

  private async loop(key: string, group: Group, sample: ListingFollower): Promise<void> {
    try {
      do {
        group.again = false;
        await new Promise((resolve) => setTimeout(resolve, LISTING_DELAY_MS));
        await this.once(key, sample);
      } while (group.again);
    } finally {
      group.running = null;
    }
  }

  private async once(key: string, sample: ListingFollower): Promise<void> {
    if (sample.config.id.kind !== 'listing') return;
    const fields = sample.config.id;
    const panes = [...this.options.panes()].filter((pane) => pane.config.id.kind === 'listing' && groupKey(pane) === key);
    let entries;
    try {
      entries = await (this.options.run ?? runListing)(fields, sample.cwd, sample.env);
    } catch (error) {
      log.warn(`listing conversations in ${sample.cwd}: ${(error as Error).message}`);
      for (const pane of panes) {
        if (pane.record.status === 'none_yet' && pane.activity.length > 0) {
          this.options.update(pane.paneId, { status: 'unknown', id: null, provenance: fields.argv.join(' '), reason: (error as Error).message, at: this.options.clock() });
        }
      }
      return;
    }
    const command = fields.argv.join(' ');
    log.debug(`${entries.length} conversations listed in ${sample.cwd}, for panes ${panes.map((pane) => pane.paneId).join(', ')}`);
    for (const result of attributeConversations(entries, panes.map(listedPane), this.options.claimed)) {
      if ('paneId' in result) {
        const { id, created, directory } = result.conversation;
        const pane = panes.find((candidate) => candidate.paneId === result.paneId)!;
        pane.currentCreated = created;
        this.options.claimed.add(id);
        this.options.update(pane.paneId, {
          status: 'known',
          id,
          provenance: `listed by \`${command}\`: made in ${directory} at ${new Date(created).toISOString()}, while this pane alone was active there`,
          at: this.options.clock(),
        });
      } else {
        const { id, created, directory } = result.ambiguous;
        this.options.claimed.add(id);
        const names = result.panes.join(', ');
        // Any of them may now be in it, so what each held before is no longer known to be current.
        for (const pane of panes.filter((candidate) => result.panes.includes(candidate.paneId))) {
          this.options.update(pane.paneId, {
            status: 'unknown',
            id: null,
            provenance: `listed by \`${command}\``,
            reason: `conversation ${id} was made in ${directory} at ${new Date(created).toISOString()} while panes ${names} were all active there; patterm does not guess which one it belongs to`,
            at: this.options.clock(),
          });
        }
      }
    }
  }
}

function groupKey(pane: ListingFollower): string {
  return JSON.stringify([pane.config.id.kind === 'listing' ? pane.config.id.argv : [], pane.cwd]);
}

function listedPane(pane: ListingFollower): ListedPane {
  const activity: [number, number][] = [...pane.activity];
  if (pane.busySince !== null) activity.push([pane.busySince, Number.MAX_SAFE_INTEGER]);
  return {
    paneId: pane.paneId,
    cwd: pane.cwd,
    spawnedAt: pane.spawnedAt,
    exitedAt: pane.exitedAt,
    activity,
    current: pane.record.status === 'known' && pane.record.id !== null ? { id: pane.record.id, created: pane.currentCreated } : null,
  };
}
