import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RETIRE_AFTER_EXIT_MS } from '../../../../src/main/panes/pane-retirement.js';
import { startHarness, structured, textOf } from '../helpers/mcp-harness.js';
import { answersMeanwhile, LONG_A_LINE, startBystanders } from '../helpers/meanwhile.js';
import { PATTERN_BUDGET_MS } from '../../../../src/node/pattern-matcher.js';

const harness = await startHarness();
const { token } = await harness.orchestrator();
const mcp = await harness.connect(token);

async function spawn(args: Record<string, unknown>): Promise<string> {
  const result = await mcp.call('spawn_process', args);
  assert.equal(result.isError, undefined, textOf(result));
  return structured<{ child_id: string }>(result).child_id;
}

async function waitFor(childId: string, pattern: string) {
  const result = await mcp.call('wait_for_pattern', { child_id: childId, pattern, timeout_seconds: 60 });
  assert.equal(structured<{ matched: boolean }>(result).matched, true, textOf(result));
}

interface GridResult {
  mode: string;
  content: string;
  active_screen: string;
  rows: number;
  cols: number;
  cursor: { x: number; y: number };
  idle_ms: number;
  screen_version: number;
  status: string;
  exit_code: number | null;
  changed_rows?: number[];
  changed_lines?: { row: number; text: string }[];
}

test('grid mode returns the visible screen as plain text, with the pane metadata', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'printf "\\033[31mred\\033[0m plain\\n"; printf "second line\\n"; exec sleep 60'] });
  await waitFor(id, 'second line');
  const result = await mcp.call('read_output', { child_id: id, mode: 'grid' });
  const grid = structured<GridResult>(result);
  assert.equal(grid.mode, 'grid');
  assert.equal(grid.content, 'red plain\nsecond line');
  assert.equal(grid.active_screen, 'primary');
  assert.deepEqual([grid.rows, grid.cols], [harness.coordinator.paneSize.rows, harness.coordinator.paneSize.cols]);
  assert.deepEqual([grid.cursor.x, grid.cursor.y], [0, 2]);
  assert.equal(grid.status, 'running');
  assert.equal(grid.exit_code, null);
  assert.equal(typeof grid.idle_ms, 'number');
  assert.ok(grid.screen_version > 0);
  // new_offset is the output head: a stream read from there returns nothing yet.
  const fromHead = structured<{ content: string; start_offset: number }>(await mcp.call('read_output', { child_id: id, mode: 'stream', since_offset: (grid as unknown as { new_offset: number }).new_offset }));
  assert.equal(fromHead.content, '');
  assert.ok(fromHead.start_offset > 0);
  assert.match(textOf(result), /^\[bash-\d+/);
  assert.match(textOf(result), /red plain\nsecond line$/);
  assert.doesNotMatch(textOf(result), /\x1b/);
});

test('grid since_version returns only the rows that changed', async () => {
  const id = await spawn({ argv: ['cat'] });
  await mcp.call('send_input', { child_id: id, text: 'alpha', submit: true });
  await waitFor(id, 'alpha\\nalpha');
  const first = structured<GridResult>(await mcp.call('read_output', { child_id: id }));
  await mcp.call('send_input', { child_id: id, text: 'beta', submit: true });
  await waitFor(id, 'beta\\nbeta');
  const diff = await mcp.call('read_output', { child_id: id, since_version: first.screen_version });
  const changed = structured<GridResult>(diff);
  assert.deepEqual(changed.changed_lines, [
    { row: 2, text: 'beta' },
    { row: 3, text: 'beta' },
  ]);
  assert.match(textOf(diff), /2 row\(s\) changed since screen_version \d+:\nrow 2: beta\nrow 3: beta/);
  const none = structured<GridResult>(await mcp.call('read_output', { child_id: id, since_version: changed.screen_version }));
  assert.deepEqual(none.changed_rows, []);
});

test('grid mode reports the alternate screen of full-screen programs', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'printf "\\033[?1049h\\033[Hfull screen app"; exec sleep 60'] });
  await waitFor(id, 'full screen app');
  const grid = structured<GridResult>(await mcp.call('read_output', { child_id: id }));
  assert.equal(grid.active_screen, 'alternate');
});

test('stream mode returns ANSI-stripped output since an offset, and new_offset continues it', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'printf "\\033[1mone\\033[0m\\ntwo\\n"; read; printf "three\\n"; exec sleep 60'] });
  await waitFor(id, 'two');
  const first = structured<{ content: string; new_offset: number; head_offset: number; more_output: boolean } & GridResult>(await mcp.call('read_output', { child_id: id, mode: 'stream' }));
  assert.equal(first.content, 'one\ntwo');
  assert.equal(first.new_offset, first.head_offset);
  assert.equal(first.more_output, false);
  assert.equal(first.active_screen, 'primary', 'stream reads carry the same metadata');
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'enter' });
  await waitFor(id, 'three');
  const next = structured<{ content: string; new_offset: number }>(await mcp.call('read_output', { child_id: id, mode: 'stream', since_offset: first.new_offset }));
  // The newline echoed by the terminal for Enter, then the new line.
  assert.equal(next.content.trim(), 'three');
  assert.ok(next.new_offset > first.new_offset);
});

test('stream mode filters lines by regex and pages with line_offset / line_limit', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'for i in $(seq 1 30); do if [ $((i % 3)) = 0 ]; then echo "ERROR $i"; else echo "info $i"; fi; done; exec sleep 60'] });
  await waitFor(id, 'info 29');
  const filtered = await mcp.call('read_output', { child_id: id, mode: 'stream', pattern: '^error', ignore_case: true });
  const all = structured<{ content: string; total_lines: number }>(filtered);
  assert.equal(all.total_lines, 10);
  assert.equal(all.content.split('\n')[0], 'ERROR 3');
  assert.match(textOf(filtered), /10 of 30 lines matched/);
  const page = structured<{ content: string; returned_lines: number }>(await mcp.call('read_output', { child_id: id, mode: 'stream', pattern: 'ERROR', line_offset: 2, line_limit: 3 }));
  assert.equal(page.content, 'ERROR 9\nERROR 12\nERROR 15');
  assert.equal(page.returned_lines, 3);
});

test('stream max_bytes bounds a read and new_offset pages through the rest', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'seq 1 1000; exec sleep 60'] });
  await waitFor(id, '^1000$');
  let offset = 0;
  const seen: string[] = [];
  for (let reads = 0; reads < 100; reads++) {
    const chunk = structured<{ content: string; new_offset: number; more_output: boolean }>(await mcp.call('read_output', { child_id: id, mode: 'stream', since_offset: offset, max_bytes: 1000 }));
    seen.push(chunk.content);
    offset = chunk.new_offset;
    if (!chunk.more_output) break;
  }
  assert.ok(seen.length > 3, 'took several reads');
  assert.deepEqual(seen.join('').split(/\n/).filter(Boolean).join(','), Array.from({ length: 1000 }, (_, i) => String(i + 1)).join(','));
});

test('a stream read never splits a multi-byte character', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'printf "ééééé\\n"; exec sleep 60'] });
  await waitFor(id, 'ééééé');
  // 'é' is two bytes: a 3-byte read must stop after one character, not in the middle of the second.
  const chunk = structured<{ content: string; new_offset: number }>(await mcp.call('read_output', { child_id: id, mode: 'stream', max_bytes: 3 }));
  assert.equal(chunk.content, 'é');
  assert.equal(chunk.new_offset, 2);
});

test('after a child exits, its final screen and exit code stay readable', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'echo last words; exit 7'] });
  const wait = structured<{ exited: boolean }>(await mcp.call('wait_for_pattern', { child_id: id, pattern: 'never-shown', timeout_seconds: 60 }));
  assert.equal(wait.exited, true);
  const grid = structured<GridResult>(await mcp.call('read_output', { child_id: id }));
  assert.equal(grid.content, 'last words');
  assert.equal(grid.status, 'exited');
  assert.equal(grid.exit_code, 7);
});

test("once an exited child's worker is retired, every read gives what it gave before", async () => {
  const script = 'for i in $(seq 1 120); do printf "\\033[3$((i % 7))mrow %d\\033[0m\\n" $i; done; echo all-printed; exit 3';
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', script] });
  await harness.coordinator.exitPromise(id);
  const reads = async () => ({
    grid: structured<GridResult & { history: string }>(await mcp.call('read_output', { child_id: id, mode: 'grid', history_lines: 200 })),
    styled: structured<GridResult & { history: string }>(await mcp.call('read_output', { child_id: id, mode: 'grid', history_lines: 200, styled: true })),
    stream: structured<{ content: string; new_offset: number }>(await mcp.call('read_output', { child_id: id, mode: 'stream', pattern: '^row 1[0-9]$' })),
    wait: structured<{ matched: boolean }>(await mcp.call('wait_for_pattern', { child_id: id, pattern: '^all-printed$', timeout_seconds: 5 })),
  });
  const live = await reads();
  assert.equal(harness.coordinator.workerRetired(id), false);
  harness.coordinator.retirement.afterExitMs = 0;
  try {
    // Retirement is scheduled at exit: a second child, exited after the change, shows it happening through MCP.
    const second = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', script] });
    await harness.coordinator.exitPromise(second);
    const deadline = Date.now() + 10_000;
    while (!harness.coordinator.workerRetired(second) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(harness.coordinator.workerRetired(second), true, 'retired');
    const frozenGrid = structured<GridResult & { history: string }>(await mcp.call('read_output', { child_id: second, mode: 'grid', history_lines: 200 }));
    assert.equal(frozenGrid.content, live.grid.content);
    assert.equal(frozenGrid.history, live.grid.history);
    assert.equal(frozenGrid.history.split('\n')[0], 'row 1', 'the whole history, from the first line');
    const frozenStyled = structured<GridResult & { history: string }>(await mcp.call('read_output', { child_id: second, mode: 'grid', history_lines: 200, styled: true }));
    assert.deepEqual([frozenStyled.content, frozenStyled.history], [live.styled.content, live.styled.history], 'styled reads too');
    assert.equal(frozenStyled.history.split('\n')[0], '\x1b[31mrow 1\x1b[0m');
    assert.deepEqual([frozenGrid.status, frozenGrid.exit_code], ['exited', 3]);
    const frozenStream = structured<{ content: string; new_offset: number }>(await mcp.call('read_output', { child_id: second, mode: 'stream', pattern: '^row 1[0-9]$' }));
    assert.deepEqual([frozenStream.content, frozenStream.new_offset], [live.stream.content, live.stream.new_offset]);
    assert.equal(structured<{ matched: boolean }>(await mcp.call('wait_for_pattern', { child_id: second, pattern: '^all-printed$', timeout_seconds: 5 })).matched, live.wait.matched);
  } finally {
    harness.coordinator.retirement.afterExitMs = RETIRE_AFTER_EXIT_MS;
  }
});

test('grid-only and stream-only arguments are not mixed up silently', async () => {
  const id = await spawn({ argv: ['sleep', '60'] });
  const wrong = await mcp.call('read_output', { child_id: id, mode: 'grid', since_offset: 5 });
  assert.equal(wrong.isError, true);
  assert.match(textOf(wrong), /since_offset only applies to mode "stream"; this read is mode "grid"/);
  const wrong2 = await mcp.call('read_output', { child_id: id, mode: 'stream', since_version: 5 });
  assert.match(textOf(wrong2), /since_version only applies to mode "grid"/);
});

test('a large stream read (decoded off the coordinator thread) is complete and filtered', async () => {
  // seq 1 40000 writes ~229 KB: past the size where decoding moves to the CPU pool.
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'seq 1 40000; exec sleep 60'] });
  await waitFor(id, '^40000$');
  const read = structured<{ content: string; total_lines: number; more_output: boolean }>(
    await mcp.call('read_output', { child_id: id, mode: 'stream', max_bytes: 1024 * 1024, pattern: '^(1|20000|40000)$' }),
  );
  assert.equal(read.total_lines, 3);
  assert.equal(read.content, '1\n20000\n40000');
  assert.equal(read.more_output, false);
});

test('history_lines returns the rendered lines that scrolled off the top, oldest first, and never the screen twice', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'for i in $(seq 1 120); do printf "\\033[3$((i % 7))mrow %d\\033[0m\\n" $i; done; echo all-printed; exec sleep 60'] });
  await waitFor(id, 'all-printed');
  const screen = structured<GridResult & { history: string; history_lines: number }>(await mcp.call('read_output', { child_id: id, mode: 'grid', history_lines: 30 }));
  const firstOnScreen = Number(/^row (\d+)$/m.exec(screen.content)?.[1]);
  assert.ok(firstOnScreen > 31, `the screen starts at row ${firstOnScreen}`);
  assert.equal(screen.history_lines, 30);
  assert.deepEqual(screen.history.split('\n'), Array.from({ length: 30 }, (_, i) => `row ${firstOnScreen - 30 + i}`), 'the 30 lines just above the screen, colours stripped');

  const all = structured<{ history: string; history_lines: number }>(await mcp.call('read_output', { child_id: id, mode: 'grid', history_lines: 5000 }));
  const lines = all.history.split('\n');
  assert.equal(lines[0], 'row 1', 'the whole scrollback, from the first line');
  assert.equal(lines.at(-1), `row ${firstOnScreen - 1}`);
  assert.equal(all.history_lines, firstOnScreen - 1);

  const text = textOf(await mcp.call('read_output', { child_id: id, mode: 'grid', history_lines: 2 }));
  assert.match(text, new RegExp(`\\[2 line\\(s\\) above the screen\\]\\nrow ${firstOnScreen - 2}\\nrow ${firstOnScreen - 1}\\n\\[the screen\\]\\n`));

  const misplaced = await mcp.call('read_output', { child_id: id, mode: 'stream', history_lines: 10 });
  assert.equal(misplaced.isError, true);
  assert.match(textOf(misplaced), /history_lines only applies to mode "grid"/);
});

test('history_lines on a screen with nothing above it returns no history', async () => {
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', 'echo just-one-line; exec sleep 60'] });
  await waitFor(id, 'just-one-line');
  const grid = structured<{ history: string; history_lines: number; content: string }>(await mcp.call('read_output', { child_id: id, mode: 'grid', history_lines: 50 }));
  assert.equal(grid.history_lines, 0);
  assert.equal(grid.history, '');
  assert.equal(grid.content, 'just-one-line');
});

test('a polynomial stream filter is stopped and named; meanwhile a quiet pane and another agent answer', async () => {
  const childId = await spawn({ argv: ['sh', '-c', `echo ${LONG_A_LINE}; echo printed; exec cat`] });
  await waitFor(childId, '^printed$');
  const bystanders = await startBystanders(harness);
  const pending = mcp.call('read_output', { child_id: childId, mode: 'stream', pattern: '.*.*.*.*X' });
  const result = await answersMeanwhile(harness, bystanders, pending);
  assert.equal(result.isError, true);
  assert.match(textOf(result), new RegExp(`^pattern: "\\.\\*\\.\\*\\.\\*\\.\\*X" took longer than ${PATTERN_BUDGET_MS} ms to match and was stopped`));
});

test('a line_offset past the last line says so instead of a backwards range', async () => {
  const childId = await spawn({ argv: ['sh', '-c', 'printf "one\\ntwo\\n"; exec cat'] });
  await waitFor(childId, 'two');
  const text = textOf(await mcp.call('read_output', { child_id: childId, mode: 'stream', line_offset: 5 }));
  assert.match(text, /line_offset 5 is past the last of 2 lines/);
  assert.doesNotMatch(text, /lines 5\.\.4/);
});

test('a since_version newer than the screen is refused, naming the current one', async () => {
  const childId = await spawn({ argv: ['sh', '-c', 'echo versioned; exec cat'] });
  await waitFor(childId, 'versioned');
  const result = await mcp.call('read_output', { child_id: childId, since_version: 10_000_000 });
  assert.equal(result.isError, true);
  assert.match(textOf(result), /since_version 10000000 is newer than this screen's version \(\d+\)/);
});

test('styled: true returns each grid line with SGR sequences, with since_version and history_lines too', async () => {
  const script = 'for i in 1 2 3; do printf "\\033[3${i}mold %d\\033[0m\\n" $i; done; seq 1 60 | tr -d 0-9; printf "\\033[H\\033[J\\033[1;31merror\\033[0m: \\033[44m bar \\033[0m\\nplain\\n"; read; printf "\\033[7mselected\\033[0m\\n"; exec sleep 60';
  const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', script] });
  await waitFor(id, '^plain$');
  const first = structured<GridResult & { history: string }>(await mcp.call('read_output', { child_id: id, styled: true, history_lines: 200 }));
  assert.equal(first.content, '\x1b[1;31merror\x1b[0m: \x1b[44m bar \x1b[0m\nplain');
  assert.deepEqual(first.history.split('\n').slice(0, 4), ['\x1b[31mold 1\x1b[0m', '\x1b[32mold 2\x1b[0m', '\x1b[33mold 3\x1b[0m', '']);
  const plain = structured<GridResult>(await mcp.call('read_output', { child_id: id }));
  assert.equal(plain.content, 'error:  bar\nplain', 'the plain form stays the default');
  await mcp.call('send_input', { child_id: id, kind: 'key', key: 'enter' });
  await waitFor(id, '^selected$');
  const changed = structured<GridResult>(await mcp.call('read_output', { child_id: id, styled: true, since_version: first.screen_version }));
  assert.deepEqual(changed.changed_lines?.find((line) => line.text.includes('selected')), { row: 3, text: '\x1b[7mselected\x1b[0m' });
  const misplaced = await mcp.call('read_output', { child_id: id, mode: 'stream', styled: true });
  assert.match(textOf(misplaced), /styled only applies to mode "grid"/);
});

test("cursor.text_index is the cursor's index in its line's text, past wide characters and graphemes", async () => {
  const cases: [string, { x: number; text_index: number }][] = [
    ['日本👍🏽é', { x: 9, text_index: 7 }], // two CJK (2 cells, 1 unit each), a skin-toned emoji (4 cells, 4 units), é (1 and 1)
    ['日本語\\b', { x: 5, text_index: 2 }], // on the right half of 語: its index
    ['ab  ', { x: 4, text_index: 4 }], // past the trimmed text: one per blank column
  ];
  for (const [text, expected] of cases) {
    const id = await spawn({ argv: ['bash', '--norc', '--noprofile', '-c', `printf '${text}'; exec sleep 60`] });
    await waitFor(id, text.slice(0, 2));
    const grid = structured<GridResult & { cursor: { text_index: number } }>(await mcp.call('read_output', { child_id: id }));
    assert.deepEqual({ x: grid.cursor.x, text_index: grid.cursor.text_index }, expected, text);
  }
});
