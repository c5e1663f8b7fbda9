/**
 * The presets patterm knows about: the user's preset directories after the
 * first-run copy of the bundled defaults. The palette lists these, and
 * spawn_agent / spawn_process look them up by file id or by display name.
 */
import type { AgentPreset, ProcessPreset, ShellPreset } from '../../shared/preset-schema.js';
import { installDefaultPresets, type InstallReport } from './default-presets.js';
import { loadPresetDir, type LoadedPreset, type PresetError } from './preset-loader.js';
import { bundledPresetDirs, presetDirs, type PresetDirs } from './preset-paths.js';

export interface CatalogOptions {
  /** Where the user's presets live; defaults to $XDG_CONFIG_HOME/patterm/presets. */
  dirs?: PresetDirs;
  /** Defaults to copy on first run; null skips the copy (tests, `--no-defaults`). */
  bundled?: PresetDirs | null;
}

export class PresetCatalog {
  agents: LoadedPreset<AgentPreset>[] = [];
  processes: LoadedPreset<ProcessPreset>[] = [];
  shells: LoadedPreset<ShellPreset>[] = [];
  errors: PresetError[] = [];
  install: InstallReport = { copied: [], kept: [], shadowed: [], problems: [] };
  readonly dirs: PresetDirs;
  private readonly bundled: PresetDirs | null;

  constructor(options: CatalogOptions = {}) {
    this.dirs = options.dirs ?? presetDirs();
    this.bundled = options.bundled === undefined ? bundledPresetDirs() : options.bundled;
  }

  /** Copies missing defaults (first run), then (re)reads both directories. */
  static load(options: CatalogOptions = {}): PresetCatalog {
    return new PresetCatalog(options).reload();
  }

  reload(): this {
    if (this.bundled) this.install = installDefaultPresets(this.bundled, this.dirs);
    const agents = loadPresetDir('agent', this.dirs.agents);
    const processes = loadPresetDir('process', this.dirs.processes);
    const shells = loadPresetDir('shell', this.dirs.shells);
    this.agents = agents.presets;
    this.processes = processes.presets;
    this.shells = shells.presets;
    this.errors = [...agents.errors, ...processes.errors, ...shells.errors];
    return this;
  }

  findAgent(key: string): LoadedPreset<AgentPreset> | undefined {
    return findPreset(this.agents, key);
  }

  findProcess(key: string): LoadedPreset<ProcessPreset> | undefined {
    return findPreset(this.processes, key);
  }

  findShell(key: string): LoadedPreset<ShellPreset> | undefined {
    return findPreset(this.shells, key);
  }

  /** For "unknown preset" errors: what the caller could have said instead. */
  describeAgents(): string {
    return describe(this.agents);
  }

  describeProcesses(): string {
    return describe(this.processes);
  }

  describeShells(): string {
    return describe(this.shells);
  }
}

/** File id first (stable), then exact display name, then the name ignoring case. */
function findPreset<T extends { name: string }>(presets: LoadedPreset<T>[], key: string): LoadedPreset<T> | undefined {
  return (
    presets.find((entry) => entry.id === key) ??
    presets.find((entry) => entry.preset.name === key) ??
    presets.find((entry) => entry.preset.name.toLowerCase() === key.toLowerCase())
  );
}

function describe<T extends { name: string }>(presets: LoadedPreset<T>[]): string {
  if (presets.length === 0) return 'none are loaded';
  return presets.map((entry) => (entry.id === entry.preset.name ? entry.id : `${entry.id} ("${entry.preset.name}")`)).join(', ');
}
