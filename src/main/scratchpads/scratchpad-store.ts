/**
 * Project-scoped scratchpads: markdown files that
 * agents and the human share. Every read returns a revision; a write or append
 * that names the revision it was based on fails, rather than losing an update,
 * when someone changed the file in between.
 *
 * Revisions are content hashes, so they stay meaningful when two patterm
 * processes (or a human's editor) share the directory.
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, readlink, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { Emitter } from '../../shared/events.js';
import { VERSION } from '../version.js';
import { DiskFullError, isNoSpaceError, writeFileAtomic } from '../../node/atomic-write.js';
import { FileLockError, withFileLock } from './file-lock.js';
import { KeyedLock } from '../../node/keyed-lock.js';
import { projectDataDir } from '../project/project-key.js';
import { scratchpadNameProblem } from './scratchpad-name.js';
import { ignoreError, log, logIgnored } from '../../node/patterm-log.js';

/**
 * A scratchpad is a note for humans and agents, not a data store: 1 MiB is
 * hundreds of pages, far more than an agent should pull into its context at once.
 */
export const MAX_SCRATCHPAD_BYTES = 1024 * 1024;
/**
 * A scratchpad_read reply carries the content twice (text for the model and
 * structured for programs), JSON-escaped, on one line; MCP clients close the
 * whole connection on a longer line than they buffer (the TypeScript SDK's
 * default is 10 MiB). So one escaped copy must stay well under half of that.
 */
export const MAX_SCRATCHPAD_JSON_BYTES = 4 * 1024 * 1024;
/** What `expected_revision` says when the caller expects the scratchpad not to exist yet. */
export const ABSENT_REVISION = 'none';
/** Hex digits of the content hash kept as the revision: plenty to tell versions of one file apart. */
const REVISION_LENGTH = 16;

export type ScratchpadErrorCode = 'invalid-name' | 'not-found' | 'conflict' | 'too-large' | 'not-text' | 'symlink' | 'disk-full' | 'io';

export class ScratchpadError extends Error {
  override readonly name = 'ScratchpadError';
  constructor(
    readonly code: ScratchpadErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface ScratchpadEntry {
  name: string;
  size: number;
  modifiedAt: string;
}

export interface ScratchpadContent extends ScratchpadEntry {
  content: string;
  revision: string;
}

export interface ScratchpadChange {
  name: string;
  revision: string;
  size: number;
  kind: 'write' | 'append';
}

export interface ScratchpadStoreOptions {
  projectDir: string;
  /** Defaults to $XDG_DATA_HOME (or ~/.local/share). */
  dataHome?: string;
}

export function revisionOf(content: string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, REVISION_LENGTH);
}

/** Bytes the content takes as a JSON string, as it travels in an MCP message. */
function jsonBytes(content: string): number {
  return Buffer.byteLength(JSON.stringify(content));
}

export class ScratchpadStore {
  private readonly changed = new Emitter<ScratchpadChange>();
  /** Fires after a write or append through this store has landed on disk (the TUI rail listens). */
  readonly onChanged = this.changed.event;
  private readonly locks = new KeyedLock<string>();

  private constructor(
    readonly projectDir: string,
    /** `<data>/patterm/projects/<key>`: holds meta.json and scratchpads/. */
    readonly projectDataDir: string,
  ) {}

  get directory(): string {
    return join(this.projectDataDir, 'scratchpads');
  }

  /** Creates the directories and records the project in meta.json (its path, last opened, patterm's version), so a human can tell which project a key belongs to. */
  static async open(options: ScratchpadStoreOptions): Promise<ScratchpadStore> {
    const store = new ScratchpadStore(options.projectDir, projectDataDir(options.projectDir, options.dataHome));
    await mkdir(store.directory, { recursive: true, mode: 0o700 });
    await store.touchMeta();
    return store;
  }

  private async touchMeta(): Promise<void> {
    const path = join(this.projectDataDir, 'meta.json');
    let previous: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) previous = parsed as Record<string, unknown>;
    } catch (error) {
      // Missing or unreadable meta is rewritten from scratch; it holds nothing irreplaceable.
      logIgnored(`reading ${path}`, error);
    }
    const meta = { ...previous, project_path: this.projectDir, last_opened: new Date().toISOString(), version: VERSION };
    try {
      await writeFileAtomic(path, JSON.stringify(meta, null, 2) + '\n');
    } catch (error) {
      // meta.json is informational; a full disk must not stop patterm from starting.
      logIgnored(`writing ${path}`, error);
    }
  }

  async list(): Promise<ScratchpadEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const entries: ScratchpadEntry[] = [];
    for (const name of names.filter((entry) => scratchpadNameProblem(entry) === null).sort()) {
      try {
        const info = await stat(join(this.directory, name));
        if (info.isFile()) entries.push({ name, size: info.size, modifiedAt: info.mtime.toISOString() });
      } catch (error) {
        // Deleted between readdir and stat: not listed.
        logIgnored(`reading scratchpad ${name}`, error);
      }
    }
    return entries;
  }

  /**
   * `forReply`: the content is going back to an agent in one MCP message, so a
   * file grown past the limit outside patterm is refused instead of sent.
   */
  async read(name: string, options: { forReply?: boolean } = {}): Promise<ScratchpadContent> {
    const path = this.pathFor(name);
    const shown = JSON.stringify(name);
    if (options.forReply) {
      const size = await stat(path).then((info) => info.size, ignoreError(`sizing scratchpad ${path}`, 0));
      if (size > MAX_SCRATCHPAD_BYTES) {
        throw new ScratchpadError(
          'too-large',
          `scratchpad ${shown} is ${size} bytes, more than the limit of ${MAX_SCRATCHPAD_BYTES} bytes (it was made larger outside patterm), too much to return in one reply; ask the human to trim it, or replace it with scratchpad_write`,
        );
      }
    }
    const current = await this.load(path);
    if (current === null) {
      throw new ScratchpadError('not-found', `no scratchpad named ${shown}; scratchpad_list shows the ones that exist`);
    }
    if (options.forReply && jsonBytes(current) > MAX_SCRATCHPAD_JSON_BYTES) {
      throw new ScratchpadError(
        'too-large',
        `scratchpad ${shown} takes ${jsonBytes(current)} bytes as JSON (control characters are escaped as \\u00XX), more than the ${MAX_SCRATCHPAD_JSON_BYTES} bytes one reply can carry; replace it with scratchpad_write`,
      );
    }
    const info = await stat(path);
    return { name, content: current, revision: revisionOf(current), size: info.size, modifiedAt: info.mtime.toISOString() };
  }

  /** Replaces the whole scratchpad (creating it if needed). */
  async write(name: string, content: string, expectedRevision?: string): Promise<ScratchpadChange> {
    const path = this.pathFor(name);
    return this.exclusive(name, async () => {
      const current = await this.load(path);
      this.checkRevision(name, current, expectedRevision);
      return this.store(name, path, content, 'write');
    });
  }

  /** Adds to the end of the scratchpad (creating it if needed). */
  async append(name: string, content: string, expectedRevision?: string): Promise<ScratchpadChange> {
    const path = this.pathFor(name);
    return this.exclusive(name, async () => {
      const bytes = await this.loadBytes(path);
      const current = bytes === null ? null : bytes.toString('utf8');
      this.checkRevision(name, current, expectedRevision);
      // The old text is written back, so it must decode exactly: a lossy decode would replace bytes the user's editor saved.
      if (bytes !== null && !isUtf8(bytes)) {
        throw new ScratchpadError(
          'not-text',
          `scratchpad ${JSON.stringify(name)} is not UTF-8 text (it was saved outside patterm in another encoding); appending would rewrite its other bytes as U+FFFD, so nothing was written. Re-save it as UTF-8, or replace it with scratchpad_write`,
        );
      }
      return this.store(name, path, (current ?? '') + content, 'append');
    });
  }

  /** Serialises a read-modify-write of `name` with this process's other calls and with other patterm processes. */
  private exclusive<T>(name: string, job: () => Promise<T>): Promise<T> {
    // Dot-prefixed, so list() never shows it (scratchpad names cannot start with a dot).
    const lockPath = join(this.directory, `.${name}.lock`);
    return this.locks.run(name, () =>
      withFileLock(lockPath, job).catch((error: unknown) => {
        if (!(error instanceof FileLockError)) throw error;
        throw new ScratchpadError(isNoSpaceError(error.cause) ? 'disk-full' : 'io', `could not lock scratchpad ${JSON.stringify(name)}: ${error.message}; try again`);
      }),
    );
  }

  private pathFor(name: string): string {
    const problem = scratchpadNameProblem(name);
    if (problem) throw new ScratchpadError('invalid-name', `invalid scratchpad name: ${problem}`);
    return join(this.directory, name);
  }

  private async load(path: string): Promise<string | null> {
    return (await this.loadBytes(path))?.toString('utf8') ?? null;
  }

  private async loadBytes(path: string): Promise<Buffer | null> {
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new ScratchpadError('io', `could not read ${path}: ${(error as Error).message}`);
    }
  }

  private checkRevision(name: string, current: string | null, expected: string | undefined): void {
    if (expected === undefined) return;
    const actual = current === null ? ABSENT_REVISION : revisionOf(current);
    if (actual === expected) return;
    const now = current === null ? 'it does not exist' : `its revision is now ${JSON.stringify(actual)}`;
    throw new ScratchpadError(
      'conflict',
      `scratchpad ${JSON.stringify(name)} changed since revision ${JSON.stringify(expected)} (${now}); read it again, merge, and retry with the new revision`,
    );
  }

  private async store(name: string, path: string, content: string, kind: ScratchpadChange['kind']): Promise<ScratchpadChange> {
    // The atomic rename would replace a link the user made (say to the project's NOTES.md) with a copy, and the two would drift apart unnoticed.
    if (await lstat(path).then((info) => info.isSymbolicLink(), ignoreError(`checking ${path} for a link`, false))) {
      const target = await readlink(path).catch(ignoreError(`reading the link ${path}`, '?'));
      throw new ScratchpadError(
        'symlink',
        `scratchpad ${JSON.stringify(name)} is a symbolic link to ${JSON.stringify(target)}; patterm writes only files inside the scratchpad directory and will not replace the link with a copy, so nothing was written`,
      );
    }
    const size = Buffer.byteLength(content);
    if (size > MAX_SCRATCHPAD_BYTES) {
      throw new ScratchpadError('too-large', `scratchpad ${JSON.stringify(name)} would be ${size} bytes; the limit is ${MAX_SCRATCHPAD_BYTES} bytes`);
    }
    // Otherwise it could be written but never read back: the reply would be too long for the reader's MCP client.
    const encoded = jsonBytes(content);
    if (encoded > MAX_SCRATCHPAD_JSON_BYTES) {
      throw new ScratchpadError(
        'too-large',
        `scratchpad ${JSON.stringify(name)} would take ${encoded} bytes as JSON (control characters are escaped as \\u00XX); the limit is ${MAX_SCRATCHPAD_JSON_BYTES} bytes`,
      );
    }
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      await writeFileAtomic(path, content);
    } catch (error) {
      if (error instanceof DiskFullError) {
        throw new ScratchpadError('disk-full', `disk full: could not write scratchpad ${JSON.stringify(name)} (${error.code}); its previous content is unchanged`);
      }
      if (isNoSpaceError(error)) {
        throw new ScratchpadError('disk-full', `disk full: could not create the scratchpad directory for ${JSON.stringify(name)} (${(error as NodeJS.ErrnoException).code})`);
      }
      throw new ScratchpadError('io', `could not write scratchpad ${JSON.stringify(name)}: ${(error as Error).message}`);
    }
    const change: ScratchpadChange = { name, revision: revisionOf(content), size, kind };
    this.changed.fire(change);
    return change;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
