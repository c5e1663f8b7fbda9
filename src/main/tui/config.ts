/**
 * $XDG_CONFIG_HOME/patterm/config.json: key bindings to palette command IDs
 * (bindings are layered on the palette and never re-implement an action),
 * whether a request for attention moves focus, the caps on live panes,
 * whether panes may set the host clipboard (clipboard-forwarding.ts), and
 * where git worktrees go and how they are set up (worktree-settings.ts).
 *
 *   { "keybindings": { "CTRL_N": "patterm.session.next", "F2": "preset.process.bash" },
 *     "attention": { "autoFocus": true },
 *     "limits": { "panesPerSession": 32, "panesTotal": 64 },
 *     "clipboard": { "write": false },
 *     "worktrees": { "dir": "~/worktrees", "setup": "pnpm install --offline" } }
 *
 * A broken file never stops patterm: every problem names its field, the valid
 * parts apply, and the TUI shows the problems in the status line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { builtinCommand, parsePresetCommandId, PALETTE_COMMAND_ID, RESERVED_KEY } from '../../renderer/commands.js';
import { isKnownKeyName } from '../../renderer/key-names.js';
import type { UiConfig } from '../../shared/renderer-protocol.js';
import { configHome } from '../../node/xdg-dirs.js';
import { DEFAULT_PANE_LIMITS, PaneLimitsSchema, type PaneLimits } from '../panes/pane-limits.js';
import { parsePermissionPolicy, POLICY_OFF, type PermissionPolicy } from '../mcp/services/permission-policy.js';
import { ClipboardSchema, DEFAULT_CLIPBOARD, type ClipboardSettings } from './clipboard-forwarding.js';
import { DEFAULT_WORKTREE_SETTINGS, WorktreeSettingsSchema, type WorktreeSettings } from '../worktrees/worktree-settings.js';

const ConfigSchema = v.object({
  keybindings: v.optional(v.record(v.string(), v.string()), {}),
  attention: v.optional(v.object({ autoFocus: v.optional(v.boolean(), false) }), {}),
});

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(configHome(env), 'patterm', 'config.json');
}

/** Everything config.json sets: the renderer's part, and the coordinator's caps. */
export interface PattermConfig {
  ui: UiConfig;
  limits: PaneLimits;
  clipboard: ClipboardSettings;
  /** Which approvals an orchestrator may give (permission-policy.ts); off unless the file turns it on. */
  permissions: PermissionPolicy;
  worktrees: WorktreeSettings;
}

export function loadConfig(path: string = configPath()): PattermConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return defaultConfig([]);
    return defaultConfig([`cannot read ${path}: ${(error as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return defaultConfig([`${path} is not valid JSON: ${(error as Error).message}`]);
  }
  return parseFullConfig(json, path);
}

/** parseConfig, plus the sections the coordinator uses; their problems join the UI's list. */
export function parseFullConfig(json: unknown, path: string): PattermConfig {
  const ui = parseConfig(json);
  const record = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  const limits = parseSection(PaneLimitsSchema, record, 'limits', ui.errors);
  const clipboard = parseSection(ClipboardSchema, record, 'clipboard', ui.errors);
  const worktrees = parseSection(WorktreeSettingsSchema, record, 'worktrees', ui.errors);
  const permissions = parsePermissionPolicy(record.permissions);
  ui.errors.push(...permissions.problems);
  return {
    ui,
    limits: limits ? { ...limits, source: record.limits === undefined ? DEFAULT_PANE_LIMITS.source : path } : DEFAULT_PANE_LIMITS,
    clipboard: clipboard ?? DEFAULT_CLIPBOARD,
    permissions: permissions.policy,
    worktrees: worktrees ?? DEFAULT_WORKTREE_SETTINGS,
  };
}

function defaultConfig(errors: string[]): PattermConfig {
  return { ui: defaults(errors), limits: DEFAULT_PANE_LIMITS, clipboard: DEFAULT_CLIPBOARD, permissions: POLICY_OFF, worktrees: DEFAULT_WORKTREE_SETTINGS };
}

/** One section, or null (its default applies) with each problem added to `errors`, naming the field and what it got. */
function parseSection<S extends v.GenericSchema>(schema: S, record: Record<string, unknown>, name: string, errors: string[]): v.InferOutput<S> | null {
  const parsed = v.safeParse(schema, record[name]);
  if (parsed.success) return parsed.output;
  for (const issue of parsed.issues) errors.push(`${name}${v.getDotPath(issue) ? `.${v.getDotPath(issue)}` : ''}: ${issue.message} (received ${JSON.stringify(issue.input)}); the default applies`);
  return null;
}

export function parseConfig(json: unknown): UiConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return defaults(['(top level): expected a JSON object']);
  const errors: string[] = [];
  const parsed = v.safeParse(ConfigSchema, json);
  if (!parsed.success) {
    for (const issue of parsed.issues) errors.push(`${v.getDotPath(issue) ?? '(top level)'}: ${issue.message}`);
    // Keep what is valid: retry each section on its own.
    const record = json as Record<string, unknown>;
    const keybindings = v.safeParse(ConfigSchema.entries.keybindings, record.keybindings);
    const attention = v.safeParse(ConfigSchema.entries.attention, record.attention);
    return finish(keybindings.success ? keybindings.output : {}, attention.success ? attention.output.autoFocus : false, errors);
  }
  return finish(parsed.output.keybindings, parsed.output.attention.autoFocus, errors);
}

function finish(bindings: Record<string, string>, autoFocus: boolean, errors: string[]): UiConfig {
  const keybindings: Record<string, string> = {};
  for (const [written, command] of Object.entries(bindings)) {
    const field = `keybindings.${written}`;
    // Alt + a letter is named with the letter in capitals (ALT_X; Alt-Shift-x is ALT_SHIFT_X), as keyName() names it.
    const key = /^ALT_.$/u.test(written) ? `ALT_${written.slice(4).toUpperCase()}` : written;
    if (key === RESERVED_KEY) errors.push(`${field}: Ctrl-K is reserved for the command palette and cannot be rebound`);
    else if (!isKnownKeyName(key)) errors.push(`${field}: unknown key name; use terminal-kit names such as CTRL_N, ALT_LEFT, F5 or SHIFT_TAB`);
    else if (command === PALETTE_COMMAND_ID) errors.push(`${field}: ${command} is bound to Ctrl-K only`);
    else if (!builtinCommand(command) && !parsePresetCommandId(command)) errors.push(`${field}: unknown command ID ${JSON.stringify(command)}`);
    else keybindings[key] = command;
  }
  return { keybindings, autoFocusOnAttention: autoFocus, errors };
}

function defaults(errors: string[]): UiConfig {
  return { keybindings: {}, autoFocusOnAttention: false, errors };
}
