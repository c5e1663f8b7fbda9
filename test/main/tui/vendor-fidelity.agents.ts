/**
 * The vendor agent CLIs inside patterm look exactly as they do in a plain
 * terminal of the pane's size: the same CLI, the same offline world (the fake
 * model server and a throwaway HOME), started once in a patterm pane and once
 * straight in tmux, compared at start-up and after a reply. Text and cursor are
 * compared; colours are not, because the CLIs pick themes from how the
 * terminal answers their colour queries, and patterm's answers are its own.
 *
 * Part of `pnpm test:agents`; a CLI that is not installed is skipped.
 */
import { test } from 'node:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { paneSizeFor } from '../../../src/renderer/layout.js';
import { FakeModelServer } from '../../fixtures/fake-model/server.js';
import { createVendorEnv } from '../../fixtures/fake-model/vendor-env.js';
import { cliVersion, VENDORS, type Vendor } from '../presets/agent-world.js';
import { assertSameScreen, DirectProgram } from './direct-program.js';
import { eventually, TmuxPatterm } from './tmux-harness.js';

/** What each CLI shows once it waits for input (from the default presets' ready signals). */
const READY: Record<Vendor, RegExp> = {
  claude: /\? for shortcuts/,
  codex: /\? for shortcuts/,
  opencode: /ctrl\+p commands/,
};
/** What each CLI picks at random per run (a spinner verb, a placeholder suggestion): not a rendering difference. */
const RANDOM_CONTENT: Record<Vendor, RegExp[]> = {
  claude: [/(?<=✻ )\S+(?= for \d+s)/g],
  codex: [],
  opencode: [/(?<=Ask anything… ")[^"]*(?=")/g],
};
const normalize = (vendor: Vendor) => (line: string) => RANDOM_CONTENT[vendor].reduce((text, pattern) => text.replace(pattern, '…'), line);

/** The same argv as the default presets, without MCP: this test is about the screen, not the wiring. */
const ARGV: Record<Vendor, string[]> = {
  claude: ['claude'],
  codex: ['codex', '--no-daemon'],
  opencode: ['opencode'],
};

for (const vendor of VENDORS) {
  const version = cliVersion(vendor);
  test(`${vendor} in a pane matches ${vendor} in a plain terminal`, { skip: version ? false : `${vendor} is not installed` }, async () => {
    const root = realpathSync(mkdtempSync('/tmp/patterm-vendor-tui-'));
    const project = join(root, 'project');
    mkdirSync(project);
    const server = await new FakeModelServer().start();
    const world = createVendorEnv(root, server.baseUrl, project);
    const processes = join(world.env.XDG_CONFIG_HOME, 'patterm', 'presets', 'processes');
    mkdirSync(processes, { recursive: true });
    writeFileSync(join(processes, `${vendor}.json`), JSON.stringify({ name: `${vendor}-plain`, argv: ARGV[vendor] }));
    const patterm = TmuxPatterm.start({ processPresets: {}, projectDir: project, env: world.env });
    const size = paneSizeFor(120, 40);
    let direct: DirectProgram | null = null;
    try {
      await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
      await patterm.runPalette(`${vendor}-plain`, `Run process: ${vendor}-plain`);
      direct = new DirectProgram(project, size.cols, size.rows, ARGV[vendor], world.env);
      await patterm.waitFor((lines) => READY[vendor].test(patterm.mainArea(lines).join('\n')), `${vendor} ready in patterm`, 90_000);
      await assertSameScreen(patterm, direct, 'at start-up', vendor, true, normalize(vendor));

      for (const target of [patterm, direct]) target.tmux('send-keys', '-l', 'hello there');
      await assertSameScreen(patterm, direct, 'with text in the input box', vendor, true, normalize(vendor));
      for (const target of [patterm, direct]) target.tmux('send-keys', 'Enter');
      await patterm.waitFor((lines) => READY[vendor].test(patterm.mainArea(lines).join('\n')) && patterm.mainArea(lines).some((line) => /hello there/.test(line)), `${vendor} to answer`, 90_000);
      await assertSameScreen(patterm, direct, 'after the reply', vendor, true, normalize(vendor));
    } finally {
      direct?.stop();
      patterm.stop();
      // patterm's SIGHUP cascade gives each pane a grace period; the CLIs write state files until they are gone.
      await eventually(() => patterm.markedProcesses().length === 0, 'the panes to end', 30_000).catch(() => undefined);
      await server.stop();
      // The CLIs may still be writing their state files as they exit.
      rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  });
}
