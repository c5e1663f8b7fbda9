/**
 * Points one agent invocation at patterm's MCP stdio proxy without touching the
 * user's vendor config, which patterm never edits. Each kind adds arguments or
 * environment to this launch only; the config file kind writes a private temp
 * file that the caller removes when the pane exits.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { McpInjection } from '../../shared/preset-schema.js';
import { removeAtExit } from '../process/exit-cleanups.js';

/** The server name agents see patterm's tools under (claude: mcp__patterm__*, opencode: patterm_*). */
export const DEFAULT_SERVER_NAME = 'patterm';

export interface Injection {
  /** Appended to the preset's argv. */
  args: string[];
  env: Record<string, string>;
  /** Removes temp files; safe to call more than once. */
  cleanup: () => void;
}

/** A TOML basic string: JSON string escaping is a subset TOML accepts for these characters. */
export function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** The `mcpServers` JSON that Claude Code's --mcp-config and .mcp.json, and most MCP hosts, read. */
export function mcpServersConfig(server: string, command: string, args: string[]): { mcpServers: Record<string, { type: 'stdio'; command: string; args: string[] }> } {
  return { mcpServers: { [server]: { type: 'stdio', command, args } } };
}

function tomlValue(value: string | number | boolean): string {
  return typeof value === 'string' ? tomlString(value) : String(value);
}

/** Replaces the placeholder strings "{command}", "{args}", "{argv}" anywhere in a JSON template. */
function fillTemplate(value: unknown, command: string, args: string[]): unknown {
  if (value === '{command}') return command;
  if (value === '{args}') return [...args];
  if (value === '{argv}') return [command, ...args];
  if (Array.isArray(value)) return value.map((item) => fillTemplate(item, command, args));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, fillTemplate(inner, command, args)]));
  }
  return value;
}

/** Objects merge key by key; anything else in `over` replaces what is in `base`. */
export function deepMerge(base: unknown, over: unknown): unknown {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(base) || !isObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = key in base ? deepMerge(base[key], value) : value;
  return merged;
}

/**
 * @param proxy the proxy argv from McpEndpoint.proxyCommand(token)
 * @param inheritedEnv the environment the agent would otherwise get (for env_json merging)
 */
export function buildInjection(injection: McpInjection | undefined, proxy: string[], inheritedEnv: Record<string, string | undefined>): Injection {
  const none: Injection = { args: [], env: {}, cleanup: () => undefined };
  if (!injection || injection.kind === 'none') return none;
  if (proxy.length === 0) throw new Error('the MCP proxy command is empty; cannot wire MCP into the agent');
  const [command, ...args] = proxy;
  const server = injection.server_name ?? DEFAULT_SERVER_NAME;

  switch (injection.kind) {
    case 'config_file_flag': {
      // 0700 directory, so other users cannot read the identity token in the file.
      const dir = mkdtempSync(join(tmpdir(), 'patterm-mcp-'));
      const file = join(dir, `${server}.json`);
      // The file holds the agent's identity token: it must not outlive patterm, even when
      // patterm exits before the pane's exit is reported, or is killed.
      const forgetAtExit = removeAtExit(dir, 'tree');
      const cleanup = () => {
        rmSync(dir, { recursive: true, force: true });
        forgetAtExit();
      };
      try {
        writeFileSync(file, JSON.stringify(mcpServersConfig(server, command, args), null, 2), { mode: 0o600 });
      } catch (error) {
        cleanup();
        throw error;
      }
      return { args: injection.args.map((arg) => arg.split('{config_file}').join(file)), env: {}, cleanup };
    }
    case 'toml_overrides': {
      const flag = injection.flag ?? '-c';
      const prefix = (injection.key_prefix ?? 'mcp_servers.{server}').split('{server}').join(server);
      const overrides = [`${prefix}.command=${tomlString(command)}`, `${prefix}.args=[${args.map(tomlString).join(',')}]`];
      for (const [key, value] of Object.entries(injection.extra ?? {})) overrides.push(`${prefix}.${key}=${tomlValue(value)}`);
      return { args: overrides.flatMap((override) => [flag, override]), env: {}, cleanup: () => undefined };
    }
    case 'env_json': {
      const filled = fillTemplate(JSON.parse(JSON.stringify(injection.template).split('{server}').join(server)), command, args);
      let existing: unknown = {};
      const current = inheritedEnv[injection.var];
      if (current) {
        try {
          existing = JSON.parse(current);
        } catch {
          throw new Error(`${injection.var} already holds text that is not JSON, so patterm cannot merge its MCP server into it (received ${JSON.stringify(current.slice(0, 80))})`);
        }
      }
      return { args: [], env: { [injection.var]: JSON.stringify(deepMerge(existing, filled)) }, cleanup: () => undefined };
    }
  }
}
