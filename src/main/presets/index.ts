/** The preset system: what app.ts, the MCP server and the TUI palette use. */
export { PresetAgentLauncher, createAgentLauncher, UnknownPresetError, type AgentLauncherOptions } from './agent-launcher.js';
export { PresetCatalog, type CatalogOptions } from './preset-catalog.js';
export { formatPresetError, type LoadedPreset, type PresetError } from './preset-loader.js';
export { presetDirs, configHome, dataHome } from './preset-paths.js';
