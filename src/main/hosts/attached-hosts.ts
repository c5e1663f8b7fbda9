/**
 * "Connect an external orchestrator…" in the TUI: a new session whose
 * orchestrator is an MCP host outside patterm. Its root pane shows the MCP
 * server entry to paste into the host, which is also written to a 0600 file
 * beside patterm's socket, and whether the host is connected. The entry's
 * token is valid for this run and this session only: killing the session's
 * root (closing its tab) revokes it and ends the session's children.
 */
import { dirname, join } from 'node:path';
import { unlink } from 'node:fs/promises';
import type { Coordinator } from '../coordinator.js';
import type { McpServerHandle } from '../mcp/index.js';
import { removeAtExit } from '../process/exit-cleanups.js';
import { ignoreError } from '../../node/patterm-log.js';
import { entryOf, setupLines, writeEntryFile } from './host-entry.js';
import { HostSession } from './host-session.js';

export interface AttachedHostsOptions {
  coordinator: Coordinator;
  mcp: McpServerHandle;
}

export interface AttachedHost {
  session: HostSession;
  /** The 0600 file with the host's MCP server entry. */
  entryFile: string;
}

export class AttachedHosts {
  private opened = 0;
  private readonly hosts = new Set<AttachedHost>();

  constructor(private readonly options: AttachedHostsOptions) {}

  /** Opens a session for an outside host; it becomes the active tab (the user opened it). */
  async connect(): Promise<AttachedHost> {
    const { coordinator, mcp } = this.options;
    const name = `host-${++this.opened}`;
    const session = await HostSession.open({ coordinator, mcp, name, owner: 'user' });
    // Beside the socket: a private directory that lives as long as the run, as the token does.
    const entryFile = join(dirname(mcp.socketPath), `${process.pid}-${session.rootId}.mcp.json`);
    const entry = entryOf(mcp.proxyCommand(session.token));
    const forgetAtExit = removeAtExit(entryFile, 'file');
    try {
      await writeEntryFile(entryFile, entry);
    } catch (error) {
      forgetAtExit();
      await session.close();
      throw new Error(`could not write the MCP server entry to ${entryFile}: ${(error as Error).message}`);
    }
    const host = { session, entryFile };
    this.hosts.add(host);
    session.onEnded(() => {
      this.hosts.delete(host);
      forgetAtExit();
      void unlink(entryFile).catch(ignoreError(`removing the MCP server entry ${entryFile} of an ended host session`));
    });
    session.show([
      '',
      'Connect an MCP host to drive this session as its orchestrator. Its MCP server entry',
      `(command and args) is in ${entryFile} (mode 0600):`,
      '',
      `  command: ${entry.command}`,
      `  args:    ${entry.args.join(' ')}`,
      '',
      ...setupLines(entry, entryFile),
      '',
      'The token in it is good for this session of this patterm run only. To end the session',
      "and its children, and revoke the token: Ctrl-K, Kill child…, this pane, then close it.",
      '',
      'Not connected yet.',
    ]);
    return host;
  }

  /** connect(), and what to tell the user about it. */
  async connectAndDescribe(): Promise<string> {
    const { entryFile } = await this.connect();
    return `Paste the MCP server entry shown in the new session into your host (also in ${entryFile})`;
  }

  get count(): number {
    return this.hosts.size;
  }
}
