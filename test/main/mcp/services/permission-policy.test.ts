/**
 * The permission policy: how config.json's
 * "permissions" section is read, and, end to end through the real proxy, that
 * an approval it does not allow never reaches the child.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decideApproval, DEFAULT_DENY, parsePermissionPolicy } from '../../../../src/main/mcp/services/permission-policy.js';
import { loadConfig } from '../../../../src/main/tui/config.js';
import { startHarness, structured, textOf, type Connection } from '../helpers/mcp-harness.js';
import { expectScreen, literal } from '../helpers/screen.js';

const ALLOW_TOUCH = '^\\s*touch ';
const harness = await startHarness({ permissionPolicy: parsePermissionPolicy({ enabled: true, allow: [ALLOW_TOUCH] }).policy });

test('off unless the config turns it on; a broken entry is dropped and named, and a policy meant to be on stays on', async () => {
  assert.equal(parsePermissionPolicy(undefined).policy.enabled, false);
  const on = parsePermissionPolicy({ enabled: true, allow: ['^\\s*ls\\b', '('] });
  assert.equal(on.policy.enabled, true);
  assert.equal(on.policy.allow.length, 1);
  assert.equal(on.policy.deny.length, DEFAULT_DENY.length, 'deny defaults to the built-in list');
  assert.match(on.problems.join('\n'), /^permissions\.allow\.1: pattern "\(" is not a valid regular expression.*; this entry is ignored$/);
  const broken = parsePermissionPolicy({ enabled: true, allow: 'ls' });
  assert.equal(broken.policy.enabled, true);
  assert.deepEqual(broken.policy.allow, []);
  assert.match(broken.problems.join('\n'), /permissions\.allow: /);
  const dir = join(harness.root, 'config-check');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ keybindings: {}, permissions: { enabled: true, allow: ['^git status$'], deny: [] } }));
  const loaded = loadConfig(join(dir, 'config.json'));
  assert.deepEqual(loaded.ui.errors, []);
  assert.deepEqual(await decideApproval(loaded.permissions, 'Bash command\ngit status'), { allowed: true, reason: 'the dialog matches the allow pattern "^git status$"' });
  assert.equal(loadConfig(join(dir, 'missing.json')).permissions.enabled, false);
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ permissions: { enabled: true, allow: ['('] } }));
  assert.match(loadConfig(join(dir, 'config.json')).ui.errors.join('\n'), /^permissions\.allow\.0: /m, 'a broken policy entry is named among the config problems');
});

test('deny patterns come first, then allow; anything else is refused', async () => {
  const { policy } = parsePermissionPolicy({ enabled: true, allow: ['^\\s*(rm|ls)\\b'] });
  assert.equal((await decideApproval(policy, '  ls -la')).allowed, true);
  assert.match((await decideApproval(policy, '  rm -rf build')).reason, /deny pattern/);
  assert.deepEqual(await decideApproval(policy, '  make'), { allowed: false, reason: 'the dialog matches no allow pattern' });
  assert.equal((await decideApproval(parsePermissionPolicy({ enabled: false }).policy, 'rm -rf /')).allowed, true);
});

async function askToRun(mcp: Connection, command: string, name: string): Promise<string> {
  const spawned = await mcp.call('spawn_agent', { preset: 'dialog', initial_prompt: `run ${command}`, name });
  assert.equal(spawned.isError, undefined, textOf(spawned));
  const childId = structured<{ child_id: string }>(spawned).child_id;
  const waiting = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 60_000 });
  assert.equal(structured<{ matched: boolean }>(waiting).matched, true, textOf(waiting));
  return childId;
}

test('with the policy on, approving rm -rf is refused with a clear error, nothing is sent, and the child keeps waiting', async () => {
  const { token } = await harness.orchestrator();
  const mcp = await harness.connect(token);
  const victim = join(harness.projectDir, 'precious');
  mkdirSync(victim);
  const childId = await askToRun(mcp, `rm -rf ${victim}`, 'remover');
  const attention = new Promise<{ paneId: string; reason: string }>((resolve) => harness.mcp.onAttention(resolve));

  const refused = await mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  assert.equal(refused.isError, true);
  assert.match(textOf(refused), /^refused by the permission policy: the dialog matches the deny pattern .*Nothing was sent; remover \(child_id \w+\) keeps waiting\. Call request_human_attention/);
  assert.equal((await attention).paneId, childId, 'the child is highlighted in the TUI');
  // Keys typed by hand count as an approval too.
  const typed = await mcp.call('send_input', { child_id: childId, text: '1' });
  assert.equal(typed.isError, true);
  assert.match(textOf(typed), /^refused by the permission policy/);

  const still = await mcp.call('wait_for_state', { child_id: childId, states: ['waiting_permission'], timeout_ms: 0 });
  assert.equal(structured<{ state: string }>(still).state, 'waiting_permission');
  assert.equal(existsSync(victim), true);
  // Denying is always allowed.
  const denied = await mcp.call('send_input', { child_id: childId, answer: 'deny' });
  assert.equal(denied.isError, undefined, textOf(denied));
  await expectScreen(harness.coordinator, childId, `^denied: rm -rf ${literal(victim)}$`);
  assert.equal(existsSync(victim), true);
});

test('with the policy on, an allow-listed approval goes through', async () => {
  const { token } = await harness.orchestrator();
  const mcp = await harness.connect(token);
  const file = join(harness.projectDir, 'allowed.txt');
  const childId = await askToRun(mcp, `touch ${file}`, 'toucher');
  const approved = await mcp.call('send_input', { child_id: childId, answer: 'approve_once' });
  assert.equal(approved.isError, undefined, textOf(approved));
  await expectScreen(harness.coordinator, childId, `^ran: touch ${literal(file)} \\(exit 0\\)$`);
  assert.equal(existsSync(file), true);
});
