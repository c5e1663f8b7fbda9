/**
 * What an orchestrator does shows up in the TUI, in a real terminal (tmux).
 * The orchestrator is the fake agent CLI (test/fixtures/fake-agent.ts) wired
 * to patterm's MCP server exactly as Claude Code is; it calls a tool for every
 * submitted line of the form `/call <tool> <json>`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TmuxPatterm, BASH_PRESET, FAKE_AGENT_PRESET } from './tmux-harness.js';
import { dialogAgentPreset } from '../../fixtures/fake-agent-presets.js';

async function withOrchestrator(run: (p: TmuxPatterm) => Promise<void>, config?: string): Promise<void> {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET }, agentPresets: { fake: FAKE_AGENT_PRESET, dialog: dialogAgentPreset() }, config });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('spawn agent fake', 'Spawn agent: fake');
    await patterm.waitFor(/Initial prompt for fake/, 'the initial-prompt sub-palette');
    patterm.keys('Enter'); // no initial prompt
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.startsWith('mcp| connected')), 'the agent to connect to MCP');
    await patterm.waitFor((lines) => patterm.mainArea(lines).some((line) => line.startsWith('ready>')), 'the agent prompt');
    await run(patterm);
  } finally {
    patterm.stop();
  }
}

/** Types a tool call into the (focused) orchestrator and waits for its result line. */
function call(patterm: TmuxPatterm, tool: string, args: unknown, outcome: 'result' | 'error' = 'result'): Promise<string> {
  return patterm.callTool(tool, args, outcome);
}

function childIdFrom(result: string): string {
  const match = /child_id ([A-Za-z0-9-]+)/.exec(result);
  assert.ok(match, `no child id in ${result}`);
  return match[1];
}

test('a scratchpad an agent writes over MCP appears in the rail, with a preview that follows later writes', () =>
  withOrchestrator(async (patterm) => {
    await call(patterm, 'scratchpad_write', { name: 'plan.md', content: '# Plan\nfirst step' });
    // "first step" also shows in the orchestrator's own pane (its /call echo), so wait on the rail.
    const railOf = (l: string[]) => l.map((line) => line.slice(line.indexOf('│') + 1));
    let lines = await patterm.waitFor(
      (l) => railOf(l).some((line) => /┌─* plan\.md /.test(line.trim())) && railOf(l).some((line) => line.includes('first step')),
      'the preview',
    );
    const rail = railOf(lines);
    const heading = rail.findIndex((line) => line.trim() === 'Scratchpads');
    assert.ok(heading > 0, 'the scratchpad heading');
    assert.ok(rail.slice(heading).some((line) => line.trim() === 'plan.md'), 'plan.md listed under it');
    assert.ok(rail.some((line) => /┌─* plan\.md /.test(line.trim())), 'a preview box titled plan.md');

    await call(patterm, 'scratchpad_append', { name: 'plan.md', content: '\nsecond step' });
    lines = await patterm.waitFor((l) => l.some((line) => line.includes('second step')), 'the preview to update');
    assert.ok(lines.some((line) => line.includes('first step')));
  }));

test('a child the orchestrator spawns is orchestrator-owned; a keypress takes it; an orchestrator write then warns', () =>
  withOrchestrator(async (patterm) => {
    const spawned = await call(patterm, 'spawn_agent', { preset: 'fake', name: 'kid', initial_prompt: 'hello kid' });
    const childId = childIdFrom(spawned);
    let lines = await patterm.waitFor((l) => l.some((line) => line.includes('└─ ◉ kid')), 'the child in the tree');
    assert.ok(patterm.mainArea(lines).some((line) => line.startsWith('result| spawn_agent')), 'focus stayed on the orchestrator');

    // The orchestrator waits until the user has typed into the child, then writes to it.
    patterm.paste(
      [
        `/call wait_for_pattern ${JSON.stringify({ child_id: childId, pattern: 'typed-by-user', timeout_seconds: 120 })}`,
        `/call send_input ${JSON.stringify({ child_id: childId, kind: 'text', text: 'from-orchestrator' })}`,
      ].join('\n'),
    );
    await patterm.waitFor(/pasted 2 lines/, 'the paste to land in the orchestrator');
    patterm.keys('Enter');

    const row = lines.findIndex((line) => line.includes('└─ ◉ kid'));
    patterm.click(lines[row].lastIndexOf('kid'), row); // the rail is the right-most part of the row
    lines = await patterm.waitFor((l) => patterm.mainArea(l).some((line) => line.includes('got| hello kid')), 'the child focused');
    assert.match(lines[lines.length - 1], /orchestrator driving/);

    patterm.type('typed-by-user');
    lines = await patterm.waitFor((l) => /Orchestrator is also driving this pane/.test(l[l.length - 1]), 'the contention toast');
    assert.match(lines[lines.length - 1], /you have control/);
    await patterm.waitFor((l) => patterm.mainArea(l).some((line) => line.includes('typed-by-userfrom-orchestrator')), 'both writers\' bytes, interleaved');
  }));

test('request_human_attention blinks the tree entry and shows a notification until the pane is focused', () =>
  withOrchestrator(async (patterm) => {
    const childId = childIdFrom(await call(patterm, 'spawn_process', { argv: ['sh', '-c', 'echo child-up; exec sleep 600'] }));
    await call(patterm, 'request_human_attention', { child_id: childId, reason: 'approve the deploy?' });
    const lines = await patterm.waitFor((l) => /needs you: approve the deploy\?/.test(l[l.length - 1]), 'the notification');
    const row = lines.findIndex((line) => /└─ ◉ sh.* !/.test(line));
    assert.ok(row > 0, 'the tree entry is marked');
    // Blinking: the entry's style alternates while the request is open.
    const styles = new Set<string>();
    await patterm.waitFor(() => {
      styles.add(patterm.styledScreen()[row].split('│').slice(-1)[0]);
      return styles.size >= 2;
    }, 'the entry to blink');

    patterm.click(lines[row].lastIndexOf('sh-'), row);
    await patterm.waitFor((l) => patterm.mainArea(l).includes('child-up') && !/needs you/.test(l[l.length - 1]), 'focus to clear the request');
  }));

test('a child in a permission dialog shows ✋ in the tree; with the policy on, a refused approval asks for the user', () =>
  withOrchestrator(async (patterm) => {
    const childId = childIdFrom(await call(patterm, 'spawn_agent', { preset: 'dialog', name: 'asker', initial_prompt: 'run rm -rf precious' }));
    await patterm.waitFor((l) => l.some((line) => line.includes('└─ ✋ asker')), 'the needs-you glyph on the child');
    await call(patterm, 'send_input', { child_id: childId, answer: 'approve_once' }, 'error');
    const lines = await patterm.waitFor((l) => /needs you: approval refused by the permission policy/.test(l[l.length - 1]), 'the status line');
    assert.ok(lines.some((line) => /└─ ✋ asker.* !/.test(line)), 'the entry is marked for the user');
  }, JSON.stringify({ permissions: { enabled: true, allow: ['^\\s*ls\\b'] } })));

test('with attention.autoFocus in config.json, a request for attention focuses the pane', () =>
  withOrchestrator(async (patterm) => {
    const childId = childIdFrom(await call(patterm, 'spawn_process', { argv: ['sh', '-c', 'echo auto-focused-child; exec sleep 600'] }));
    assert.ok(!patterm.mainArea().includes('auto-focused-child'), 'an orchestrator-spawned child does not take focus');
    patterm.type(`/call request_human_attention ${JSON.stringify({ child_id: childId, reason: 'look here' })}`);
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l).includes('auto-focused-child'), 'the child focused by the request');
  }, JSON.stringify({ attention: { autoFocus: true } })));

test('an agent preset takes an optional initial prompt from its sub-palette; Kill child… ends a child', async () => {
  const patterm = TmuxPatterm.start({ processPresets: { bash: BASH_PRESET }, agentPresets: { fake: FAKE_AGENT_PRESET } });
  try {
    await patterm.waitFor(/Press Ctrl-K/, 'the empty state');
    await patterm.runPalette('spawn agent fake', 'Spawn agent: fake');
    await patterm.waitFor(/Initial prompt for fake/, 'the initial-prompt sub-palette');
    patterm.type('first task from the user');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => patterm.mainArea(lines).includes('got| first task from the user'), 'the prompt typed and submitted once the agent was ready');

    await patterm.runPalette('in fake bash', 'Run process in fake: bash');
    await patterm.waitFor((lines) => lines.some((line) => line.includes('└─ ◉ bash')), 'the child running');
    await patterm.runPalette('kill', 'Kill child…');
    await patterm.waitFor(/Kill child…/, 'the kill list');
    patterm.type('bash');
    patterm.keys('Enter');
    await patterm.waitFor((lines) => lines.some((line) => /└─ ✗ bash SIGHUP/.test(line)), 'the child killed (interactive bash ignores SIGTERM, so it is hung up, as a closed terminal would be), marked ✗ with its signal');
  } finally {
    patterm.stop();
  }
});

test('kill with close takes an exited child out of the tree, even while the user is looking at it', () =>
  withOrchestrator(async (patterm) => {
    const spawned = await call(patterm, 'spawn_process', { argv: ['sh', '-c', 'echo build-finished; exit 0'], name: 'build' });
    const childId = childIdFrom(spawned);
    await patterm.waitFor((l) => l.some((line) => line.includes('└─ ✓ build')), 'the child exited, marked ✓');

    // The orchestrator waits on another child for a few seconds, then closes the first; meanwhile the user looks at it.
    const clock = childIdFrom(await call(patterm, 'spawn_process', { argv: ['sh', '-c', 'sleep 8; echo go; exec sleep 600'], name: 'clock' }));
    patterm.paste(
      [`/call wait_for_pattern ${JSON.stringify({ child_id: clock, pattern: '^go', timeout_seconds: 60 })}`, `/call kill ${JSON.stringify({ child_id: childId, close: true })}`].join('\n'),
    );
    await patterm.waitFor(/pasted 2 lines/, 'the paste to land in the orchestrator');
    patterm.keys('Enter');
    await patterm.runPalette('focus pane', 'Focus pane…');
    await patterm.waitFor(/Focus pane…/, 'the pane list');
    patterm.type('build');
    patterm.keys('Enter');
    await patterm.waitFor((l) => patterm.mainArea(l).some((line) => line.includes('build-finished')), 'the exited child shown');

    const lines = await patterm.waitFor(
      (l) => !l.some((line) => line.includes('✓ build')) && patterm.mainArea(l).some((line) => line.includes('Closed: it is no longer among')),
      'the child gone from the tree and the orchestrator shown again, with the kill result',
    );
    assert.ok(!patterm.mainArea(lines).some((line) => line.includes('build-finished') && !line.includes('/call')), 'the closed pane is no longer on screen');
  }));

/**
 * Paints row numbers down the left edge and "|" in the last column of every row, at whatever size its
 * terminal has, and again on every SIGWINCH: a child resized behind its back would show it.
 */
const EDGES =
  'draw() { eval $(stty size | awk \'{print "R="$1" C="$2}\'); printf "\\033[2J"; i=1; while [ $i -le $R ]; do printf "\\033[$i;1Hr$i\\033[$i;${C}H|"; i=$((i+1)); done; };' +
  ' trap draw WINCH; draw; while :; do sleep 600 & wait $!; done';

test('a child with its own size is letterboxed or clipped in the main area, and keeps its size when patterm is resized', () =>
  withOrchestrator(async (patterm) => {
    await call(patterm, 'spawn_process', { argv: ['bash', '-c', EDGES], name: 'small', cols: 30, rows: 5 });
    await call(patterm, 'spawn_process', { argv: ['bash', '-c', EDGES], name: 'big', cols: 300, rows: 100 });
    const focus = async (name: string) => {
      await patterm.runPalette('focus pane', 'Focus pane…');
      await patterm.waitFor(/Focus pane…/, 'the pane list');
      patterm.type(name);
      patterm.keys('Enter');
    };
    const smallRows = Array.from({ length: 5 }, (_, i) => `r${i + 1}`.padEnd(29) + '|');
    const letterboxed = (main: string[]) => smallRows.every((row, i) => main[i] === row) && main.slice(5).every((line) => line === '');

    await focus('small');
    await patterm.waitFor((l) => letterboxed(patterm.mainArea(l)), 'the 30x5 child in the top-left corner, blank around it');

    await focus('big');
    const main = patterm.mainArea(await patterm.waitFor((l) => patterm.mainArea(l).includes('r100'), 'the 300x100 child'));
    // Clipped: the rows up to the cursor's (the last) in view, none of them reaching the last column.
    assert.deepEqual(main, Array.from({ length: main.length }, (_, i) => `r${100 - main.length + 1 + i}`));

    patterm.resize(100, 30);
    await focus('small');
    await patterm.waitFor((l) => letterboxed(patterm.mainArea(l)), 'the child at 30x5 still, after patterm was resized');
  }));
