/**
 * The environment a pane's program starts with: patterm's own, minus what
 * describes the terminal patterm itself runs in, plus what describes the
 * pane's terminal (patterm). A program reads these to decide which escape
 * sequences to speak and which multiplexer it sits in; inheriting the host
 * terminal's would make it speak to the wrong one.
 */
import { INSTANCE_MARKER_VAR, PANE_MARKER_VAR } from '../../node/process-reaper.js';
import { VERSION } from '../version.js';

/**
 * Variables that belong to the host terminal or multiplexer, not to a pane.
 * - tmux and screen: a program that sees them believes it runs inside them.
 *   `tmux` in a pane then refuses to start ("sessions should be nested with
 *   care") or drives the outer server, and TUIs wrap their sequences in
 *   tmux's passthrough, which the pane's emulator does not unwrap. Claude Code
 *   tells the user to change tmux's focus-events setting.
 * - Terminal identities (kitty, WezTerm, iTerm2, VTE, Konsole, Windows
 *   Terminal, Alacritty, zellij): programs key graphics, keyboard and
 *   hyperlink protocols off them; the pane's terminal is patterm
 *   (TERM_PROGRAM), whatever drew patterm.
 * - COLUMNS and LINES, when a shell exported them: the host window's size,
 *   not the pane's, and they override what the program would ask the PTY.
 */
export const HOST_TERMINAL_VARS: readonly string[] = [
  'TMUX', 'TMUX_PANE', 'STY', 'WINDOW',
  'KITTY_WINDOW_ID', 'KITTY_PID', 'KITTY_LISTEN_ON', 'KITTY_PUBLIC_KEY', 'KITTY_INSTALLATION_DIR',
  'WEZTERM_PANE', 'WEZTERM_UNIX_SOCKET', 'WEZTERM_EXECUTABLE', 'WEZTERM_EXECUTABLE_DIR', 'WEZTERM_CONFIG_FILE', 'WEZTERM_CONFIG_DIR',
  'ITERM_SESSION_ID', 'ITERM_PROFILE', 'TERM_SESSION_ID', 'LC_TERMINAL', 'LC_TERMINAL_VERSION',
  'VTE_VERSION', 'KONSOLE_VERSION', 'KONSOLE_DBUS_SESSION', 'KONSOLE_DBUS_WINDOW', 'KONSOLE_DBUS_SERVICE',
  'WT_SESSION', 'WT_PROFILE_ID', 'ALACRITTY_WINDOW_ID', 'ALACRITTY_SOCKET', 'ALACRITTY_LOG',
  'GHOSTTY_RESOURCES_DIR', 'GHOSTTY_BIN_DIR', 'GHOSTTY_SHELL_FEATURES', 'TERMINAL_EMULATOR',
  'ZELLIJ', 'ZELLIJ_SESSION_NAME', 'ZELLIJ_PANE_ID',
  'COLUMNS', 'LINES',
];

/** The locale variables, strongest first: any one set means the user chose the pane's character set. */
const LOCALE_VARS = ['LC_ALL', 'LC_CTYPE', 'LANG'] as const;

/**
 * The pane's terminal decodes and draws UTF-8 only. With no locale set at
 * all (patterm started from cron, systemd or `env -i`), programs would fall
 * back to the C locale and print every non-ASCII character as raw bytes or
 * `?`, so the pane gets the one UTF-8 locale glibc always has, as VS Code's
 * terminal does (`terminal.integrated.detectLocale`). A locale the user set,
 * UTF-8 or not, is left alone.
 */
export const DEFAULT_PANE_LOCALE = 'C.UTF-8';

/** `{ LANG: DEFAULT_PANE_LOCALE }` when `env` sets no locale at all, else nothing. */
export function localeDefault(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return LOCALE_VARS.every((key) => !env[key]) ? { LANG: DEFAULT_PANE_LOCALE } : {};
}

export interface PaneEnvironmentOptions {
  /** patterm's own environment, inherited by every pane. */
  inherited: Readonly<Record<string, string | undefined>>;
  /** The preset's or caller's variables: they win over everything inherited, host-terminal variables included. */
  extra?: Readonly<Record<string, string>>;
  instanceId: string;
  paneId: string;
}

/** Every pane gets TERM and COLORTERM for the emulator it really talks to, not the host terminal's. */
export function paneEnvironment({ inherited, extra, instanceId, paneId }: PaneEnvironmentOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(inherited)) if (value !== undefined) env[key] = value;
  for (const key of HOST_TERMINAL_VARS) delete env[key];
  Object.assign(env, extra ?? {});
  Object.assign(env, localeDefault(env));
  env.TERM = 'xterm-256color';
  env.COLORTERM = 'truecolor';
  env.TERM_PROGRAM = 'patterm';
  env.TERM_PROGRAM_VERSION = VERSION;
  env[INSTANCE_MARKER_VAR] = instanceId;
  env[PANE_MARKER_VAR] = `${instanceId}/${paneId}`;
  return env;
}
