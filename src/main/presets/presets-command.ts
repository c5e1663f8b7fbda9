export async function runPresetsCommand(): Promise<number> {
  process.stderr.write('patterm presets: presets are not built yet\n');
  return 1;
}
