/**
 * `patterm presets`: installs the bundled defaults on first run, then lists
 * every preset that loaded and every file that did not, with the reason.
 * Exit status 1 when any file has an error, so scripts can check a config.
 */
import { formatPresetError } from './preset-loader.js';
import { PresetCatalog } from './preset-catalog.js';

export async function runPresetsCommand(out: (text: string) => void = (text) => process.stdout.write(text)): Promise<number> {
  const catalog = PresetCatalog.load();
  const lines: string[] = [];
  for (const file of catalog.install.copied) lines.push(`installed default preset ${file}`);
  for (const { bundled, by, name } of catalog.install.shadowed) lines.push(`default preset ${bundled} not installed: your ${by} is already found by ${JSON.stringify(name)}`);
  for (const problem of catalog.install.problems) lines.push(`warning: ${problem}`);
  if (lines.length > 0) lines.push('');

  lines.push(`Agent presets (${catalog.dirs.agents}):`);
  if (catalog.agents.length === 0) lines.push('  (none)');
  for (const { id, preset } of catalog.agents) {
    const mcp = preset.mcp_injection?.kind ?? 'none';
    const ready = preset.ready_signal?.kind === 'pattern' ? `ready on /${preset.ready_signal.pattern}/` : 'ready when idle';
    lines.push(`  Spawn agent: ${preset.name}  [${id}]  ${preset.argv.join(' ')}  (mcp: ${mcp}; ${ready})`);
  }
  lines.push('', `Process presets (${catalog.dirs.processes}):`);
  if (catalog.processes.length === 0) lines.push('  (none)');
  for (const { id, preset } of catalog.processes) {
    lines.push(`  Run process: ${preset.name}  [${id}]  ${preset.shell ? 'sh -lc ' : ''}${preset.argv.join(' ')}`);
  }
  lines.push('', `Shell presets (${catalog.dirs.shells}):`);
  if (catalog.shells.length === 0) lines.push('  (none)');
  for (const { id, preset } of catalog.shells) {
    lines.push(`  Start shell: ${preset.name}  [${id}]  ${preset.shell}${preset.shell_integration === false ? '  (integration off)' : ''}`);
  }
  if (catalog.errors.length > 0) {
    lines.push('', `Errors (${catalog.errors.length} file${catalog.errors.length === 1 ? '' : 's'} not loaded):`);
    for (const error of catalog.errors) lines.push(...formatPresetError(error).split('\n').map((line) => `  ${line}`));
  }
  out(lines.join('\n') + '\n');
  return catalog.errors.length > 0 ? 1 : 0;
}
